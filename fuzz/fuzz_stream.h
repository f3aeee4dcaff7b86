/* For the harnesses of formats read both from a buffer and from a stream (manifests, policy
 * files, baselines): the input as a stream, and the check that both readers agree. The harness
 * defines _DEFAULT_SOURCE before its first include (fmemopen). */
#ifndef GGUFSAFE_FUZZ_STREAM_H
#define GGUFSAFE_FUZZ_STREAM_H

#ifndef _DEFAULT_SOURCE
#error "define _DEFAULT_SOURCE before any include: fuzz_stream.h uses fmemopen"
#endif

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_common.h"

/* The input as a read-only stream; NULL when it cannot be opened. fmemopen refuses a zero-sized
 * buffer, so an empty input is /dev/null's empty stream. */
static inline FILE *fuzz_input_stream(const uint8_t *data, size_t size)
{
    return size > 0 ? fmemopen((void *)(uintptr_t)data, size, "rb") : fopen("/dev/null", "rb");
}

/* The buffer's reader gave st and e, the stream's sst and es: the same status and, for a failure
 * other than memory, the same offset and detail. */
static inline void fuzz_same_outcome(gs_status st, const gs_error *e, gs_status sst,
                                     const gs_error *es)
{
    FUZZ_ASSERT_MSG(sst == st, "buffer: %s, stream: %s", gs_status_name(st), gs_status_name(sst));
    if (st != GS_OK && st != GS_E_NO_MEMORY) {
        FUZZ_ASSERT_MSG(es->offset == e->offset && strcmp(es->detail, e->detail) == 0,
                        "buffer: %llu '%s', stream: %llu '%s'", (unsigned long long)e->offset,
                        e->detail, (unsigned long long)es->offset, es->detail);
    }
}

/* A failure of a reader whose details are "LINE:COLUMN: why" (policy files, baselines): st is
 * GS_E_INVALID_ARGUMENT or GS_E_NO_MEMORY, no result came back (got_result false) and e carries
 * st; a malformed input's detail is text-safe and, for an input of at most max_bytes (a longer
 * one fails "1:1: longer than ...", at the bound), its offset lies inside the input and LINE is 1
 * plus the newlines before it, COLUMN 1 plus the bytes since the last of them. */
static inline void fuzz_line_column_failure(gs_status st, bool got_result, const gs_error *e,
                                            const uint8_t *data, size_t size, size_t max_bytes)
{
    FUZZ_ASSERT_MSG(st == GS_E_INVALID_ARGUMENT || st == GS_E_NO_MEMORY, "status %s",
                    gs_status_name(st));
    FUZZ_ASSERT(!got_result);
    FUZZ_ASSERT(e->status == st);
    if (st != GS_E_INVALID_ARGUMENT) {
        return;
    }
    unsigned long line = 0, column = 0;
    int used = 0;
    FUZZ_ASSERT_MSG(sscanf(e->detail, "%lu:%lu: %n", &line, &column, &used) == 2 && used > 0 &&
                        line >= 1 && column >= 1,
                    "detail '%s'", e->detail);
    FUZZ_ASSERT_MSG(fuzz_text_safe((const uint8_t *)e->detail, strlen(e->detail)),
                    "a raw control or hidden character in '%s'", e->detail);
    if (size > max_bytes) {
        return;
    }
    FUZZ_ASSERT_MSG(e->offset <= size, "offset %llu past the %zu-byte input",
                    (unsigned long long)e->offset, size);
    unsigned long lines = 1;
    size_t start = 0;
    for (size_t i = 0; i < e->offset; i++) {
        if (data[i] == '\n') {
            lines++;
            start = i + 1;
        }
    }
    FUZZ_ASSERT_MSG(line == lines && column == e->offset - start + 1,
                    "'%s' at offset %llu, which is %lu:%llu", e->detail,
                    (unsigned long long)e->offset, lines,
                    (unsigned long long)(e->offset - start + 1));
}

/* The harness's entry point for a format of type T read by parse_fn (a buffer) and read_fn (a
 * stream): both readers run on the input and must agree (fuzz_same_outcome, and count_fn of
 * both results when the stream's read succeeds); then on_failure(st, result, &e, data, size)
 * checks a failure, on_success(result, data, size) a success; both results are freed with
 * free_fn. One body for the manifest, policy and baseline harnesses. */
#define FUZZ_BUFFER_AND_STREAM_HARNESS(T, parse_fn, read_fn, count_fn, free_fn, on_failure,       \
                                       on_success)                                                 \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                                   \
    {                                                                                              \
        T *got = NULL;                                                                             \
        gs_error e;                                                                                \
        const gs_status st = parse_fn(data, size, &got, &e);                                       \
        T *streamed = NULL;                                                                        \
        gs_error es;                                                                               \
        FILE *f = fuzz_input_stream(data, size);                                                   \
        if (f != NULL) {                                                                           \
            const gs_status sst = read_fn(f, &streamed, &es);                                      \
            fclose(f);                                                                             \
            fuzz_same_outcome(st, &e, sst, &es);                                                   \
            if (sst == GS_OK) {                                                                    \
                FUZZ_ASSERT(count_fn(streamed) == count_fn(got));                                  \
            }                                                                                      \
        }                                                                                          \
        if (st != GS_OK) {                                                                         \
            on_failure(st, got, &e, data, size);                                                   \
        } else {                                                                                   \
            on_success(got, data, size);                                                           \
        }                                                                                          \
        free_fn(got);                                                                              \
        free_fn(streamed);                                                                         \
        return 0;                                                                                  \
    }

#endif
