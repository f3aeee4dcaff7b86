/* The findings of a certification run: in the order the checks found them until cert_order
 * (cert_order.c) puts them in report order. Each is {code, severity, profiles broken, part, byte
 * offset, key or tensor, message, the code's hint and help, the finding it follows from}. A
 * file can be
 * crafted to produce millions of identical findings, so at most CERT_MAX_PER_CODE of each code
 * are kept and the rest only counted (per code and profile set), which keeps reports bounded and
 * the exit status exact. */
#ifndef GGUFSAFE_CERT_FINDINGS_H
#define GGUFSAFE_CERT_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cert_codes.h"
#include "ggufsafe_certify.h"
#include "ggufsafe.h"

#define CERT_MAX_PER_CODE GS_CERTIFY_MAX_PER_CODE
#define CERT_CODE_MAX 48      /* longest code plus NUL: "reader.GS_E_SPLIT_TENSOR_COUNT_MISMATCH" */
#define CERT_NAME_MAX GS_CERTIFY_NAME_MAX

typedef gs_certify_subject cert_subject;
#define CERT_SUBJECT_NONE GS_CERTIFY_SUBJECT_NONE
#define CERT_SUBJECT_KEY GS_CERTIFY_SUBJECT_KEY
#define CERT_SUBJECT_TENSOR GS_CERTIFY_SUBJECT_TENSOR

#define CERT_NO_PART GS_CERTIFY_NO_PART
#define CERT_NO_OFFSET GS_CERTIFY_NO_OFFSET

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
    const char *hint;       /* the code's (static): what it means, what to do */
    const char *help;       /* the code's section of docs/certify.md (static) */
    size_t caused_by;       /* index of the finding it is a consequence of, or CERT_NO_CAUSE */
    bool baselined;         /* the run's baseline has it: it counts in no severity */
} cert_finding;

#define CERT_NO_CAUSE GS_CERTIFY_NO_CAUSE

/* Findings of one code (and profile set) beyond the cap. */
typedef struct cert_omitted {
    char code[CERT_CODE_MAX];
    cert_severity severity;
    unsigned profiles;
    uint64_t kept;
    uint64_t omitted;
    uint64_t baselined;     /* of the kept, those the baseline has (they count nowhere) */
} cert_omitted;

typedef struct cert_findings {
    cert_finding *items;
    size_t n, cap;
    cert_omitted *codes; /* one per (code, profiles) seen, in first-seen order */
    size_t n_codes, cap_codes;
    /* Sticky: GS_OK, GS_E_NO_MEMORY (a finding, or a check's own buffer, could not be
     * allocated), or GS_E_INTERNAL (a check used a code that is not in the table: a bug). Once
     * set, nothing more is added and the run's public call returns it: a report with findings
     * silently missing would be a lie. */
    gs_status status;
    char bad_code[CERT_CODE_MAX]; /* GS_E_INTERNAL: the code */
    /* The run's policy (NULL: none), applied to each finding as it is added (cert_policy.h):
     * findings it dropped and findings it re-graded. */
    const gs_certify_policy *policy;
    uint64_t policy_ignored, policy_changed;
    /* kept findings the run's baseline has (cert_baseline_mark) */
    uint64_t baseline_suppressed;
} cert_findings;

void cert_findings_init(cert_findings *fs);
void cert_findings_free(cert_findings *fs);

/* Adds a finding of a code from the table. name may be NULL. An unknown code is a bug: it sets
 * the status to GS_E_INTERNAL. */
void cert_add(cert_findings *fs, const char *code, uint32_t part, uint64_t offset,
              cert_subject subject, const void *name, size_t name_len, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));

/* Adds "reader.<STATUS>" for a reader error, breaking the given profiles. */
void cert_add_reader(cert_findings *fs, const gs_error *e, uint32_t part, unsigned profiles);

/* The severity a finding counts with under profile: its own when it breaks that profile, info
 * otherwise (a strict-only problem is a note when certifying for lenient). */
cert_severity cert_effective(cert_severity severity, unsigned profiles, gs_profile profile);

/* Findings per effective severity under profile, the omitted ones included, those in the run's
 * baseline left out. */
void cert_count(const cert_findings *fs, gs_profile profile, uint64_t counts[3]);

/* Marks finding i as one the baseline has (once): it stays in the report and counts nowhere. */
void cert_findings_baselined(cert_findings *fs, size_t i);

/* Records a failure of a check (GS_E_NO_MEMORY); the first one stays. */
void cert_findings_fail(cert_findings *fs, gs_status status);

#endif
