/* The baseline reader (gs_certify_baseline_parse and gs_certify_baseline_read: what
 * `ggufsafe certify --baseline REPORT` reads first) and the bounded JSON reader under it, on
 * arbitrary bytes. The whole input is the baseline; no options trailer. Oracles:
 *   - the status is GS_OK, GS_E_INVALID_ARGUMENT or GS_E_NO_MEMORY, and a failure returns no
 *     baseline;
 *   - a malformed baseline's detail is "LINE:COLUMN: why", text-safe, and names the place its
 *     offset does (LINE is 1 plus the newlines before the offset, COLUMN 1 plus the bytes since
 *     the last of them), the offset inside the input;
 *   - the two ways in (a buffer, a stream) give the same status, offset and detail;
 *   - a baseline that parses is a set: at most GS_CERTIFY_BASELINE_MAX_FINDINGS pairs, in strictly
 *     increasing bytewise order of (URI, fingerprint), each found by gs_certify_baseline_has,
 *     and a pair changed by one byte is not (unless it is another pair of the set);
 *   - an input that is not JSON at all (the first non-blank byte is not '{' or '[') never
 *     parses. */
#define _DEFAULT_SOURCE /* fmemopen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_stream.h"
#include "ggufsafe_certify.h"

static void check_failure(gs_status st, const gs_certify_baseline *b, const gs_error *e,
                          const uint8_t *data, size_t size)
{
    fuzz_line_column_failure(st, b != NULL, e, data, size, GS_CERTIFY_BASELINE_MAX_BYTES);
}

static void check_baseline(const gs_certify_baseline *b, const uint8_t *data, size_t size)
{
    size_t i = 0;
    while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r')) {
        i++;
    }
    FUZZ_ASSERT_MSG(i < size && (data[i] == '{' || data[i] == '['),
                    "parsed, though its first value is not an object");
    const size_t n = gs_certify_baseline_count(b);
    FUZZ_ASSERT(n <= GS_CERTIFY_BASELINE_MAX_FINDINGS);
    const char *prev_uri = NULL, *prev_fp = NULL;
    for (size_t k = 0; k < n; k++) {
        const char *uri = NULL, *fp = NULL;
        FUZZ_ASSERT(gs_certify_baseline_at(b, k, &uri, &fp) == GS_OK);
        FUZZ_ASSERT(uri != NULL && fp != NULL);
        if (prev_uri != NULL) {
            int c = strcmp(prev_uri, uri);
            FUZZ_ASSERT_MSG(c < 0 || (c == 0 && strcmp(prev_fp, fp) < 0),
                            "pair %zu is not after pair %zu", k, k - 1);
        }
        FUZZ_ASSERT(gs_certify_baseline_has(b, uri, fp));
        /* one byte more: in the set only when it is the next pair */
        size_t len = strlen(fp);
        char *longer = malloc(len + 2);
        FUZZ_ASSERT(longer != NULL);
        memcpy(longer, fp, len);
        longer[len] = '~';
        longer[len + 1] = '\0';
        bool in = false;
        for (size_t m = k + 1; m < n && !in; m++) {
            const char *u2, *f2;
            FUZZ_ASSERT(gs_certify_baseline_at(b, m, &u2, &f2) == GS_OK);
            if (strcmp(u2, uri) != 0) {
                break;
            }
            in = strcmp(f2, longer) == 0;
        }
        FUZZ_ASSERT(gs_certify_baseline_has(b, uri, longer) == in);
        free(longer);
        prev_uri = uri;
        prev_fp = fp;
    }
    FUZZ_ASSERT(gs_certify_baseline_at(b, n, NULL, NULL) == GS_E_OUT_OF_RANGE);
}

FUZZ_BUFFER_AND_STREAM_HARNESS(gs_certify_baseline, gs_certify_baseline_parse,
                               gs_certify_baseline_read, gs_certify_baseline_count,
                               gs_certify_baseline_free, check_failure, check_baseline)
