/* Problems found while parsing: fatal, or (diagnostic mode) recorded as findings so that one
 * run lists every problem that does not stop memory-safe addressing. */
#include <stdarg.h>

#include "parse.h"

gs_status gsi_record_finding(gsi_parser *p, const gs_error *e)
{
    gs_file *f = p->file;
    if (f->n_findings >= GS_MAX_FINDINGS) {
        f->layout.findings_dropped++;
        return GS_OK;
    }
    gs_status st = gsi_mem_reserve(&f->mem, (void **)&f->findings, &f->cap_findings,
                                   f->n_findings + 1, sizeof(gs_error));
    if (st != GS_OK) {
        return gsi_fail(p->err, st, e->offset, GS_CONTEXT_NONE, NULL, 0, "findings table");
    }
    f->findings[f->n_findings++] = *e;
    return GS_OK;
}

gs_status gsi_problemv(gsi_parser *p, gs_status st, uint64_t offset, gs_context_kind kind,
                       const uint8_t *name, uint64_t name_len, const char *fmt, va_list ap)
{
    if (!p->diagnostic) {
        return gsi_failv(p->err, st, offset, kind, name, name_len, fmt, ap);
    }
    gs_error e;
    gsi_failv(&e, st, offset, kind, name, name_len, fmt, ap);
    return gsi_record_finding(p, &e);
}

gs_status gsi_problem(gsi_parser *p, gs_status st, uint64_t offset, gs_context_kind kind,
                      const uint8_t *name, uint64_t name_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gs_status r = gsi_problemv(p, st, offset, kind, name, name_len, fmt, ap);
    va_end(ap);
    return r;
}
