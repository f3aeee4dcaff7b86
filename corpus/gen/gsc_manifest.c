#include "gsc_manifest.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsw_alloc.h"
#include "gsw_tsv.h"

#define WHO "gsc_manifest"

/* Each entry's and each run's strings are one allocation (gsw_xstrdup_all), owned by its first
 * member, file. */
_Static_assert(offsetof(gsc_entry, file) == 0, "an entry's strings hang from its first member");
_Static_assert(offsetof(gsc_run, file) == 0, "a run's strings hang from its first member");

/* Frees the n records of `size` bytes at records, each with the strings its first member owns. */
static void free_records(void *records, size_t n, size_t size)
{
    for (size_t i = 0; i < n; i++) {
        char *strings;
        memcpy(&strings, (const char *)records + i * size, sizeof strings);
        free(strings);
    }
    free(records);
}

void gsc_manifest_free(gsc_manifest *m)
{
    free_records(m->entries, m->n, sizeof *m->entries);
    *m = (gsc_manifest){NULL, 0, 0};
}

void gsc_manifest_add(gsc_manifest *m, const char *file, const char *sha256, gsc_verdict strict,
                      gsc_verdict lenient, const char *certify, const char *desc)
{
    m->entries = gsw_grow(m->entries, &m->cap, m->n + 1, sizeof *m->entries, 256, WHO);
    gsc_entry *d = &m->entries[m->n++];
    char *copy[3];
    gsw_xstrdup_all(copy, (const char *const[]){file, certify, desc}, 3, WHO);
    d->file = copy[0];
    snprintf(d->sha256, sizeof d->sha256, "%s", sha256);
    d->strict = strict;
    d->lenient = lenient;
    d->certify = copy[1];
    d->desc = copy[2];
}

const gsc_entry *gsc_manifest_find(const gsc_manifest *m, const char *file)
{
    for (size_t i = 0; i < m->n; i++) {
        if (strcmp(m->entries[i].file, file) == 0) {
            return &m->entries[i];
        }
    }
    return NULL;
}

int gsc_status_from_name(const char *name, gs_status *out)
{
    /* Status numbers are below 100 (ggufsafe.h). */
    for (int v = 0; v < 100; v++) {
        if (strcmp(gs_status_name((gs_status)v), name) == 0) {
            *out = (gs_status)v;
            return 0;
        }
    }
    return -1;
}

static void format_offset(const gsc_verdict *v, char *buf, size_t cap)
{
    if (v->status == GS_OK) {
        snprintf(buf, cap, "-");
    } else {
        snprintf(buf, cap, "%llu", (unsigned long long)v->offset);
    }
}

void gsc_entry_format(const gsc_entry *e, char *buf, size_t cap)
{
    char so[24], lo[24];
    format_offset(&e->strict, so, sizeof so);
    format_offset(&e->lenient, lo, sizeof lo);
    snprintf(buf, cap, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", e->file, e->sha256,
             gs_status_name(e->strict.status), so, gs_status_name(e->lenient.status), lo,
             e->certify, e->desc);
}

int gsc_manifest_write(const char *path, const gsc_manifest *m)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return -1;
    }
    fprintf(f, "%s\n", GSC_MANIFEST_HEADER);
    char line[2048];
    for (size_t i = 0; i < m->n; i++) {
        gsc_entry_format(&m->entries[i], line, sizeof line);
        fprintf(f, "%s\n", line);
    }
    return fclose(f) == 0 ? 0 : -1;
}

static int parse_verdict(const char *status, const char *offset, gsc_verdict *v)
{
    if (gsc_status_from_name(status, &v->status) != 0) {
        return -1;
    }
    if (v->status == GS_OK) {
        v->offset = 0;
        return strcmp(offset, "-") == 0 ? 0 : -1;
    }
    char *end;
    errno = 0;
    v->offset = strtoull(offset, &end, 10);
    return (errno == 0 && end != offset && *end == '\0' && offset[0] != '-') ? 0 : -1;
}

/* Reads a tab-separated file of n_fields columns after its header line: row(ctx, fields) for
 * each line, which returns 0 or -1 with the reason in why; the reason gets the path and line
 * number in front. 0, or -1 with the reason in why after discard(ctx) has dropped the rows
 * read. */
static int read_tsv(const char *path, const char *header, int n_fields,
                    int (*row)(void *ctx, char **fields, char *why, size_t why_cap),
                    void (*discard)(void *ctx), void *ctx, char *why, size_t why_cap)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(why, why_cap, "cannot open %s", path);
        return -1;
    }
    char line[4096], reason[512];
    int lineno = 0;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
        lineno++;
        size_t n = strlen(line);
        char *fl[8];
        if (n == 0 || line[n - 1] != '\n') {
            snprintf(reason, sizeof reason, "line too long or unterminated");
            rc = -1;
            break;
        }
        line[n - 1] = '\0';
        if (lineno == 1) {
            if (strcmp(line, header) != 0) {
                snprintf(reason, sizeof reason, "not the header \"%s\"", header);
                rc = -1;
            }
        } else if (gsw_split_tabs(line, fl, (size_t)n_fields) != 0) {
            snprintf(reason, sizeof reason, "not %d tab-separated fields", n_fields);
            rc = -1;
        } else {
            rc = row(ctx, fl, reason, sizeof reason);
        }
    }
    if (rc != 0) {
        snprintf(why, why_cap, "%s:%d: %s", path, lineno, reason);
    } else if (lineno == 0) {
        snprintf(why, why_cap, "%s: empty", path);
        rc = -1;
    }
    fclose(f);
    if (rc != 0) {
        discard(ctx);
    }
    return rc;
}

