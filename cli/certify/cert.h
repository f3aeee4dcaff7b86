/* Certification of one GGUF file or split set: the run, its parts, its findings and its
 * statistics. The checks live one concern per file (cert_coverage.c, cert_compat.c,
 * cert_meta.c, cert_tokenizer.c, cert_template.c, cert_blocks.c, cert_payload.c, cert_split.c)
 * and add findings to the run; cert_order.c then puts them in report order (root causes first,
 * consequences under their cause) and cert_verdict.c says the verdict in one sentence; the
 * renderers (cert_render_*.c) turn the run into text, JSON or SARIF.
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
#include "ggufsafe_certify.h"
#include "part_guard.h"

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

typedef struct cert_part {
    char *path;          /* as opened */
    const char *label;   /* the file name within path: what reports show */
    gs_file *file;       /* lenient diagnostic handle: what the checks read; NULL if unreadable */
    gs_file *strict;     /* strict diagnostic handle; NULL when strict rejects the file */
    bool missing;        /* a split part that does not exist */
    uint32_t same_as;    /* the 1-based earlier part this part is (links to one file), or 0:
                            such a part is not read further (file NULL) */
    gs_layout layout;    /* of file, when there is one */
    /* the strict and lenient failures of the open (status GS_OK when it opened) */
    gs_error strict_err, lenient_err;
    /* what the file is (gs_detect), looked at when the open failed on its framing (statuses
     * 20-25); not_gguf when that failure means it is no GGUF at all (bad magic, empty) */
    bool detected_valid;
    gs_detected detected;
    bool not_gguf;
} cert_part;

/* Per-tensor statistics of the deep scan: what gs_certify_stats_at hands out (min, max and sum
 * over the finite decoded values: f32 for every decodable type, f64 for F64 tensors; integer
 * tensors have none), and what the scan and its findings need besides. */
typedef struct cert_stats {
    gs_certify_stats pub;     /* pub.name points at name */
    uint8_t *name;            /* copied raw bytes */
    uint64_t data_offset;
    uint32_t block_bytes;
    uint64_t first_bad_block;
    uint64_t first_odd_block;
    uint64_t first_nonfinite; /* element index, UINT64_MAX when none */
    gs_status read_status;    /* GS_OK, or why the scan stopped (the file shrank: truncated) */
    uint64_t read_offset;     /* where it stopped */
} cert_stats;

/* The run is the public report (ggufsafe_certify.h): gs_certify is this struct. */
typedef struct gs_certify cert_run;

struct gs_certify {
    gs_certify_options opt; /* jobs at least 1 */
    char *path;           /* as given (a copy): the path, or the label of a buffer */
    cert_part *parts;
    size_t n_parts;
    bool is_set;          /* opened as a split set from its first part */
    cli_part_guard guard; /* the parts' files and memory (lenient pool 0, strict pool 1) */
    gs_error failure;     /* why the run stopped when the environment failed a read */
    cert_findings findings;
    cert_kind kind;
    char *arch;           /* general.architecture (copied, NUL-terminated), or NULL */
    size_t arch_len;
    char *general_type;   /* general.type, or NULL */
    size_t general_type_len;
    cert_stats *stats;    /* --deep: one per tensor of every readable part, in file order */
    size_t n_stats;
    /* the file could not be read to its end while it was certified (it shrank, a read failed):
     * an environment failure, reported as a finding and by the command's exit status */
    bool read_failed;
    /* after cert_order: the finding the verdict names (CERT_NO_CAUSE: none), and the verdict in
     * one sentence (cert_verdict) */
    size_t root_cause;
    char verdict[768];
};

/* Opens path (the whole set when it is the first part of a split set, unless part_only) and
 * readies the run. GS_OK when there is something to certify (a file that is not GGUF is: its
 * report says what it is); otherwise the status, with err, that says there is not: the lenient
 * open's failure for a file that cannot be opened (the environment, status < 20),
 * GS_E_NO_MEMORY; and the environment's failure to open any part (descriptors, permissions, a
 * FIFO or device: never a finding), except a part that does not exist (split.part_missing). The
 * run is to be closed either way. */
gs_status cert_open(cert_run *r, const char *path, const gs_certify_options *opt, gs_error *err);
/* The same for a GGUF in memory (one file; label names it in reports). The buffer must outlive
 * the run. */
gs_status cert_open_memory(cert_run *r, const void *data, size_t size, const char *label,
                           const gs_certify_options *opt, gs_error *err);
/* Runs every check, the deep scan when asked. Returns the run's sticky status (GS_OK, or
 * GS_E_NO_MEMORY / GS_E_INTERNAL: the report is then incomplete and must not be shown). */
gs_status cert_check(cert_run *r);
void cert_close(cert_run *r);

/* 0 certified, 1 not (an error finding, or a warning when failing on warnings). */
int cert_exit_code(const cert_run *r);

/* A read of part `part` at offset failed after the open had checked that the bytes are in the
 * file: the file changed under the run (GS_E_TRUNCATED, GS_E_FILE_CHANGED), or the environment
 * failed it (GS_E_IO, descriptors). That is no finding about the file: the run stops (its
 * sticky status, GS_E_FILE_CHANGED for a file that changed) and its public call returns the
 * error, naming what was being read (`what`). */
void cert_read_failed(cert_run *r, uint32_t part, gs_status st, uint64_t offset,
                      const char *what);

/* An allocation of a check: count * elem bytes (at least one), or NULL with GS_E_NO_MEMORY
 * recorded in the run (the check then stops; the run's status says the report is incomplete). */
void *cert_alloc(cert_run *r, size_t count, size_t elem);

/* Sets kind, arch and general_type from the metadata (no findings); runs first. */
void cert_describe(cert_run *r);

/* The individual checks (in the order cert_check runs them). */
void cert_check_reader(cert_run *r);    /* cert_reader.c: the reader's own findings */
void cert_check_coverage(cert_run *r);  /* cert_coverage.c */
void cert_check_compat(cert_run *r);    /* cert_compat.c */
void cert_check_meta(cert_run *r);      /* cert_meta.c: kind, required and typed keys */
void cert_check_tokenizer(cert_run *r); /* cert_tokenizer.c */
void cert_check_template(cert_run *r);  /* cert_template.c: chat templates that can run code */
void cert_check_blocks(cert_run *r);    /* cert_blocks.c: block_count against blk.N */
void cert_check_split(cert_run *r);     /* cert_split.c */
void cert_check_payload(cert_run *r);   /* cert_payload.c: --deep, always last */

/* After the checks: report order and the causes (cert_order.c), then the verdict's sentence
 * (cert_verdict.c). */
void cert_order(cert_run *r);
void cert_verdict(cert_run *r);
/* Between them: the findings the run's baseline has are marked (cert_baseline.c). */
void cert_baseline_mark(cert_run *r);

/* Where in the metadata a file of file_size bytes whose reader error e ran off its end ends:
 * "header", "key-values", "tensor infos" or "metadata" (cert_reader.c). */
const char *cert_metadata_section(const gs_error *e, uint64_t file_size);

/* A finding's code names reader status st ("reader.<name of st>"). */
bool cert_is_reader_code(const cert_finding *f, gs_status st);

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
