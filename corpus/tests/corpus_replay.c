/* gs_corpus_replay: the reader's verdicts against the hand-written ones, under both profiles,
 * from the file and from memory. Plain C (no Criterion) so that it also runs under qemu. Prints
 * one line per failure and "N passed, N failed".
 *   gs_corpus_replay MANIFEST DIR          every corpus file listed in the manifest; checks each
 *                                          file's sha256 first, so a stale corpus cannot pass
 *   gs_corpus_replay --regress DIR FILE    every run of the regression file DIR/FILE in
 *                                          DIR/manifest.tsv, each under its options
 *   gs_corpus_replay --regress DIR         the listing: every file of DIR has a run there and
 *                                          every run's file exists */
#define _DEFAULT_SOURCE /* scandir, alphasort */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "ggufsafe.h"
#include "gsc_manifest.h"
#include "gsw_sha256.h"
#include "gsw_bytes.h"

/* 0 when the reader's verdict equals the expected one; otherwise prints why. */
static int check(const char *name, const char *how, gs_status st, const gs_error *err,
                 const gsc_verdict *want)
{
    if (st == want->status && (st == GS_OK || err->offset == want->offset)) {
        return 0;
    }
    printf("FAIL %s (%s): %s at %llu (%s), want %s at %llu\n", name, how, gs_status_name(st),
           (unsigned long long)(st == GS_OK ? 0 : err->offset), st == GS_OK ? "" : err->detail,
           gs_status_name(want->status), (unsigned long long)want->offset);
    return 1;
}

/* Opens path (its bytes b) with opts[0] (strict) and opts[1] (lenient), from the file and from
 * memory, against want[0] and want[1]. 0, or 1 after printing every difference. */
static int verdicts(const char *name, const char *path, const gsw_bytes *b,
                    const gs_options opts[2], const gsc_verdict *const want[2])
{
    int failed = 0;
    for (int p = 0; p < 2; p++) {
        gs_file *f = NULL;
        gs_error err;
        gs_status st = gs_open_file(path, &opts[p], &f, &err);
        failed |= check(name, p == 0 ? "strict" : "lenient", st, &err, want[p]);
        gs_close(f);
        st = gs_open_memory(b->data, b->len, &opts[p], &f, &err);
        failed |= check(name, p == 0 ? "strict, memory" : "lenient, memory", st, &err, want[p]);
        gs_close(f);
    }
    return failed;
}

static void profile_options(gs_options opts[2])
{
    for (int p = 0; p < 2; p++) {
        gs_options_init(&opts[p]);
        opts[p].profile = p == 0 ? GS_PROFILE_STRICT : GS_PROFILE_LENIENT;
    }
}

static int replay(const gsc_entry *e, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->file);
    gsw_bytes b;
    gsw_bytes_init(&b);
    if (gsw_bytes_load(&b, path) != 0) {
        printf("FAIL %s: cannot read %s\n", e->file, path);
        return 1;
    }
    char sha[65];
    gsw_sha256_hex(b.data, b.len, sha);
    int failed = 0;
    if (strcmp(sha, e->sha256) != 0) {
        printf("FAIL %s: sha256 %s, the manifest says %s\n", e->file, sha, e->sha256);
        failed = 1;
    }
    gs_options opts[2];
    profile_options(opts);
    const gsc_verdict *const want[2] = {&e->strict, &e->lenient};
    failed = failed || verdicts(e->file, path, &b, opts, want);
    gsw_bytes_free(&b);
    return failed;
}

/* The reader options of a run: "default", or "fuzz_open:" and the 8 hex digits of the trailer
 * whose options fuzz_open derives (fuzz_open_options). 0, or -1 for options not of that form. */
static int run_options(const char *options, gs_options opts[2])
{
    static const char fuzz_open[] = "fuzz_open:";
    profile_options(opts);
    if (strcmp(options, "default") == 0) {
        return 0;
    }
    uint8_t tail[FUZZ_TAIL_BYTES];
    const char *hex = options + sizeof fuzz_open - 1;
    if (strncmp(options, fuzz_open, sizeof fuzz_open - 1) != 0 ||
        strlen(hex) != 2 * FUZZ_TAIL_BYTES || strspn(hex, "0123456789abcdef") != strlen(hex)) {
        return -1;
    }
    for (int i = 0; i < FUZZ_TAIL_BYTES; i++) {
        unsigned byte;
        sscanf(hex + 2 * i, "%2x", &byte);
        tail[i] = (uint8_t)byte;
    }
    for (int p = 0; p < 2; p++) {
        fuzz_open_options(&opts[p], opts[p].profile, tail);
    }
    return 0;
}

