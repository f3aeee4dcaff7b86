/* `ggufsafe certify` over many files: several paths and directories in one run (the walk's
 * order, split sets grouped, parts without their part 1, FIFOs and links to directories
 * skipped, missing paths and the bounds making the exit 2), the JSON document of many reports
 * validated against certify-multi.schema.json, the summary table, one path printing today's
 * report unchanged, the same bytes whatever --jobs is, and the SARIF of a multi-file run passing
 * check_sarif.py (every SARIF 2.1.0 rule we write and GitHub's upload requirements, each with
 * its negative case). gs_certify_walk is tested as a library call too. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_test.h"
#include "ggufsafe_certify.h"

CLI_SAMPLE_SUITE(many);

static char *copy_of(const char *from, const char *to_rel, size_t keep)
{
    size_t n;
    char *data = read_file(from, &n);
    cr_assert_not_null(data);
    char *to = path_join(dir, to_rel);
    cr_assert(write_file(to, data, keep < n ? keep : n));
    free(data);
    return to;
}

/* dir/repo: good.gguf, notes.txt (ignored), pipe.gguf (a FIFO), linked (a link to sub/),
 * sub/cut.gguf (the sample cut inside its data), sub/set-0000{1,2}-of-00002.gguf. */
static char *make_repo(void)
{
    char *repo = path_join(dir, "repo");
    char *sub = path_join(dir, "repo/sub");
    cr_assert_eq(mkdir(repo, 0755), 0);
    cr_assert_eq(mkdir(sub, 0755), 0);
    free(copy_of(sample, "repo/good.gguf", SIZE_MAX));
    free(copy_of(sample, "repo/sub/cut.gguf", 100000));
    char *notes = path_join(dir, "repo/notes.txt");
    cr_assert(write_file(notes, "x", 1));
    char *fifo = path_join(dir, "repo/pipe.gguf");
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    char *link = path_join(dir, "repo/linked");
    cr_assert_eq(symlink("sub", link), 0);
    char why[256];
    cr_assert(write_split_pair(sub, "set", NULL, why, sizeof why), "%s", why);
    free(notes);
    free(fifo);
    free(link);
    free(sub);
    return repo;
}

Test(many, directory_json_is_one_document_with_rows_in_walk_order)
{
    char *repo = make_repo();
    cr_assert_eq(chdir(dir), 0);
    run_result r;
    cr_assert(run_cli(&r, "certify", "--json", "-q", "repo", NULL));
    cr_expect_eq(r.status, 1, "a cut file fails the run: %s", r.err);
    cr_expect_eq(r.err_len, 0, "-q: no table on stderr: %s", r.err);
    cr_expect_eq(check_json(dir, "certify-multi.schema.json", r.out,
                            "/summary/files=3", "/summary/certified=1",
                            "/summary/not_certified=2", "/summary/unreadable=0",
                            "/summary/skipped=2", "/summary/exit_code=1",
                            "/summary/rows/0={\"path\":\"repo/good.gguf\",\"verdict\":"
                            "\"certified\",\"errors\":0,\"warnings\":0}",
                            "/summary/rows/1/path=\"repo/linked\"",
                            "/summary/rows/1/verdict=\"skipped\"",
                            "/summary/rows/1/reason=\"a symbolic link to a directory: not "
                            "followed\"",
                            "/summary/rows/2={\"path\":\"repo/pipe.gguf\",\"verdict\":"
                            "\"skipped\",\"reason\":\"not a regular file (a FIFO, device or "
                            "socket): not read\"}",
                            "/summary/rows/3/path=\"repo/sub/cut.gguf\"",
                            "/summary/rows/3/verdict=\"not certified\"",
                            "/summary/rows/4={\"path\":\"repo/sub/set-00001-of-00002.gguf\","
                            "\"verdict\":\"not certified\",\"errors\":1,\"warnings\":0}",
                            "/files/0/path=\"repo/good.gguf\"", "/files/0/certified=true",
                            "/files/1/path=\"repo/sub/cut.gguf\"", "/files/1/certified=false",
                            "/files/2/kind=\"split\"", "/files/2/parts/1/name="
                            "\"set-00002-of-00002.gguf\"",
                            NULL),
                 0);
    cr_expect(!contains(r.out, "notes.txt"), "only *.gguf names are looked at");
    run_result_free(&r);
    free(repo);
}

