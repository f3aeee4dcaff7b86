/* Many files in one run (gs_certify_paths, include/ggufsafe_certify.h): the walk's entries are
 * taken a chunk at a time, the chunk's files certified over the work pool (one file per worker;
 * a chunk of one file gives its deep scan every worker), and each report written as soon as its
 * chunk is done, in walk order, then freed. What stays is one summary row per entry (its path,
 * verdict, counts and why), from which the closing table, the JSON summary and the SARIF
 * artifacts' list come: memory is a chunk of reports plus the rows, however many files. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "cert_render.h"
#include "cert_sarif.h"
#include "report_header.h"
#include "text_escape.h"
#include "work_pool.h"

/* Reports held at once per worker: enough to keep the workers busy between writes. */
#define CHUNK_PER_JOB 8u
#define CHUNK_MAX 256u

typedef enum row_state {
    ROW_CERTIFIED,
    ROW_FAILED,     /* not certified (an orphan part is certified alone and fails) */
    ROW_NOT_GGUF,   /* not a GGUF file at all (reader.not_gguf says what it is) */
    ROW_UNREADABLE, /* the path could not be read (or changed while read), or a bound was reached */
    ROW_SKIPPED     /* a FIFO, device, socket or link to a directory */
} row_state;

static const char *const row_verdict[] = {"certified", "not certified", "not GGUF",
                                          "unreadable", "skipped"};

typedef struct row {
    char *path;
    row_state state;
    uint64_t errors, warnings;
    char *reason; /* our text, or the reader's (escaped) error; NULL when there is none */
} row;

typedef struct item {
    gs_certify_walk_entry entry; /* path and reason point at the copies below */
    char *path;
    char *reason;
    gs_certify *report;
    gs_status status;
    gs_error err;
} item;

typedef struct batch {
    gs_certify_options opt;
    gs_certify_batch_options bo;
    cli_out *out;
    cli_json j;       /* JSON: the document */
    cert_sarif *sarif;
    item *chunk;
    size_t n_chunk, chunk_cap;
    row *rows;
    size_t n_rows, cap_rows;
    gs_certify_batch_summary sum;
    gs_status fatal;  /* GS_E_NO_MEMORY or GS_E_KERNEL_UNAVAILABLE: the run stops */
    gs_error fatal_err;
    uint64_t found;   /* entries to certify seen so far (the progress total) */
} batch;

void gs_certify_batch_options_init(gs_certify_batch_options *opts)
{
    if (opts != NULL) {
        *opts = (gs_certify_batch_options){.struct_size = sizeof *opts,
                                           .format = GS_CERTIFY_FORMAT_TEXT, .jobs = 1};
        gs_certify_walk_options_init(&opts->walk);
    }
}

static bool certifies(gs_certify_walk_kind kind)
{
    return kind == GS_CERTIFY_WALK_FILE || kind == GS_CERTIFY_WALK_SET ||
           kind == GS_CERTIFY_WALK_ORPHAN;
}

static void certify_item(void *ctx, size_t i, unsigned worker)
{
    (void)worker;
    batch *b = ctx;
    item *it = &b->chunk[i];
    if (!certifies(it->entry.kind)) {
        return;
    }
    gs_certify_options o = b->opt;
    o.jobs = b->n_chunk == 1 && b->bo.jobs > 1 ? b->bo.jobs : 1;
    o.progress = NULL;
    o.progress_ctx = NULL;
    /* a later part found without its part 1 is certified alone, and fails for the set */
    it->status = gs_certify_path(it->path, &o, &it->report, &it->err);
    if (it->status == GS_OK && it->entry.kind == GS_CERTIFY_WALK_ORPHAN) {
        cert_add(&it->report->findings, "split.part_one_absent", 0, CERT_NO_OFFSET,
                 CERT_SUBJECT_NONE, NULL, 0, "part %u of %u, without its part 1: %s",
                 it->entry.part, it->entry.count, it->entry.reason);
        if (it->report->findings.status != GS_OK) {
            it->status = GS_E_NO_MEMORY;
            gs_certify_free(it->report);
            it->report = NULL;
        } else { /* the report's order and verdict count the finding added after the run */
            cert_order(it->report);
            cert_verdict(it->report);
        }
    }
}

/* "<message>: <detail>" of a failed open, escaped already by the reader. */
static char *open_failure(const gs_error *e)
{
    const char *msg = gs_status_message(e->status);
    size_t n = strlen(msg) + strlen(e->detail) + 3;
    char *t = malloc(n);
    if (t != NULL) {
        snprintf(t, n, "%s%s%s", msg, e->detail[0] ? ": " : "", e->detail);
    }
    return t;
}

