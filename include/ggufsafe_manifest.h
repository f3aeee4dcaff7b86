/*
 * ggufsafe manifests: SHA-256 digests of a GGUF file or split set, per part the whole file, one
 * per key-value (its exact wire bytes: key, type, value) and one per tensor (its data, with type
 * and shape); their text form; and the comparison of a file with a manifest, naming every
 * key-value and tensor that changed, was added or is missing. What `ggufsafe hash` and
 * `ggufsafe verify` run, as a library (libggufsafe_certify; README "Manifests" has the format).
 *
 * Conventions (statuses, ownership, struct sizes, threads): ggufsafe_sink.h.
 */
#ifndef GGUFSAFE_MANIFEST_H
#define GGUFSAFE_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ggufsafe.h"
#include "ggufsafe_sink.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gs_manifest_mode {
    /* hash: the file as every command reads it (the chosen profile; a split set from its part
     * 1, checked as a set): a file the profile rejects is refused. */
    GS_MANIFEST_HASH = 0,
    /* verify: each part on its own, leniently in the reader's diagnostic mode, so that a damaged
     * copy still gives a manifest whose differences name what is damaged. Parts after the
     * first that cannot be opened are recorded in the manifest (gs_manifest_part.error). */
    GS_MANIFEST_VERIFY = 1
} gs_manifest_mode;

typedef struct gs_manifest_options {
    size_t struct_size;      /* set by gs_manifest_options_init */
    gs_manifest_mode mode;   /* default GS_MANIFEST_HASH */
    gs_profile profile;      /* hash mode: which files are accepted; default strict */
    bool part_only;          /* <prefix>-00001-of-NNNNN.gguf alone, not its set */
    unsigned jobs;           /* threads: one reads, the others hash (0 or 1: the calling thread
                                does everything); the digests do not depend on it */
    gs_progress_fn progress; /* bytes hashed, part by part (may be NULL) */
    void *progress_ctx;
    /* The first version ends here. */
    bool metadata_only;      /* tensor data need not be in the file (hash mode:
                                gs_options.metadata_only); the manifest is that of the file as
                                it is: every key-value, the tensors whose data is wholly in the
                                file (in verify mode too), and the file's own SHA-256. Default
                                false */
    /* Caller-defined types and their decoders, as gs_options.type_defs and .decoders: every
     * file is opened with them (tensors of those ids are sized, checked, decoded and compared
     * like built-in ones). The arrays and each decoder's ctx must outlive the call. Default
     * none. */
    const gs_type_def *type_defs;
    size_t n_type_defs;
    const gs_decoder *decoders;
    size_t n_decoders;
} gs_manifest_options;

GS_API void gs_manifest_options_init(gs_manifest_options *opts);

/* ---- hashing ------------------------------------------------------------------------------ */

typedef struct gs_manifest_input gs_manifest_input; /* the opened file or parts */
typedef struct gs_manifest gs_manifest;             /* a manifest: hashed or parsed */

/* Opens path as opts->mode says. The failures are the reader's (err as gs_open_file or
 * gs_open_split give it): GS_E_IO, GS_E_BAD_MAGIC, a file the profile rejects, ... */
GS_API gs_status gs_manifest_open(const char *path, const gs_manifest_options *opts,
                                  gs_manifest_input **out, gs_error *err);
GS_API void gs_manifest_input_close(gs_manifest_input *input);

/* Hashes every part of input in one sequential pass each (the file is read once, in large
 * chunks, through the bounded reader: a file that shrinks while it is hashed gives
 * GS_E_TRUNCATED at the offset that could not be read, never a crash). Other failures: GS_E_IO,
 * GS_E_NO_MEMORY, GS_E_INTERNAL (libcrypto failed). err's context is the part's path
 * (GS_CONTEXT_PART). input may be closed once this returns. */
GS_API gs_status gs_manifest_hash(const gs_manifest_input *input,
                                  const gs_manifest_options *opts, gs_manifest **out,
                                  gs_error *err);

