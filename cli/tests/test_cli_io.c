/* Every command in hostile surroundings: a FIFO, a device or a directory given as FILE, as a
 * part of a split set or as the manifest (which must not hang: each program runs under an
 * alarm, the test under a ctest TIMEOUT), parts that are links to one file, sets of 1,000 and
 * 4,000 parts under a descriptor limit of 64 (and one at a time), and the memory of certifying
 * sixteen links to one large part. What the environment gets wrong is exit 2, never a verdict on
 * the file (exit 1). */
#define _GNU_SOURCE /* mkfifo, symlink, link */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_test.h"
#include "gsw_write.h"

static char *dir;
static char *sample;   /* a valid file */
static char *manifest; /* its manifest */

static void setup(void)
{
    cr_assert_not_null(cli_binary(), "GS_CLI is not set: run through ctest");
    run_set_limits(60, -1); /* a command that blocks is killed: status 128 + SIGALRM */
    char why[512];
    cr_assert(sample_with_manifest(&dir, &sample, &manifest, why, sizeof why), "%s", why);
}

static void teardown(void)
{
    sample_with_manifest_free(dir, sample, manifest);
}

TestSuite(cli_io, .init = setup, .fini = teardown);

/* Runs one command on target (the file, or a set's first part), with good standing in for the
 * other operand where there is one. */
typedef enum command { INFO, CERTIFY, HASH, VERIFY, DIFF_A, DIFF_B, DEQUANT, N_COMMANDS } command;

static const char *const command_names[N_COMMANDS] = {"info",   "certify", "hash",   "verify",
                                                      "diff A", "diff B",  "dequant"};

static void run_command(run_result *r, command c, const char *target, const char *good,
                        const char *good_manifest)
{
    switch (c) {
    case INFO: cr_assert(run_cli(r, "info", target, NULL)); break;
    case CERTIFY: cr_assert(run_cli(r, "certify", target, NULL)); break;
    case HASH: cr_assert(run_cli(r, "hash", target, NULL)); break;
    case VERIFY: cr_assert(run_cli(r, "verify", target, good_manifest, NULL)); break;
    case DIFF_A: cr_assert(run_cli(r, "diff", target, good, NULL)); break;
    case DIFF_B: cr_assert(run_cli(r, "diff", good, target, NULL)); break;
    case DEQUANT: cr_assert(run_cli(r, "dequant", target, NULL)); break;
    case N_COMMANDS: break;
    }
}

/* Every command on target exits 2 (never hangs, never says the file is bad), with want and
 * (when not NULL) part in its error line. */
static void expect_environment_failure(const char *target, const char *good,
                                       const char *good_manifest, const char *want,
                                       const char *part)
{
    struct stat st;
    /* certify DIR and info DIR walk it */
    bool walked = stat(target, &st) == 0 && S_ISDIR(st.st_mode);
    for (int c = 0; c < N_COMMANDS; c++) {
        if (walked && (c == CERTIFY || c == INFO)) {
            continue;
        }
        run_result r;
        run_command(&r, (command)c, target, good, good_manifest);
        cr_expect_eq(r.status, 2, "%s %s: exit %d\n%s%s", command_names[c], target, r.status,
                     r.out, r.err);
        cr_expect(contains(r.err, want), "%s %s: no %s in\n%s", command_names[c], target, want,
                  r.err);
        if (part != NULL) {
            cr_expect(contains(r.err, part), "%s: the part is not named\n%s", command_names[c],
                      r.err);
        }
        run_result_free(&r);
    }
}

Test(cli_io, a_fifo_as_file_for_every_command)
{
    char *fifo = path_join(dir, "model.gguf");
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    expect_environment_failure(fifo, sample, manifest, ": a FIFO, not a regular file\n", NULL);
    free(fifo);
}

Test(cli_io, a_fifo_as_the_manifest)
{
    char *fifo = path_join(dir, "fifo.manifest");
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    run_result r;
    CLI_RUN(r, 2, "verify", sample, fifo);
    char want[1024];
    snprintf(want, sizeof want, "error: cannot open the manifest '%s': a FIFO, not a regular file\n",
             fifo);
    cr_expect_str_eq(r.err, want);
    run_result_free(&r);
    free(fifo);
}

Test(cli_io, devices_and_directories_for_every_command)
{
    expect_environment_failure("/dev/null", sample, manifest,
                               ": a character device, not a regular file\n", NULL);
    expect_environment_failure("/dev/zero", sample, manifest,
                               ": a character device, not a regular file\n", NULL);
    expect_environment_failure(dir, sample, manifest, ": a directory, not a regular file\n", NULL);
    /* certify takes a directory as every *.gguf below it (test_cli_certify_many) */
    run_result r;
    cr_assert(run_cli(&r, "certify", dir, NULL));
    cr_expect(!contains(r.err, "a directory, not a regular file"), "%s", r.err);
    cr_expect(contains(r.out, "FILE "), "the closing table\n%s", r.out);
    run_result_free(&r);
    char *absent = path_join(dir, "absent.gguf");
    expect_environment_failure(absent, sample, manifest, ": open: No such file or directory\n",
                               NULL);
    free(absent);
}