static bool add_row(batch *b, const char *path, row_state state, uint64_t errors,
                    uint64_t warnings, char *reason)
{
    char *p = cli_strndup(path, strlen(path));
    if (p == NULL || !cli_reserve((void **)&b->rows, &b->cap_rows, b->n_rows + 1, sizeof *b->rows)) {
        free(p);
        free(reason);
        return false;
    }
    b->rows[b->n_rows++] = (row){p, state, errors, warnings, reason};
    return true;
}

static void fail(batch *b, gs_status st, const gs_error *err)
{
    if (b->fatal == GS_OK) {
        b->fatal = st;
        if (err != NULL) {
            b->fatal_err = *err;
        } else {
            gsi_fail(&b->fatal_err, st, 0, GS_CONTEXT_NONE, NULL, 0, "certifying many files");
        }
    }
}

/* Writes one finished item and records its row. */
static void write_item(batch *b, item *it)
{
    const char *path = it->path;
    char *reason = NULL;
    row_state state;
    uint64_t counts[3] = {0, 0, 0};
    if (!certifies(it->entry.kind)) {
        state = it->entry.kind == GS_CERTIFY_WALK_SKIPPED ? ROW_SKIPPED : ROW_UNREADABLE;
        reason = cli_strndup(it->reason, strlen(it->reason));
        if (reason != NULL && it->entry.errnum != 0) {
            const char *e = strerror(it->entry.errnum);
            size_t n = strlen(reason) + strlen(e) + 4;
            char *both = malloc(n);
            if (both != NULL) {
                snprintf(both, n, "%s (%s)", reason, e);
            }
            free(reason);
            reason = both;
        }
        if (reason == NULL) {
            fail(b, GS_E_NO_MEMORY, NULL);
            return;
        }
        cert_sarif_notice(b->sarif, state == ROW_UNREADABLE, path, reason);
    } else if (it->status == GS_OK) {
        const cert_run *r = it->report;
        cert_count(&r->findings, r->opt.profile, counts);
        state = cert_exit_code(r) == 0          ? ROW_CERTIFIED
                : r->n_parts > 0 && r->parts[0].not_gguf ? ROW_NOT_GGUF
                                                         : ROW_FAILED;
        if (r->read_failed) { /* the report says where; no verdict on a file that changed */
            static const char why[] = "could not be read to its end while it was certified (it "
                                      "changed, or a read failed): certify it again";
            state = ROW_UNREADABLE;
            reason = cli_strndup(why, sizeof why - 1);
            if (reason == NULL) {
                fail(b, GS_E_NO_MEMORY, NULL);
                return;
            }
        }
        switch (b->bo.format) {
        case GS_CERTIFY_FORMAT_TEXT:
            if (b->sum.files > 0) {
                cli_out_putc(b->out, '\n');
            }
            cert_render_text(b->out, r);
            break;
        case GS_CERTIFY_FORMAT_JSON:
            cert_json_report(&b->j, r);
            break;
        case GS_CERTIFY_FORMAT_SARIF:
            cert_sarif_report(b->sarif, r);
            break;
        }
        b->sum.files++;
    } else if (it->status == GS_E_NO_MEMORY || it->status == GS_E_KERNEL_UNAVAILABLE ||
               it->status == GS_E_INVALID_ARGUMENT) {
        fail(b, it->status, &it->err);
        return;
    } else {
        state = it->status == GS_E_BAD_MAGIC ? ROW_NOT_GGUF : ROW_UNREADABLE;
        reason = open_failure(&it->err);
        if (reason == NULL) {
            fail(b, GS_E_NO_MEMORY, NULL);
            return;
        }
        cert_sarif_notice(b->sarif, true, path, reason);
    }
    switch (state) {
    case ROW_CERTIFIED:
        b->sum.certified++;
        break;
    case ROW_FAILED:
    case ROW_NOT_GGUF:
        b->sum.failed++;
        break;
    case ROW_UNREADABLE:
        b->sum.unreadable++;
        break;
    case ROW_SKIPPED:
        b->sum.skipped++;
        break;
    }
    if (!add_row(b, path, state, counts[CERT_ERROR], counts[CERT_WARNING], reason)) {
        fail(b, GS_E_NO_MEMORY, NULL);
    }
}

static void progress(batch *b)
{
    if (b->bo.progress != NULL) {
        gs_progress p = {sizeof p, 0, 1, b->sum.files + b->sum.unreadable, b->found};
        b->bo.progress(b->bo.progress_ctx, &p);
    }
}

/* Certifies the chunk, writes it in order and empties it. */
static void run_chunk(batch *b)
{
    if (b->n_chunk == 0) {
        return;
    }
    unsigned jobs = b->bo.jobs < 1 ? 1 : b->bo.jobs;
    work_pool_run(b->n_chunk == 1 ? 1 : jobs, b->n_chunk, certify_item, b);
    for (size_t i = 0; i < b->n_chunk; i++) {
        item *it = &b->chunk[i];
        if (b->fatal == GS_OK) {
            write_item(b, it);
        }
        gs_certify_free(it->report);
        free(it->path);
        free(it->reason);
    }
    b->n_chunk = 0;
    progress(b);
}