/* gs_manifest_open, then gs_manifest_hash. */
GS_API gs_status gs_manifest_hash_path(const char *path, const gs_manifest_options *opts,
                                       gs_manifest **out, gs_error *err);

/* ---- the text form ------------------------------------------------------------------------ */

/* Writes the manifest's text (README "Manifests"). GS_E_IO when the sink fails. */
GS_API gs_status gs_manifest_write(const gs_manifest *manifest, const gs_sink *sink,
                                   gs_error *err);

/* Parses a manifest: untrusted input, so lines are bounded, every field is checked for its exact
 * form, duplicates and a missing "end" line are errors and the number of entries is capped.
 * A malformed manifest is GS_E_INVALID_ARGUMENT with err->detail "line N: <reason>" and
 * err->offset the byte offset of the line being read when it was found; GS_E_IO for a read error
 * of the stream (detail "line N: read error"); GS_E_NO_MEMORY. */
GS_API gs_status gs_manifest_parse(const void *data, size_t size, gs_manifest **out,
                                   gs_error *err);
GS_API gs_status gs_manifest_read(FILE *in, gs_manifest **out, gs_error *err);

GS_API void gs_manifest_free(gs_manifest *manifest);

/* ---- contents ----------------------------------------------------------------------------- */

GS_API size_t gs_manifest_part_count(const gs_manifest *manifest);

typedef struct gs_manifest_part {
    size_t struct_size;     /* set by the caller: sizeof(gs_manifest_part) */
    uint64_t size;          /* bytes of the file */
    uint8_t digest[32];     /* SHA-256 of the whole file */
    size_t entry_count;     /* key-values in file order, then tensors in file order */
    size_t kv_count;
    size_t tensor_count;
    const char *error;      /* verify mode: why the part could not be read; NULL when it was */
} gs_manifest_part;

GS_API gs_status gs_manifest_part_at(const gs_manifest *manifest, size_t part,
                                     gs_manifest_part *out);

typedef enum gs_manifest_kind {
    GS_MANIFEST_KV = 0,
    GS_MANIFEST_TENSOR = 1
} gs_manifest_kind;

typedef enum gs_manifest_state {
    GS_MANIFEST_HASHED = 0,  /* digest holds the SHA-256 */
    GS_MANIFEST_NO_DATA = 1, /* verify mode, a damaged file: the tensor's data is not in it */
    GS_MANIFEST_ALIASED = 2  /* verify mode, a damaged file: the data overlaps an earlier one's */
} gs_manifest_state;

typedef struct gs_manifest_entry {
    size_t struct_size;      /* set by the caller: sizeof(gs_manifest_entry) */
    gs_manifest_kind kind;
    gs_manifest_state state;
    const char *name;        /* escaped: bytes outside 0x21..0x7E and '\' as \xHH; NUL-ended */
    const char *type;        /* tensors: ggml's type name; "" for key-values */
    const char *shape;       /* tensors: "4096,32000", "-" for a scalar; "" for key-values */
    uint8_t digest[32];
    uint64_t offset;         /* hashed manifests: where its bytes are in the file (else 0) */
    uint64_t size;           /* hashed manifests: how many */
    size_t line;             /* parsed manifests: its line number (else 0) */
} gs_manifest_entry;

GS_API gs_status gs_manifest_entry_at(const gs_manifest *manifest, size_t part, size_t i,
                                      gs_manifest_entry *out);

/* ---- comparing ---------------------------------------------------------------------------- */

typedef struct gs_manifest_diff gs_manifest_diff; /* the differences of a file from a manifest */

typedef enum gs_manifest_change {
    GS_MANIFEST_CHANGED = 0,
    GS_MANIFEST_ADDED = 1,   /* in the file, not in the manifest */
    GS_MANIFEST_MISSING = 2, /* in the manifest, not in the file */
    GS_MANIFEST_DAMAGED = 3, /* the file's entry (or part) cannot be hashed */
    GS_MANIFEST_RENAMED = 4  /* a tensor with the type, shape and data of one the manifest
                                names otherwise (the only such pair): renamed_from says which */
} gs_manifest_change;

