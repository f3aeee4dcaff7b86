/* The roll-ups of `ggufsafe diff`: the compared tensors grouped by role (the name without its
 * "blk.N."), by layer ("blk.N") and by the candidate's type, and over the whole file, each with
 * the candidate's bits per weight next to its error (how quant formats are compared). Errors
 * are pooled over the group: NMSE = total SSE / total reference energy, RMSE from the total SSE,
 * max_abs the largest, the cosine weighted by element count. */
#ifndef GGUFSAFE_CLI_DIFF_ROLLUP_H
#define GGUFSAFE_CLI_DIFF_ROLLUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diff_match.h"
#include "diff_metrics.h"
#include "ggufsafe.h"

typedef struct diff_stats {
    uint64_t tensors, elements, bytes, n_finite, nonfinite_mismatches;
    double sse, energy_a, weighted_cosine, max_abs;
} diff_stats;

void diff_stats_add(diff_stats *s, const diff_metrics *m, uint64_t bytes);
double diff_stats_nmse(const diff_stats *s);   /* +Infinity with a non-finite mismatch */
double diff_stats_rmse(const diff_stats *s);
double diff_stats_cosine(const diff_stats *s); /* 1 for no elements */
double diff_stats_bpw(const diff_stats *s);    /* bytes * 8 / elements; 0 for no elements */

/* B's NMSE against A's, three-way: 1 when equal (0 and 0, Infinity and Infinity), +Infinity
 * when only A's is 0; and their difference, 0 when equal. Never NaN. */
double diff_nmse_ratio(double base, double cand);
double diff_nmse_increase(double base, double cand);

/* "blk.N.<role>": *layer the "blk.N" bytes, *n its number, *role the rest; false for any other
 * name (its role is then the whole name). N is 1 to 9 decimal digits; the role is not empty. */
bool diff_split_name(gs_str name, gs_str *layer, uint64_t *n, gs_str *role);

enum { DIFF_BY_ROLE, DIFF_BY_LAYER, DIFF_BY_TYPE, DIFF_GROUPINGS };

typedef struct diff_group {
    gs_str name;            /* role or layer bytes (of a tensor name), or the type's name */
    uint64_t layer;
    int32_t type, base_type;
    size_t first;           /* the first member's row, for the order of groups */
    diff_stats s, base;     /* the candidate, and the baseline (three-way) */
} diff_group;

typedef struct diff_rollups {
    diff_group *groups[DIFF_GROUPINGS];
    size_t n[DIFF_GROUPINGS];
    diff_group total;
} diff_rollups;

/* Groups the rows whose candidate pair (pairs->items[i]) is compared, and, with base (three-way,
 * rows 0..rows-1 shared), whose baseline pair is compared too. GS_OK or GS_E_NO_MEMORY. */
gs_status diff_rollups_build(const diff_pairs *pairs, const diff_pairs *base, size_t rows,
                             diff_rollups *out);
void diff_rollups_free(diff_rollups *r);

/* The word a grouping is named by in reports: "role", "layer", "type" ("total" past them, the
 * whole-file row). */
const char *diff_grouping_name(int grouping);
/* Three-way: the group's candidate NMSE against its baseline's (diff_nmse_ratio). */
double diff_group_nmse_ratio(const diff_group *g);

#endif
