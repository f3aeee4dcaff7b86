/*
 * ggufsafe comparison: how far a candidate B is from a reference A, metadata and tensors. Every
 * tensor in both files with the same shape is decoded to f32 on both sides (whatever the types)
 * and compared element by element: max absolute error, RMSE, NMSE, cosine similarity, the equal
 * elements, the worst block (in B's block size); then a total over the model, roll-ups per role,
 * layer and type with bits per weight, the worst blocks of the whole comparison, and a gate
 * against thresholds that also fails on tensors that vanished, appeared, changed shape or cannot
 * be compared. With three files (gs_diff_compare3: REF, A, B), A and B are each compared with
 * REF and the report gives both errors and their ratio: "is the new candidate B no worse than the
 * baseline A?". What `ggufsafe diff` runs, as a library (libggufsafe_certify). docs/diff.md
 * defines every number; the JSON form is conformance/schema/diff.schema.json.
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
    /* ---- appended after metadata_only; struct_size says which a caller has ---------- */
    /* With any threshold or metadata rule (the gate is "active"), the gate also fails on a
     * tensor only in A (unless allow_missing), only in B (unless allow_extra), and one that
     * cannot be compared (no f32 form on a side) unless both sides have the same type and
     * identical bytes. A shape mismatch fails whether the gate is active or not. */
    bool allow_missing;
    bool allow_extra;
    /* Metadata rules: a key only in A, only in B or changed fails the gate when
     * fail_on_metadata is set or a fail_on_keys pattern matches it, and no ignore_keys pattern
     * does (patterns as tensor_globs; copied). */
    bool fail_on_metadata;
    const char *const *fail_on_keys;
    size_t n_fail_on_keys;
    const char *const *ignore_keys;
    size_t n_ignore_keys;
    /* Three-way only (gs_diff_compare3), per tensor compared on both candidates: fails when
     * B's NMSE is above max_nmse_ratio times A's (GS_DIFF_EXCEEDS_NMSE_RATIO), or above A's
     * plus max_nmse_increase (GS_DIFF_EXCEEDS_NMSE_INCREASE). The ratio is 1 when both NMSEs
     * are equal (0 and 0 too) and +Infinity when only A's is 0: an exact A fails any ratio. */
    bool has_max_nmse_ratio, has_max_nmse_increase;
    double max_nmse_ratio;    /* >= 0, finite */
    double max_nmse_increase; /* finite; may be negative (B must improve) */
    /* Keep the worst_blocks worst blocks of the whole comparison with their values
     * (gs_diff_worst_at); 0: none; at most GS_DIFF_MAX_WORST. */
    size_t worst_blocks;
    /* Caller-defined types and their decoders, as gs_options.type_defs and .decoders: both
     * sides are opened with them (tensors of those ids are sized, decoded and compared like
     * built-in ones). The arrays and each decoder's ctx must outlive the inputs. Default none. */
    const gs_type_def *type_defs;
    size_t n_type_defs;
    const gs_decoder *decoders;
    size_t n_decoders;
} gs_diff_options;

#define GS_DIFF_MAX_WORST 1000u

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

/* Three-way: the baseline a and the candidate b, each compared with the reference ref (tensors
 * matched by name as gs_diff_compare does; ref is decoded once for both). The result reads as a
 * comparison of b with ref (gs_diff_tensor_at, gs_diff_kv_at, the gate's thresholds and rules),
 * with a's comparison beside it (gs_diff_baseline_tensor_at, the baseline fields of
 * gs_diff_tensor and gs_diff_rollup) and the ratio rules on top. A failure names the side as
 * "REF: <path>", "A: <path>" or "B: <path>" in the detail; otherwise as gs_diff_compare. */
