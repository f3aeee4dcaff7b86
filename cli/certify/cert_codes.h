/* The finding codes: one table of every code certification can report, with its severity, the
 * profiles a finding of it breaks, and one line saying what it means. The table of docs/certify.md
 * is checked against it (test_certify_units). Codes are stable strings in namespaces: reader.*
 * (the reader's own status names), layout.*, compat.*, meta.*, payload.*, split.*. */
#ifndef GGUFSAFE_CERT_CODES_H
#define GGUFSAFE_CERT_CODES_H

#include <stddef.h>

#include "ggufsafe_certify.h"

/* The public names (ggufsafe_certify.h), as the checks spell them. */
typedef gs_certify_severity cert_severity;
#define CERT_INFO GS_CERTIFY_INFO
#define CERT_WARNING GS_CERTIFY_WARNING
#define CERT_ERROR GS_CERTIFY_ERROR

/* Profiles a finding breaks (a bit set). Strict is the GGUF spec plus what llama.cpp requires;
 * lenient is what memory-safe use of the file needs. A finding that breaks neither is a note. */
#define CERT_STRICT GS_CERTIFY_STRICT
#define CERT_LENIENT GS_CERTIFY_LENIENT
#define CERT_BOTH (CERT_STRICT | CERT_LENIENT)

/* The table row of the reader's codes, "reader.<STATUS>": the profiles come from the reader's
 * two opens, per finding. */
#define CERT_READER_PREFIX "reader."
#define CERT_READER_ROW "reader.<STATUS>"
#define CERT_PROFILES_PER_FINDING GS_CERTIFY_PROFILES_PER_FINDING

typedef struct cert_code {
    const char *code;
    cert_severity severity;
    unsigned profiles;
    const char *summary;
} cert_code;

extern const cert_code cert_codes[];
extern const size_t cert_code_count;

/* The row of code ("reader.GS_E_X" gives the reader row); NULL for unknown codes. */
const cert_code *cert_code_find(const char *code);

const char *cert_severity_name(cert_severity s); /* "error", "warning", "info" */
/* "strict, lenient", "strict", "lenient" or "none". */
const char *cert_profiles_text(unsigned profiles);

#endif
