/* Filling a gs_error: status, offset of the failing field, the key or tensor concerned, and
 * specifics. Every failure of the reader goes through gsi_fail. */
#ifndef GGUFSAFE_ERROR_H
#define GGUFSAFE_ERROR_H

#include <stdarg.h>

#include "ggufsafe.h"

/* Records the failure in err (when err is not NULL) and returns status. name may be NULL.
 * detail is a printf format (may be NULL). */
gs_status gsi_fail(gs_error *err, gs_status status, uint64_t offset, gs_context_kind kind,
                   const uint8_t *name, uint64_t name_len, const char *detail, ...)
    __attribute__((format(printf, 7, 8)));

/* The same with a va_list, for wrappers that add context of their own. */
gs_status gsi_failv(gs_error *err, gs_status status, uint64_t offset, gs_context_kind kind,
                    const uint8_t *name, uint64_t name_len, const char *detail, va_list ap)
    __attribute__((format(printf, 7, 0)));

void gsi_error_clear(gs_error *err);

#endif
