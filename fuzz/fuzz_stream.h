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

#endif
