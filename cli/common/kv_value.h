/* One metadata value (a scalar, or one element of an array): read through the typed getters into
 * a small tagged form, so that renderers switch on six kinds instead of thirteen wire types, and
 * rendered as text (escaped, cut) or as JSON (exact integers, round-trip floats). */
#ifndef GGUFSAFE_CLI_KV_VALUE_H
#define GGUFSAFE_CLI_KV_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"
#include "json_writer.h"
#include "text_out.h"

typedef enum cli_value_kind {
    CLI_VALUE_UNSIGNED, /* u8, u16, u32, u64 */
    CLI_VALUE_SIGNED,   /* i8, i16, i32, i64 */
    CLI_VALUE_F32,
    CLI_VALUE_F64,
    CLI_VALUE_BOOL,
    CLI_VALUE_STRING
} cli_value_kind;

typedef struct cli_value {
    cli_value_kind kind;
    union {
        uint64_t u;
        int64_t i;
        float f32;
        double f64;
        bool b;
        gs_str s; /* points into the file: escape before printing */
    } as;
} cli_value;

/* The scalar KV at index (its type must not be GS_VALUE_ARRAY). */
gs_status cli_read_scalar(const gs_file *file, size_t index, gs_value_type type, cli_value *out);

/* Element i of the array KV at index, whose element type is elem. */
gs_status cli_read_element(const gs_file *file, size_t index, gs_value_type elem, uint64_t i,
                           cli_value *out);

/* As text: numbers in full, strings escaped and cut to max_src bytes with an ellipsis. */
void cli_value_text(const cli_value *v, cli_text *out, size_t max_src);

/* As a JSON value. */
void cli_value_json(const cli_value *v, cli_json *j);

#endif
