/* The error between two decoded tensors, accumulated as a stream of (a, b) pairs so that no
 * tensor is ever held whole: A is the reference, B the candidate. Every sum is a double added in
 * element order, so the result does not depend on how the stream is cut into chunks.
 *
 * Definitions (docs/diff.md, "Metrics"; conformance/schema/diff.schema.json):
 * - A pair is "finite" when both values are finite; only finite pairs enter the sums
 *   SSE = sum (a-b)^2, EA = sum a^2, EB = sum b^2, DOT = sum a*b.
 * - A pair is "equal" when a == b as IEEE values (+0 equals -0), or both are NaN (the NaN rule),
 *   or both are the same infinity. Equal non-finite pairs enter no sum.
 * - Any other pair with a NaN or an infinity is a "non-finite mismatch". When a tensor has one,
 *   max_abs, RMSE and NMSE are +Infinity and the cosine is NaN (a gate treats it as failing).
 * - max_abs = max |a-b|; RMSE = sqrt(SSE / finite pairs), 0 with no finite pair;
 *   NMSE = SSE / EA, and when EA = 0: 0 if SSE = 0, +Infinity otherwise;
 *   cosine = DOT / sqrt(EA * EB), 1 when EA = EB = 0, 0 when just one of them is 0, clamped to
 *   [-1, 1].
 * - Blocks are runs of block_elems elements (B's block size; 1 for F32/F16/BF16, so a "block"
 *   there is one element). A block "changed" when one of its pairs is not equal. Its error is its
 *   RMSE, sqrt(block SSE / block_elems), +Infinity with a non-finite mismatch. The worst block
 *   is the changed block with the largest error, the first one on ties. */
#ifndef GGUFSAFE_CLI_DIFF_METRICS_H
#define GGUFSAFE_CLI_DIFF_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct diff_metrics {
    uint64_t n_elements;
    uint64_t n_finite;             /* pairs with both values finite */
    uint64_t equal;                /* pairs equal as defined above */
    uint64_t nan_a, nan_b, inf_a, inf_b;
    uint64_t nonfinite_mismatches;
    double sse, energy_a, energy_b, dot; /* the sums over finite pairs */
    double max_abs, rmse, nmse, cosine;
    uint32_t block_elems;
    uint64_t changed_blocks;
    bool has_worst;                /* false when no block changed */
    uint64_t worst_block;          /* index in units of block_elems */
    double worst_rmse, worst_max_abs;
} diff_metrics;

/* One block's error, for the list of worst blocks (diff_acc_keep_worst). */
typedef struct diff_block_err {
    uint64_t block;                /* index in units of block_elems */
    double sse, max_abs;           /* over the block's finite pairs */
    bool nonfinite;                /* a non-finite mismatch: worse than any finite error */
} diff_block_err;

/* Whether x is a worse block than y: a non-finite mismatch first, then the larger SSE, then
 * the lower index (the first of equal blocks wins). */
bool diff_block_worse(const diff_block_err *x, const diff_block_err *y);

typedef struct diff_acc {
    diff_metrics m;                /* running counts and sums; derived fields set by finish */
    diff_block_err *heap;          /* diff_acc_keep_worst: the worst changed blocks so far, */
    size_t heap_n, heap_cap;       /* a heap whose root is the least bad of them */
    uint64_t in_block;             /* elements of the current block seen so far */
    uint64_t block;                /* index of the current block */
    double block_sse, block_max;
    bool block_changed, block_nonfinite;
    bool worst_nonfinite;
    double worst_sse;
} diff_acc;

/* block_elems is at least 1. */
void diff_acc_init(diff_acc *acc, uint32_t block_elems);
/* The next n pairs a[i], b[i], in element order. */
void diff_acc_add(diff_acc *acc, const float *a, const float *b, size_t n);
/* The metrics of every pair added so far (a last partial block counts as a block). */
void diff_acc_finish(const diff_acc *acc, diff_metrics *out);
/* Keep the cap worst changed blocks in storage (cap entries, the caller's, until the last
 * diff_acc_worst); before the first diff_acc_add. cap 0 keeps none. */
void diff_acc_keep_worst(diff_acc *acc, diff_block_err *storage, size_t cap);
/* The kept blocks, a last partial block included, worst first into out (cap entries as
 * given to diff_acc_keep_worst); returns how many. */
size_t diff_acc_worst(const diff_acc *acc, diff_block_err *out);

/* A total over several tensors, added in a fixed order (the files' tensor order):
 * elements, equal and non-finite counts and the sums pooled; max_abs the largest; RMSE from the
 * pooled sums; NMSE and cosine the means of the per-tensor values weighted by element count. */
typedef struct diff_total {
    uint64_t tensors, n_elements, n_finite, equal, nonfinite_mismatches;
    double sse, max_abs;
    double weighted_nmse, weighted_cosine; /* sum of n_elements * value */
} diff_total;

void diff_total_init(diff_total *t);
void diff_total_add(diff_total *t, const diff_metrics *m);
/* The RMSE of pooled sums: Infinity with a non-finite mismatch, 0 with no finite pair. */
double diff_pooled_rmse(uint64_t nonfinite_mismatches, double sse, uint64_t n_finite);
double diff_total_rmse(const diff_total *t);
double diff_total_nmse(const diff_total *t);
double diff_total_cosine(const diff_total *t);
double diff_total_equal_fraction(const diff_total *t);

#endif