/* The certify_exit column: 0, 1 or 2. */
static int check_certify(const char *field, char *why, size_t why_cap)
{
    if (strlen(field) != 1 || field[0] < '0' || field[0] > '2') {
        snprintf(why, why_cap, "certify_exit must be 0, 1 or 2 (the exit status of ggufsafe "
                               "certify on the file)");
        return -1;
    }
    return 0;
}

static int manifest_row(void *ctx, char **fl, char *why, size_t why_cap)
{
    gsc_manifest *m = ctx;
    gsc_verdict strict, lenient;
    if (strlen(fl[1]) != 64 || parse_verdict(fl[2], fl[3], &strict) != 0 ||
        parse_verdict(fl[4], fl[5], &lenient) != 0 || fl[0][0] == '\0') {
        snprintf(why, why_cap, "malformed line");
        return -1;
    }
    if (check_certify(fl[6], why, why_cap) != 0) {
        return -1;
    }
    if (gsc_manifest_find(m, fl[0]) != NULL) {
        snprintf(why, why_cap, "%s listed twice", fl[0]);
        return -1;
    }
    gsc_manifest_add(m, fl[0], fl[1], strict, lenient, fl[6], fl[7]);
    return 0;
}

static void manifest_discard(void *ctx) { gsc_manifest_free(ctx); }

int gsc_manifest_read(const char *path, gsc_manifest *m, char *why, size_t why_cap)
{
    *m = (gsc_manifest){NULL, 0, 0};
    return read_tsv(path, GSC_MANIFEST_HEADER, 8, manifest_row, manifest_discard, m, why,
                    why_cap);
}

void gsc_runs_free(gsc_runs *r)
{
    free_records(r->runs, r->n, sizeof *r->runs);
    *r = (gsc_runs){NULL, 0, 0};
}

static int run_row(void *ctx, char **fl, char *why, size_t why_cap)
{
    gsc_runs *r = ctx;
    gsc_run run;
    memset(&run, 0, sizeof run);
    const int is_default = strcmp(fl[1], "default") == 0;
    const int other_harness = strncmp(fl[1], "fuzz_", 5) == 0 &&
                              strncmp(fl[1], "fuzz_open:", 10) != 0;
    run.reader = !(other_harness && strcmp(fl[2], "-") == 0 && strcmp(fl[3], "-") == 0 &&
                   strcmp(fl[4], "-") == 0 && strcmp(fl[5], "-") == 0);
    if (fl[0][0] == '\0' || fl[1][0] == '\0' || fl[7][0] == '\0' ||
        (run.reader && (parse_verdict(fl[2], fl[3], &run.strict) != 0 ||
                        parse_verdict(fl[4], fl[5], &run.lenient) != 0))) {
        snprintf(why, why_cap, "malformed line");
        return -1;
    }
    if (is_default ? check_certify(fl[6], why, why_cap) != 0 : strcmp(fl[6], "-") != 0) {
        if (!is_default) {
            snprintf(why, why_cap, "certify_exit is for the default options only: \"-\" here");
        }
        return -1;
    }
    for (size_t i = 0; i < r->n; i++) {
        if (strcmp(r->runs[i].file, fl[0]) == 0 && strcmp(r->runs[i].options, fl[1]) == 0) {
            snprintf(why, why_cap, "%s with %s listed twice", fl[0], fl[1]);
            return -1;
        }
    }
    r->runs = gsw_grow(r->runs, &r->cap, r->n + 1, sizeof *r->runs, 16, WHO);
    char *copy[4];
    gsw_xstrdup_all(copy, (const char *const[]){fl[0], fl[1], fl[6], fl[7]}, 4, WHO);
    run.file = copy[0];
    run.options = copy[1];
    run.certify = copy[2];
    run.reproduces = copy[3];
    r->runs[r->n++] = run;
    return 0;
}

static void runs_discard(void *ctx) { gsc_runs_free(ctx); }

int gsc_runs_read(const char *path, gsc_runs *r, char *why, size_t why_cap)
{
    *r = (gsc_runs){NULL, 0, 0};
    return read_tsv(path, GSC_RUNS_HEADER, 8, run_row, runs_discard, r, why, why_cap);
}

const gsc_run *gsc_runs_find(const gsc_runs *r, const char *file, const char *options)
{
    for (size_t i = 0; i < r->n; i++) {
        if (strcmp(r->runs[i].file, file) == 0 &&
            (options == NULL || strcmp(r->runs[i].options, options) == 0)) {
            return &r->runs[i];
        }
    }
    return NULL;
}
