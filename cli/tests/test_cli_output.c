#define _POSIX_C_SOURCE 200809L
/* Where the commands write and what they say when a file cannot be used: --output FILE (and
 * hash -o, dequant -o) holds exactly the bytes standard output would, '-' is standard output, a
 * failed run leaves no file and an existing one untouched, and the file keeps its mode; every
 * file that cannot be read, created or written is named in the error line, first; -q drops the
 * progress bar (drawn on a terminal) and verify's closing line, and nothing else. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_test.h"

static char *dir;
static char *sample;
static char *manifest; /* the sample's manifest */

static void setup(void)
{
    cr_assert_not_null(cli_binary(), "GS_CLI is not set: run through ctest");
    sample = source_path("conformance/samples/ggml-written.gguf");
    dir = scratch_dir();
    cr_assert_not_null(dir);
    manifest = path_join(dir, "sample.manifest");
    run_result r;
    cr_assert(run_cli(&r, "hash", sample, "-o", manifest, NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_result_free(&r);
}

static void teardown(void)
{
    scratch_remove(dir);
    free(sample);
    free(manifest);
}

TestSuite(output, .init = setup, .fini = teardown);

#define ARGS(...) (const char *const[]){__VA_ARGS__, NULL}

/* The names in dir, sorted, one per line. */
static char *listing(const char *path)
{
    char *names[64];
    size_t n = 0;
    DIR *d = opendir(path);
    cr_assert_not_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 64) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    for (size_t i = 1; i < n; i++) {
        for (size_t k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
            char *t = names[k];
            names[k] = names[k - 1];
            names[k - 1] = t;
        }
    }
    char *out = calloc(1, 64 * 260);
    for (size_t i = 0; i < n; i++) {
        strcat(out, names[i]);
        strcat(out, "\n");
        free(names[i]);
    }
    return out;
}

/* Runs args with "--output" and path (or the given option) appended. */
static void run_with(run_result *r, const char *const *args, const char *option,
                     const char *path)
{
    const char *all[40];
    size_t n = 0;
    for (; args[n] != NULL; n++) {
        all[n] = args[n];
    }
    all[n++] = option;
    all[n++] = path;
    all[n] = NULL;
    cr_assert(run_cli_v(r, false, all));
}

/* args writes its report to stdout with exit status `status`; with option FILE the same bytes go
 * to FILE and nothing to stdout; with option '-' to stdout again. */
static void output_equals_stdout(const char *const *args, const char *option, int status)
{
    run_result plain;
    cr_assert(run_cli_v(&plain, false, args));
    cr_assert_eq(plain.status, status, "%s: exit %d: %s", args[0], plain.status, plain.err);
    cr_assert_gt(plain.out_len, 0, "%s printed nothing", args[0]);
    char *file = path_join(dir, "report.out");
    run_result r;
    run_with(&r, args, option, file);
    cr_expect_eq(r.status, status, "%s %s: exit %d: %s", args[0], option, r.status, r.err);
    cr_expect_eq(r.out_len, 0, "%s %s wrote to stdout", args[0], option);
    cr_expect_str_eq(r.err, plain.err);
    size_t len;
    char *bytes = read_file(file, &len);
    cr_assert_not_null(bytes, "%s %s: no file", args[0], option);
    cr_expect_eq(len, plain.out_len, "%s %s", args[0], option);
    cr_expect(memcmp(bytes, plain.out, len < plain.out_len ? len : plain.out_len) == 0,
              "%s %s: other bytes", args[0], option);
    free(bytes);
    run_result_free(&r);
    run_with(&r, args, option, "-");
    cr_expect_eq(r.status, status);
    cr_expect_eq(r.out_len, plain.out_len, "%s %s -", args[0], option);
    cr_expect(memcmp(r.out, plain.out, r.out_len < plain.out_len ? r.out_len : plain.out_len) ==
                  0,
              "%s %s -", args[0], option);
    run_result_free(&r);
    run_result_free(&plain);
    remove(file);
    free(file);
}

Test(output, the_file_holds_what_stdout_would)
{
    output_equals_stdout(ARGS("info", sample), "--output", 0);
    output_equals_stdout(ARGS("info", "--json", sample), "-o", 0);
    output_equals_stdout(ARGS("certify", sample), "--output", 0);
    output_equals_stdout(ARGS("certify", "--json", "--deep", sample), "-o", 0);
    output_equals_stdout(ARGS("certify", "--sarif", sample), "--output", 0);
    output_equals_stdout(ARGS("certify", "--list-codes"), "-o", 0);
    output_equals_stdout(ARGS("verify", sample, manifest), "--output", 0);
    output_equals_stdout(ARGS("diff", sample, sample), "--output", 0);
    output_equals_stdout(ARGS("diff", "--json", sample, sample), "--output", 0);
    output_equals_stdout(ARGS("hash", sample), "--manifest", 0);
    /* dequant: the raw values, to -o FILE or to standard output with -o - */
    char *raw = path_join(dir, "raw.f32");
    run_result a, b;
    cr_assert(run_cli(&a, "dequant", sample, "--tensor", "blk.0.q4_*", "-o", "-", NULL));
    cr_assert(run_cli(&b, "dequant", sample, "--tensor", "blk.0.q4_*", "--out", raw, NULL));
    cr_expect_eq(a.status, 0, "%s", a.err);
    cr_expect_eq(b.status, 0, "%s", b.err);
    cr_expect_eq(b.out_len, 0);
    cr_expect_eq(a.out_len, 4 * (512 * 8 * 3), "q4_0, q4_1, q4_K: %zu bytes", a.out_len);
    size_t len;
    char *bytes = read_file(raw, &len);
    cr_assert_not_null(bytes);
    cr_expect(len == a.out_len && memcmp(bytes, a.out, len) == 0);
    free(bytes);
    run_result_free(&a);
    run_result_free(&b);
    free(raw);
}

Test(output, a_report_that_fails_is_a_report_still)
{
    /* a difference is the report's verdict (exit 1), not a failure: the file is written */
    char *other = path_join(dir, "other.manifest");
    size_t len;
    char *text = read_file(manifest, &len);
    char *kv = strstr(text, "\nkv ");
    cr_assert_not_null(kv);
    kv[5] = kv[5] == 'a' ? 'b' : 'a'; /* one digest changed */
    cr_assert(write_file(other, text, len));
    output_equals_stdout(ARGS("verify", sample, other), "-o", 1);
    free(text);
    free(other);
}

Test(output, a_failed_run_leaves_no_file_and_an_old_one_as_it_was)
{
    char *missing = path_join(dir, "missing.gguf");
    char *report = path_join(dir, "report.txt");
    char *before = listing(dir);
    const char *const *failing[] = {
        ARGS("info", missing, "--output", report),
        ARGS("certify", missing, "-o", report),
        ARGS("verify", missing, manifest, "-o", report),
        ARGS("verify", sample, missing, "-o", report),
        ARGS("diff", sample, missing, "--output", report),
        ARGS("hash", missing, "-o", report),
        ARGS("dequant", missing, "-o", report),
        ARGS("dequant", sample, "--tensor", "no.such.tensor", "-o", report),
    };
    for (size_t i = 0; i < sizeof failing / sizeof failing[0]; i++) {
        run_result r;
        cr_assert(run_cli_v(&r, false, failing[i]));
        cr_expect_eq(r.status, 2, "case %zu: %s", i, r.err);
        run_result_free(&r);
        char *after = listing(dir);
        cr_expect_str_eq(after, before, "case %zu left a file", i);
        free(after);
        /* an existing report stays as it was */
        cr_assert(write_file(report, "old\n", 4));
        cr_assert(run_cli_v(&r, false, failing[i]));
        cr_expect_eq(r.status, 2, "case %zu", i);
        run_result_free(&r);
        size_t len;
        char *kept = read_file(report, &len);
        cr_expect_str_eq(kept, "old\n", "case %zu", i);
        free(kept);
        remove(report);
    }
    free(before);
    free(missing);
    free(report);
}

static void expect_error(const char *const *args, int status, const char *want)
{
    run_result r;
    cr_assert(run_cli_v(&r, false, args));
    cr_expect_eq(r.status, status, "%s: exit %d", args[0], r.status);
    cr_expect_eq(r.out_len, 0, "%s", r.out);
    cr_expect_str_eq(r.err, want);
    run_result_free(&r);
}

Test(output, an_output_that_cannot_be_written_is_named)
{
    char want[1024];
    char *nowhere = path_join(dir, "no/such/dir/report.txt");
    snprintf(want, sizeof want, "error: cannot create '%s': No such file or directory\n",
             nowhere);
    expect_error(ARGS("info", sample, "--output", nowhere), 2, want);
    expect_error(ARGS("hash", sample, "-o", nowhere), 2, want);
    expect_error(ARGS("dequant", sample, "-o", nowhere), 2, want);
    expect_error(ARGS("diff", sample, sample, "--output", nowhere), 2, want);
    snprintf(want, sizeof want, "error: cannot create '%s': Is a directory\n", dir);
    expect_error(ARGS("certify", sample, "-o", dir), 2, want);
    expect_error(ARGS("verify", sample, manifest, "-o", dir), 2, want);
    /* the device takes the bytes, then says its disk is full: a write error, named */
    expect_error(ARGS("info", sample, "-o", "/dev/full"), 2,
                 "error: cannot write '/dev/full': No space left on device\n");
    expect_error(ARGS("dequant", sample, "-o", "/dev/full"), 2,
                 "error: cannot write '/dev/full': No space left on device\n");
    /* a report never replaces the file it reports on */
    char *copy = path_join(dir, "copy.gguf");
    size_t len;
    char *bytes = read_file(sample, &len);
    cr_assert(write_file(copy, bytes, len));
    snprintf(want, sizeof want,
             "error: cannot create '%s': it is one of the command's input files\n", copy);
    expect_error(ARGS("info", copy, "-o", copy), 2, want);
    expect_error(ARGS("diff", sample, copy, "--output", copy), 2, want);
    size_t len2;
    char *still = read_file(copy, &len2);
    cr_expect(len2 == len && memcmp(still, bytes, len) == 0, "the input was changed");
    free(still);
    free(bytes);
    free(copy);
    free(nowhere);
}

Test(output, the_file_keeps_its_mode)
{
    char *report = path_join(dir, "mode.txt");
    cr_assert(write_file(report, "old\n", 4));
    cr_assert_eq(chmod(report, 0640), 0);
    run_result r;
    cr_assert(run_cli(&r, "info", sample, "-o", report, NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_result_free(&r);
    struct stat st;
    cr_assert_eq(stat(report, &st), 0);
    cr_expect_eq(st.st_mode & 07777, 0640, "mode %o", (unsigned)(st.st_mode & 07777));
    remove(report);
    /* a new file: 0666 less the umask, as any file the shell would create */
    mode_t old = umask(027);
    cr_assert(run_cli(&r, "info", sample, "-o", report, NULL));
    umask(old);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_result_free(&r);
    cr_assert_eq(stat(report, &st), 0);
    cr_expect_eq(st.st_mode & 07777, 0640, "mode %o", (unsigned)(st.st_mode & 07777));
    free(report);
}

Test(output, an_input_that_cannot_be_read_is_named)
{
    char want[1024];
    char *missing = path_join(dir, "missing.gguf");
    snprintf(want, sizeof want, "error: cannot read '%s': open: No such file or directory\n",
             missing);
    expect_error(ARGS("info", missing), 2, want);
    expect_error(ARGS("dequant", missing), 2, want);
    expect_error(ARGS("certify", missing), 2, want);
    expect_error(ARGS("hash", missing), 2, want);
    expect_error(ARGS("verify", missing, manifest), 2, want);
    snprintf(want, sizeof want, "error: cannot read '%s' (A): open: No such file or directory\n",
             missing);
    expect_error(ARGS("diff", missing, sample), 2, want);
    /* a directory is not a GGUF file (info walks one, as certify does: dequant says it) */
    snprintf(want, sizeof want, "error: cannot read '%s': a directory, not a regular file\n", dir);
    expect_error(ARGS("dequant", dir), 2, want);
    /* the manifest: missing, a directory, malformed */
    snprintf(want, sizeof want,
             "error: cannot open the manifest '%s': open: No such file or directory\n", missing);
    expect_error(ARGS("verify", sample, missing), 2, want);
    snprintf(want, sizeof want,
             "error: cannot open the manifest '%s': a directory, not a regular file\n", dir);
    expect_error(ARGS("verify", sample, dir), 2, want);
    char *empty = path_join(dir, "empty.manifest");
    cr_assert(write_file(empty, "", 0));
    snprintf(want, sizeof want, "error: malformed manifest '%s': line 1: empty: not a ggufsafe manifest\n",
             empty);
    expect_error(ARGS("verify", sample, empty), 2, want);
    /* a name with control bytes is escaped like everything else */
    char *hostile = path_join(dir, "a\x1b[2Jb.gguf");
    snprintf(want, sizeof want,
             "error: cannot read '%s/a\\x1b[2Jb.gguf': open: No such file or directory\n", dir);
    expect_error(ARGS("info", hostile), 2, want);
    free(hostile);
    free(empty);
    free(missing);
}

Test(output, quiet_drops_the_closing_summary_only)
{
    run_result r;
    cr_assert(run_cli(&r, "verify", sample, manifest, NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.out, "OK: 32 key-values, 33 tensors and the file match the manifest\n");
    run_result_free(&r);
    CLI_RUN(r, 0, "verify", "-q", sample, manifest);
    cr_expect_str_eq(r.out, "");
    cr_expect_str_eq(r.err, "");
    run_result_free(&r);
    /* a difference: its line stays, the FAILED line goes */
    char *other = path_join(dir, "other.manifest");
    size_t len;
    char *text = read_file(manifest, &len);
    char *kv = strstr(text, "\nkv ");
    cr_assert_not_null(kv);
    kv[5] = kv[5] == 'a' ? 'b' : 'a';
    cr_assert(write_file(other, text, len));
    CLI_RUN(r, 1, "verify", sample, other);
    char *loud = r.out;
    r.out = NULL;
    run_result_free(&r);
    CLI_RUN(r, 1, "verify", "--quiet", sample, other);
    cr_expect(strncmp(r.out, "changed  kv      ", 17) == 0, "%s", r.out);
    char want[4096];
    snprintf(want, sizeof want, "%sFAILED: 1 difference from the manifest\n", r.out);
    cr_expect_str_eq(loud, want);
    run_result_free(&r);
    free(loud);
    free(text);
    free(other);
    /* the reports of the other commands are the same with -q */
    const char *const *reports[] = {ARGS("certify", sample), ARGS("diff", sample, sample),
                                    ARGS("hash", sample)};
    for (size_t i = 0; i < 3; i++) {
        run_result a, b;
        cr_assert(run_cli_v(&a, false, reports[i]));
        run_with(&b, reports[i], "-q", NULL);
        cr_expect_eq(a.status, b.status);
        cr_expect_str_eq(a.out, b.out, "%s", reports[i][0]);
        run_result_free(&a);
        run_result_free(&b);
    }
}

Test(output, quiet_drops_the_progress_bar_on_a_terminal)
{
    const struct {
        const char *const *args;
        const char *bar;
    } cases[] = {
        {ARGS("hash", "-o", "/dev/null", sample), "\rhash ["},
        {ARGS("verify", sample, manifest), "\rhash ["},
        {ARGS("certify", "--deep", sample), "\rcertify --deep ["},
        {ARGS("diff", sample, sample), "\rdiff ["},
        {ARGS("dequant", "--sha256", "-j", "2", sample), "\rdequant ["},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r;
        cr_assert(run_cli_v(&r, true, cases[i].args));
        cr_expect_eq(r.status, 0, "%s: %s", cases[i].args[0], r.err);
        cr_expect(contains(r.err, cases[i].bar), "%s: no bar in '%s'", cases[i].args[0], r.err);
        cr_expect(contains(r.err, "] 100%"), "%s: %s", cases[i].args[0], r.err);
        /* erased when done */
        cr_expect(r.err_len >= 4 && strcmp(r.err + r.err_len - 4, "\r\033[K") == 0,
                  "%s: the terminal's last bytes are not the erase (%zu bytes: '%s')",
                  cases[i].args[0], r.err_len, r.err);
        char *loud = r.out;
        r.out = NULL;
        run_result_free(&r);
        run_result q;
        const char *all[40];
        size_t n = 0;
        all[n++] = cases[i].args[0];
        all[n++] = "-q";
        for (size_t k = 1; cases[i].args[k] != NULL; k++) {
            all[n++] = cases[i].args[k];
        }
        all[n] = NULL;
        cr_assert(run_cli_v(&q, true, all));
        cr_expect_eq(q.status, 0);
        cr_expect_eq(q.err_len, 0, "%s -q drew '%s'", cases[i].args[0], q.err);
        if (strcmp(cases[i].args[0], "verify") != 0) {
            cr_expect_str_eq(q.out, loud, "%s", cases[i].args[0]);
        }
        run_result_free(&q);
        free(loud);
    }
}
