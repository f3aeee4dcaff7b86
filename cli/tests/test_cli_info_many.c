/* `ggufsafe info` over several paths: a directory walked as certify walks it (split sets from
 * their part 1), one JSON document {"files": [...], "summary": {...}} validated against
 * info-multi.schema.json with a report per file read and an element per path that gave none,
 * text reports one after the other, every error line naming its file, and the exit status (2
 * when a path could not be read, else 1 when a file is invalid, else 0). One path prints
 * today's report unchanged. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_test.h"

static char *dir;

static void setup(void)
{
    cr_assert_not_null(cli_binary(), "GS_CLI is not set: run through ctest");
    char *sample = source_path("conformance/samples/ggml-written.gguf");
    dir = scratch_dir();
    cr_assert_not_null(dir);
    cr_assert_eq(chdir(dir), 0);
    char why[256];
    cr_assert(write_mixed_repo(dir, sample, why, sizeof why), "%s", why);
    free(sample);
}

static void teardown(void)
{
    scratch_remove(dir);
}

TestSuite(info_many, .init = setup, .fini = teardown);

Test(info_many, a_directory_is_one_json_document)
{
    run_result r;
    cr_assert(run_cli(&r, "info", "--json", "repo", NULL));
    cr_expect_eq(r.status, 1, "the cut file is invalid: %s", r.err);
    cr_expect_eq(check_json(dir, "info-multi.schema.json", r.out, "/command=\"info\"",
                            "/summary={\"files\":2,\"invalid\":1,\"unreadable\":0,"
                            "\"skipped\":0,\"exit_code\":1}",
                            "/files/0/path=\"repo/cut.gguf\"", "/files/0/status=\"invalid\"",
                            "/files/1/path=\"repo/good.gguf\"", "/files/1/kind=\"file\"",
                            "/files/2/kind=\"split\"", "/files/2/part_count=2", NULL),
                 0);
    cr_expect(contains(r.err, "(file: repo/cut.gguf)\n"), "the error names its file: %s", r.err);
    run_result_free(&r);
}

Test(info_many, a_missing_path_makes_it_2_and_text_reports_follow_each_other)
{
    run_result r;
    cr_assert(run_cli(&r, "info", "repo/good.gguf", "missing.gguf", "repo/set-00001-of-00002.gguf",
                      NULL));
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(starts_with(r.out, "file:        repo/good.gguf\n"), "%s", r.out);
    cr_expect(contains(r.out, "\n\nsplit set:"), "the set's report follows: %s", r.out);
    cr_expect(contains(r.err, "error: cannot read 'missing.gguf': open: No such file or directory"),
              "%s", r.err);
    run_result_free(&r);
    CLI_RUN(r, 2, "info", "--json", "repo/good.gguf", "missing.gguf");
    cr_expect_eq(check_json(dir, "info-multi.schema.json", r.out, "/summary/unreadable=1",
                            "/summary/exit_code=2", "/files/1/status=\"unreadable\"", NULL),
                 0);
    run_result_free(&r);
}

Test(info_many, one_path_is_todays_report)
{
    run_result one, many;
    cr_assert(run_cli(&one, "info", "--json", "repo/good.gguf", NULL));
    cr_expect_eq(one.status, 0);
    cr_expect_eq(check_json(dir, "info.schema.json", one.out, "/kind=\"file\"", NULL), 0);
    cr_assert(run_cli(&many, "info", "--json", "repo/good.gguf", "repo/good.gguf", NULL));
    cr_expect_eq(many.status, 0);
    cr_expect(!contains(one.out, "\"files\""));
    cr_expect(contains(many.out, "\"files\""));
    run_result_free(&one);
    run_result_free(&many);
}
