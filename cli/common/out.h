/* Report output: a small buffer in front of the caller's gs_sink (ggufsafe_sink.h), with a sticky
 * status. Every renderer of the tool libraries writes through one, so a report reaches the sink
 * in large pieces whatever the callback is, and the first failure (the sink's errno, or an
 * allocation) stops the writing and is what the public call returns. */
#ifndef GGUFSAFE_CLI_OUT_H
#define GGUFSAFE_CLI_OUT_H

#include <stddef.h>
#include <string.h>

#include "ggufsafe.h"
#include "ggufsafe_sink.h"

/* 64 KiB: a report of 160,000 keys (7 MB) is a hundred writes, not 1,700. */
#define CLI_OUT_BUF (64 * 1024)

typedef struct cli_out {
    gs_sink sink;
    gs_status status; /* GS_OK until the first failure: GS_E_IO (errnum) or GS_E_NO_MEMORY */
    int errnum;
    size_t len;
    char buf[CLI_OUT_BUF];
} cli_out;

/* GS_E_INVALID_ARGUMENT (and a sink that drops everything) for a NULL or incomplete sink. */
gs_status cli_out_init(cli_out *o, const gs_sink *sink);
void cli_out_write(cli_out *o, const void *data, size_t n);
void cli_out_putc(cli_out *o, char c);
/* Inline, so that a literal's length is known where it is written. */
static inline void cli_out_puts(cli_out *o, const char *s)
{
    cli_out_write(o, s, strlen(s));
}
void cli_out_printf(cli_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* n spaces. */
void cli_out_pad(cli_out *o, size_t n);
/* Records a failure of the renderer itself (GS_E_NO_MEMORY); the first failure stays. */
void cli_out_fail(cli_out *o, gs_status status);
/* Hands the rest to the sink and returns the sticky status; on failure err says why ("writing
 * the report: <strerror>", or out of memory). */
gs_status cli_out_finish(cli_out *o, gs_error *err);

/* A cli_out of its own on the heap (it holds a 64 KiB buffer), for the public writers: NULL, with
 * GS_E_NO_MEMORY in err, when it cannot be had. A NULL or incomplete sink gives one whose finish
 * returns GS_E_INVALID_ARGUMENT. */
cli_out *cli_out_new(const gs_sink *sink, gs_error *err);
/* cli_out_finish, then free. */
gs_status cli_out_done(cli_out *o, gs_error *err);

/* The frame of a public writer: when given (its subject and arguments are there), cli_out_new
 * with *st GS_OK, or GS_E_NO_MEMORY when that gives NULL; else NULL with *st
 * GS_E_INVALID_ARGUMENT, "<what> is NULL" in err (what NULL: cli_null_argument's message).
 * cli_out_close: cli_out_done of what cli_out_open gave, or st when that was NULL. */
cli_out *cli_out_open(bool given, const char *what, const gs_sink *sink, gs_status *st,
                      gs_error *err);
gs_status cli_out_close(cli_out *o, gs_status st, gs_error *err);

#endif
