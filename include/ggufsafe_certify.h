/*
 * ggufsafe certification: is a GGUF file (or a whole split set) sound, and exactly what is wrong
 * with it. What `ggufsafe certify` runs, as a library: libggufsafe_certify (CMake target
 * ggufsafe::certify or ggufsafe::certify_static, pkg-config ggufsafe-certify), which uses
 * libggufsafe and OpenSSL's libcrypto. docs/library-certify.md has a complete example.
 *
 * A run opens every part twice in the reader's diagnostic mode (strict and lenient) and runs
 * every check: the reader's own verdicts, byte coverage, where the spec and llama.cpp disagree,
 * metadata semantics, the tokenizer and its chat template, layer counts, split-set consistency
 * and, when asked, every block of every tensor (the deep scan). A file that is not GGUF at all
 * (an LFS pointer, an error page, another format: gs_detect) is a report too, with one finding
 * naming what it is. Its result is a report: findings, each with a stable code (docs/certify.md
 * lists them), the code's severity, the profiles it breaks, the part, the byte offset, the key or
 * tensor, a message, a hint (what it means for the user and what to do) and the finding it is a
 * consequence of; per-severity counts; the verdict, as a flag and as one plain sentence; with the
 * deep scan, per-tensor statistics. Findings are in report order: the root cause first, each
 * consequence right after its cause, then the rest, errors before warnings before notes. The
 * text, JSON (conformance/schema/certify.schema.json) and SARIF 2.1.0 renderings are the
 * library's own, byte for byte what the command prints.
 *
 * Conventions (statuses, ownership, struct sizes, threads): ggufsafe_sink.h.
 */
#ifndef GGUFSAFE_CERTIFY_H
#define GGUFSAFE_CERTIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"
#include "ggufsafe_sink.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gs_certify_severity {
    GS_CERTIFY_INFO = 0,    /* a note: never fails a run */
    GS_CERTIFY_WARNING = 1, /* fails a run only with fail_on = GS_CERTIFY_WARNING */
    GS_CERTIFY_ERROR = 2
} gs_certify_severity;

/* Profiles a finding breaks, as a bit set: strict is the GGUF spec plus what llama.cpp requires,
 * lenient what memory-safe use of the file needs. A finding that breaks neither is a note. Under a
 * profile it does not break, a finding counts as a note. */
#define GS_CERTIFY_STRICT 1u
#define GS_CERTIFY_LENIENT 2u

typedef enum gs_certify_subject {
    GS_CERTIFY_SUBJECT_NONE = 0,
    GS_CERTIFY_SUBJECT_KEY = 1,   /* the finding names a metadata key */
    GS_CERTIFY_SUBJECT_TENSOR = 2 /* the finding names a tensor */
} gs_certify_subject;

#define GS_CERTIFY_NO_PART UINT32_MAX   /* a finding about the set, not one part */
#define GS_CERTIFY_NO_OFFSET UINT64_MAX /* a finding without a byte offset */
#define GS_CERTIFY_NAME_MAX 256         /* key and tensor names kept in findings; longer: cut */
#define GS_CERTIFY_MAX_PER_CODE 100     /* findings kept per code (and profile set); the rest
                                           are counted (gs_certify_tally) */

typedef struct gs_certify_options {
    size_t struct_size;          /* set by gs_certify_options_init */
    gs_profile profile;          /* the profile certified for; default strict */
    gs_certify_severity fail_on; /* the lowest severity that fails: GS_CERTIFY_ERROR (default)
                                    or GS_CERTIFY_WARNING */
    bool deep;                   /* scan every block of every tensor; default false */
    unsigned jobs;               /* threads for the deep scan (0 or 1: the calling thread);
                                    the report does not depend on it */
    bool part_only;              /* certify <prefix>-00001-of-NNNNN.gguf alone, not its set */
    gs_progress_fn progress;     /* the deep scan's progress in bytes (may be NULL) */
    void *progress_ctx;
    /* The first version ends here. */
    bool metadata_only;          /* tensor data need not be in the file (gs_options.metadata_only):
                                    tensors without data are one note, layout.data_absent;
                                    everything else is certified; default false */
    /* Caller-defined types and their decoders, as gs_options.type_defs and .decoders: every
     * file is opened with them (tensors of those ids are sized, checked, decoded and compared
     * like built-in ones). The arrays and each decoder's ctx must outlive the call. Default
     * none. */
    const gs_type_def *type_defs;
    size_t n_type_defs;
    const gs_decoder *decoders;
    size_t n_decoders;
} gs_certify_options;

