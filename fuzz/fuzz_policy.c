/* The policy-file reader (gs_certify_policy_parse and gs_certify_policy_read: what
 * `ggufsafe certify --policy FILE` reads first) and its glob matcher, on arbitrary bytes. The
 * whole input is the policy; no options trailer. Oracles:
 *   - the status is GS_OK, GS_E_INVALID_ARGUMENT or GS_E_NO_MEMORY, and a failure returns no
 *     policy;
 *   - a malformed policy's detail is "LINE:COLUMN: why", text-safe, and names the place its
 *     offset does: LINE is 1 plus the newlines before the offset, COLUMN 1 plus the bytes since
 *     the last of them;
 *   - the two ways in (a buffer, a stream) give the same status, offset and detail;
 *   - a policy that parses has at most GS_CERTIFY_POLICY_MAX_RULES rules and no more than the
 *     input has lines; every rule line of it matches: "ACTION CODE GLOB" matches a finding of
 *     CODE named GLOB itself (an exact name always matches), "ACTION CODE" a finding of CODE
 *     without a name; and matching the input's own words against each other finishes (the
 *     matcher's steps are bounded, so a slow input is a timeout the fuzzer reports). */
#define _DEFAULT_SOURCE /* fmemopen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_stream.h"
#include "ggufsafe_certify.h"

static void check_failure(gs_status st, const gs_certify_policy *p, const gs_error *e,
                          const uint8_t *data, size_t size)
{
    fuzz_line_column_failure(st, p != NULL, e, data, size, GS_CERTIFY_POLICY_MAX_BYTES);
}

/* The words of line[0..n) up to a word starting with '#': at most 4 (a policy has 2 or 3). */
static size_t words(const uint8_t *line, size_t n, char w[4][GS_CERTIFY_POLICY_MAX_LINE + 1])
{
    size_t k = 0;
    for (size_t i = 0; i < n && k < 4;) {
        if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
            i++;
            continue;
        }
        if (line[i] == '#') {
            break;
        }
        size_t j = i;
        while (j < n && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') {
            j++;
        }
        memcpy(w[k], line + i, j - i);
        w[k][j - i] = '\0';
        k++;
        i = j;
    }
    return k;
}

static void check_policy(const gs_certify_policy *p, const uint8_t *data, size_t size)
{
    size_t lines = 0;
    for (size_t i = 0; i < size; i++) {
        lines += data[i] == '\n';
    }
    lines += size > 0 && data[size - 1] != '\n';
    const size_t rules = gs_certify_policy_rule_count(p);
    FUZZ_ASSERT(rules <= GS_CERTIFY_POLICY_MAX_RULES);
    FUZZ_ASSERT_MSG(rules <= lines, "%zu rules in %zu lines", rules, lines);
    static char w[4][GS_CERTIFY_POLICY_MAX_LINE + 1];
    static char prev[GS_CERTIFY_POLICY_MAX_LINE + 1];
    prev[0] = '\0';
    size_t seen = 0;
    for (size_t i = 0; i < size;) {
        size_t j = i;
        while (j < size && data[j] != '\n') {
            j++;
        }
        size_t k = words(data + i, j - i, w);
        if (k >= 2) {
            seen++;
            gs_certify_action a = (gs_certify_action)-1;
            FUZZ_ASSERT_MSG(gs_certify_policy_match(p, w[1], k == 3 ? w[2] : NULL, &a),
                            "the rule of line '%s %s %s' matches nothing", w[0], w[1],
                            k == 3 ? w[2] : "");
            FUZZ_ASSERT(a == GS_CERTIFY_ACTION_IGNORE || a == GS_CERTIFY_ACTION_WARN ||
                        a == GS_CERTIFY_ACTION_ERROR);
            if (k == 3) {
                /* another line's glob as the name: any answer, in bounded steps */
                (void)gs_certify_policy_match(p, w[1], prev, NULL);
                memcpy(prev, w[2], strlen(w[2]) + 1);
            }
        }
        i = j + 1;
    }
    FUZZ_ASSERT_MSG(seen == rules, "%zu rule lines, %zu rules", seen, rules);
}

FUZZ_BUFFER_AND_STREAM_HARNESS(gs_certify_policy, gs_certify_policy_parse,
                               gs_certify_policy_read, gs_certify_policy_rule_count,
                               gs_certify_policy_free, check_failure, check_policy)
