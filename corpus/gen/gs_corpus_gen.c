/* gs_corpus_gen: writes the generated corpus and its manifest, and checks or updates the
 * checked-in manifest.
 *
 *   gs_corpus_gen --out DIR [--manifest PATH] [--regress DIR] [--check | --update]
 *
 * Every case is written to DIR (region subdirectories), then DIR/manifest.tsv (the verdicts the
 * recipes declare, with each file's sha256) and DIR/SHA256SUMS (sha256sum -c format). Files in
 * the regress directory are copied to DIR/regress/ with the verdicts of their default run,
 * hand-written in the regress directory's manifest.tsv (gsc_manifest.h).
 *   --check   compare the generated manifest with PATH line by line; exit 1 on any drift.
 *   --update  rewrite PATH with the generated manifest (a deliberate regeneration).
 * Exit status: 0 success, 1 drift, 2 usage or I/O error. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gsc_cases.h"

typedef struct args {
    const char *out, *manifest, *regress;
    int check, update;
} args;

static int usage(void)
{
    fprintf(stderr, "usage: gs_corpus_gen --out DIR [--manifest PATH] [--regress DIR] "
                    "[--check | --update]\n");
    return 2;
}

static int parse_args(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0) {
            a->check = 1;
        } else if (strcmp(argv[i], "--update") == 0) {
            a->update = 1;
        } else if (i + 1 < argc && strcmp(argv[i], "--out") == 0) {
            a->out = argv[++i];
        } else if (i + 1 < argc && strcmp(argv[i], "--manifest") == 0) {
            a->manifest = argv[++i];
        } else if (i + 1 < argc && strcmp(argv[i], "--regress") == 0) {
            a->regress = argv[++i];
        } else {
            return -1;
        }
    }
    if (a->out == NULL || (a->check && a->update) || ((a->check || a->update) && !a->manifest)) {
        return -1;
    }
    return 0;
}

static int by_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Copies every regress file (sorted; README.md, manifest.tsv and dot files skipped) that has a
 * run under the default options in dir/manifest.tsv, with that run's verdicts; a file with only
 * other runs is not a corpus case. A file without any run is an error when checking or updating
 * (its verdicts must be written by hand) and is skipped otherwise. */
static int add_regress(gsc_sink *s, const char *dir, int strict)
{
    char path[4096], why[512];
    snprintf(path, sizeof path, "%s/manifest.tsv", dir);
    gsc_runs runs;
    if (gsc_runs_read(path, &runs, why, sizeof why) != 0) {
        fprintf(stderr, "gs_corpus_gen: %s\n", why);
        return -1;
    }
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "gs_corpus_gen: cannot open %s\n", dir);
        gsc_runs_free(&runs);
        return -1;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0 ||
            strcmp(e->d_name, "manifest.tsv") == 0) {
            continue;
        }
        char **grown = realloc(names, (n + 1) * sizeof *names);
        char *copy = malloc(strlen(e->d_name) + 1);
        if (grown == NULL || copy == NULL) {
            abort();
        }
        names = grown;
        strcpy(copy, e->d_name);
        names[n++] = copy;
    }
    closedir(d);
    if (n > 1) {
        qsort(names, n, sizeof *names, by_name);
    }
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        const gsc_run *run = gsc_runs_find(&runs, names[i], "default");
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        gsw_bytes b;
        gsw_bytes_init(&b);
        if (gsc_runs_find(&runs, names[i], NULL) == NULL) {
            fprintf(stderr, "gs_corpus_gen: %s has no line in %s/manifest.tsv: add one by hand "
                            "with its expected verdicts\n", names[i], dir);
            if (strict) {
                rc = -1;
            }
        } else if (run != NULL && gsw_bytes_load(&b, path) != 0) {
            fprintf(stderr, "gs_corpus_gen: cannot read %s\n", path);
            rc = -1;
        } else if (run != NULL) {
            char file[512];
            snprintf(file, sizeof file, "regress/%s", names[i]);
            gsc_emit(s, file, b.data, b.len, run->strict, run->lenient, run->certify[0] - '0',
                     run->reproduces);
        }
        gsw_bytes_free(&b);
        free(names[i]);
    }
    free(names);
    gsc_runs_free(&runs);
    return rc;
}