/* Defaults: strict, fail on errors, no deep scan, one thread, sets opened whole, no progress,
 * tensor data required. */
GS_API void gs_certify_options_init(gs_certify_options *opts);

typedef struct gs_certify gs_certify; /* a finished certification: the report */

/* Certifies the file at path: the whole split set when path names its part 1 (unless
 * opts->part_only). opts may be NULL (defaults). On GS_OK *out is the report, whatever the
 * verdict: a file full of errors is a successful run with findings. Otherwise *out is NULL and
 * the status says why there is nothing to certify: GS_E_IO (the file cannot be opened: the
 * environment, never the file's contents), GS_E_INVALID_ARGUMENT, GS_E_NO_MEMORY,
 * GS_E_KERNEL_UNAVAILABLE (deep scan while GGUFSAFE_KERNEL names a decoder this CPU lacks), with
 * err filled (the reader's own error for a file that cannot be opened; otherwise context_kind
 * GS_CONTEXT_PART with the path). Thread-safe; runs opts->jobs threads of its own during the
 * deep scan. */
GS_API gs_status gs_certify_path(const char *path, const gs_certify_options *opts,
                                 gs_certify **out, gs_error *err);

/* The same for one GGUF in memory (never a set); label names it in reports (NULL: "-"). The
 * buffer must stay valid until gs_certify_memory returns; the report keeps no pointer into it. */
GS_API gs_status gs_certify_memory(const void *data, size_t size, const char *label,
                                   const gs_certify_options *opts, gs_certify **out,
                                   gs_error *err);

/* Releases the report and every string it handed out; NULL is a no-op. */
GS_API void gs_certify_free(gs_certify *report);

/* ---- the verdict ------------------------------------------------------------------------- */

typedef struct gs_certify_verdict {
    size_t struct_size; /* set by the caller: sizeof(gs_certify_verdict) */
    bool certified;     /* no finding counts as an error (or, failing on warnings, a warning) */
    uint64_t counts[3]; /* findings per severity they count with under the profile, indexed by
                           gs_certify_severity; omitted ones (beyond the per-code cap) included */
} gs_certify_verdict;

/* The verdict under any profile and fail-on level (the report holds every finding with the
 * profiles it breaks, so one run answers for both profiles); fail_on GS_CERTIFY_INFO fails on any
 * finding. GS_E_INVALID_ARGUMENT for a NULL pointer, a struct_size too small, or values outside
 * the enums. */
GS_API gs_status gs_certify_verdict_for(const gs_certify *report, gs_profile profile,
                                        gs_certify_severity fail_on, gs_certify_verdict *out);