typedef enum gs_manifest_item {
    GS_MANIFEST_ITEM_KV = 0,
    GS_MANIFEST_ITEM_TENSOR = 1,
    GS_MANIFEST_ITEM_FILE = 2,  /* a part's whole-file digest or size, or a part not readable */
    GS_MANIFEST_ITEM_PARTS = 3  /* the number of parts */
} gs_manifest_item;

#define GS_MANIFEST_NO_PART SIZE_MAX

typedef struct gs_manifest_difference {
    size_t struct_size;        /* set by the caller: sizeof(gs_manifest_difference) */
    gs_manifest_change change;
    gs_manifest_item item;
    size_t part;               /* 0-based, or GS_MANIFEST_NO_PART (the number of parts) */
    const char *subject;       /* the escaped name (kv, tensor); for a file "sha256" (with why
                                  when every entry matches) or why it cannot be read; for the
                                  parts the two counts */
    const char *detail;        /* what changed ("data", "value", "type q4_K -> q8_0",
                                  "size 10 -> 12", against a format 2 manifest "value: old
                                  4096 -> new 8192", "element 17: old 5 -> new 6", ...); NULL
                                  when nothing more is said */
    /* The first version ends here. */
    const char *renamed_from;  /* GS_MANIFEST_RENAMED: the manifest's name (escaped); else NULL */
} gs_manifest_difference;

/* Every difference of got (a file, hashed in verify mode) from want (the manifest), part by
 * part: entries matched by kind and name (O(n log n)), renames by type, shape and data, then
 * each part's whole-file digest. An empty list means the file matches. */
GS_API gs_status gs_manifest_compare(const gs_manifest *want, const gs_manifest *got,
                                     gs_manifest_diff **out, gs_error *err);
typedef struct gs_manifest_compare_options {
    size_t struct_size; /* set by gs_manifest_compare_options_init */
    bool tensors_only;  /* only tensors count (type, shape, data, names), and parts that cannot
                           be read: metadata edits and the whole-file digests are left out, so
                           a file whose weights are unchanged matches (llama-gguf-hash's
                           tensor-only check); default false */
} gs_manifest_compare_options;

GS_API void gs_manifest_compare_options_init(gs_manifest_compare_options *opts);
/* gs_manifest_compare with options (NULL: the defaults, what gs_manifest_compare does). */
GS_API gs_status gs_manifest_compare_with(const gs_manifest *want, const gs_manifest *got,
                                          const gs_manifest_compare_options *opts,
                                          gs_manifest_diff **out, gs_error *err);
GS_API size_t gs_manifest_diff_count(const gs_manifest_diff *diff);
GS_API gs_status gs_manifest_diff_at(const gs_manifest_diff *diff, size_t i,
                                     gs_manifest_difference *out);
/* One line per difference, as `ggufsafe verify` prints them:
 *   [part N: ]changed|added|missing|damaged  kv|tensor|file|parts  <subject>  [detail] */
GS_API gs_status gs_manifest_diff_write(const gs_manifest_diff *diff, const gs_sink *sink,
                                        gs_error *err);
/* The differences as JSON (conformance/schema/verify.schema.json), what `ggufsafe verify --json`
 * prints: the report header, path and manifest_path as given (shown escaped), whether the diff
 * was made tensors_only, ok, counts of got, and every difference. */
GS_API gs_status gs_manifest_diff_write_json(const gs_manifest_diff *diff, const gs_manifest *got,
                                             const char *path, const char *manifest_path,
                                             bool tensors_only, const gs_sink *sink,
                                             gs_error *err);
GS_API void gs_manifest_diff_free(gs_manifest_diff *diff);

/* Lower-case hex of a digest, NUL-terminated, into out. */
GS_API void gs_manifest_hex(const uint8_t digest[32], char out[65]);

#ifdef __cplusplus
}
#endif

#endif /* GGUFSAFE_MANIFEST_H */