GS_API gs_status gs_diff_compare3(const gs_diff_input *ref, const gs_diff_input *a,
                                  const gs_diff_input *b, const gs_diff_options *opts,
                                  gs_diff **out, gs_error *err);

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
    /* ---- appended after metadata_only ---- */
    bool three_way;            /* from gs_diff_compare3 */
    bool gate_active;          /* a threshold or a metadata rule was given */
    size_t gate_failure_count; /* gs_diff_failure_at */
    size_t baseline_tensor_count; /* three-way: gs_diff_baseline_tensor_at */
    size_t baseline_kv_count;  /* three-way: gs_diff_baseline_kv_at */
    size_t worst_count;        /* gs_diff_worst_at */
    size_t rollup_count[3];    /* gs_diff_rollup_at, per gs_diff_grouping */
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
#define GS_DIFF_EXCEEDS_NMSE_RATIO 8u     /* three-way: B's nmse > max_nmse_ratio x A's */
#define GS_DIFF_EXCEEDS_NMSE_INCREASE 16u /* three-way: B's nmse > A's + max_nmse_increase */

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
    /* ---- appended after the first version ---- */
    uint64_t bytes_b;          /* B's data bytes, when in B */
    double bits_per_weight;    /* GS_DIFF_COMPARED: bytes_b * 8 / n_elements (0 when empty) */
    bool same_bytes;           /* GS_DIFF_NOT_DECODABLE: one type and identical bytes */
    /* Three-way, the first (A's tensor count) entries: the baseline's comparison of the same
     * reference tensor (gs_diff_baseline_tensor_at(i)), when both are GS_DIFF_COMPARED. */
    bool has_baseline;
    double baseline_nmse, baseline_max_abs, baseline_rmse, baseline_cosine;
    double nmse_ratio;         /* B's nmse / A's: 1 when equal, +Infinity when only A's is 0 */
    double nmse_increase;      /* B's nmse - A's: 0 when equal */
} gs_diff_tensor;

/* Tensors in list order: A's tensors in file order (parts in order), then those only B has. In
 * three-way results, REF's tensors and B's comparison with them, then those only B has. */
GS_API gs_status gs_diff_tensor_at(const gs_diff *diff, size_t i, gs_diff_tensor *out);
/* Three-way: the baseline A's comparison with REF, in the same order (REF's tensors, then those
 * only A has); GS_E_OUT_OF_RANGE in a two-way result. */