typedef struct gs_certify_summary {
    size_t struct_size;            /* set by the caller: sizeof(gs_certify_summary) */
    const char *path;              /* as given (the label for memory runs), NUL-terminated */
    gs_profile profile;            /* the options the run had */
    gs_certify_severity fail_on;
    bool deep;
    bool is_set;                   /* a split set, opened from its part 1 */
    gs_certify_verdict verdict;    /* under the run's own profile and fail-on level */
    const char *kind;              /* what the file is: "model", "adapter", "projector",
                                      "vocab", "imatrix" or "unknown" */
    gs_str architecture;           /* general.architecture; ptr NULL when absent */
    gs_str general_type;           /* general.type; ptr NULL when absent */
    size_t part_count;             /* gs_certify_part_at */
    size_t finding_count;          /* gs_certify_finding_at: the findings kept */
    size_t tally_count;            /* gs_certify_tally_at */
    size_t stats_count;            /* gs_certify_stats_at: deep runs, one per tensor */
    /* The first version ends here. */
    const char *verdict_sentence;  /* the verdict in plain words, for a person: "sound: no
                                      problems found", "incomplete download: 140,000 of the
                                      148,896 bytes the header describes", "not a GGUF file: this
                                      is a Git LFS pointer ..." (escaped; the text report's first
                                      line) */
    size_t root_cause;             /* index of the finding the verdict names (the first one), or
                                      GS_CERTIFY_NO_CAUSE when there is none */
    bool read_failed;              /* the file could not be read to its end while it was
                                      certified (it shrank, or a read failed): an environment
                                      failure, not a verdict on the file (the command exits 2) */
} gs_certify_summary;

GS_API gs_status gs_certify_get_summary(const gs_certify *report, gs_certify_summary *out);

/* ---- parts -------------------------------------------------------------------------------- */

typedef enum gs_certify_part_state {
    GS_CERTIFY_PART_READ = 0,     /* opened (leniently): the checks read it */
    GS_CERTIFY_PART_MISSING = 1,  /* a part of the set that does not exist */
    GS_CERTIFY_PART_REJECTED = 2, /* the reader rejects it under both profiles */
    GS_CERTIFY_PART_SAME_FILE = 3 /* the file of an earlier part again (a link): not read;
                                     error says which (split.same_file) */
} gs_certify_part_state;

typedef struct gs_certify_part {
    size_t struct_size;          /* set by the caller: sizeof(gs_certify_part) */
    const char *path;            /* as opened, NUL-terminated */
    const char *label;           /* the file name within path: what reports show */
    gs_certify_part_state state;
    uint32_t version;            /* the rest: parts that were read, else 0 */
    uint64_t file_size;
    size_t kv_count;
    size_t tensor_count;
    gs_error error;              /* why a missing or rejected part failed (status GS_OK when
                                    it was read) */
} gs_certify_part;

GS_API gs_status gs_certify_part_at(const gs_certify *report, size_t i, gs_certify_part *out);

/* ---- findings ----------------------------------------------------------------------------- */

typedef struct gs_certify_finding {
    size_t struct_size;           /* set by the caller: sizeof(gs_certify_finding) */
    const char *code;             /* e.g. "layout.gap", "reader.GS_E_TRUNCATED" */
    gs_certify_severity severity; /* the code's severity */
    gs_certify_severity effective;/* what it counts as under the run's profile */
    unsigned profiles;            /* GS_CERTIFY_STRICT | GS_CERTIFY_LENIENT: those it breaks */
    uint32_t part;                /* 0-based index of the part, or GS_CERTIFY_NO_PART */
    uint64_t offset;              /* byte offset in that part, or GS_CERTIFY_NO_OFFSET */
    gs_certify_subject subject;
    const uint8_t *name;          /* the key or tensor name's bytes (name_len of them, at most
                                     GS_CERTIFY_NAME_MAX, a longer name cut where a UTF-8
                                     character starts); NULL without a subject */
    size_t name_len;
    bool name_cut;                /* the name was longer and is cut */
    bool name_is_text;            /* the reader's context: escaped already, show it as it is */
    const char *message;          /* one line of our text, NUL-terminated; anything quoted from
                                     the file in it is escaped */
    /* The first version ends here. */
    const char *hint;             /* the code's hint: what the finding means for the user and
                                     what to do, in plain words (gs_certify_code.hint) */
    const char *help;             /* where the code is documented: "docs/certify.md#<code>" */
    size_t caused_by;             /* the index of the finding this one is a consequence of
                                     (tensors outside a truncated file, the layer count of a set
                                     with a missing part), or GS_CERTIFY_NO_CAUSE; a consequence
                                     always comes after its cause */
} gs_certify_finding;

