/* ggml's verdict against ours on every corpus case. ggml's reader runs in a gs_oracle child
 * per case (20 s of CPU time; a crash or a hang is a verdict); ours runs here under both
 * profiles. Every disagreement must be listed in disagreements.tsv with its reason, and every
 * listed one must still occur. Where ggml and a profile both accept, they must read the file
 * the same way: data offset, tensor directory, and every tensor's decoded SHA-256 on every
 * decoder path.
 *
 *   test_oracle_corpus GS_ORACLE CORPUS_DIR DISAGREEMENTS_TSV
 * CORPUS_DIR is the generated corpus (its manifest.tsv lists the cases, corpus/regress/'s
 * findings among them, the differential fuzzer's included). Exit 77 when ggml is unavailable
 * (unless GGUFSAFE_REQUIRE_ORACLE=1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufsafe.h"
#include "disagreements.h"
#include "oracle_client.h"

#define CASE_LIMIT_S 20.0 /* ggml's CPU time per case: "hung" past it */
#define SLOW_S 5.0        /* a listed "hung" still holds while ggml needs more than this */

static gs_status our_open(const char *path, gs_profile profile, gs_file **f)
{
    gs_options o;
    gs_options_init(&o);
    o.profile = profile;
    gs_error e;
    return gs_open_file(path, &o, f, &e);
}

typedef struct tally {
    size_t cases, agree, disagree, unlisted, stale, both_accept, views, hashes, no_reference,
        differences, failures;
    size_t by_category[GSX_N_CATEGORIES];
    size_t ggml[4];
} tally;

/* Where ggml and one of our profiles accept: the same reading on every decoder path. */
static void compare_reading(const gsx_view *ggml, const char *path, gs_file *f,
                            const gs_kernel *paths, size_t n_paths, tally *t)
{
    for (size_t k = 0; k < n_paths; k++) {
        gs_set_kernel(paths[k]);
        gsx_view ours;
        const gs_status st = gsx_view_ours(f, GSX_VIEW_HASH, &ours);
        char label[600];
        snprintf(label, sizeof label, "%.500s [%s]", path, gs_kernel_name(paths[k]));
        if (st != GS_OK) {
            printf("FAIL: %s: decoding failed: %s\n", label, gs_status_name(st));
            t->failures++;
        } else {
            const gsx_view_diff d = gsx_view_compare(ggml, &ours, GSX_VIEW_HASH, stdout, label);
            t->views++;
            t->hashes += d.hashes_equal;
            t->no_reference += d.no_reference;
            t->differences += d.differences;
        }
        gsx_view_free(&ours);
    }
    gs_set_kernel(GS_KERNEL_AUTO);
}

/* A listed line matches an observation when every column agrees; a listed "hung" also
 * matches a slow acceptance (the quadratic checks finish in time on a fast machine). */
static int matches(const gsx_listed *r, const char *file, gsx_verdict v, double seconds,
                   const char *strict, const char *lenient)
{
    if (strcmp(r->file, file) != 0 || strcmp(r->strict, strict) != 0 ||
        strcmp(r->lenient, lenient) != 0) {
        return 0;
    }
    return r->ggml == v || (r->ggml == GSX_HUNG && v == GSX_ACCEPTED && seconds > SLOW_S);
}

