/*
 * ggufsafe comparison: how far a candidate B is from a reference A, metadata and tensors. Every
 * tensor in both files with the same shape is decoded to f32 on both sides (whatever the types)
 * and compared element by element: max absolute error, RMSE, NMSE, cosine similarity, the equal
 * elements, the worst block (in B's block size); then a total over the model and a gate against
 * thresholds. What `ggufsafe diff` runs, as a library (libggufsafe_certify). README "Comparing
 * two files" defines every number; the JSON form is conformance/schema/diff.schema.json.
 *
 * Conventions (statuses, ownership, struct sizes, threads): ggufsafe_sink.h.
 */
#ifndef GGUFSAFE_DIFF_H
#define GGUFSAFE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"
#include "ggufsafe_sink.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_diff_options {
    size_t struct_size;      /* set by gs_diff_options_init */
    gs_profile profile;      /* for opening both files; default strict */
    bool part_only;          /* <prefix>-00001-of-NNNNN.gguf alone, not its set */
    /* Which tensors are compared: a name is kept when it matches one of the n_tensor_globs
     * patterns (none: every name) and none of the n_exclude_globs (exclude wins). A pattern
     * matches a name equal to it byte for byte, or as fnmatch(3) with no flags. The strings
     * are copied: the caller's arrays need not outlive the call. */
    const char *const *tensor_globs;
    size_t n_tensor_globs;
    const char *const *exclude_globs;
    size_t n_exclude_globs;
    unsigned jobs;           /* tensors compared at a time (0 or 1: the calling thread); the
                                results do not depend on it */
    /* The gate: a tensor fails when one of the thresholds it has is broken. */
    bool has_max_nmse, has_max_abs, has_min_cos;
    double max_nmse;         /* fails when nmse > max_nmse */
    double max_abs;          /* fails when max_abs > max_abs */
    double min_cos;          /* fails when cosine < min_cos, or is NaN */
    gs_progress_fn progress; /* elements compared so far, of all compared tensors (may be NULL) */
    void *progress_ctx;
    /* The first version ends here. */
    bool metadata_only;      /* compare the metadata only: the files are opened with
                                gs_options.metadata_only (tensor data need not be in them) and no
                                tensor data is read; tensors in both with the same shape are
                                "not compared" (GS_DIFF_NOT_DECODABLE, with the summary's
                                metadata_only set); key-values, tensor lists, types and shapes
                                are compared as ever. Default false */
} gs_diff_options;

GS_API void gs_diff_options_init(gs_diff_options *opts);

/* ---- running ------------------------------------------------------------------------------ */

typedef struct gs_diff_input gs_diff_input; /* one side: a file or a whole split set */
typedef struct gs_diff gs_diff;             /* the comparison */

/* Opens one side as every command opens a file (the profile; metadata copied to the heap; a
 * split set from its part 1 unless part_only). label (NULL: none) is appended to a failure's
 * detail as " (<label>: <path>)". The failures are the reader's. */
GS_API gs_status gs_diff_open(const char *path, const char *label, const gs_diff_options *opts,
                              gs_diff_input **out, gs_error *err);
GS_API void gs_diff_input_close(gs_diff_input *input);

/* Compares b with the reference a. The result reads names and values from the inputs: close
 * them only after gs_diff_free. Failures, with *out NULL:
 *   a tensor that cannot be decoded: its status (GS_E_TRUNCATED when a file shrank), with
 *     err->context_kind GS_CONTEXT_TENSOR, its name as context, its data offset as offset and
 *     "A: <path>" or "B: <path>" as detail;
 *   metadata that cannot be read: its status with GS_CONTEXT_NONE and "reading the metadata";
 *   GS_E_NO_MEMORY; GS_E_KERNEL_UNAVAILABLE when GGUFSAFE_KERNEL names a decoder path this CPU
 *   lacks (nothing is decoded then);
 *   GS_E_INVALID_ARGUMENT for NULL pointers or thresholds that are not finite (a cosine outside
 *   -1..1, a maximum below 0).
 * Patterns that match nothing are not a failure: the result has no tensors. Runs opts->jobs
 * threads of its own; memory stays bounded (each thread holds one chunk of each side). */
GS_API gs_status gs_diff_compare(const gs_diff_input *a, const gs_diff_input *b,
                                 const gs_diff_options *opts, gs_diff **out, gs_error *err);

GS_API void gs_diff_free(gs_diff *diff);

/* ---- results ------------------------------------------------------------------------------ */