#define GS_CERTIFY_NO_CAUSE SIZE_MAX

/* Findings in report order: the root cause first, each consequence right after its cause, then
 * the other findings, errors before warnings before notes (the order the checks found them
 * within each). GS_E_OUT_OF_RANGE past the end. */
GS_API gs_status gs_certify_finding_at(const gs_certify *report, size_t i,
                                       gs_certify_finding *out);

/* Every (code, profile set) the run reported, in first-seen order, with how many findings were
 * kept and how many left out beyond GS_CERTIFY_MAX_PER_CODE. */
typedef struct gs_certify_tally {
    size_t struct_size;           /* set by the caller: sizeof(gs_certify_tally) */
    const char *code;
    gs_certify_severity severity;
    unsigned profiles;
    uint64_t kept;
    uint64_t omitted;
} gs_certify_tally;

GS_API gs_status gs_certify_tally_at(const gs_certify *report, size_t i, gs_certify_tally *out);

/* ---- deep-scan statistics ----------------------------------------------------------------- */

/* One per tensor of every readable part, in file order (deep runs only). min, max and sum are
 * over the finite decoded values (f32 for every decodable type, f64 for F64 tensors). */
typedef struct gs_certify_stats {
    size_t struct_size;          /* set by the caller: sizeof(gs_certify_stats) */
    uint32_t part;               /* 0-based */
    size_t tensor;               /* index in its part */
    const uint8_t *name;         /* raw bytes */
    size_t name_len;
    int32_t type;
    uint64_t elements;
    uint64_t blocks;
    bool scanned;                /* false: data not in the file, or aliasing another tensor's */
    bool has_values;             /* decodable to f32, or F64 */
    bool is_f64;
    uint64_t zero_blocks;        /* blocks whose bytes are all zero */
    uint64_t bad_scale_blocks;   /* ggml_validate_row_data would reject them */
    uint64_t odd_scale_blocks;   /* NVFP4 scale bytes outside 0x00..0x7E */
    uint64_t nan, inf, finite;
    double min, max, sum;        /* 0 when finite is 0 */
} gs_certify_stats;

GS_API gs_status gs_certify_stats_at(const gs_certify *report, size_t i, gs_certify_stats *out);

/* ---- the code table ----------------------------------------------------------------------- */

/* Profiles of the table row "reader.<STATUS>": they come from the reader, per finding. */
#define GS_CERTIFY_PROFILES_PER_FINDING 0x100u

typedef struct gs_certify_code {
    size_t struct_size;           /* set by the caller: sizeof(gs_certify_code) */
    const char *code;             /* row 0 is "reader.<STATUS>" */
    gs_certify_severity severity;
    unsigned profiles;            /* or GS_CERTIFY_PROFILES_PER_FINDING */
    const char *summary;          /* one line: what it means */
    /* The first version ends here. */
    const char *hint;             /* for a person: what it means for them and what to do
                                     (re-download, re-convert with a named tool, report to the
                                     publisher, safe to ignore because ...); one line */
    const char *help;             /* "docs/certify.md#<code>": the code's section */
} gs_certify_code;

/* Every code certification can report, in report order (README's table). Static data:
 * thread-safe, never freed. */
GS_API size_t gs_certify_code_count(void);
GS_API gs_status gs_certify_code_at(size_t i, gs_certify_code *out);
/* The row of code ("reader.GS_E_X" gives row 0, with the reader's message for that status as the
 * summary and that status's own hint and help); GS_E_NOT_FOUND for codes certification never
 * reports. */
GS_API gs_status gs_certify_code_find(const char *code, gs_certify_code *out);

/* "error", "warning", "info"; "unknown" outside the enum. */
GS_API const char *gs_certify_severity_name(gs_certify_severity severity);

