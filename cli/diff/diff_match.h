/* The tensor half of `ggufsafe diff`, first step: which tensor of A goes with which of B. Every
 * tensor of A (file order, parts in order) is looked up by exact name in B (one O(1) lookup in
 * B's file or set index, cli_source_find_tensor); then the tensors of B that A lacks follow in
 * B's order. O(T_A + T_B) lookups whatever the number of parts. The name filter (--tensor and
 * --exclude, name_filter.h) keeps the same names on both sides. */
#ifndef GGUFSAFE_CLI_DIFF_MATCH_H
#define GGUFSAFE_CLI_DIFF_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "cli_source.h"
#include "diff_metrics.h"
#include "ggufsafe.h"
#include "name_filter.h"

typedef enum diff_pair_kind {
    DIFF_PAIR_COMPARED,       /* in both, same shape, both types decodable to f32 */
    DIFF_PAIR_NOT_DECODABLE,  /* in both, same shape, a type without an f32 form (i8..i64, f64) */
    DIFF_PAIR_SHAPE_MISMATCH, /* in both with different ne[0..3] (an error) */
    DIFF_PAIR_ONLY_A,
    DIFF_PAIR_ONLY_B
} diff_pair_kind;

typedef struct diff_side {
    const gs_file *file;      /* NULL on the side where the tensor is absent */
    size_t index;
} diff_side;

typedef struct diff_pair {
    diff_pair_kind kind;
    diff_side a, b;
    /* Compared pairs, filled by diff_compare_pairs. */
    gs_status status;         /* GS_OK, or why decoding failed */
    char failed_side;         /* 'A' or 'B' when status is not GS_OK */
    diff_metrics m;
} diff_pair;

typedef struct diff_pairs {
    diff_pair *items;
    size_t n, cap;
    size_t count[DIFF_PAIR_ONLY_B + 1]; /* pairs of each kind */
    size_t tensors_a, tensors_b;        /* tensors of each file that the filter kept */
} diff_pairs;

/* Fills out. filter may be NULL (every tensor). Returns GS_OK or GS_E_NO_MEMORY. */
gs_status diff_match(const cli_source *a, const cli_source *b, const cli_name_filter *filter,
                     diff_pairs *out);
void diff_pairs_free(diff_pairs *p);

/* The tensor's info; the pair's side must be present. */
void diff_side_info(const diff_side *s, gs_tensor_info *out);

#endif