/* A good two-part set "g" (and its manifest), and a copy "x" whose part 2 is replaced by what
 * make_bad2 puts there. */
static char *good_set, *good_manifest;

static char *set_with_bad_part2(const char *prefix, int (*make_bad2)(const char *path))
{
    char why[256];
    good_set = write_split_set(dir, "g", 2, why, sizeof why);
    cr_assert_not_null(good_set, "%s", why);
    good_manifest = path_join(dir, "g.manifest");
    run_result r;
    cr_assert(run_cli(&r, "hash", good_set, "--manifest", good_manifest, NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_result_free(&r);
    char *first = write_split_set(dir, prefix, 2, why, sizeof why);
    cr_assert_not_null(first, "%s", why);
    char name[64];
    snprintf(name, sizeof name, "%s-00002-of-00002.gguf", prefix);
    char *second = path_join(dir, name);
    cr_assert_eq(unlink(second), 0);
    cr_assert_eq(make_bad2(second), 0);
    free(second);
    return first;
}

static void free_good_set(void)
{
    free(good_set);
    free(good_manifest);
}

static int make_fifo(const char *path)
{
    return mkfifo(path, 0600);
}

static int make_dev_zero(const char *path)
{
    return symlink("/dev/zero", path);
}

static int make_dir(const char *path)
{
    return mkdir(path, 0700);
}

Test(cli_io, a_fifo_as_a_split_part_for_every_command)
{
    char *first = set_with_bad_part2("f", make_fifo);
    expect_environment_failure(first, good_set, good_manifest, "GS_E_NOT_REGULAR_FILE",
                               "f-00002-of-00002.gguf");
    expect_environment_failure(first, good_set, good_manifest,
                               "part 2 of 2: a FIFO, not a regular file", NULL);
    free(first);
    free_good_set();
}

Test(cli_io, a_device_or_directory_as_a_split_part)
{
    char *first = set_with_bad_part2("d", make_dev_zero);
    expect_environment_failure(first, good_set, good_manifest,
                               "part 2 of 2: a character device, not a regular file",
                               "d-00002-of-00002.gguf");
    free(first);
    free_good_set();
    first = set_with_bad_part2("e", make_dir);
    expect_environment_failure(first, good_set, good_manifest, "part 2 of 2: a directory, not a regular file",
                               "e-00002-of-00002.gguf");
    free(first);
    free_good_set();
}

static const char *link_target;

static int make_symlink(const char *path)
{
    return symlink(link_target, path);
}

static int make_hard_link(const char *path)
{
    return link(link_target, path);
}

/* Part 2 a link to part 1: a verdict on the set (exit 1) from every command, and certify's
 * finding. */
static void expect_same_file(int (*make)(const char *path), const char *prefix)
{
    char target[300];
    snprintf(target, sizeof target, "%s/%s-00001-of-00002.gguf", dir, prefix);
    link_target = target;
    char *first = set_with_bad_part2(prefix, make);
    for (int c = 0; c < N_COMMANDS; c++) {
        run_result r;
        run_command(&r, (command)c, first, good_set, good_manifest);
        cr_expect_eq(r.status, 1, "%s: exit %d\n%s%s", command_names[c], r.status, r.out, r.err);
        const char *want = c == CERTIFY  ? "error   split.same_file at part 2\n        part 2 "
                                           "of 2 is the file of part 1"
                           : c == VERIFY ? "part 2: damaged  file    GS_E_SPLIT_SAME_FILE: the "
                                           "file of part 1 again\n"
                                         : "error: GS_E_SPLIT_SAME_FILE at byte 0 (";
        cr_expect(contains(c == CERTIFY || c == VERIFY ? r.out : r.err, want),
                  "%s: no '%s' in\n%s%s", command_names[c], want, r.out, r.err);
        run_result_free(&r);
    }
    free(first);
    free_good_set();
}

Test(cli_io, parts_that_are_links_to_one_file)
{
    expect_same_file(make_symlink, "s");
    expect_same_file(make_hard_link, "h");
}

/* A vocabulary part of some megabytes: certifying sixteen links to it takes about the memory
 * of certifying it once (each was read again before: 16 times the memory). */
Test(cli_io, sixteen_links_certify_in_the_memory_of_one_part, .timeout = 300)
{
    gsw_model m;
    llama_model(&m);
    gsw_set_u16(gsw_add(&m, "split.no"), 0);
    gsw_set_u16(gsw_add(&m, "split.count"), 16);
    gsw_set_i32(gsw_add(&m, "split.tensors.count"), 16);
    const uint64_t n_tokens = 200000;
    gsw_value *tokens = gsw_add(&m, "tokenizer.ggml.tokens");
    gsw_set_string_array(tokens, n_tokens);
    for (uint64_t i = 0; i < n_tokens; i++) {
        char tok[32];
        int len = snprintf(tok, sizeof tok, "token-%llu-piece", (unsigned long long)i);
        gsw_array_string(tokens, i, tok, (size_t)len);
    }
    uint64_t n = 8;
    cr_assert(gsw_tensor_fill(gsw_add_tensor(&m, "t0", 1, &n, GS_TYPE_F32), 1, 64));
    char *first = model_to_file(&m, dir, "v-00001-of-00016.gguf");
    cr_assert_not_null(first);
    for (int i = 2; i <= 16; i++) {
        char name[64];
        snprintf(name, sizeof name, "v-%05d-of-00016.gguf", i);
        char *p = path_join(dir, name);
        cr_assert_eq(symlink("v-00001-of-00016.gguf", p), 0);
        free(p);
    }
    /* Under AddressSanitizer freed blocks wait in a quarantine (256 MB by default) that counts
     * in the peak RSS: measure both runs without it, so that the figure is the command's own. */
    const char *asan = getenv("ASAN_OPTIONS");
    char *saved = asan != NULL ? strdup(asan) : NULL;
    char opts[1024];
    snprintf(opts, sizeof opts, "%s%squarantine_size_mb=0", asan != NULL ? asan : "",
             asan != NULL && asan[0] != '\0' ? ":" : "");
    setenv("ASAN_OPTIONS", opts, 1);
    run_result one, set;
    cr_assert(run_cli(&one, "certify", "--part-only", first, NULL));
    cr_assert(run_cli(&set, "certify", first, NULL));
    cr_expect_eq(set.status, 1, "%s", set.err);
    cr_expect(contains(set.out, "part 16 of 16 is the file of part 1"), "%s", set.out);
    cr_expect_leq(set.max_rss_kb, 2 * one.max_rss_kb, "the set took %ld KB, one part %ld KB",
                  set.max_rss_kb, one.max_rss_kb);
    if (saved != NULL) {
        setenv("ASAN_OPTIONS", saved, 1);
        free(saved);
    } else {
        unsetenv("ASAN_OPTIONS");
    }
    run_result_free(&one);
    run_result_free(&set);
    free(first);
}

/* A set of count parts under a limit of 64 descriptors, then with one descriptor at a time:
 * every command works. */
static void every_command_on_a_large_set(unsigned count)
{
    char why[256];
    char prefix[16];
    snprintf(prefix, sizeof prefix, "n%u", count);
    char *first = write_split_set(dir, prefix, count, why, sizeof why);
    cr_assert_not_null(first, "%s", why);
    char *mf = path_join(dir, "large.manifest");
    char last[64];
    snprintf(last, sizeof last, "part %u:", count);
    for (int spare = 64; spare >= 1; spare -= 63) {
        run_set_limits(300, spare);
        run_result r;
        cr_assert(run_cli(&r, "info", first, NULL));
        cr_expect_eq(r.status, 0, "info, %d descriptors: %s", spare, r.err);
        char total[64];
        snprintf(total, sizeof total, "parts:       %u, %u tensors in all\n", count, count);
        cr_expect(contains(r.out, total), "%s", r.err);
        run_result_free(&r);
        cr_assert(run_cli(&r, "certify", first, NULL));
        cr_expect_eq(r.status, 0, "certify, %d descriptors: %s\n%.2000s", spare, r.err, r.out);
        cr_expect(contains(r.out, last), "certify lists every part");
        run_result_free(&r);
        cr_assert(run_cli(&r, "hash", first, "--manifest", mf, NULL));
        cr_expect_eq(r.status, 0, "hash, %d descriptors: %s", spare, r.err);
        run_result_free(&r);
        cr_assert(run_cli(&r, "verify", first, mf, NULL));
        cr_expect_eq(r.status, 0, "verify, %d descriptors: %s", spare, r.err);
        run_result_free(&r);
        cr_assert(run_cli(&r, "diff", first, first, NULL));
        cr_expect_eq(r.status, 0, "diff, %d descriptors: %s", spare, r.err);
        run_result_free(&r);
        cr_assert(run_cli(&r, "dequant", "--sha256", first, NULL));
        cr_expect_eq(r.status, 0, "dequant, %d descriptors: %s", spare, r.err);
        char tensor[32];
        snprintf(tensor, sizeof tensor, "  t%u  f32\n", count - 1);
        cr_expect(contains(r.out, tensor), "dequant decodes the last part's tensor");
        run_result_free(&r);
    }
    run_set_limits(60, -1);
    free(mf);
    free(first);
}

Test(cli_io, a_thousand_parts_within_the_descriptor_limit, .timeout = 600)
{
    every_command_on_a_large_set(1000);
}

/* The same paths as the 1,000-part set, four times over: about seven minutes of the CI's
 * 45 under AddressSanitizer, so sanitized builds leave it to the unsanitized ones. */
#if defined(__SANITIZE_ADDRESS__)
#define GS_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GS_TEST_ASAN 1
#endif
#endif

#ifndef GS_TEST_ASAN
Test(cli_io, four_thousand_parts_within_the_descriptor_limit, .timeout = 900)
{
    every_command_on_a_large_set(4000);
}
#endif