/* ---- renderings --------------------------------------------------------------------------- */

/* The report for people (what `ggufsafe certify` prints), as JSON
 * (conformance/schema/certify.schema.json) and as SARIF 2.1.0 (the code is the rule id). All
 * deterministic: no timestamps, no thread counts. GS_OK, or GS_E_IO (the sink failed: errno text
 * in err->detail) or GS_E_NO_MEMORY; the sink may then hold part of the report. */
GS_API gs_status gs_certify_write_text(const gs_certify *report, const gs_sink *sink,
                                       gs_error *err);
GS_API gs_status gs_certify_write_json(const gs_certify *report, const gs_sink *sink,
                                       gs_error *err);
GS_API gs_status gs_certify_write_sarif(const gs_certify *report, const gs_sink *sink,
                                        gs_error *err);

/* ---- many files: the walk --------------------------------------------------------------- */

/* What gs_certify_walk makes of the paths it is given. An operand that is not a directory is a
 * file to certify as given (a split set's part 1 brings its set); a directory means every
 * regular file named *.gguf below it, with the file system treated as untrusted: each directory
 * is opened relative to its parent's descriptor with O_NOFOLLOW, names are sorted bytewise (the
 * order is the same on every machine), symbolic links to files are followed and symbolic links
 * to directories are not, and the depth and the number of entries read are bounded. The reader
 * opens each file itself (and refuses anything but a regular file), so a name swapped for a
 * FIFO after the walk saw it fails as unreadable, never blocks. */
#define GS_CERTIFY_WALK_MAX_DEPTH 32         /* default: directories below an operand */
#define GS_CERTIFY_WALK_MAX_ENTRIES 100000u  /* default: directory entries read in one walk */

typedef struct gs_certify_walk_options {
    size_t struct_size;   /* set by gs_certify_walk_options_init */
    unsigned max_depth;   /* a directory deeper than this below its operand is not read (it is
                             reported unreadable); 0: the operand's own entries only */
    uint64_t max_entries; /* entries read over the whole walk (files, directories, anything);
                             past it the walk stops, reporting the directory it was in */
} gs_certify_walk_options;

GS_API void gs_certify_walk_options_init(gs_certify_walk_options *opts);

typedef enum gs_certify_walk_kind {
    GS_CERTIFY_WALK_FILE = 0,       /* a file to certify (an operand, or a *.gguf file found) */
    GS_CERTIFY_WALK_SET = 1,        /* part 1 of a split set found in a directory: certify it
                                       (the set opens whole); its other parts found there are
                                       not listed */
    GS_CERTIFY_WALK_ORPHAN = 2,     /* a later part of a split set whose part 1 is not in its
                                       directory: the set is incomplete */
    GS_CERTIFY_WALK_SKIPPED = 3,    /* a *.gguf name that is a FIFO, device or socket, or a
                                       symbolic link to a directory: a note, never read */
    GS_CERTIFY_WALK_UNREADABLE = 4  /* a path, directory or link that could not be read, or a
                                       bound was reached: not everything asked for was checked */
} gs_certify_walk_kind;

typedef struct gs_certify_walk_entry {
    size_t struct_size;        /* the walk sets it: sizeof(gs_certify_walk_entry) */
    gs_certify_walk_kind kind;
    const char *path;          /* operand, '/', the names below it; NUL-terminated, bytes from
                                  the command line and the file system: escape them to show */
    uint32_t part, count;      /* SET and ORPHAN: the part number and part count in the name */
    uint32_t parts_found;      /* SET: parts of the set in its directory, part 1 included */
    int errnum;                /* UNREADABLE: the errno of the failure, or 0 when a bound was
                                  reached */
    const char *reason;        /* ORPHAN, SKIPPED and UNREADABLE: why, our own text (the path
                                  is not in it); "" otherwise */
} gs_certify_walk_entry;

