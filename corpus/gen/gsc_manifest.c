#include "gsc_manifest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p == NULL) {
        fprintf(stderr, "gsc_manifest: out of memory\n");
        abort();
    }
    memcpy(p, s, n);
    return p;
}

void gsc_manifest_init(gsc_manifest *m)
{
    m->entries = NULL;
    m->n = 0;
    m->cap = 0;
}

void gsc_manifest_free(gsc_manifest *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->entries[i].file);
        free(m->entries[i].certify);
        free(m->entries[i].desc);
    }
    free(m->entries);
    gsc_manifest_init(m);
}

void gsc_manifest_add(gsc_manifest *m, const char *file, const char *sha256, gsc_verdict strict,
                      gsc_verdict lenient, const char *certify, const char *desc)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 256;
        gsc_entry *p = realloc(m->entries, m->cap * sizeof *p);
        if (p == NULL) {
            fprintf(stderr, "gsc_manifest: out of memory\n");
            abort();
        }
        m->entries = p;
    }
    gsc_entry *d = &m->entries[m->n++];
    d->file = xstrdup(file);
    snprintf(d->sha256, sizeof d->sha256, "%s", sha256);
    d->strict = strict;
    d->lenient = lenient;
    d->certify = xstrdup(certify);
    d->desc = xstrdup(desc);
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

/* Splits line at tabs into exactly n fields (in place). */
static int split_tabs(char *line, char **fields, int n)
{
    int k = 0;
    fields[k++] = line;
    for (char *p = line; *p != '\0'; p++) {
        if (*p == '\t') {
            if (k == n) {
                return -1;
            }
            *p = '\0';
            fields[k++] = p + 1;
        }
    }
    return k == n ? 0 : -1;
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

int gsc_manifest_read(const char *path, gsc_manifest *m, char *why, size_t why_cap)
{
    gsc_manifest_init(m);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(why, why_cap, "cannot open %s", path);
        return -1;
    }
    char line[4096];
    int lineno = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        size_t n = strlen(line);
        if (n == 0 || line[n - 1] != '\n') {
            snprintf(why, why_cap, "%s:%d: line too long or unterminated", path, lineno);
            rc = -1;
            break;
        }
        line[n - 1] = '\0';
        if (lineno == 1) {
            if (strcmp(line, GSC_MANIFEST_HEADER) != 0) {
                snprintf(why, why_cap, "%s:1: not the manifest header", path);
                rc = -1;
                break;
            }
            continue;
        }
        char *fl[8];
        gsc_verdict strict, lenient;
        if (split_tabs(line, fl, 8) != 0 || strlen(fl[1]) != 64 ||
            parse_verdict(fl[2], fl[3], &strict) != 0 ||
            parse_verdict(fl[4], fl[5], &lenient) != 0 || fl[0][0] == '\0') {
            snprintf(why, why_cap, "%s:%d: malformed line", path, lineno);
            rc = -1;
            break;
        }
        if (strlen(fl[6]) != 1 || fl[6][0] < '0' || fl[6][0] > '2') {
            snprintf(why, why_cap, "%s:%d: certify_exit must be 0, 1 or 2 (the exit status of "
                                   "ggufsafe certify on the file)", path, lineno);
            rc = -1;
            break;
        }
        if (gsc_manifest_find(m, fl[0]) != NULL) {
            snprintf(why, why_cap, "%s:%d: %s listed twice", path, lineno, fl[0]);
            rc = -1;
            break;
        }
        gsc_manifest_add(m, fl[0], fl[1], strict, lenient, fl[6], fl[7]);
    }
    if (rc == 0 && lineno == 0) {
        snprintf(why, why_cap, "%s: empty", path);
        rc = -1;
    }
    fclose(f);
    if (rc != 0) {
        gsc_manifest_free(m);
    }
    return rc;
}
