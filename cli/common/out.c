#include "out.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

static int drop(void *ctx, const void *data, size_t n)
{
    (void)ctx;
    (void)data;
    (void)n;
    return 0;
}

static int file_write(void *ctx, const void *data, size_t n)
{
    errno = 0;
    if (fwrite(data, 1, n, (FILE *)ctx) == n) {
        return 0;
    }
    return errno != 0 ? errno : EIO;
}

void gs_sink_init(gs_sink *sink, gs_sink_write_fn write, void *ctx)
{
    if (sink != NULL) {
        *sink = (gs_sink){sizeof *sink, write, ctx};
    }
}

void gs_sink_file(gs_sink *sink, FILE *file)
{
    gs_sink_init(sink, file_write, file);
}

gs_status cli_out_init(cli_out *o, const gs_sink *sink)
{
    o->status = GS_OK;
    o->errnum = 0;
    o->len = 0;
    if (sink == NULL || sink->struct_size < sizeof *sink || sink->write == NULL) {
        o->sink = (gs_sink){sizeof o->sink, drop, NULL};
        o->status = GS_E_INVALID_ARGUMENT;
        return o->status;
    }
    o->sink = *sink;
    return GS_OK;
}

static void flush(cli_out *o)
{
    if (o->len > 0 && o->status == GS_OK) {
        int e = o->sink.write(o->sink.ctx, o->buf, o->len);
        if (e != 0) {
            o->status = GS_E_IO;
            o->errnum = e;
        }
    }
    o->len = 0;
}

void cli_out_write(cli_out *o, const void *data, size_t n)
{
    if (o->status != GS_OK) {
        return;
    }
    if (n > sizeof o->buf - o->len) {
        flush(o);
        if (n >= sizeof o->buf) {
            int e = o->status == GS_OK ? o->sink.write(o->sink.ctx, data, n) : 0;
            if (e != 0) {
                o->status = GS_E_IO;
                o->errnum = e;
            }
            return;
        }
    }
    memcpy(o->buf + o->len, data, n);
    o->len += n;
}

void cli_out_putc(cli_out *o, char c)
{
    if (o->len == sizeof o->buf) {
        flush(o);
    }
    if (o->status == GS_OK) {
        o->buf[o->len++] = c;
    }
}

void cli_out_pad(cli_out *o, size_t n)
{
    static const char spaces[64] = "                                                               ";
    while (n > 0) {
        size_t k = n < sizeof spaces ? n : sizeof spaces;
        cli_out_write(o, spaces, k);
        n -= k;
    }
}

void cli_out_printf(cli_out *o, const char *fmt, ...)
{
    if (o->status != GS_OK) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    size_t room = sizeof o->buf - o->len;
    int n = vsnprintf(o->buf + o->len, room, fmt, ap);
    va_end(ap);
    if (n < 0) {
        cli_out_fail(o, GS_E_INTERNAL); /* an encoding error: not reached with our formats */
        return;
    }
    if ((size_t)n < room) {
        o->len += (size_t)n;
        return;
    }
    /* Too long for what is left: format it on its own. */
    char *text = malloc((size_t)n + 1);
    if (text == NULL) {
        cli_out_fail(o, GS_E_NO_MEMORY);
        return;
    }
    va_start(ap, fmt);
    (void)vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    cli_out_write(o, text, (size_t)n);
    free(text);
}

void cli_out_fail(cli_out *o, gs_status status)
{
    if (o->status == GS_OK) {
        o->status = status;
    }
}

gs_status cli_out_finish(cli_out *o, gs_error *err)
{
    flush(o);
    if (o->status == GS_E_IO) {
        return gsi_fail(err, GS_E_IO, 0, GS_CONTEXT_NONE, NULL, 0, "writing the report: %s",
                        strerror(o->errnum));
    }
    if (o->status == GS_E_INVALID_ARGUMENT) {
        return gsi_fail(err, o->status, 0, GS_CONTEXT_NONE, NULL, 0, "no usable gs_sink");
    }
    if (o->status != GS_OK) {
        return gsi_fail(err, o->status, 0, GS_CONTEXT_NONE, NULL, 0, "writing the report");
    }
    return GS_OK;
}

cli_out *cli_out_new(const gs_sink *sink, gs_error *err)
{
    cli_out *o = malloc(sizeof *o);
    if (o == NULL) {
        gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "writing the report");
        return NULL;
    }
    (void)cli_out_init(o, sink);
    return o;
}

gs_status cli_out_done(cli_out *o, gs_error *err)
{
    gs_status st = cli_out_finish(o, err);
    free(o);
    return st;
}

cli_out *cli_out_open(bool given, const char *what, const gs_sink *sink, gs_status *st,
                      gs_error *err)
{
    if (!given) {
        *st = what != NULL ? gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                                      "%s is NULL", what)
                           : cli_null_argument(err);
        return NULL;
    }
    cli_out *o = cli_out_new(sink, err);
    *st = o != NULL ? GS_OK : GS_E_NO_MEMORY;
    return o;
}

gs_status cli_out_close(cli_out *o, gs_status st, gs_error *err)
{
    return o != NULL ? cli_out_done(o, err) : st;
}