static bool take_entry(void *ctx, const gs_certify_walk_entry *e)
{
    batch *b = ctx;
    item *it = &b->chunk[b->n_chunk];
    memset(it, 0, sizeof *it);
    it->entry = *e;
    it->path = cli_strndup(e->path, strlen(e->path));
    it->reason = cli_strndup(e->reason, strlen(e->reason));
    if (it->path == NULL || it->reason == NULL) {
        free(it->path);
        free(it->reason);
        fail(b, GS_E_NO_MEMORY, NULL);
        return false;
    }
    if (certifies(e->kind)) {
        b->found++;
    }
    if (++b->n_chunk == b->chunk_cap) {
        run_chunk(b);
    }
    return b->fatal == GS_OK && b->out->status == GS_OK;
}

/* ---- the summary -------------------------------------------------------------------------- */

static void escaped(char *buf, size_t cap, const char *s)
{
    gsi_escape_text(buf, cap, (const uint8_t *)s, strlen(s));
}

/* The closing table: file, verdict, errors, warnings, and why for rows without a report. */
static void write_table(cli_out *o, const batch *b)
{
    size_t width = 4;
    char name[4 * 1024 + 8];
    for (size_t i = 0; i < b->n_rows; i++) {
        escaped(name, sizeof name, b->rows[i].path);
        size_t n = strlen(name);
        width = n > width ? n : width;
    }
    width = width > 60 ? 60 : width;
    cli_out_printf(o, "%-*s  %-13s  %6s  %8s\n", (int)width, "FILE", "VERDICT", "ERRORS",
                   "WARNINGS");
    for (size_t i = 0; i < b->n_rows; i++) {
        const row *r = &b->rows[i];
        escaped(name, sizeof name, r->path);
        bool counted = r->state == ROW_CERTIFIED || r->state == ROW_FAILED;
        if (counted) {
            cli_out_printf(o, "%-*s  %-13s  %6" PRIu64 "  %8" PRIu64 "\n", (int)width, name,
                           row_verdict[r->state], r->errors, r->warnings);
        } else {
            cli_out_printf(o, "%-*s  %-13s  %6s  %8s  %s\n", (int)width, name,
                           row_verdict[r->state], "-", "-", r->reason != NULL ? r->reason : "");
        }
    }
    const gs_certify_batch_summary *s = &b->sum;
    cli_out_printf(o,
                   "%" PRIu64 " certified, %" PRIu64 " not certified, %" PRIu64
                   " unreadable, %" PRIu64 " skipped: %s\n",
                   s->certified, s->failed, s->unreadable, s->skipped,
                   s->exit_code == 0   ? "every file is certified"
                   : s->exit_code == 1 ? "fix or replace the files that are not certified "
                                         "(their reports say what is wrong)"
                                       : "some paths could not be read: fix their permissions "
                                         "or the bounds and run again");
}

static void write_json_summary(batch *b)
{
    cli_json *j = &b->j;
    cli_json_end_array(j); /* files */
    cli_json_key_begin_object(j, "summary");
    cli_json_key_u64(j, "files", b->sum.files);
    cli_json_key_u64(j, "certified", b->sum.certified);
    cli_json_key_u64(j, "not_certified", b->sum.failed);
    cli_json_key_u64(j, "unreadable", b->sum.unreadable);
    cli_json_key_u64(j, "skipped", b->sum.skipped);
    cli_json_key_u64(j, "exit_code", (uint64_t)b->sum.exit_code);
    cli_json_key_begin_array(j, "rows");
    for (size_t i = 0; i < b->n_rows; i++) {
        const row *r = &b->rows[i];
        cli_json_begin_object(j);
        cli_json_key_cstring(j, "path", r->path);
        cli_json_key_cstring(j, "verdict", row_verdict[r->state]);
        if (r->state == ROW_CERTIFIED || r->state == ROW_FAILED) {
            cli_json_key_u64(j, "errors", r->errors);
            cli_json_key_u64(j, "warnings", r->warnings);
        } else {
            cli_json_key_cstring(j, "reason", r->reason != NULL ? r->reason : "");
        }
        cli_json_end_object(j);
    }
    cli_json_end_array(j);
    cli_json_end_object(j);
    cli_json_end_object(j);
    cli_json_finish(j);
}

