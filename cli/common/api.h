/* What the public functions of the tool libraries (ggufsafe_certify.h, ggufsafe_manifest.h,
 * ggufsafe_diff.h) share: filling a gs_error (the reader's gsi_fail), handing out a struct the
 * caller sized
 * (struct_size first), and the allocations of the engines, which return NULL or false on failure
 * so that the run can record GS_E_NO_MEMORY and stop, never exit. */
#ifndef GGUFSAFE_CLI_API_H
#define GGUFSAFE_CLI_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "error.h" /* gsi_fail: errors filled as the reader fills them */
#include "ggufsafe.h"
#include "ggufsafe_sink.h"

/* The size of a public struct's first published version (through its member `last`): callers
 * built against it keep working. */
#define CLI_MIN_SIZE(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))

/* Copies the full_size bytes of full into out, whose first member is the size_t struct_size the
 * caller set: only min(struct_size, full_size) bytes, struct_size itself kept. GS_OK, or
 * GS_E_INVALID_ARGUMENT when out is NULL or struct_size is below min_size (the size of the
 * struct's first published version). */
gs_status cli_copy_out(void *out, const void *full, size_t full_size, size_t min_size);

/* The options a caller passed (given, may be NULL: the defaults): full, which holds the
 * defaults already, gets the first min(struct_size, full_size) bytes of given (an older, shorter
 * struct leaves the newer members at their defaults), and its struct_size becomes full_size.
 * GS_E_INVALID_ARGUMENT, with "<what>: struct_size N" in err, when given's struct_size is below
 * min_size. */
gs_status cli_take_options(void *full, size_t full_size, const void *given, size_t min_size,
                           const char *what, gs_error *err);

/* GS_E_INVALID_ARGUMENT with "a required argument is NULL" in err. */
gs_status cli_null_argument(gs_error *err);

/* An accessor's index check: GS_E_INVALID_ARGUMENT for a NULL handle, GS_E_OUT_OF_RANGE for
 * i >= n, else GS_OK. */
gs_status cli_index(const void *handle, size_t i, size_t n);

/* GS_OK when the decoder path decodes would take is usable, else GS_E_KERNEL_UNAVAILABLE (with
 * the path GGUFSAFE_KERNEL asks for in err): runs that decode refuse before any work. */
gs_status cli_kernel_usable(gs_error *err);

/* Room for `need` elements of `elem` bytes in *items (capacity *cap, doubling from 16): true, or
 * false when the size overflows or realloc fails (*items is then untouched). */
bool cli_reserve(void **items, size_t *cap, size_t need, size_t elem);

/* malloc(count * elem) with the product checked; count 0 allocates one byte. NULL on failure. */
void *cli_alloc_array(size_t count, size_t elem);

/* A NUL-terminated copy of bytes[0..n); NULL on failure. */
char *cli_strndup(const void *bytes, size_t n);

/* Reads file to its end into *data (allocated, *len bytes), but never more than limit + 1
 * bytes: a longer stream stops there, so the caller's parser refuses it as too long. GS_OK,
 * GS_E_NO_MEMORY, or GS_E_IO (errno text in err->detail, offset the bytes read); *data NULL
 * on failure. For small inputs of the commands' own (policy files, baselines). */
gs_status cli_read_stream(FILE *file, size_t limit, char **data, size_t *len, gs_error *err);

/* Hands an engine's progress (done of total units) on to the caller's callback as a gs_progress
 * of part `part` of `n_parts`; relay is a cli_progress_relay, the engine's progress context. */
typedef struct cli_progress_relay {
    gs_progress_fn fn;
    void *ctx;
    size_t part, n_parts;
} cli_progress_relay;
void cli_progress_relay_update(void *relay, uint64_t done, uint64_t total);

#endif