static int write_sums(const char *out, const gsc_manifest *m)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/SHA256SUMS", out);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return -1;
    }
    for (size_t i = 0; i < m->n; i++) {
        fprintf(f, "%s  %s\n", m->entries[i].sha256, m->entries[i].file);
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* Line-by-line comparison; prints every difference. */
static int compare(const gsc_manifest *want, const gsc_manifest *got, const char *path)
{
    char a[2048], b[2048];
    int drift = 0;
    for (size_t i = 0; i < got->n; i++) {
        const gsc_entry *w = gsc_manifest_find(want, got->entries[i].file);
        gsc_entry_format(&got->entries[i], b, sizeof b);
        if (w == NULL) {
            fprintf(stderr, "new case, not in %s:\n  + %s\n", path, b);
            drift = 1;
            continue;
        }
        gsc_entry_format(w, a, sizeof a);
        if (strcmp(a, b) != 0) {
            fprintf(stderr, "case differs from %s:\n  - %s\n  + %s\n", path, a, b);
            drift = 1;
        }
    }
    for (size_t i = 0; i < want->n; i++) {
        if (gsc_manifest_find(got, want->entries[i].file) == NULL) {
            gsc_entry_format(&want->entries[i], a, sizeof a);
            fprintf(stderr, "case in %s no longer generated:\n  - %s\n", path, a);
            drift = 1;
        }
    }
    if (drift) {
        fprintf(stderr, "the corpus drifted from %s. If the change is intended, regenerate it "
                        "(cmake --build <build> --target corpus_manifest) and review the diff.\n",
                path);
    }
    return drift;
}

int main(int argc, char **argv)
{
    args a;
    if (parse_args(argc, argv, &a) != 0) {
        return usage();
    }
    if (mkdir(a.out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gs_corpus_gen: cannot create %s\n", a.out);
        return 2;
    }
    gsc_manifest old;
    int have_old = 0;
    if (a.manifest != NULL) {
        char why[512];
        if (gsc_manifest_read(a.manifest, &old, why, sizeof why) == 0) {
            have_old = 1;
        } else if (a.check) {
            fprintf(stderr, "gs_corpus_gen: %s\n", why);
            return 2;
        }
    }

    gsc_sink s;
    gsc_sink_init(&s, a.out);
    gsc_cases_header(&s);
    gsc_cases_keys(&s);
    gsc_cases_values(&s);
    gsc_cases_strings(&s);
    gsc_cases_arrays(&s);
    gsc_cases_alignment(&s);
    gsc_cases_names(&s);
    gsc_cases_dims(&s);
    gsc_cases_types(&s);
    gsc_cases_layout(&s);
    gsc_cases_cve(&s);
    gsc_cases_semantic(&s);
    gsc_cases_boundary(&s);
    gsc_cases_truncate(&s);
    gsc_cases_notgguf(&s);
    int rc = 0;
    if (a.regress != NULL &&
        add_regress(&s, a.regress, a.check || a.update) != 0) {
        rc = 2;
    }

    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.tsv", a.out);
    if (rc == 0 && (gsc_manifest_write(path, &s.manifest) != 0 ||
                    write_sums(a.out, &s.manifest) != 0)) {
        fprintf(stderr, "gs_corpus_gen: cannot write the manifest into %s\n", a.out);
        rc = 2;
    }
    if (rc == 0 && a.check && compare(&old, &s.manifest, a.manifest)) {
        rc = 1;
    }
    if (rc == 0 && a.update) {
        if (gsc_manifest_write(a.manifest, &s.manifest) != 0) {
            fprintf(stderr, "gs_corpus_gen: cannot write %s\n", a.manifest);
            rc = 2;
        } else {
            printf("wrote %s\n", a.manifest);
        }
    }
    if (rc == 0) {
        printf("%zu cases, %llu bytes in %s\n", s.manifest.n, (unsigned long long)s.bytes, a.out);
    }
    gsc_sink_free(&s);
    if (have_old) {
        gsc_manifest_free(&old);
    }
    return rc;
}