/* Every run of dir/file, counted in *passed and *failed (a file without runs is a failure). */
static void replay_regress(const gsc_runs *runs, const char *dir, const char *file,
                          size_t *passed, size_t *failed)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    gsw_bytes b;
    gsw_bytes_init(&b);
    const int unreadable = gsw_bytes_load(&b, path) != 0;
    size_t n_runs = 0;
    for (size_t i = 0; i < runs->n; i++) {
        const gsc_run *r = &runs->runs[i];
        if (strcmp(r->file, file) != 0) {
            continue;
        }
        n_runs++;
        char name[4200];
        snprintf(name, sizeof name, "%s [%s]", file, r->options);
        gs_options opts[2];
        const gsc_verdict *const want[2] = {&r->strict, &r->lenient};
        int bad = 1;
        if (unreadable) {
            printf("FAIL %s: cannot read %s\n", name, path);
        } else if (!r->reader) {
            printf("PASS %s: no reader verdicts, the harness run is the check\n", name);
            bad = 0;
        } else if (run_options(r->options, opts) != 0) {
            printf("FAIL %s: the reader's options must be \"default\" or \"fuzz_open:\" and 8 "
                   "lowercase hex digits\n", name);
        } else if ((bad = verdicts(name, path, &b, opts, want)) == 0) {
            printf("PASS %s: strict %s, lenient %s\n", name, gs_status_name(r->strict.status),
                   gs_status_name(r->lenient.status));
        }
        *(bad ? failed : passed) += 1;
    }
    if (n_runs == 0) {
        printf("FAIL %s: no line in %s/manifest.tsv (add its expected outcomes by hand)\n", file,
               dir);
        *failed += 1;
    }
    gsw_bytes_free(&b);
}

/* A file of the regress directory (not its README or manifest, nor a dot file). */
static int is_regress_file(const struct dirent *e)
{
    return e->d_name[0] != '.' && strcmp(e->d_name, "README.md") != 0 &&
           strcmp(e->d_name, "manifest.tsv") != 0;
}

/* Every file of dir has a run, every run's file is in dir. */
static void check_listing(const gsc_runs *runs, const char *dir, size_t *passed, size_t *failed)
{
    struct dirent **names = NULL;
    const int n = scandir(dir, &names, is_regress_file, alphasort);
    if (n < 0) {
        printf("FAIL: cannot read %s\n", dir);
        *failed += 1;
        return;
    }
    for (int i = 0; i < n; i++) {
        const int listed = gsc_runs_find(runs, names[i]->d_name, NULL) != NULL;
        if (!listed) {
            printf("FAIL %s: no line in %s/manifest.tsv\n", names[i]->d_name, dir);
        }
        *(listed ? passed : failed) += 1;
        free(names[i]);
    }
    for (size_t i = 0; i < runs->n; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, runs->runs[i].file);
        FILE *f = fopen(path, "rb");
        if (f == NULL) {
            printf("FAIL %s [%s]: listed, but there is no such file\n", runs->runs[i].file,
                   runs->runs[i].options);
            *failed += 1;
        } else {
            fclose(f);
        }
    }
    free(names);
}

int main(int argc, char **argv)
{
    const int regress = argc >= 2 && strcmp(argv[1], "--regress") == 0;
    if (regress ? argc != 3 && argc != 4 : argc != 3) {
        fprintf(stderr, "usage: gs_corpus_replay MANIFEST DIR\n"
                        "       gs_corpus_replay --regress DIR [FILE]\n");
        return 2;
    }
    char why[512];
    size_t passed = 0, failed = 0;
    if (regress) {
        char path[4096];
        snprintf(path, sizeof path, "%s/manifest.tsv", argv[2]);
        gsc_runs runs;
        if (gsc_runs_read(path, &runs, why, sizeof why) != 0) {
            fprintf(stderr, "gs_corpus_replay: %s\n", why);
            return 2;
        }
        if (argc == 4) {
            replay_regress(&runs, argv[2], argv[3], &passed, &failed);
        } else {
            check_listing(&runs, argv[2], &passed, &failed);
        }
        gsc_runs_free(&runs);
    } else {
        gsc_manifest m;
        if (gsc_manifest_read(argv[1], &m, why, sizeof why) != 0) {
            fprintf(stderr, "gs_corpus_replay: %s\n", why);
            return 2;
        }
        for (size_t i = 0; i < m.n; i++) {
            *(replay(&m.entries[i], argv[2]) == 0 ? &passed : &failed) += 1;
        }
        gsc_manifest_free(&m);
    }
    printf("%zu passed, %zu failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}