static void begin(batch *b)
{
    switch (b->bo.format) {
    case GS_CERTIFY_FORMAT_TEXT:
        break;
    case GS_CERTIFY_FORMAT_JSON: {
        cli_json_init(&b->j, b->out);
        cli_json_begin_object(&b->j);
        gs_options opts;
        gs_options_init(&opts);
        opts.profile = b->opt.profile;
        cli_json_report_header(&b->j, "certify", &opts);
        cli_json_key(&b->j, "files");
        cli_json_begin_array(&b->j);
        break;
    }
    case GS_CERTIFY_FORMAT_SARIF:
        b->sarif = cert_sarif_begin(b->out, b->bo.uri_base);
        break;
    }
}

static void end(batch *b)
{
    switch (b->bo.format) {
    case GS_CERTIFY_FORMAT_TEXT:
        cli_out_putc(b->out, '\n');
        write_table(b->out, b);
        break;
    case GS_CERTIFY_FORMAT_JSON:
        write_json_summary(b);
        break;
    case GS_CERTIFY_FORMAT_SARIF:
        cert_sarif_end(b->sarif, &b->opt, b->sum.exit_code);
        b->sarif = NULL;
        break;
    }
}

gs_status gs_certify_paths(const char *const *paths, size_t n, const gs_certify_options *opts,
                           const gs_certify_batch_options *bopts, const gs_sink *sink,
                           gs_certify_batch_summary *summary, gs_error *err)
{
    if ((paths == NULL && n > 0) || sink == NULL) {
        return cli_null_argument(err);
    }
    batch *b = calloc(1, sizeof *b);
    if (b == NULL) {
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "certifying many files");
    }
    gs_certify_options_init(&b->opt);
    gs_certify_batch_options_init(&b->bo);
    gs_status st = cli_take_options(&b->opt, sizeof b->opt, opts,
                                    CLI_MIN_SIZE(gs_certify_options, progress_ctx),
                                    "gs_certify_options", err);
    if (st == GS_OK) {
        st = cli_take_options(&b->bo, sizeof b->bo, bopts,
                              CLI_MIN_SIZE(gs_certify_batch_options, progress_ctx),
                              "gs_certify_batch_options", err);
    }
    if (st == GS_OK && (unsigned)b->bo.format > GS_CERTIFY_FORMAT_SARIF) {
        st = gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                      "gs_certify_batch_options: format outside its enum");
    }
    if (st == GS_OK && b->opt.deep) {
        st = cli_kernel_usable(err);
    }
    unsigned jobs = b->bo.jobs < 1 ? 1 : b->bo.jobs;
    b->chunk_cap = jobs * CHUNK_PER_JOB > CHUNK_MAX ? CHUNK_MAX : jobs * CHUNK_PER_JOB;
    b->chunk = st == GS_OK ? cli_alloc_array(b->chunk_cap, sizeof *b->chunk) : NULL;
    b->out = st == GS_OK ? cli_out_new(sink, err) : NULL;
    if (st == GS_OK && (b->chunk == NULL || b->out == NULL)) {
        st = gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "certifying many files");
    }
    if (st == GS_OK) {
        begin(b);
        b->bo.walk.struct_size = sizeof b->bo.walk;
        st = gs_certify_walk(paths, n, &b->bo.walk, take_entry, b, err);
        if (st == GS_OK) {
            run_chunk(b);
        } else {
            for (size_t i = 0; i < b->n_chunk; i++) {
                free(b->chunk[i].path);
                free(b->chunk[i].reason);
            }
        }
    }
    if (st == GS_OK && b->fatal != GS_OK) {
        st = b->fatal;
        if (err != NULL) {
            *err = b->fatal_err;
        }
    }
    b->sum.struct_size = sizeof b->sum;
    b->sum.exit_code = b->sum.unreadable > 0 ? 2 : b->sum.failed > 0 ? 1 : 0;
    if (st == GS_OK) {
        end(b);
        if (b->bo.table != NULL && b->bo.format != GS_CERTIFY_FORMAT_TEXT) {
            cli_out *t = cli_out_new(b->bo.table, NULL);
            if (t != NULL) {
                write_table(t, b);
                (void)cli_out_done(t, NULL); /* the table is a courtesy: the report is what counts */
            }
        }
    }
    if (b->sarif != NULL) { /* a run that stopped early: release what the writer holds */
        cert_sarif_end(b->sarif, &b->opt, 2);
    }
    if (b->out != NULL) {
        gs_status done = cli_out_done(b->out, st == GS_OK ? err : NULL);
        st = st == GS_OK ? done : st;
    }
    if (st == GS_OK && summary != NULL) {
        st = cli_copy_out(summary, &b->sum, sizeof b->sum,
                          CLI_MIN_SIZE(gs_certify_batch_summary, exit_code));
    }
    for (size_t i = 0; i < b->n_rows; i++) {
        free(b->rows[i].path);
        free(b->rows[i].reason);
    }
    free(b->rows);
    free(b->chunk);
    free(b);
    return st;
}