Test(many, text_ends_with_the_summary_table)
{
    free(make_repo());
    cr_assert_eq(chdir(dir), 0);
    run_result r;
    CLI_RUN(r, 1, "certify", "repo");
    const char *table =
        "FILE                              VERDICT        ERRORS  WARNINGS\n"
        "repo/good.gguf                    certified           0         0\n"
        "repo/linked                       skipped             -         -  a symbolic link to "
        "a directory: not followed\n"
        "repo/pipe.gguf                    skipped             -         -  not a regular file "
        "(a FIFO, device or socket): not read\n"
        "repo/sub/cut.gguf                 not certified      18         0\n";
    const char *const rows[] = {
        table,
        /* the test's set has no general.architecture: one error */
        "repo/sub/set-00001-of-00002.gguf  not certified       1         0\n",
        ("1 certified, 2 not certified, 0 unreadable, 2 skipped: fix or replace the files that "
         "are not certified (their reports say what is wrong)\n"),
    };
    CLI_EXPECT_ALL_IN(r.out, rows);
    run_result_free(&r);
}

Test(many, sarif_table_goes_to_stderr_and_quiet_drops_it)
{
    free(make_repo());
    cr_assert_eq(chdir(dir), 0);
    run_result r;
    CLI_RUN(r, 1, "certify", "--sarif", "repo");
    cr_expect(contains(r.err, "repo/good.gguf"), "%s", r.err);
    cr_expect(contains(r.err, "1 certified, 2 not certified"), "%s", r.err);
    cr_expect(!contains(r.out, "VERDICT"));
    run_result_free(&r);
}

Test(many, one_file_prints_todays_report)
{
    run_result one, many;
    cr_assert(run_cli(&one, "certify", "--json", sample, NULL));
    cr_expect_eq(one.status, 0);
    cr_expect_eq(check_json(dir, "certify.schema.json", one.out, "/certified=true", NULL), 0);
    cr_expect(!contains(one.out, "\"summary\""));
    cr_assert(run_cli(&many, "certify", "--json", sample, sample, NULL));
    cr_expect_eq(many.status, 0);
    cr_expect_eq(check_json(dir, "certify-multi.schema.json", many.out, "/summary/files=2",
                            NULL),
                 0);
    run_result_free(&one);
    run_result_free(&many);
}

Test(many, same_bytes_whatever_jobs)
{
    free(make_repo());
    cr_assert_eq(chdir(dir), 0);
    const char *formats[] = {"--json", "--sarif", "--fail-on=error"};
    for (size_t f = 0; f < 3; f++) {
        run_result a, b;
        cr_assert(run_cli(&a, "certify", formats[f], "-q", "-j1", "repo", "repo", NULL));
        cr_assert(run_cli(&b, "certify", formats[f], "-q", "-j7", "repo", "repo", NULL));
        cr_expect_eq(a.status, 1);
        cr_expect_eq(b.status, 1);
        cr_expect(a.out_len == b.out_len && memcmp(a.out, b.out, a.out_len) == 0,
                  "%s differs between -j1 and -j7", formats[f]);
        run_result_free(&a);
        run_result_free(&b);
    }
}

Test(many, missing_path_makes_the_exit_2)
{
    run_result r;
    CLI_RUN(r, 2, "certify", "--json", sample, "no-such.gguf");
    cr_expect_eq(check_json(dir, "certify-multi.schema.json", r.out, "/summary/unreadable=1",
                            "/summary/certified=1", "/summary/exit_code=2",
                            "/summary/rows/1/path=\"no-such.gguf\"",
                            "/summary/rows/1/verdict=\"unreadable\"", NULL),
                 0);
    run_result_free(&r);
}

Test(many, part_without_its_part_one_fails_the_set)
{
    char *parts[2];
    char why[256];
    cr_assert(write_split_pair(dir, "half", parts, why, sizeof why), "%s", why);
    cr_assert_eq(unlink(parts[0]), 0);
    run_result r;
    cr_assert_eq(chdir(dir), 0);
    CLI_RUN(r, 1, "certify", "--json", "-q", ".");
    cr_expect_eq(check_json(dir, "certify-multi.schema.json", r.out, "/summary/not_certified=1",
                            "/summary/rows/0/path=\"./half-00002-of-00002.gguf\"", NULL),
                 0);
    cr_expect(contains(r.out, "\"code\": \"split.part_one_absent\",\n"), "%s", r.out);
    cr_expect(contains(r.out, "\"message\": \"part 2 of 2, without its part 1: a later part of "
                              "a split set whose part 1 is not in this directory: the set is "
                              "incomplete\""),
              "%s", r.out);
    run_result_free(&r);
    free(parts[0]);
    free(parts[1]);
}

Test(many, bounds_are_reported_unreadable)
{
    free(make_repo());
    cr_assert_eq(chdir(dir), 0);
    run_result r;
    CLI_RUN(r, 2, "certify", "--json", "-q", "--max-depth", "0", "repo");
    cr_expect_eq(check_json(dir, "certify-multi.schema.json", r.out, "/summary/unreadable=1",
                            "/summary/rows/3={\"path\":\"repo/sub\",\"verdict\":\"unreadable\","
                            "\"reason\":\"a directory deeper than the walk goes: not read (raise "
                            "--max-depth)\"}",
                            NULL),
                 0);
    run_result_free(&r);
    CLI_RUN(r, 2, "certify", "--json", "-q", "--max-entries", "2", "repo");
    cr_expect_eq(check_json(dir, "certify-multi.schema.json", r.out, "/summary/unreadable=1",
                            "/summary/files=0",
                            "/summary/rows/0={\"path\":\"repo\",\"verdict\":\"unreadable\","
                            "\"reason\":\"the walk read its maximum number of directory entries "
                            "here and stopped (raise --max-entries)\"}",
                            NULL),
                 0);
    run_result_free(&r);
}