typedef struct gs_diff_summary {
    size_t struct_size;        /* set by the caller: sizeof(gs_diff_summary) */
    size_t tensors_a, tensors_b; /* tensors of each side that the patterns kept */
    size_t compared;           /* in both, same shape, both decodable to f32 */
    size_t only_a, only_b;
    size_t shape_mismatches;   /* in both with another shape: fails the gate */
    size_t not_compared;       /* in both, same shape, a type without an f32 form */
    size_t kv_only_a, kv_only_b, kv_changed;
    size_t failing;            /* compared tensors that break a threshold */
    bool passed;               /* no failing tensor and no shape mismatch */
    /* The total over the compared tensors: counts and sums pooled, max_abs the largest, RMSE
     * from the pooled sums, NMSE and cosine means weighted by element count. */
    uint64_t n_elements, equal, nonfinite_mismatches;
    double max_abs, rmse, nmse, cosine, equal_fraction;
    size_t tensor_count;       /* gs_diff_tensor_at */
    size_t kv_count;           /* gs_diff_kv_at */
    /* The first version ends here. */
    bool metadata_only;        /* the comparison read no tensor data (gs_diff_options) */
} gs_diff_summary;

GS_API gs_status gs_diff_get_summary(const gs_diff *diff, gs_diff_summary *out);

typedef enum gs_diff_tensor_kind {
    GS_DIFF_COMPARED = 0,
    GS_DIFF_NOT_DECODABLE = 1,  /* not compared: i8..i64 or f64 on a side */
    GS_DIFF_SHAPE_MISMATCH = 2,
    GS_DIFF_ONLY_A = 3,
    GS_DIFF_ONLY_B = 4
} gs_diff_tensor_kind;

/* Bits of gs_diff_tensor.exceeds. */
#define GS_DIFF_EXCEEDS_NMSE 1u /* nmse > max_nmse */
#define GS_DIFF_EXCEEDS_ABS 2u  /* max_abs > max_abs */
#define GS_DIFF_EXCEEDS_COS 4u  /* cosine < min_cos, or NaN */

typedef struct gs_diff_tensor {
    size_t struct_size;        /* set by the caller: sizeof(gs_diff_tensor) */
    gs_diff_tensor_kind kind;
    gs_str name;               /* raw bytes, from A (B for GS_DIFF_ONLY_B) */
    bool in_a, in_b;           /* each side's type and shape, when it has the tensor: */
    int32_t type_a, type_b;
    uint32_t n_dims_a, n_dims_b;
    uint64_t ne_a[GS_MAX_DIMS], ne_b[GS_MAX_DIMS];
    /* GS_DIFF_COMPARED only: */
    uint64_t n_elements, n_finite, equal;
    uint64_t nan_a, nan_b, inf_a, inf_b, nonfinite_mismatches;
    double max_abs, rmse, nmse, cosine, equal_fraction;
    uint32_t block_elems;      /* B's block size (1 for F32/F16/BF16) */
    uint64_t blocks, changed_blocks;
    bool has_worst;            /* a block changed: the worst one (largest RMSE, first on ties) */
    uint64_t worst_block;
    double worst_rmse, worst_max_abs;
    unsigned exceeds;          /* GS_DIFF_EXCEEDS_* */
} gs_diff_tensor;

/* Tensors in list order: A's tensors in file order (parts in order), then those only B has. */
GS_API gs_status gs_diff_tensor_at(const gs_diff *diff, size_t i, gs_diff_tensor *out);

typedef enum gs_diff_kv_kind {
    GS_DIFF_KV_ONLY_A = 0,
    GS_DIFF_KV_ONLY_B = 1,
    GS_DIFF_KV_CHANGED = 2     /* in both with another type or other wire bytes */
} gs_diff_kv_kind;

typedef struct gs_diff_kv {
    size_t struct_size;        /* set by the caller: sizeof(gs_diff_kv) */
    gs_diff_kv_kind kind;
    gs_str key;                /* raw bytes */
    const gs_file *file_a, *file_b; /* the metadata files (part 1 of a set); NULL if absent */
    size_t index_a, index_b;   /* the key's index in each, where present */
    bool has_first_difference; /* changed arrays of one element type */
    uint64_t first_difference; /* element index; the shorter count when one is a prefix */
} gs_diff_kv;

/* Only in A (A's order), only in B (B's order), then changed (A's order). The bookkeeping keys
 * of a side opened as a split set (split.no, split.count, split.tensors.count) are left out. */
GS_API gs_status gs_diff_kv_at(const gs_diff *diff, size_t i, gs_diff_kv *out);

/* ---- renderings --------------------------------------------------------------------------- */

/* The text (worst tensors first) and JSON reports, byte for byte what `ggufsafe diff` prints;
 * both name the tensor patterns that applied.
 * GS_E_IO when the sink fails, GS_E_NO_MEMORY. */
GS_API gs_status gs_diff_write_text(const gs_diff *diff, const gs_sink *sink, gs_error *err);
GS_API gs_status gs_diff_write_json(const gs_diff *diff, const gs_sink *sink, gs_error *err);

#ifdef __cplusplus
}
#endif

#endif /* GGUFSAFE_DIFF_H */
