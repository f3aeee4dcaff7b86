/* The finding codes: one table of every code certification can report, with its severity, the
 * profiles a finding of it breaks, one line saying what it means, and a hint for a person (what
 * it means for them and what to do), and the section of docs/certify.md that documents it. Each
 * reader status has its own hint too. The tables of docs/certify.md are checked against these
 * (test_certify_units). Codes are stable strings in namespaces: reader.* (the reader's own status
 * names, and reader.not_gguf), layout.*, compat.*, meta.*, payload.*, split.*. */
#ifndef GGUFSAFE_CERT_CODES_H
#define GGUFSAFE_CERT_CODES_H

#include <stdbool.h>
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

/* Where the codes are documented: the help of code C is CERT_HELP_BASE C. */
#define CERT_HELP_BASE "docs/certify.md#"

typedef struct cert_code {
    const char *code;
    cert_severity severity;
    unsigned profiles;
    const char *summary;
    const char *hint; /* plain words: what it means for the user, and what to do */
    const char *help; /* CERT_HELP_BASE code */
} cert_code;

extern const cert_code cert_codes[];
extern const size_t cert_code_count;

/* The row of code ("reader.GS_E_X" gives the reader row); NULL for unknown codes. */
const cert_code *cert_code_find(const char *code);

/* The row as a finding of code shows it: the table's row, or for "reader.GS_E_X" the reader row
 * with that status's message as summary and its own hint and help. False for unknown codes. */
bool cert_code_row(const char *code, cert_code *out);

/* A reader status's hint and help ("docs/certify.md#reader.GS_E_X"); every status has them. */
const char *cert_reader_hint(gs_status status);
const char *cert_reader_help(gs_status status);

const char *cert_severity_name(cert_severity s); /* "error", "warning", "info" */
/* "strict, lenient", "strict", "lenient" or "none". */
const char *cert_profiles_text(unsigned profiles);

#endif
