#define _POSIX_C_SOURCE 200809L
/* Repeatable --tensor and --exclude in diff and dequant: a tensor is kept when any --tensor
 * pattern matches it (or there is none) and no --exclude pattern does; a pattern matches a name
 * equal to it or as fnmatch(3) does, so exact names with [ still work; the reports name the
 * patterns; patterns that leave nothing are a usage error. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_test.h"
#include "diff_test_util.h"
#include "ggufsafe.h"

static dt_scratch scratch;
static const char *model; /* seven f32 tensors, the names below in this order */
static char *sample;

static const char *const names[] = {
    "blk.0.attn.weight", "blk.0.attn_norm.weight", "blk.1.attn.weight", "blk.1.attn_norm.weight",
    "output_norm.weight", "output.weight",         "w[0]",
};
#define N_NAMES (sizeof names / sizeof names[0])

static void setup(void)
{
    cr_assert_not_null(cli_binary(), "GS_CLI is not set: run through ctest");
    cr_assert(dt_scratch_open(&scratch));
    sample = source_path("conformance/samples/ggml-written.gguf");
    gsw_model m;
    llama_model(&m);
    static const uint64_t ne[1] = {32};
    for (size_t i = 0; i < N_NAMES; i++) {
        float v[32];
        for (int k = 0; k < 32; k++) {
            v[k] = (float)(i * 32 + (size_t)k) / 64.0f;
        }
        dt_add_tensor(&m, names[i], 1, ne, GS_TYPE_F32, v);
    }
    model = dt_scratch_path(&scratch, "model.gguf");
    cr_assert(dt_save(&m, model));
    gsw_model_free(&m);
}

static void teardown(void)
{
    dt_scratch_close(&scratch);
    free(sample);
}

TestSuite(filters, .init = setup, .fini = teardown);

#define ARGS(...) (const char *const[]){__VA_ARGS__, NULL}

/* Runs the tool with the n arguments of head, then the NULL-terminated extra (at most 40 in
 * all); returns the argument list it ran (valid until the next call). */
static const char *const *run_with(run_result *r, const char *const *head, size_t n,
                                   const char *const *extra)
{
    static const char *args[41];
    cr_assert_leq(n, 40);
    memcpy(args, head, n * sizeof *head);
    for (; *extra != NULL; extra++) {
        cr_assert_lt(n, 40);
        args[n++] = *extra;
    }
    args[n] = NULL;
    cr_assert(run_cli_v(r, false, args));
    return args;
}

/* The tensors diff compares with the patterns in extra, as the JSON lists them, one per line;
 * and its exit status. */
static char *compared(const char *const *extra, int *status)
{
    const char *const head[] = {"diff", "--json", model, model};
    run_result r;
    run_with(&r, head, 4, extra);
    *status = r.status;
    char *out = calloc(1, 4096);
    /* the compared list is the first array of objects with "name" after "compared" */
    const char *list = strstr(r.out, "\"compared\": [");
    const char *end = list != NULL ? strstr(list, "\"only_in_a\"") : NULL;
    for (const char *p = list; p != NULL && p < end; p += 8) {
        p = strstr(p, "\"name\": \"");
        if (p == NULL || p > end) {
            break;
        }
        const char *q = strchr(p + 9, '"');
        strncat(out, p + 9, (size_t)(q - p - 9));
        strcat(out, "\n");
    }
    run_result_free(&r);
    return out;
}

static void expect_compared(const char *const *extra, const char *want)
{
    int status;
    char *got = compared(extra, &status);
    cr_expect_eq(status, 0, "%s", extra[0]);
    cr_expect_str_eq(got, want, "with %s %s", extra[0], extra[1]);
    free(got);
}

Test(filters, diff_keeps_a_tensor_any_pattern_matches_and_none_excludes)
{
    /* every --tensor counts: before, the last one alone did */
    expect_compared(ARGS("--tensor", "*norm*", "--tensor", "output.weight"),
                    "blk.0.attn_norm.weight\nblk.1.attn_norm.weight\noutput_norm.weight\n"
                    "output.weight\n");
    expect_compared(ARGS("--tensor", "blk.*", "--exclude", "*norm*"),
                    "blk.0.attn.weight\nblk.1.attn.weight\n");
    expect_compared(ARGS("--exclude", "*norm*", "--exclude=w*"),
                    "blk.0.attn.weight\nblk.1.attn.weight\noutput.weight\n");
    /* the order of the patterns does not change the file order */
    expect_compared(ARGS("--tensor", "output.weight", "--tensor", "blk.1.*"),
                    "blk.1.attn.weight\nblk.1.attn_norm.weight\noutput.weight\n");
    /* an exact name matches itself though fnmatch would read [0] as a class */
    expect_compared(ARGS("--tensor", "w[0]"), "w[0]\n");
    expect_compared(ARGS("--tensor", "w\\[0]"), "w[0]\n");
    /* exclude wins */
    run_result r;
    CLI_RUN(r, 2, "diff", model, model, "--tensor", "output.weight", "--exclude", "output*");
    cr_expect_str_eq(r.err, "error: no tensor in either file is left by the --tensor and "
                            "--exclude patterns\nrun 'ggufsafe diff --help' for usage\n");
    cr_expect_eq(r.out_len, 0);
    run_result_free(&r);
    CLI_RUN(r, 2, "diff", model, model, "--tensor", "nothing.*");
    cr_expect_str_eq(r.err, "error: no tensor in either file matches 'nothing.*'\n"
                            "run 'ggufsafe diff --help' for usage\n");
    run_result_free(&r);
}

