#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text_escape.h"

void gsi_error_clear(gs_error *err)
{
    if (err != NULL) {
        memset(err, 0, sizeof *err);
    }
}

gs_status gsi_fail(gs_error *err, gs_status status, uint64_t offset, gs_context_kind kind,
                   const uint8_t *name, uint64_t name_len, const char *detail, ...)
{
    va_list ap;
    va_start(ap, detail);
    gsi_failv(err, status, offset, kind, name, name_len, detail, ap);
    va_end(ap);
    return status;
}

gs_status gsi_failv(gs_error *err, gs_status status, uint64_t offset, gs_context_kind kind,
                    const uint8_t *name, uint64_t name_len, const char *detail, va_list ap)
{
    if (err == NULL) {
        return status;
    }
    memset(err, 0, sizeof *err);
    err->status = status;
    err->offset = offset;
    err->context_kind = kind;
    if (name != NULL) {
        size_t n = name_len > 4096 ? 4096 : (size_t)name_len; /* only the head is shown */
        gsi_escape_text(err->context, sizeof err->context, name, n);
    }
    if (detail != NULL) {
        (void)vsnprintf(err->detail, sizeof err->detail, detail, ap);
    }
    return status;
}
