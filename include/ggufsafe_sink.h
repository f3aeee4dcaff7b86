/*
 * ggufsafe tool libraries: what certification (ggufsafe_certify.h), manifests
 * (ggufsafe_manifest.h) and comparison (ggufsafe_diff.h) share. Part of libggufsafe_certify
 * (CMake: ggufsafe::certify, pkg-config: ggufsafe-certify).
 *
 * Conventions of the three APIs:
 * - Every function that can fail returns a gs_status and, given a gs_error, says why in it
 *   (status, byte offset, context, detail). Nothing prints, exits or aborts; out of memory is
 *   GS_E_NO_MEMORY, a failed read or write GS_E_IO with the errno text in the detail.
 * - Results are opaque handles, freed by their own *_free (NULL is a no-op). A handle is
 *   immutable once returned: any number of threads may read one at a time; distinct handles are
 *   independent.
 * - Structs grow only at their end. Options structs are set up by their *_init, which fills
 *   struct_size; a struct a call fills (a finding, a tensor's result) has struct_size set by the
 *   caller to sizeof the struct it was compiled with, and the library fills only that much, so a
 *   program built against an older header keeps working with a newer library.
 * - Strings returned in these structs point into the handle and live as long as it does. Bytes
 *   that came from a file (key and tensor names) are raw and not NUL-terminated unless said
 *   otherwise: escape them before showing them.
 */
#ifndef GGUFSAFE_SINK_H
#define GGUFSAFE_SINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ggufsafe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a report writer (gs_certify_write_json, gs_manifest_write, gs_diff_write_text, ...) puts
 * its bytes. The writers call write with consecutive pieces of the report, in order, on the
 * calling thread; it returns 0 when it took all n bytes, otherwise an errno value: the writer
 * then stops and returns GS_E_IO with that error's text in the detail. */
typedef int (*gs_sink_write_fn)(void *ctx, const void *data, size_t n);

typedef struct gs_sink {
    size_t struct_size; /* sizeof(gs_sink); set by gs_sink_init and gs_sink_file */
    gs_sink_write_fn write;
    void *ctx;
} gs_sink;

/* A sink that calls write(ctx, ...). */
GS_API void gs_sink_init(gs_sink *sink, gs_sink_write_fn write, void *ctx);
/* A sink that fwrite()s to file (which must stay open while the sink is used). A short write is
 * errno's error, or EIO when errno says nothing. The stream is not flushed: the caller flushes
 * or closes it and checks that too. */
GS_API void gs_sink_file(gs_sink *sink, FILE *file);

/* Progress of a long run (certification's deep scan, hashing, comparison), for a progress bar.
 * The callback is called often (after each chunk of work), never at the same time twice, and
 * possibly from a worker thread; it must not call back into the library. */
typedef struct gs_progress {
    size_t struct_size;
    size_t part;     /* the part being worked on when the work goes part by part (hash, verify);
                        0 when one pass covers every part (certify --deep, diff) */
    size_t n_parts;  /* how many parts are worked on one after another (1 for one pass) */
    uint64_t done;   /* units done so far in this part: bytes (certify, hash), elements (diff) */
    uint64_t total;  /* units in this part */
} gs_progress;

typedef void (*gs_progress_fn)(void *ctx, const gs_progress *progress);

#ifdef __cplusplus
}
#endif

#endif /* GGUFSAFE_SINK_H */