Test(filters, diff_reports_name_the_patterns)
{
    run_result r;
    cr_assert(run_cli(&r, "diff", model, model, "--tensor", "*norm*", "--tensor",
                      "output.weight", "--exclude", "blk.1.*", NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    char want[1024];
    snprintf(want, sizeof want,
             "B: %s (7 tensors, 1 metadata pairs)\n"
             "filter: --tensor '*norm*' --tensor 'output.weight' --exclude 'blk.1.*'\n\n",
             model);
    cr_expect(contains(r.out, want), "%s", r.out);
    cr_expect(contains(r.out, "tensors: 3 in A, 3 in B: 3 compared,"), "%s", r.out);
    run_result_free(&r);
    /* no filter, no line */
    cr_assert(run_cli(&r, "diff", model, model, NULL));
    cr_expect(!contains(r.out, "filter:"), "%s", r.out);
    run_result_free(&r);
    cr_assert(run_cli(&r, "diff", "--json", model, model, "--tensor", "*norm*", "--exclude",
                      "blk.1.*", "--exclude", "x", NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out,
                        "/filters/tensor=[\"*norm*\"]", "/filters/exclude=[\"blk.1.*\", \"x\"]",
                        "/total/tensors=2", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
    cr_assert(run_cli(&r, "diff", "--json", model, model, NULL));
    st = check_json(scratch.dir, "diff.schema.json", r.out, "/filters/tensor=[]",
                    "/filters/exclude=[]", "/total/tensors=7", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
}

/* The lines of ggml's own hash list for the named tensors, in the list's (file) order. */
static char *ggml_lines(const char *const *wanted)
{
    char *path = source_path("conformance/samples/ggml-written.dequant.sha256");
    size_t len;
    char *list = read_file(path, &len);
    cr_assert_not_null(list);
    char *out = calloc(1, len + 1);
    for (char *line = list; *line != '\0';) {
        char *end = strchr(line, '\n');
        size_t n = (size_t)(end - line) + 1;
        for (const char *const *w = wanted; *w != NULL; w++) {
            char name[128];
            snprintf(name, sizeof name, "  %s  ", *w);
            char *at = strstr(line, name);
            if (at != NULL && at < end) {
                strncat(out, line, n);
            }
        }
        line = end + 1;
    }
    free(list);
    free(path);
    return out;
}

static void expect_hashes(const char *const *extra, const char *const *wanted)
{
    const char *const head[] = {"dequant", "--sha256", sample};
    run_result r;
    const char *const *args = run_with(&r, head, 3, extra);
    cr_expect_eq(r.status, 0, "%s", r.err);
    char *want = ggml_lines(wanted);
    cr_expect_gt(strlen(want), 0);
    cr_expect_str_eq(r.out, want, "with %s %s", args[3], args[4]);
    free(want);
    run_result_free(&r);
}

Test(filters, dequant_takes_several_patterns)
{
    expect_hashes(ARGS("--tensor", "blk.0.iq4_*", "--tensor", "blk.0.q4_0.weight"),
                  ARGS("blk.0.q4_0.weight", "blk.0.iq4_nl.weight", "blk.0.iq4_xs.weight"));
    expect_hashes(ARGS("--tensor", "blk.0.*f*", "--exclude", "*fp4*"),
                  ARGS("blk.0.f16.weight", "blk.0.bf16.weight", "blk.0.f32.weight"));
    expect_hashes(ARGS("--exclude", "blk.0.[iqt]*", "--exclude", "raw.*", "--exclude",
                       "*fp4*"),
                  ARGS("blk.0.f16.weight", "blk.0.bf16.weight", "blk.0.f32.weight"));
    /* an exact name as before */
    expect_hashes(ARGS("--tensor", "blk.0.q8_0.weight"), ARGS("blk.0.q8_0.weight"));

    run_result r;
    CLI_RUN(r, 0, "dequant", model, "--sha256", "--tensor", "w[0]");
    cr_expect(strlen(r.out) == 64 + strlen("  w[0]  f32\n") && contains(r.out, "  w[0]  f32\n"),
              "%s", r.out);
    run_result_free(&r);
    /* patterns that leave nothing: usage errors that name them */
    CLI_RUN(r, 2, "dequant", sample, "--tensor", "zzz*");
    cr_expect_str_eq(r.err, "error: no tensor matches 'zzz*'\n"
                            "run 'ggufsafe dequant --help' for usage\n");
    cr_expect_eq(r.out_len, 0, "%s", r.out);
    run_result_free(&r);
    CLI_RUN(r, 2, "dequant", sample, "--sha256", "--tensor", "a", "--tensor", "b");
    cr_expect_str_eq(r.err, "error: no tensor is left by the --tensor and --exclude patterns\n"
                            "run 'ggufsafe dequant --help' for usage\n");
    run_result_free(&r);
}