Test(many, sarif_of_a_repository_passes_the_checker)
{
    free(make_repo());
    cr_assert_eq(chdir(dir), 0);
    run_result r;
    CLI_RUN(r, 1, "certify", "--sarif", "-q", "repo");
    char *out = path_join(dir, "repo.sarif");
    cr_assert(write_file(out, r.out, r.out_len));
    char *checker = source_path("cli/tests/check_sarif.py");
    const char *argv[] = {"/usr/bin/python3", checker, "--self-test", out, NULL};
    run_result c;
    cr_assert(run_program(argv, &c));
    cr_expect_eq(c.status, 0, "%s", c.err);
    cr_expect(contains(r.out, "\"uri\": \"repo/sub/cut.gguf\",\n"), "relative URIs");
    static const char *const fragments[] = {
        "\"uriBaseId\": \"SRCROOT\"",
        "\"exitCode\": 1,",
        "\"executionSuccessful\": true,",
        "\"startLine\": 1,",
    };
    CLI_EXPECT_ALL_IN(r.out, fragments);
    run_result_free(&c);
    run_result_free(&r);
    free(checker);
    free(out);
}

Test(many, sarif_uri_base_and_unreadable_notification)
{
    free(make_repo());
    cr_assert_eq(chdir(dir), 0);
    run_result r;
    CLI_RUN(r, 2, "certify", "--sarif", "-q", "--uri-base", "repo", "repo/good.gguf",
            "repo/gone.gguf");
    static const char *const sarif_fragments[] = {
        "\"uri\": \"good.gguf\",\n",
        "\"executionSuccessful\": false,",
        "\"exitCode\": 2,",
    };
    CLI_EXPECT_ALL_IN(r.out, sarif_fragments);
    cr_expect(contains(r.out, "\"uri\": \"gone.gguf\","), "the notification names the path");
    run_result_free(&r);
}

/* ---- the library's walk ------------------------------------------------------------------ */

typedef struct seen {
    char text[4096];
} seen;

static bool note(void *ctx, const gs_certify_walk_entry *e)
{
    static const char *const kinds[] = {"file", "set", "orphan", "skipped", "unreadable"};
    seen *s = ctx;
    size_t n = strlen(s->text);
    const char *base = strrchr(e->path, '/');
    snprintf(s->text + n, sizeof s->text - n, "%s %s %u/%u %u\n", kinds[e->kind],
             base != NULL ? base + 1 : e->path, e->part, e->count, e->parts_found);
    return true;
}

Test(many, walk_lists_entries_in_bytewise_order)
{
    char *repo = make_repo();
    char *parts[2];
    char why[256];
    cr_assert(write_split_pair(repo, "B", parts, why, sizeof why), "%s", why); /* 'B' < 'g' */
    free(parts[0]);
    free(parts[1]);
    seen s = {""};
    const char *paths[] = {repo};
    cr_assert_eq(gs_certify_walk(paths, 1, NULL, note, &s, NULL), GS_OK);
    cr_expect_str_eq(s.text, "set B-00001-of-00002.gguf 1/2 2\n"
                             "file good.gguf 0/0 0\n"
                             "skipped linked 0/0 0\n"
                             "skipped pipe.gguf 0/0 0\n"
                             "file cut.gguf 0/0 0\n"
                             "set set-00001-of-00002.gguf 1/2 2\n");
    gs_error err;
    const char *bad[] = {""};
    cr_expect_eq(gs_certify_walk(bad, 1, NULL, note, &s, &err), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(gs_certify_walk(paths, 1, NULL, NULL, &s, &err), GS_E_INVALID_ARGUMENT);
    gs_certify_walk_options o = {.struct_size = 4};
    cr_expect_eq(gs_certify_walk(paths, 1, &o, note, &s, &err), GS_E_INVALID_ARGUMENT);
    free(repo);
}

static bool stop_at_first(void *ctx, const gs_certify_walk_entry *e)
{
    (void)e;
    (*(int *)ctx)++;
    return false;
}

Test(many, walk_stops_when_asked)
{
    char *repo = make_repo();
    int calls = 0;
    const char *paths[] = {repo, repo};
    cr_assert_eq(gs_certify_walk(paths, 2, NULL, stop_at_first, &calls, NULL), GS_OK);
    cr_expect_eq(calls, 1);
    free(repo);
}
