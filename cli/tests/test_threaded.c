/* test_threaded [--keep DIR] [--corpus DIR MANIFEST]: the threaded paths on a multi-part set. hash (one reader,
 * hashers), certify --deep (tensors scanned in parallel) and diff (tensors compared in parallel)
 * give byte-identical reports with 1 and with 4 threads. The sets have three parts of about
 * 6 MiB (two of hash's 4 MiB chunks each) holding tensors of several types. A plain-C program,
 * not a Criterion test: the ThreadSanitizer stage (ci/tsan.sh) runs it, and Criterion cannot
 * start under TSan (Snaipe/Criterion#274). With --keep the sets stay in DIR (a-0000N-of-00003,
 * b-...) for that stage to run the command on them; with --corpus every file of the generated
 * corpus is run the same way (corpus(), below). Exit 0 when every report agrees. */
#define _DEFAULT_SOURCE /* open_memstream */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "cli_test.h"
#include "ggufsafe_certify.h"
#include "ggufsafe_diff.h"
#include "ggufsafe_manifest.h"
#include "gsw_write.h"

#define PARTS 3
#define TENSORS_PER_PART 12

static const char *dir;
static int failures;

/* A check failed: say what, count it, go on with the next. */
__attribute__((format(printf, 2, 3))) static bool check(bool ok, const char *fmt, ...)
{
    if (!ok) {
        va_list ap;
        va_start(ap, fmt);
        fputs("test_threaded: FAIL: ", stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
        failures++;
    }
    return ok;
}

/* A step without which nothing further can be checked. */
static void require(bool ok, const char *what, const char *detail)
{
    if (!ok) {
        fprintf(stderr, "test_threaded: cannot go on: %s%s%s\n", what, detail ? ": " : "",
                detail ? detail : "");
        exit(1);
    }
}

/* dir/<prefix>-0000N-of-00003.gguf; seed changes the data. The path of part 1. */
static char *write_set(const char *prefix, uint64_t seed)
{
    static const int32_t types[4] = {GS_TYPE_F32, GS_TYPE_Q8_0, GS_TYPE_Q4_K, GS_TYPE_F16};
    char *first = NULL;
    for (int p = 0; p < PARTS; p++) {
        gsw_model m;
        llama_model(&m);
        split_keys(&m, (unsigned)p, PARTS, PARTS * TENSORS_PER_PART);
        for (int i = 0; i < TENSORS_PER_PART; i++) {
            char name[32];
            snprintf(name, sizeof name, "blk.%d.w%d", p, i);
            const uint64_t ne[2] = {1024, 256};
            gsw_tensor *t = gsw_add_tensor(&m, name, 2, ne, types[i % 4]);
            require(gsw_tensor_fill(t, seed * 1000 + (uint64_t)(p * 100 + i), 2u << 20),
                    "filling a tensor", NULL);
        }
        char why[256];
        require(write_split_part(&m, dir, prefix, (unsigned)p, PARTS, p == 0 ? &first : NULL, why,
                                 sizeof why),
                "writing a part", why);
    }
    return first;
}

typedef struct text {
    char *s;
    size_t n;
    FILE *f;
    gs_sink sink;
} text;

static void text_open(text *t)
{
    t->s = NULL;
    t->n = 0;
    t->f = open_memstream(&t->s, &t->n);
    require(t->f != NULL, "open_memstream", NULL);
    gs_sink_file(&t->sink, t->f);
}

static char *text_close(text *t)
{
    require(fclose(t->f) == 0, "writing a report", NULL);
    return t->s;
}

typedef enum job { HASH, CERTIFY, DIFF } job;
static const char *const job_names[] = {"hash", "certify --deep", "diff"};

/* job's report on a (diff: a against b) with `jobs` threads, or NULL with the status in *st
 * when the run failed (a file the profile rejects, one that is not a GGUF): a failure must be
 * the same with 1 and 4 threads too. certify --deep runs under its own profiles. */
static char *report(job j, const char *a, const char *b, gs_profile profile, unsigned jobs,
                    gs_status *st)
{
    gs_error err;
    gs_manifest *m = NULL;
    gs_certify *r = NULL;
    gs_diff_input *ia = NULL, *ib = NULL;
    gs_diff *d = NULL;
    if (j == HASH) {
        gs_manifest_options o;
        gs_manifest_options_init(&o);
        o.profile = profile;
        o.jobs = jobs;
        *st = gs_manifest_hash_path(a, &o, &m, &err);
    } else if (j == CERTIFY) {
        gs_certify_options o;
        gs_certify_options_init(&o);
        o.deep = true;
        o.jobs = jobs;
        *st = gs_certify_path(a, &o, &r, &err);
    } else {
        gs_diff_options o;
        gs_diff_options_init(&o);
        o.profile = profile;
        o.jobs = jobs;
        *st = gs_diff_open(a, "A", &o, &ia, &err);
        if (*st == GS_OK) {
            *st = gs_diff_open(b, "B", &o, &ib, &err);
        }
        if (*st == GS_OK) {
            *st = gs_diff_compare(ia, ib, &o, &d, &err);
        }
    }
    char *out = NULL;
    if (*st == GS_OK) {
        text t;
        text_open(&t);
        gs_status written = j == HASH      ? gs_manifest_write(m, &t.sink, &err)
                            : j == CERTIFY ? gs_certify_write_json(r, &t.sink, &err)
                                           : gs_diff_write_json(d, &t.sink, &err);
        require(written == GS_OK, job_names[j], err.detail);
        out = text_close(&t);
    }
    gs_manifest_free(m);
    gs_certify_free(r);
    gs_diff_free(d);
    gs_diff_input_close(ia);
    gs_diff_input_close(ib);
    return out;
}

/* job run twice, with 1 and with 4 threads: the same status and report. The report with 1
 * thread (the caller frees it), or NULL with the status in *st when the run failed. */
static char *agree(job j, const char *a, const char *b, gs_profile profile, gs_status *st)
{
    gs_status st4;
    char *one = report(j, a, b, profile, 1, st);
    char *four = report(j, a, b, profile, 4, &st4);
    if (check(*st == st4, "%s %s: %s with 1 thread, %s with 4", job_names[j], a,
              gs_status_name(*st), gs_status_name(st4)) &&
        one != NULL) {
        check(strcmp(one, four) == 0, "%s %s: the reports with 1 and 4 threads differ",
              job_names[j], a);
    }
    free(four);
    return one;
}

/* The sets: everything succeeds, and agrees. */
static void sets(void)
{
    char *a = write_set("a", 1);
    char *b = write_set("b", 2);
    gs_status st;
    char *one = agree(HASH, a, NULL, GS_PROFILE_STRICT, &st);
    require(one != NULL, "hash of the set", gs_status_name(st));
    check(strstr(one, "part 3 of 3\n") != NULL, "hash: no part 3 in the manifest");
    free(one);
    one = agree(CERTIFY, a, NULL, GS_PROFILE_STRICT, &st);
    require(one != NULL, "certify of the set", gs_status_name(st));
    free(one);
    one = agree(DIFF, a, b, GS_PROFILE_STRICT, &st);
    require(one != NULL, "diff of the sets", gs_status_name(st));
    check(strstr(one, "\"compared\": [") != NULL, "diff: nothing compared");
    free(one);
    free(a);
    free(b);
}

/* --corpus DIR MANIFEST: every file the manifest lists (its first column, the lenient reader's
 * status in the fifth): certify --deep of each, hash --profile lenient and diff with itself of
 * those lenient reads. Returns the number of files. */
static size_t corpus(const char *root, const char *manifest)
{
    FILE *f = fopen(manifest, "r");
    require(f != NULL, "the corpus manifest", manifest);
    char *line = NULL;
    size_t cap = 0, files = 0;
    while (getline(&line, &cap, f) > 0) {
        char *fields[5] = {NULL};
        char *save = NULL;
        char *tok = strtok_r(line, "\t\n", &save);
        for (int k = 0; k < 5 && tok != NULL; k++, tok = strtok_r(NULL, "\t\n", &save)) {
            fields[k] = tok;
        }
        if (fields[4] == NULL || strcmp(fields[0], "file") == 0) {
            continue; /* the header, or a short line */
        }
        char *path = path_join(root, fields[0]);
        require(path != NULL, "a path", fields[0]);
        gs_status st;
        free(agree(CERTIFY, path, NULL, GS_PROFILE_LENIENT, &st));
        if (strcmp(fields[4], "GS_OK") == 0) {
            free(agree(HASH, path, NULL, GS_PROFILE_LENIENT, &st));
            free(agree(DIFF, path, path, GS_PROFILE_LENIENT, &st));
        }
        free(path);
        files++;
    }
    free(line);
    fclose(f);
    require(files > 0, "files in the corpus manifest", manifest);
    return files;
}

int main(int argc, char **argv)
{
    const char *keep = NULL, *corpus_dir = NULL, *corpus_manifest = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--keep") == 0 && i + 1 < argc) {
            keep = argv[++i];
        } else if (strcmp(argv[i], "--corpus") == 0 && i + 2 < argc) {
            corpus_dir = argv[++i];
            corpus_manifest = argv[++i];
        } else {
            fprintf(stderr, "usage: test_threaded [--keep DIR] [--corpus DIR MANIFEST]\n");
            return 2;
        }
    }
    char *scratch = NULL;
    if (keep != NULL) {
        dir = keep;
    } else {
        dir = scratch = scratch_dir();
        require(scratch != NULL, "a scratch directory", NULL);
    }
    sets();
    size_t files = corpus_dir != NULL ? corpus(corpus_dir, corpus_manifest) : 0;
    if (scratch != NULL) {
        scratch_remove(scratch);
    }
    if (failures > 0) {
        return 1;
    }
    printf("test_threaded: hash, certify --deep and diff agree with 1 and 4 threads on %d-part "
           "sets and %zu corpus files\n",
           PARTS, files);
    return 0;
}