/* One case: `name` in `dir`, known in the list by that name. */
static void one_case(const char *oracle, const char *dir, const char *name, gsx_list *l,
                     const gs_kernel *paths, size_t n_paths, tally *t)
{
    char path[16400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    gsx_view ggml;
    char detail[256];
    double seconds = 0;
    const gsx_verdict v = gsx_ggml_report(oracle, path, GSX_VIEW_HASH, CASE_LIMIT_S, &ggml,
                                          detail, sizeof detail, &seconds);
    t->ggml[v]++;
    gs_file *fs = NULL, *fl = NULL;
    const gs_status ss = our_open(path, GS_PROFILE_STRICT, &fs);
    const gs_status sl = our_open(path, GS_PROFILE_LENIENT, &fl);
    const int agree = v == GSX_ACCEPTED ? ss == GS_OK && sl == GS_OK
                                        : v == GSX_REJECTED && ss != GS_OK && sl != GS_OK;
    if (v == GSX_ACCEPTED && (fs != NULL || fl != NULL)) {
        t->both_accept++;
        compare_reading(&ggml, path, fs != NULL ? fs : fl, paths, n_paths, t);
    }
    if (agree) {
        t->agree++;
    } else {
        t->disagree++;
        gsx_listed *hit = NULL;
        for (size_t i = 0; i < l->n && hit == NULL; i++) {
            if (matches(&l->rows[i], name, v, seconds, gs_status_name(ss),
                        gs_status_name(sl))) {
                hit = &l->rows[i];
            }
        }
        if (hit != NULL) {
            hit->seen = 1;
        } else {
            t->unlisted++;
            printf("UNLISTED: %s\t%s\t%s\t%s\t<category>\t<reason>   (ggml: %s)\n", name,
                   gsx_verdict_name(v), gs_status_name(ss), gs_status_name(sl), detail);
        }
    }
    gs_close(fs);
    gs_close(fl);
    gsx_view_free(&ggml);
    t->cases++;
}

int main(int argc, char **argv)
{
    const int start = gsx_oracle_start(argc, argv, 3, 3, "GS_ORACLE CORPUS_DIR DISAGREEMENTS_TSV");
    if (start != 0) {
        return start;
    }
    gsx_list l;
    tally t;
    memset(&t, 0, sizeof t);
    if (gsx_list_read(argv[3], &l) != 0) {
        t.failures++;
    }
    char manifest[4096];
    snprintf(manifest, sizeof manifest, "%s/manifest.tsv", argv[2]);
    FILE *m = fopen(manifest, "r");
    if (m == NULL) {
        printf("FAIL: cannot read %s (build the corpus_generated target)\n", manifest);
        return 1;
    }
    gs_kernel paths[3];
    const size_t n_paths = gsx_kernel_paths(paths);
    char line[8192];
    while (fgets(line, sizeof line, m) != NULL) {
        line[strcspn(line, "\t\r\n")] = '\0'; /* the first column: the case's file */
        if (line[0] == '\0' || strcmp(line, "file") == 0) {
            continue;
        }
        one_case(argv[1], argv[2], line, &l, paths, n_paths, &t);
    }
    fclose(m);
    for (size_t i = 0; i < l.n; i++) {
        if (!l.rows[i].seen) {
            t.stale++;
            printf("STALE: %s\t%s\t%s\t%s: listed, but no longer observed\n", l.rows[i].file,
                   gsx_verdict_name(l.rows[i].ggml), l.rows[i].strict, l.rows[i].lenient);
        } else {
            t.by_category[l.rows[i].category]++;
        }
    }
    printf("%zu cases: ggml accepted %zu, rejected %zu, crashed %zu, hung %zu; "
           "%zu agree with both profiles, %zu disagree (%zu unlisted), %zu stale lines\n",
           t.cases, t.ggml[GSX_ACCEPTED], t.ggml[GSX_REJECTED], t.ggml[GSX_CRASHED],
           t.ggml[GSX_HUNG], t.agree, t.disagree, t.unlisted, t.stale);
    printf("documented disagreements:");
    for (int c = 0; c < GSX_N_CATEGORIES; c++) {
        printf(" %s %zu%s", gsx_category_name((gsx_category)c), t.by_category[c],
               c + 1 < GSX_N_CATEGORIES ? "," : "\n");
    }
    printf("%zu cases accepted by ggml and by us: %zu readings compared on %zu path(s), %zu "
           "decoded hashes equal to ggml's, %zu without a ggml decoder, %zu differences\n",
           t.both_accept, t.views, n_paths, t.hashes, t.no_reference, t.differences);
    gsx_list_free(&l);
    const int failed = t.failures > 0 || t.unlisted > 0 || t.stale > 0 || t.differences > 0 ||
                       t.by_category[GSX_OUR_BUG] > 0 || t.cases == 0;
    if (t.by_category[GSX_OUR_BUG] > 0) {
        printf("FAIL: %zu listed our-bug lines: ggufsafe must be fixed\n",
               t.by_category[GSX_OUR_BUG]);
    }
    printf("%s\n", failed ? "FAIL" : "PASS");
    return failed;
}
