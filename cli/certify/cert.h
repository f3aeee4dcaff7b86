/* Certification of one GGUF file or split set: the run, its parts, its findings and its
 * statistics. The checks live one concern per file (cert_coverage.c, cert_compat.c,
 * cert_meta.c, cert_tokenizer.c, cert_blocks.c, cert_payload.c, cert_split.c) and add findings
 * to the run; the renderers (cert_render_*.c) turn the run into text, JSON or SARIF.
 *
 * Every part is opened twice in the reader's diagnostic mode, strict and lenient: the lenient
 * handle is what every check reads (it opens whatever memory-safe addressing allows), and the
 * two sets of reader results say which profiles each structural finding breaks (strict is a
 * superset of lenient). Checks read file bytes only through the getters and gs_file_read; the
 * deep scan only through gs_file_read, so a file that shrinks while it is certified gives a
 * finding, never a SIGBUS. */
#ifndef GGUFSAFE_CERT_H
#define GGUFSAFE_CERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cert_findings.h"
#include "ggufsafe.h"

/* What the file is, from general.type (and, without it, from its contents). Rules meant for
 * full models (block_count) are applied to models only. */
typedef enum cert_kind {
    CERT_KIND_MODEL = 0,
    CERT_KIND_ADAPTER,   /* general.type "adapter": LoRA, control vectors */
    CERT_KIND_PROJECTOR, /* general.type "mmproj" or architecture "clip" */
    CERT_KIND_VOCAB,     /* general.type "vocab", or a tokenizer and no tensors */
    CERT_KIND_IMATRIX,   /* general.type "imatrix" */
    CERT_KIND_UNKNOWN    /* general.type names something else: universal rules only */
} cert_kind;

const char *cert_kind_name(cert_kind kind);

typedef struct cert_options {
    gs_profile profile;
    bool deep;            /* scan every block of every tensor */
    unsigned jobs;        /* threads for the deep scan (>= 1) */
    bool part_only;       /* certify the first part of a set on its own */
    bool fail_on_warning; /* exit 1 on warnings too */
    /* Called after each chunk of the deep scan (by the thread that scanned it, one call at a
     * time, before that thread takes another chunk) with the bytes done and the total; may be
     * NULL. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
} cert_options;

typedef struct cert_part {
    char *path;          /* as opened */
    const char *label;   /* the file name within path: what reports show */
    gs_file *file;       /* lenient diagnostic handle: what the checks read; NULL if unreadable */
    gs_file *strict;     /* strict diagnostic handle; NULL when strict rejects the file */
    bool missing;        /* a split part that could not be opened at all */
    gs_layout layout;    /* of file, when there is one */
    /* the strict and lenient failures of the open (status GS_OK when it opened) */
    gs_error strict_err, lenient_err;
} cert_part;

/* Per-tensor statistics of the deep scan. min, max and mean are over the finite decoded values
 * (f32 for every decodable type, f64 for F64 tensors); integer tensors have none. */
typedef struct cert_stats {
    uint32_t part;
    size_t tensor;
    uint8_t *name;            /* copied raw bytes */
    size_t name_len;
    int32_t type;
    uint64_t data_offset;
    uint32_t block_bytes;
    uint64_t elements;
    uint64_t blocks;
    bool scanned;             /* false: data not in the file, or aliasing another tensor's */
    bool has_values;          /* decodable to f32, or F64 */
    bool is_f64;
    uint64_t zero_blocks;     /* blocks whose bytes are all zero (elements, for plain types) */
    uint64_t bad_scale_blocks;/* ggml_validate_row_data would reject them */
    uint64_t first_bad_block;
    uint64_t odd_scale_blocks;/* NVFP4 scale bytes outside 0x00..0x7E */
    uint64_t first_odd_block;
    uint64_t nan, inf, finite;
    uint64_t first_nonfinite; /* element index, UINT64_MAX when none */
    double min, max, sum;
    gs_status read_status;    /* GS_OK, or why the scan stopped (the file shrank: truncated) */
    uint64_t read_offset;     /* where it stopped */
} cert_stats;

typedef struct cert_run {
    cert_options opt;
    const char *path;     /* as given on the command line */
    cert_part *parts;
    size_t n_parts;
    bool is_set;          /* opened as a split set from its first part */
    cert_findings findings;
    cert_kind kind;
    char *arch;           /* general.architecture (copied, NUL-terminated), or NULL */
    size_t arch_len;
    char *general_type;   /* general.type, or NULL */
    size_t general_type_len;
    cert_stats *stats;    /* --deep: one per tensor of every readable part, in file order */
    size_t n_stats;
} cert_run;

/* Opens path (the whole set when it is the first part of a split set, unless part_only).
 * Returns -1 when there is something to certify; otherwise prints the error line and returns
 * the exit code 2 (I/O error, or not a GGUF file at all). */
int cert_open(cert_run *r, const char *path, const cert_options *opt);
/* The same for a GGUF in memory (one file; label names it in reports), for fuzzing and tests.
 * Returns -1, or 2 without printing anything when it is not a GGUF at all. The buffer must
 * outlive the run. */
int cert_open_memory(cert_run *r, const void *data, size_t size, const char *label,
                     const cert_options *opt);
/* Runs every check, the deep scan when asked. */
void cert_check(cert_run *r);
void cert_close(cert_run *r);

/* 0 certified, 1 not (an error finding, or a warning with fail_on_warning). */
int cert_exit_code(const cert_run *r);

/* Sets kind, arch and general_type from the metadata (no findings); runs first. */
void cert_describe(cert_run *r);

/* The individual checks (in the order cert_check runs them). */
void cert_check_reader(cert_run *r);    /* cert_reader.c: the reader's own findings */
void cert_check_coverage(cert_run *r);  /* cert_coverage.c */
void cert_check_compat(cert_run *r);    /* cert_compat.c */
void cert_check_meta(cert_run *r);      /* cert_meta.c: kind, required and typed keys */
void cert_check_tokenizer(cert_run *r); /* cert_tokenizer.c */
void cert_check_blocks(cert_run *r);    /* cert_blocks.c: block_count against blk.N */
void cert_check_split(cert_run *r);     /* cert_split.c */
void cert_check_payload(cert_run *r);   /* cert_payload.c: --deep, always last */

/* The file whose metadata the semantic checks read: the only file, or part 1 of a set; NULL
 * when it cannot be read (or when a later part is certified alone). */
const gs_file *cert_meta_file(const cert_run *r);

/* Helpers shared by the checks. */
/* Looks up an exact key in f; true and *index when present. */
bool cert_find_key(const gs_file *f, const char *key, size_t *index);
/* A scalar of any integer type as a signed 128-bit-safe pair: true when it is an integer
 * scalar; *negative set for values below zero (then *value is undefined). */
bool cert_get_integer(const gs_file *f, size_t index, uint64_t *value, bool *negative);
/* True for integer value types (u8..i64, not bool). */
bool cert_is_integer_type(gs_value_type t);

#endif