GS_API gs_status gs_diff_baseline_tensor_at(const gs_diff *diff, size_t i, gs_diff_tensor *out);

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
 * of a side opened as a split set (split.no, split.count, split.tensors.count) are left out. In
 * three-way results, REF's metadata against B's (file_a is REF's). */
GS_API gs_status gs_diff_kv_at(const gs_diff *diff, size_t i, gs_diff_kv *out);
/* Three-way: REF's metadata against the baseline A's (file_b is A's). */
GS_API gs_status gs_diff_baseline_kv_at(const gs_diff *diff, size_t i, gs_diff_kv *out);

/* ---- the gate ----------------------------------------------------------------------------- */

typedef enum gs_diff_rule {
    GS_DIFF_RULE_MAX_NMSE = 0,       /* a compared tensor's nmse > max_nmse */
    GS_DIFF_RULE_MAX_ABS = 1,
    GS_DIFF_RULE_MIN_COS = 2,
    GS_DIFF_RULE_MAX_NMSE_RATIO = 3, /* three-way */
    GS_DIFF_RULE_MAX_NMSE_INCREASE = 4,
    GS_DIFF_RULE_MISSING = 5,        /* in A (REF), not in B: allow_missing accepts it */
    GS_DIFF_RULE_EXTRA = 6,          /* in B, not in A (REF): allow_extra accepts it */
    GS_DIFF_RULE_SHAPE = 7,          /* another shape: always fails */
    GS_DIFF_RULE_NOT_COMPARABLE = 8, /* no f32 form on a side, not the same type and bytes */
    GS_DIFF_RULE_METADATA = 9        /* a key only on one side or changed, selected by the rules */
} gs_diff_rule;

typedef struct gs_diff_failure {
    size_t struct_size;        /* set by the caller: sizeof(gs_diff_failure) */
    gs_diff_rule rule;
    size_t index;              /* gs_diff_tensor_at's index, or gs_diff_kv_at's for METADATA */
    gs_str subject;            /* the tensor's name or the key (raw bytes) */
    double value, limit;       /* the threshold rules: the tensor's figure and the threshold */
} gs_diff_failure;

/* The gate's failures: tensor rules in tensor list order (a tensor's rules in gs_diff_rule
 * order), then metadata in gs_diff_kv_at order. The gate passed when there is none. */
GS_API gs_status gs_diff_failure_at(const gs_diff *diff, size_t i, gs_diff_failure *out);
/* "max_nmse", "missing", ...: the rule's name in the JSON report; NULL for no rule. */
GS_API const char *gs_diff_rule_name(gs_diff_rule rule);

/* ---- roll-ups ----------------------------------------------------------------------------- */

typedef enum gs_diff_grouping {
    GS_DIFF_BY_ROLE = 0,  /* the name without its "blk.N." (the whole name outside layers) */
    GS_DIFF_BY_LAYER = 1, /* "blk.N": tensors named blk.N.<role>, by N */
    GS_DIFF_BY_TYPE = 2   /* B's type (and A's, three-way) */
} gs_diff_grouping;

/* One candidate's figures over a group of compared tensors. */
typedef struct gs_diff_stats {
    uint64_t tensors, elements;
    uint64_t bytes;            /* the candidate's data bytes */
    double bits_per_weight;    /* bytes * 8 / elements; 0 for no elements */
    double nmse;               /* pooled: total SSE / total energy of the reference */
    double rmse;               /* pooled: sqrt(total SSE / finite pairs) */
    double cosine;             /* the tensors' cosines weighted by their element counts */
    double max_abs;
    uint64_t nonfinite_mismatches; /* any: nmse, rmse and max_abs are +Infinity */
} gs_diff_stats;

typedef struct gs_diff_rollup {
    size_t struct_size;        /* set by the caller: sizeof(gs_diff_rollup) */
    gs_diff_grouping grouping;
    gs_str name;               /* the role or "blk.N" (raw bytes of a tensor name); the type's
                                  name for GS_DIFF_BY_TYPE */
    uint64_t layer;            /* GS_DIFF_BY_LAYER: N */
    int32_t type, baseline_type; /* GS_DIFF_BY_TYPE: B's type, and A's in three-way */
    gs_diff_stats stats;       /* B */
    gs_diff_stats baseline;    /* three-way: A over the same tensors */
    double nmse_ratio;         /* three-way: stats.nmse / baseline.nmse (1 when equal) */
} gs_diff_rollup;

/* Groups in order: roles and types by first appearance in the tensor list, layers by N.
 * i == SIZE_MAX gives the total over every compared tensor (grouping ignored). In three-way
 * results the groups hold the tensors compared on both candidates. */
GS_API gs_status gs_diff_rollup_at(const gs_diff *diff, gs_diff_grouping grouping, size_t i,
                                   gs_diff_rollup *out);

/* ---- worst blocks ------------------------------------------------------------------------- */

typedef struct gs_diff_block {
    size_t struct_size;        /* set by the caller: sizeof(gs_diff_block) */
    size_t tensor;             /* gs_diff_tensor_at's index */
    gs_str name;
    uint64_t block, first_element; /* in B's blocks */
    uint32_t n;                /* elements in the block (the last one of a tensor may be short) */
    double rmse, max_abs;      /* B against REF; rmse as worst_rmse */
    const float *ref, *candidate; /* n values each: the reference's and B's */
    const float *baseline;     /* three-way, when A's tensor was compared: A's n values */
    double baseline_rmse, baseline_max_abs;
} gs_diff_block;

/* The worst_blocks worst blocks of every compared tensor together, worst first: larger RMSE
 * (a non-finite mismatch first), then tensor list order, then block index. */
GS_API gs_status gs_diff_worst_at(const gs_diff *diff, size_t i, gs_diff_block *out);

/* ---- renderings --------------------------------------------------------------------------- */

/* The text (worst tensors first) and JSON reports, byte for byte what `ggufsafe diff` prints;
 * both name the tensor patterns that applied.
 * GS_E_IO when the sink fails, GS_E_NO_MEMORY. */
GS_API gs_status gs_diff_write_text(const gs_diff *diff, const gs_sink *sink, gs_error *err);
GS_API gs_status gs_diff_write_json(const gs_diff *diff, const gs_sink *sink, gs_error *err);
/* One self-contained HTML page (`ggufsafe diff --html`): the gate's verdict, NMSE per layer for
 * each role and NMSE against bits per weight per tensor as inline SVG, the gate's failures and
 * the roll-up tables; no script, no href or src, nothing fetched; the same bytes for the same
 * comparison. docs/diff.md describes the page, its axes and its size. Failures as above. */
GS_API gs_status gs_diff_write_html(const gs_diff *diff, const gs_sink *sink, gs_error *err);

#ifdef __cplusplus
}
#endif

#endif /* GGUFSAFE_DIFF_H */
