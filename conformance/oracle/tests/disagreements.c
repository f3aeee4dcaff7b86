/* Reading disagreements.tsv (disagreements.h). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "disagreements.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsw_tsv.h"

static const char *const category_names[GSX_N_CATEGORIES] = {
    "ggml-bug", "spec-vs-ggml", "lenient-profile", "our-limit", "our-bug"};

const char *gsx_category_name(gsx_category c)
{
    return (unsigned)c < GSX_N_CATEGORIES ? category_names[c] : "unknown";
}

static int parse(char *line, gsx_listed *r)
{
    char *f[6];
    if (gsw_split_tabs(line, f, 6) != 0 || f[0][0] == '\0' || f[5][0] == '\0') {
        return -1;
    }
    const int v = gsx_verdict_parse(f[1]);
    int cat = -1;
    for (int c = 0; c < GSX_N_CATEGORIES; c++) {
        cat = strcmp(f[4], category_names[c]) == 0 ? c : cat;
    }
    if (v < 0 || cat < 0 || strncmp(f[2], "GS_", 3) != 0 || strncmp(f[3], "GS_", 3) != 0) {
        return -1;
    }
    r->file = f[0];
    r->ggml = (gsx_verdict)v;
    r->strict = f[2];
    r->lenient = f[3];
    r->category = (gsx_category)cat;
    r->reason = f[5];
    return 0;
}

int gsx_list_read(const char *path, gsx_list *l)
{
    l->rows = NULL;
    l->n = 0;
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        printf("FAIL: cannot read %s\n", path);
        return -1;
    }
    char buf[8192];
    int line_no = 0, rc = 0;
    while (fgets(buf, sizeof buf, fp) != NULL) {
        line_no++;
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[0] == '#' || buf[0] == '\0' || strncmp(buf, "case\t", 5) == 0) {
            continue;
        }
        gsx_listed r;
        memset(&r, 0, sizeof r);
        r.line = strdup(buf);
        gsx_listed *p = r.line != NULL ? realloc(l->rows, (l->n + 1) * sizeof *p) : NULL;
        if (p == NULL || parse(r.line, &r) != 0) {
            printf("FAIL: %s:%d: want case, ggml verdict (accepted, rejected, crashed, hung), "
                   "strict and lenient status (GS_...), category (ggml-bug, spec-vs-ggml, "
                   "lenient-profile, our-limit, our-bug) and a reason, tab-separated\n", path,
                   line_no);
            free(r.line);
            if (p != NULL) {
                l->rows = p;
            }
            rc = -1;
            continue;
        }
        l->rows = p;
        l->rows[l->n++] = r;
    }
    fclose(fp);
    return rc;
}

void gsx_list_free(gsx_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->rows[i].line);
    }
    free(l->rows);
    l->rows = NULL;
    l->n = 0;
}

int gsx_list_documents(const gsx_list *l, int lenient, const char *status, gsx_verdict ggml)
{
    for (size_t i = 0; i < l->n; i++) {
        const gsx_listed *r = &l->rows[i];
        if (r->ggml == ggml && strcmp(lenient ? r->lenient : r->strict, status) == 0) {
            return 1;
        }
    }
    return 0;
}
