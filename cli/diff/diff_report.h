/* What `ggufsafe diff` found, ready to render as text (diff_text.c) or JSON (diff_json.c,
 * conformance/schema/diff.schema.json), and the CI gate: which compared tensors break the
 * thresholds. */
#ifndef GGUFSAFE_CLI_DIFF_REPORT_H
#define GGUFSAFE_CLI_DIFF_REPORT_H

#include <stdbool.h>

#include "cli_source.h"
#include "diff_match.h"
#include "diff_meta.h"
#include "diff_metrics.h"
#include "ggufsafe.h"
#include "ggufsafe_diff.h"
#include "out.h"

typedef struct diff_thresholds {
    bool has_max_nmse, has_max_abs, has_min_cos;
    double max_nmse, max_abs, min_cos;
} diff_thresholds;

/* Bits of diff_exceeds (the public GS_DIFF_EXCEEDS_*). */
#define DIFF_EXCEEDS_NMSE GS_DIFF_EXCEEDS_NMSE /* nmse > max_nmse */
#define DIFF_EXCEEDS_ABS GS_DIFF_EXCEEDS_ABS   /* max_abs > max_abs threshold */
#define DIFF_EXCEEDS_COS GS_DIFF_EXCEEDS_COS   /* cosine < min_cos, or NaN */

unsigned diff_exceeds(const diff_thresholds *th, const diff_metrics *m);

/* One side as opened (the public gs_diff_input). */
struct gs_diff_input {
    cli_source src;
    gs_options opts; /* what it was opened with: the report header says so */
    char *path;      /* as given */
};

typedef struct diff_report {
    const char *path_a, *path_b;
    const cli_source *a, *b;
    const gs_options *opts;
    diff_thresholds th;
    cli_name_filter filter; /* the tensor patterns (owned copies), named by the reports */
    diff_kv_list kvs;
    diff_pairs pairs;   /* compared pairs hold their metrics */
    diff_total total;   /* over the compared pairs, in list order */
    size_t failing;     /* compared pairs with diff_exceeds != 0 */
    bool metadata_only; /* no tensor data read: every pair in both with one shape not compared */
} diff_report;

/* Sums the total and counts the failing tensors, in list order. */
void diff_report_summarize(diff_report *r);

/* 1 when a shape mismatched or a tensor broke a threshold, else 0. */
int diff_report_exit_code(const diff_report *r);

/* share of equal elements, 1 for an empty tensor */
double diff_equal_fraction(const diff_metrics *m);

/* The public comparison: the report and what it owns. */
struct gs_diff {
    diff_report r;
};

void diff_text(cli_out *out, const diff_report *r);
void diff_json(cli_out *out, const diff_report *r);

#endif