/* Called for each entry in walk order (operands in the order given; in a directory, names in
 * bytewise order, a subdirectory's entries at its place). The entry and its strings live until
 * the call returns. Return true to go on, false to stop the walk (gs_certify_walk then returns
 * GS_OK). */
typedef bool (*gs_certify_walk_fn)(void *ctx, const gs_certify_walk_entry *entry);

/* Walks the n paths. GS_OK when every entry was handed to fn (unreadable ones included: they
 * are entries, not failures of the walk); GS_E_INVALID_ARGUMENT (a NULL pointer, a NULL or empty
 * path) or GS_E_NO_MEMORY otherwise, with err filled. Memory: the names of the directories
 * open at one time (at most max_depth + 1 of them); descriptors: one per open directory. */
GS_API gs_status gs_certify_walk(const char *const *paths, size_t n,
                                 const gs_certify_walk_options *opts, gs_certify_walk_fn fn,
                                 void *ctx, gs_error *err);

/* ---- many files: one run, one report ---------------------------------------------------- */

typedef enum gs_certify_format {
    GS_CERTIFY_FORMAT_TEXT = 0,  /* each file's text report, then the summary table */
    GS_CERTIFY_FORMAT_JSON = 1,  /* {"files": [report, ...], "summary": {...}}
                                    (conformance/schema/certify-multi.schema.json) */
    GS_CERTIFY_FORMAT_SARIF = 2  /* one SARIF run with every file as an artifact */
} gs_certify_format;

typedef struct gs_certify_batch_options {
    size_t struct_size;               /* set by gs_certify_batch_options_init */
    gs_certify_format format;
    unsigned jobs;                    /* files certified at once (0 or 1: one at a time); one
                                         file alone gets them for its deep scan instead */
    gs_certify_walk_options walk;     /* directory bounds (its own struct_size is ignored) */
    const gs_sink *table;             /* JSON and SARIF: where the closing summary table goes as
                                         text (NULL: nowhere); text runs end with it anyway */
    const char *uri_base;             /* SARIF: artifact URIs are relative to this directory
                                         (uriBaseId SRCROOT); NULL: the current directory */
    gs_progress_fn progress;          /* files done of files found so far (may be NULL) */
    void *progress_ctx;
} gs_certify_batch_options;

/* Defaults: text, one job, the walk's default bounds, no table sink, URIs from the current
 * directory, no progress. */
GS_API void gs_certify_batch_options_init(gs_certify_batch_options *opts);

typedef struct gs_certify_batch_summary {
    size_t struct_size;   /* set by the caller: sizeof(gs_certify_batch_summary) */
    uint64_t files;       /* files and sets certified (reports written) */
    uint64_t certified;   /* of them, certified */
    uint64_t failed;      /* not certified, not GGUF at all, or a part without its part 1 */
    uint64_t unreadable;  /* paths that could not be read, bounds reached */
    uint64_t skipped;     /* FIFOs, devices, sockets, links to directories */
    int exit_code;        /* 2 when anything was unreadable, else 1 when anything failed, else
                             0: what `ggufsafe certify` exits with */
} gs_certify_batch_summary;

/* Walks paths (gs_certify_walk), certifies each file or set with opts (its jobs and progress
 * are the batch's to set), and writes one report to sink as the files finish: memory holds a
 * few reports at a time and one summary row per file, however many there are. GS_OK when the
 * report was written (whatever the verdicts: summary says them); GS_E_IO (the sink failed),
 * GS_E_NO_MEMORY, GS_E_INVALID_ARGUMENT or GS_E_KERNEL_UNAVAILABLE otherwise, with err. */
GS_API gs_status gs_certify_paths(const char *const *paths, size_t n,
                                  const gs_certify_options *opts,
                                  const gs_certify_batch_options *batch, const gs_sink *sink,
                                  gs_certify_batch_summary *summary, gs_error *err);

#ifdef __cplusplus
}
#endif

#endif /* GGUFSAFE_CERTIFY_H */
