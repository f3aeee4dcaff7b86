#include "api.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checked_math.h"
#include "text_escape.h"

gs_status cli_fail(gs_error *err, gs_status status, uint64_t offset, gs_context_kind kind,
                   const void *name, size_t name_len, const char *fmt, ...)
{
    if (err == NULL) {
        return status;
    }
    memset(err, 0, sizeof *err);
    err->status = status;
    err->offset = offset;
    err->context_kind = kind;
    if (name != NULL) {
        size_t n = name_len > 4096 ? 4096 : name_len; /* only the head is shown */
        gsi_escape_text(err->context, sizeof err->context, name, n);
    }
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(err->detail, sizeof err->detail, fmt, ap);
    va_end(ap);
    return status;
}

gs_status cli_copy_out(void *out, const void *full, size_t full_size, size_t min_size)
{
    if (out == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    size_t size;
    memcpy(&size, out, sizeof size);
    if (size < min_size) {
        return GS_E_INVALID_ARGUMENT;
    }
    memcpy(out, full, size < full_size ? size : full_size);
    memcpy(out, &size, sizeof size);
    return GS_OK;
}

bool cli_copy_in(void *full, size_t full_size, const void *given, size_t min_size)
{
    size_t size;
    memcpy(&size, given, sizeof size);
    if (size < min_size) {
        return false;
    }
    memcpy(full, given, size < full_size ? size : full_size);
    memcpy(full, &full_size, sizeof full_size);
    return true;
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
