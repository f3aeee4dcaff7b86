/* The values a version 2 manifest records beside each key-value's digest (manifest_value.c
 * documents the form), and what verify says of a changed one. */
#ifndef GGUFSAFE_MANIFEST_VALUE_H
#define GGUFSAFE_MANIFEST_VALUE_H

#include <stdbool.h>
#include <stddef.h>

#include "ggufsafe.h"
#include "text_out.h"

#define MF_VALUE_STRING_MAX 64u /* bytes of a string kept (cut where a character starts) */
#define MF_VALUE_ELEMENTS 32u   /* elements of an array listed */
/* The longest value field: the array header and every listed element's item fully escaped. */
#define MF_VALUE_MAX_LINE (64u + MF_VALUE_ELEMENTS * (4u * MF_VALUE_STRING_MAX + 2u))

/* The value fields of key-value index of f ("u32 =4096", "array i32 3 =1,=2,=3"), allocated;
 * NULL when out of memory or the value cannot be read. */
char *mf_kv_value(const gs_file *f, size_t index);

/* NULL when the n (2 or 4) fields f form a value as mf_kv_value writes it, else the reason. */
const char *mf_value_check(char *const *f, int n);

typedef struct mf_value_diff {
    char detail[96];               /* "value", "element 17", "count 3 -> 4", "type u32 -> i32" */
    bool has_values;               /* old_text and new_text say what changed */
    char old_text[CLI_TEXT_BUF + 8]; /* escaped for a terminal, strings in double quotes */
    char new_text[CLI_TEXT_BUF + 8];
} mf_value_diff;

/* What differs between two values mf_value_check accepted; false when out of memory. */
bool mf_value_change(const char *old_value, const char *new_value, mf_value_diff *out);

#endif
