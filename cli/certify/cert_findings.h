/* The findings of a certification run, in the order the checks found them. Each is
 * {code, severity, profiles broken, part, byte offset, key or tensor, message}. A file can be
 * crafted to produce millions of identical findings, so at most CERT_MAX_PER_CODE of each code
 * are kept and the rest only counted (per code and profile set), which keeps reports bounded and
 * the exit status exact. */
#ifndef GGUFSAFE_CERT_FINDINGS_H
#define GGUFSAFE_CERT_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cert_codes.h"
#include "ggufsafe.h"

#define CERT_MAX_PER_CODE 100
#define CERT_CODE_MAX 48      /* longest code plus NUL: "reader.GS_E_SPLIT_TENSOR_COUNT_MISMATCH" */
#define CERT_NAME_MAX 256     /* key and tensor names kept in findings (longer ones are cut) */

typedef enum cert_subject {
    CERT_SUBJECT_NONE = 0,
    CERT_SUBJECT_KEY,
    CERT_SUBJECT_TENSOR
} cert_subject;

#define CERT_NO_PART UINT32_MAX   /* a finding about the set, not one part */
#define CERT_NO_OFFSET UINT64_MAX /* a finding without a byte offset */

typedef struct cert_finding {
    char code[CERT_CODE_MAX];
    cert_severity severity; /* the code's severity */
    unsigned profiles;      /* CERT_STRICT | CERT_LENIENT */
    uint32_t part;          /* index into the run's parts, or CERT_NO_PART */
    uint64_t offset;        /* or CERT_NO_OFFSET */
    cert_subject subject;
    uint8_t *name;          /* raw bytes of the key or tensor name (escaped when rendered) */
    size_t name_len;
    bool name_cut;          /* longer than CERT_NAME_MAX: cut */
    bool name_is_text;      /* the reader's context: escaped already, shown as it is */
    char *message;          /* our text; anything quoted from the file is already escaped */
} cert_finding;

/* Findings of one code (and profile set) beyond the cap. */
typedef struct cert_omitted {
    char code[CERT_CODE_MAX];
    cert_severity severity;
    unsigned profiles;
    uint64_t kept;
    uint64_t omitted;
} cert_omitted;

typedef struct cert_findings {
    cert_finding *items;
    size_t n, cap;
    cert_omitted *codes; /* one per (code, profiles) seen, in first-seen order */
    size_t n_codes, cap_codes;
} cert_findings;

void cert_findings_init(cert_findings *fs);
void cert_findings_free(cert_findings *fs);

/* Adds a finding of a code from the table (a bug aborts: unknown code). name may be NULL. */
void cert_add(cert_findings *fs, const char *code, uint32_t part, uint64_t offset,
              cert_subject subject, const void *name, size_t name_len, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));

/* Adds "reader.<STATUS>" for a reader error, breaking the given profiles. */
void cert_add_reader(cert_findings *fs, const gs_error *e, uint32_t part, unsigned profiles);

/* The severity a finding counts with under profile: its own when it breaks that profile, info
 * otherwise (a strict-only problem is a note when certifying for lenient). */
cert_severity cert_effective(cert_severity severity, unsigned profiles, gs_profile profile);

/* Findings per effective severity under profile, the omitted ones included. */
void cert_count(const cert_findings *fs, gs_profile profile, uint64_t counts[3]);

/* Escapes text from a file for a message: control bytes and invalid UTF-8 as \xHH, at most
 * max_src source bytes with an ellipsis when cut. out holds 4 * max_src + 8 bytes. */
void cert_escape(char *out, size_t cap, const void *src, size_t n, size_t max_src);

/* realloc that ends the program with "error: out of memory" (exit 2) instead of failing. */
void *cert_xrealloc(void *p, size_t n);

#endif
