/* What `ggufsafe diff` found, ready to render as text (diff_text.c), JSON (diff_json.c,
 * conformance/schema/diff.schema.json): the pairs and their metrics, the
 * metadata differences, the roll-ups, the worst blocks, and the CI gate (diff_gate.c). A
 * three-way report (REF, A, B) holds B's comparison with REF where a two-way one holds B's with
 * A, and A's comparison with REF beside it. */
#ifndef GGUFSAFE_CLI_DIFF_REPORT_H
#define GGUFSAFE_CLI_DIFF_REPORT_H

#include <stdbool.h>

#include "cli_source.h"
#include "diff_match.h"
#include "diff_meta.h"
#include "diff_metrics.h"
#include "diff_rollup.h"
#include "ggufsafe.h"
#include "ggufsafe_diff.h"
#include "out.h"

typedef struct diff_thresholds {
    bool has_max_nmse, has_max_abs, has_min_cos;
    double max_nmse, max_abs, min_cos;
    bool has_max_ratio, has_max_increase; /* three-way */
    double max_ratio, max_increase;
} diff_thresholds;

/* Bits of diff_exceeds (the public GS_DIFF_EXCEEDS_*). */
#define DIFF_EXCEEDS_NMSE GS_DIFF_EXCEEDS_NMSE /* nmse > max_nmse */
#define DIFF_EXCEEDS_ABS GS_DIFF_EXCEEDS_ABS   /* max_abs > max_abs threshold */
#define DIFF_EXCEEDS_COS GS_DIFF_EXCEEDS_COS   /* cosine < min_cos, or NaN */
#define DIFF_EXCEEDS_RATIO GS_DIFF_EXCEEDS_NMSE_RATIO
#define DIFF_EXCEEDS_INCREASE GS_DIFF_EXCEEDS_NMSE_INCREASE

/* The two-file thresholds m breaks. */
unsigned diff_exceeds(const diff_thresholds *th, const diff_metrics *m);
/* The three-way rules the candidate's nmse breaks against the baseline's. */
unsigned diff_exceeds_baseline(const diff_thresholds *th, const diff_metrics *base,
                               const diff_metrics *cand);

/* The gate's rules beyond the thresholds (ggufsafe_diff.h, gs_diff_options). */
typedef struct diff_rules {
    bool allow_missing, allow_extra, fail_on_metadata;
    cli_name_filter keys;   /* fail_on_keys as include, ignore_keys as exclude (owned copies) */
} diff_rules;

/* The gate's rule numbers are the public gs_diff_rule. */
#define DIFF_RULES (GS_DIFF_RULE_METADATA + 1)

typedef struct diff_failure {
    gs_diff_rule rule;
    size_t index;           /* into pairs, or into kvs for GS_DIFF_RULE_METADATA */
    double value, limit;    /* the threshold rules */
} diff_failure;

typedef struct diff_gate {
    bool active;            /* a threshold or a metadata rule */
    diff_failure *items;    /* tensors in list order, then metadata */
    size_t n, cap;
    size_t count[DIFF_RULES];
} diff_gate;

/* One of the worst blocks of the whole comparison, with its values. */
typedef struct diff_worst {
    size_t pair;            /* in pairs */
    diff_block_err e;
    uint32_t block_elems, n;
    uint64_t first;         /* its first element */
    float *ref, *cand;      /* n values each (owned) */
    float *base;            /* three-way, when A's tensor was compared; NULL otherwise */
    double base_rmse, base_max_abs;
} diff_worst;

/* One side as opened (the public gs_diff_input). */
struct gs_diff_input {
    cli_source src;
    gs_options opts; /* what it was opened with: the report header says so */
    char *path;      /* as given */
};

typedef struct diff_report {
    bool three_way;
    const char *path_a, *path_b; /* the reference and the candidate (REF and B in three-way) */
    const char *path_base;       /* three-way: the baseline A */
    const cli_source *a, *b, *base;
    const gs_options *opts;
    diff_thresholds th;
    diff_rules rules;
    cli_name_filter filter; /* the tensor patterns (owned copies), named by the reports */
    diff_kv_list kvs;       /* a against b */
    diff_kv_list base_kvs;  /* three-way: a against base */
    diff_pairs pairs;       /* a against b; compared pairs hold their metrics */
    diff_pairs base_pairs;  /* three-way: a against base */
    size_t base_rows;       /* three-way: the rows pairs and base_pairs share (REF's tensors) */
    diff_total total;       /* over the compared pairs, in list order */
    size_t failing;         /* compared pairs with diff_exceeds (or the three-way rules) != 0 */
    diff_rollups rollups;
    diff_gate gate;
    size_t keep_worst;      /* --worst N */
    diff_worst *worst;      /* the worst blocks, worst first */
    size_t n_worst;
    bool metadata_only;     /* no tensor data read: every pair in both with one shape not compared */
} diff_report;

/* Sums the total, counts the failing tensors, builds the roll-ups and the gate. GS_OK or
 * GS_E_NO_MEMORY. */
gs_status diff_report_summarize(diff_report *r);

/* The kept worst blocks of every pair merged, the first keep_worst of them with their values
 * decoded again. GS_OK, GS_E_NO_MEMORY, or a decode's failure with *pair and *side ('A': the
 * reference, 'B': the candidate, 'C': the baseline) set. */
gs_status diff_report_worst(diff_report *r, size_t *pair, char *side);

/* The three-way rules of row i: 0 unless both candidates' pairs are compared. */
unsigned diff_row_exceeds(const diff_report *r, size_t i);
/* The baseline pair of row i when both it and pairs.items[i] are compared, else NULL. */
const diff_pair *diff_row_baseline(const diff_report *r, size_t i);

/* A kept worst block's RMSE over its block size (Infinity for a non-finite mismatch). */
double diff_worst_rmse(const diff_worst *w);

/* 1 when the gate failed, else 0. */
int diff_report_exit_code(const diff_report *r);

/* share of equal elements, 1 for an empty tensor */
double diff_equal_fraction(const diff_metrics *m);

/* B's data bytes and bits per weight (0 for no elements) of a pair that has a B side. */
uint64_t diff_pair_bytes(const diff_pair *p);
double diff_pair_bpw(const diff_pair *p);

/* The gate, from the report's pairs, kvs and rules (diff_gate.c). */
gs_status diff_gate_build(diff_report *r);
void diff_gate_free(diff_gate *g);
/* "max_nmse", "missing", ... */
const char *diff_rule_name(gs_diff_rule rule);

void diff_report_free(diff_report *r);

/* The public comparison: the report and what it owns. */
struct gs_diff {
    diff_report r;
};

void diff_text(cli_out *out, const diff_report *r);
void diff_json(cli_out *out, const diff_report *r);
/* The self-contained HTML page (diff_html.c). */
void diff_html(cli_out *out, const diff_report *r);

#endif
