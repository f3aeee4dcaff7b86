/* One GGUF as a reader sees it, for comparing ggml's view (parsed from gs_oracle's report,
 * runner/oracle_report.h) with ours (built from a gs_file): header, KV records with a hash of
 * each value's wire bytes, and tensors with the hash of their decoded f32 output under the NaN
 * rule. */
#ifndef GGUFSAFE_ORACLE_VIEW_H
#define GGUFSAFE_ORACLE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ggufsafe.h"

enum {
    GSX_VIEW_KV = 1u,  /* KV records (same bit as the runner's GSX_REPORT_KV) */
    GSX_VIEW_HASH = 2u /* decoded tensor hashes (GSX_REPORT_HASH) */
};

typedef struct gsx_view_kv {
    char *key;
    size_t key_len;
    int type, elem;  /* elem: the array element type, -1 for scalars */
    uint64_t n;
    char sha[65];
} gsx_view_kv;

typedef struct gsx_view_tensor {
    char *name;
    size_t name_len;
    int type;
    int64_t ne[4];
    uint64_t offset, size;
    char hash[65];   /* sha256 hex, "-" (no decoder / not asked) or "outside" */
} gsx_view_tensor;

typedef struct gsx_view {
    bool accepted;
    uint32_t version;
    uint64_t n_kv, n_tensors, alignment, data_offset;
    gsx_view_kv *kv;
    size_t kv_n;
    gsx_view_tensor *t;
    size_t t_n;
} gsx_view;

/* Parses one report (text up to and including its "end" line); *used is set to the bytes
 * consumed. -1 when the text is not a complete report. */
int gsx_view_parse(const char *text, size_t len, gsx_view *v, size_t *used);

/* Our view of an open file, decoded on the active kernel path. GS_OK, or the status of a
 * failed read or decode (which the tests report as a failure). */
gs_status gsx_view_ours(const gs_file *f, unsigned flags, gsx_view *v);

void gsx_view_free(gsx_view *v);

/* Counts of a comparison. */
typedef struct gsx_view_diff {
    size_t differences;    /* fields that differ (each printed to the log) */
    size_t hashes_equal;   /* tensors whose decoded hashes were compared and equal */
    size_t no_reference;   /* tensors ggml has no decoder for while we have one (Q8_1) */
} gsx_view_diff;

/* Compares ggml's view with ours: header, KVs (with GSX_VIEW_KV), tensors and hashes (with
 * GSX_VIEW_HASH). Differences are printed to log, prefixed with label. */
gsx_view_diff gsx_view_compare(const gsx_view *ggml, const gsx_view *ours, unsigned flags,
                               FILE *log, const char *label);

#endif
