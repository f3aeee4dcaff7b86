/* Policy files applied to findings (cert_policy.c; the format is in ggufsafe_certify.h): every
 * finding passes through cert_policy_apply as it is added (cert_findings.c), before the
 * per-code cap, so counts, order and verdict follow the policy. */
#ifndef GGUFSAFE_CERT_POLICY_H
#define GGUFSAFE_CERT_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "cert_codes.h"
#include "ggufsafe_certify.h"

typedef enum cert_policy_effect {
    CERT_POLICY_NONE = 0, /* no rule matches: the finding as the check made it */
    CERT_POLICY_IGNORED,  /* an ignore rule: the finding is dropped */
    CERT_POLICY_CHANGED   /* a warn or error rule: *severity (and *profiles) set */
} cert_policy_effect;

/* What policy (NULL: none) does to a finding of code naming name[0..name_len) (NULL: no name;
 * raw bytes, or already escaped text when name_is_text): the glob is matched against the name as
 * reports show it. A re-graded note (profiles 0) breaks both profiles. */
cert_policy_effect cert_policy_apply(const gs_certify_policy *policy, const char *code,
                                     const void *name, size_t name_len, bool name_is_text,
                                     cert_severity *severity, unsigned *profiles);

#endif
