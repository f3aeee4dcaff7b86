#include "api.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checked_math.h"

/* Copies min(size, full_size) bytes from src to dst, where size is the caller's struct_size
 * (the first member of the caller's struct: of dst when handing out, of src when taking in),
 * and leaves dst's struct_size as `keep`. False when size is below min_size. */
static bool copy_sized(void *dst, const void *src, size_t size, size_t full_size,
                       size_t min_size, size_t keep)
{
    if (size < min_size) {
        return false;
    }
    memcpy(dst, src, size < full_size ? size : full_size);
    memcpy(dst, &keep, sizeof keep);
    return true;
}

gs_status cli_copy_out(void *out, const void *full, size_t full_size, size_t min_size)
{
    size_t size = 0;
    if (out != NULL) {
        memcpy(&size, out, sizeof size);
    }
    return out != NULL && copy_sized(out, full, size, full_size, min_size, size)
               ? GS_OK
               : GS_E_INVALID_ARGUMENT;
}

gs_status cli_take_options(void *full, size_t full_size, const void *given, size_t min_size,
                           const char *what, gs_error *err)
{
    size_t size;
    if (given == NULL) {
        return GS_OK; /* the defaults */
    }
    memcpy(&size, given, sizeof size);
    if (!copy_sized(full, given, size, full_size, min_size, full_size)) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "%s: struct_size %zu", what, size);
    }
    return GS_OK;
}

gs_status cli_null_argument(gs_error *err)
{
    return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                    "a required argument is NULL");
}

gs_status cli_index(const void *handle, size_t i, size_t n)
{
    return handle == NULL ? GS_E_INVALID_ARGUMENT : i >= n ? GS_E_OUT_OF_RANGE : GS_OK;
}

bool cli_reserve(void **items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) {
        return true;
    }
    size_t n = *cap > 0 ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2) {
            return false;
        }
        n *= 2;
    }
    size_t bytes;
    if (gsi_checked_mul_size(n, elem, &bytes)) {
        return false;
    }
    void *p = realloc(*items, bytes);
    if (p == NULL) {
        return false;
    }
    *items = p;
    *cap = n;
    return true;
}

void *cli_alloc_array(size_t count, size_t elem)
{
    size_t bytes;
    if (gsi_checked_mul_size(count, elem, &bytes)) {
        return NULL;
    }
    return malloc(bytes > 0 ? bytes : 1);
}

char *cli_strndup(const void *bytes, size_t n)
{
    if (n == SIZE_MAX) {
        return NULL;
    }
    char *p = malloc(n + 1);
    if (p != NULL) {
        memcpy(p, bytes, n);
        p[n] = '\0';
    }
    return p;
}

gs_status cli_kernel_usable(gs_error *err)
{
    bool usable;
    gs_kernel k = gs_active_kernel(&usable);
    if (usable) {
        return GS_OK;
    }
    if (k == GS_KERNEL_GGML) {
        return gsi_fail(err, GS_E_KERNEL_UNAVAILABLE, 0, GS_CONTEXT_NONE, NULL, 0,
                        "decoder path 'ggml' (GGUFSAFE_KERNEL): no usable ggml library "
                        "(GGUFSAFE_GGML=PATH or --ggml PATH)");
    }
    return gsi_fail(err, GS_E_KERNEL_UNAVAILABLE, 0, GS_CONTEXT_NONE, NULL, 0,
                    "decoder path '%s' (GGUFSAFE_KERNEL) is not available on this CPU or build",
                    gs_kernel_name(k));
}

gs_status cli_read_stream(FILE *file, size_t limit, char **data, size_t *len, gs_error *err)
{
    *data = NULL;
    *len = 0;
    const size_t most = limit < SIZE_MAX ? limit + 1 : limit;
    size_t cap = most < 65536 ? most : 65536, n = 0;
    char *buf = malloc(cap > 0 ? cap : 1);
    while (buf != NULL) {
        if (n == cap) {
            if (cap == most) {
                break; /* one byte past the limit: enough to know it is too long */
            }
            size_t grown = cap > most / 2 ? most : cap * 2;
            char *g = realloc(buf, grown);
            if (g == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = g;
            cap = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, file);
        n += got;
        if (got == 0) {
            break;
        }
    }
    if (buf == NULL) {
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "reading a file");
    }
    if (ferror(file)) {
        int e = errno;
        free(buf);
        return gsi_fail(err, GS_E_IO, n, GS_CONTEXT_NONE, NULL, 0, "read: %s",
                        strerror(e != 0 ? e : EIO));
    }
    *data = buf;
    *len = n;
    return GS_OK;
}

void cli_progress_relay_update(void *relay, uint64_t done, uint64_t total)
{
    const cli_progress_relay *r = relay;
    gs_progress p = {sizeof p, r->part, r->n_parts, done, total};
    r->fn(r->ctx, &p);
}
