/* The metadata half of `ggufsafe diff`: keys only in A, only in B, and present in both with a
 * different value. Two values are the same when they have the same type (element type and count
 * for arrays) and the same wire bytes, so a NaN payload or a lenient bool byte counts too. For a
 * changed array of one element type, the first element that differs is located. */
#ifndef GGUFSAFE_CLI_DIFF_META_H
#define GGUFSAFE_CLI_DIFF_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"

typedef enum diff_kv_kind {
    DIFF_KV_ONLY_A,
    DIFF_KV_ONLY_B,
    DIFF_KV_CHANGED
} diff_kv_kind;

typedef struct diff_kv {
    diff_kv_kind kind;
    size_t ia, ib;          /* KV indexes in A's and B's metadata file (as far as present) */
    bool has_first_diff;    /* changed arrays of one element type */
    uint64_t first_diff;    /* element index; the shorter count when one is a prefix */
} diff_kv;

typedef struct diff_kv_list {
    diff_kv *items;         /* only in A (A's order), only in B (B's order), changed (A's order) */
    size_t n, cap;
    size_t only_a, only_b, changed;
} diff_kv_list;

/* Compares the metadata of a and b: the file, or the first part of a split set (which holds
 * the model's metadata). The bookkeeping keys of a side opened as a split set (split.no,
 * split.count, split.tensors.count) are left out: they describe the split, not the model.
 * Returns GS_OK, or the status of a failed read (GS_E_TRUNCATED when a file shrank). */
gs_status diff_metadata(const gs_file *a, bool a_split, const gs_file *b, bool b_split,
                        diff_kv_list *out);
void diff_kv_list_free(diff_kv_list *l);

#endif
