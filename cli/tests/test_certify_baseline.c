/* Baselines (`certify --baseline REPORT`, gs_certify_baseline_*): the pairs a JSON report, a
 * many-file report and a SARIF log give (exact URIs and fingerprints, occurrences numbered as the
 * SARIF writer numbers them, "absent" results left out), the bounded JSON reader's exact
 * failures ("LINE:COL: what"), and the command: a run against its own earlier report fails on
 * nothing, a new file's findings are new (SARIF baselineState new/unchanged, check_sarif.py
 * passing), the text and JSON reports say how many the baseline suppressed, a malformed baseline
 * is a usage error naming REPORT:LINE:COL. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_test.h"
#include "ggufsafe_certify.h"

CLI_TEXT_READER(gs_certify_baseline, gs_certify_baseline_parse)

static void expect_pair(const gs_certify_baseline *b, size_t i, const char *uri, const char *fp)
{
    const char *u = NULL, *f = NULL;
    cr_assert_eq(gs_certify_baseline_at(b, i, &u, &f), GS_OK);
    cr_expect_str_eq(u, uri);
    cr_expect_str_eq(f, fp);
    cr_expect(gs_certify_baseline_has(b, uri, fp));
}

Test(baseline, a_json_report_gives_the_fingerprints_sarif_would)
{
    gs_certify_baseline *b;
    gs_error e;
    const char *text =
        "{\"path\": \"d/a-00001-of-00002.gguf\",\n"
        " \"parts\": [{\"name\": \"a-00001-of-00002.gguf\"}, {\"name\": \"a-00002-of-00002.gguf\"}],\n"
        " \"findings\": [\n"
        "  {\"code\": \"layout.gap\", \"part\": 2},\n"
        "  {\"code\": \"meta.key_type\", \"part\": null, \"key\": \"gen\\u00e9ral\"},\n"
        "  {\"code\": \"layout.gap\", \"part\": 2},\n"
        "  {\"code\": \"layout.truncated\", \"part\": 1, \"tensor\": \"t\\\\xff\"}]}";
    cr_assert_eq(parse(text, &b, &e), GS_OK, "%s", e.detail);
    cr_assert_eq(gs_certify_baseline_count(b), 4);
    expect_pair(b, 0, "d/a-00001-of-00002.gguf", "layout.truncated/tensor:t\\xff/0");
    expect_pair(b, 1, "d/a-00001-of-00002.gguf", "meta.key_type/key:gen\xc3\xa9ral/0");
    expect_pair(b, 2, "d/a-00002-of-00002.gguf", "layout.gap//0");
    expect_pair(b, 3, "d/a-00002-of-00002.gguf", "layout.gap//1");
    cr_expect(!gs_certify_baseline_has(b, "d/a-00002-of-00002.gguf", "layout.gap//2"));
    cr_expect_eq(gs_certify_baseline_at(b, 4, NULL, NULL), GS_E_OUT_OF_RANGE);
    gs_certify_baseline_free(b);
}

Test(baseline, a_many_file_report_and_a_sarif_log)
{
    gs_certify_baseline *b;
    gs_error e;
    cr_assert_eq(parse("{\"files\": [{\"path\": \"./m/a.gguf\", \"findings\": [{\"code\": "
                       "\"layout.gap\", \"part\": 1}]}, {\"path\": \"m/b.gguf\", \"findings\": "
                       "[]}], \"summary\": {}}",
                       &b, &e),
                 GS_OK, "%s", e.detail);
    cr_assert_eq(gs_certify_baseline_count(b), 1);
    expect_pair(b, 0, "m/a.gguf", "layout.gap//0"); /* the path normalized as SARIF writes it */
    gs_certify_baseline_free(b);

    cr_assert_eq(parse("{\"runs\": [{\"artifacts\": [{\"location\": {\"uri\": \"m/a.gguf\"}}],"
                       " \"results\": ["
                       "{\"partialFingerprints\": {\"ggufsafe/v1\": \"layout.gap//0\"},"
                       " \"locations\": [{\"physicalLocation\": {\"artifactLocation\":"
                       " {\"index\": 0}}}]},"
                       "{\"partialFingerprints\": {\"ggufsafe/v1\": \"layout.gap//1\"},"
                       " \"locations\": [{\"physicalLocation\": {\"artifactLocation\":"
                       " {\"uri\": \"m/b%20c.gguf\", \"uriBaseId\": \"SRCROOT\"}}}]},"
                       "{\"baselineState\": \"absent\","
                       " \"partialFingerprints\": {\"ggufsafe/v1\": \"gone//0\"}}]}]}",
                       &b, &e),
                 GS_OK, "%s", e.detail);
    cr_assert_eq(gs_certify_baseline_count(b), 2, "absent results are not in it");
    expect_pair(b, 0, "m/a.gguf", "layout.gap//0");
    expect_pair(b, 1, "m/b%20c.gguf", "layout.gap//1");
    gs_certify_baseline_free(b);
}

Test(baseline, malformed_documents_name_their_line_and_column)
{
    /* the JSON reader's refusals, then those of JSON that is not a report of ggufsafe */
    static const text_refusal malformed[] = {
        {"", 0, "1:1: the document ends where a value should be"},
        {"{\"findings\": [1,]}", 16, "1:17: a comma before the end of an array or object"},
        {"{\n  \"path\": \"\\q\"}", 13, "2:12: an unknown escape in a string"},
        {"[\"\\ud800\"]", 2, "1:3: a high surrogate \\u escape without its low surrogate"},
        {"[\"\\udc00\"]", 2, "1:3: a low surrogate \\u escape without its high surrogate"},
        {"[01]", 1, "1:2: a number with a leading zero"},
        {"[1.]", 1, "1:2: a number with no digits after its point"},
        {"[\"a\tb\"]", 3, "1:4: a control character inside a string (it must be escaped)"},
        {"[\"\xff\"]", 2, "1:3: a byte that is not UTF-8 in a string"},
        {"[\"abc", 1, "1:2: a string that is never closed"},
        {"{} {}", 3, "1:4: more after the document's value"},
        {"{\"a\" 1}", 5, "1:6: a key without ':' after it"},
        {"[tru]", 1, "1:2: not a JSON value"},
        {"// x\n{}", 0, "1:1: not a JSON value"},
        {"[]", 0,
         "1:1: neither a certify report (findings), a many-file report (files) nor a "
         "SARIF log (runs)"},
        {"{\"runs\": [{\"results\": [{\"ruleId\": \"x\"}]}]}", 23,
         "1:24: a result without the partial fingerprint \"ggufsafe/v1\" (not a SARIF log "
         "of ggufsafe certify)"},
        {"{\"path\": \"a\", \"findings\": [{\"code\": \"x\", \"part\": 0}]}", 27,
         "1:28: a finding whose part is neither null nor a part number"},
        {"{\"path\": \"a\", \"findings\": [{\"code\": \"x\", \"part\": 3}]}", 27,
         "1:28: a finding of a part the report does not list"},
        {"{\"path\": 7, \"findings\": []}", 9,
         "1:10: the report's path is not a string of at most 4096 bytes without NUL"},
        {"{\"path\": \"a\\u0000b\", \"findings\": []}", 9,
         "1:10: the report's path is not a string of at most 4096 bytes without NUL"},
    };
    expect_refusals(malformed, sizeof malformed / sizeof malformed[0]);
    char deep[200];
    memset(deep, '[', 100);
    memset(deep + 100, ']', 100);
    gs_certify_baseline *b;
    gs_error e;
    cr_assert_eq(gs_certify_baseline_parse(deep, sizeof deep, &b, &e), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(e.offset, GS_CERTIFY_BASELINE_MAX_DEPTH);
    cr_expect_str_eq(e.detail, "1:65: nested deeper than a document may be");
    cr_expect_eq(gs_certify_baseline_parse("x", GS_CERTIFY_BASELINE_MAX_BYTES + 1u, &b, &e),
                 GS_E_INVALID_ARGUMENT);
    cr_expect_str_eq(e.detail, "1:1: longer than 268435456 bytes, the most this document may "
                               "hold");
    cr_expect_eq(gs_certify_baseline_parse("x", 1, NULL, &e), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(gs_certify_baseline_count(NULL), 0);
    cr_expect(!gs_certify_baseline_has(NULL, "a", "b"));
    gs_certify_baseline_free(NULL);
}

/* ---- the command ---------------------------------------------------------------------------- */

static char *dir, *sample;

static void setup(void)
{
    char why[256];
    cr_assert(cli_fixture_open(&dir, &sample, why, sizeof why), "%s", why);
    cr_assert_eq(chdir(dir), 0);
    cr_assert(write_mixed_repo(dir, sample, why, sizeof why), "%s", why);
}

static void teardown(void)
{
    cli_fixture_close(dir, &sample);
}

static void save(const char *name, const run_result *r)
{
    cr_assert(write_file(name, r->out, r->out_len));
}

Test(baseline_cli, a_run_against_its_own_report_fails_on_nothing, .init = setup,
     .fini = teardown)
{
    run_result r;
    cr_assert(run_cli(&r, "certify", "--json", "-q", "repo", NULL));
    cr_assert_eq(r.status, 1, "the cut file and the set fail: %s", r.err);
    save("base.json", &r);
    run_result_free(&r);
    cr_assert(run_cli(&r, "certify", "--sarif", "-q", "repo", NULL));
    save("base.sarif", &r);
    run_result_free(&r);

    const char *bases[] = {"base.json", "base.sarif"};
    for (int k = 0; k < 2; k++) {
        cr_assert(run_cli(&r, "certify", "--json", "-q", "--baseline", bases[k], "repo", NULL));
        cr_expect_eq(r.status, 0, "%s: %s", bases[k], r.err);
        cr_expect_eq(check_json(dir, "certify-multi.schema.json", r.out,
                                "/summary/certified=3", "/summary/exit_code=0",
                                "/files/1/path=\"repo/good.gguf\"",
                                "/files/1/baseline={\"suppressed\":3,\"new\":0}",
                                "/files/1/findings/0/baseline=\"unchanged\"",
                                "/files/0/path=\"repo/cut.gguf\"", "/files/0/certified=true",
                                "/files/0/counts={\"error\":0,\"warning\":0,\"info\":0}",
                                NULL),
                     0, "%s", bases[k]);
        run_result_free(&r);
    }
    CLI_RUN(r, 0, "certify", "--baseline", "base.json", "repo/cut.gguf");
    cr_expect(starts_with(r.out, "verdict: no new problems: the 21 findings the baseline has "
                                 "are not counted (certify without --baseline for the file's "
                                 "own state)\n"),
              "%s", r.out);
    cr_expect(contains(r.out, "\nbaseline: 21 findings in the baseline (not counted), 0 new\n"),
              "%s", r.out);
    cr_expect(contains(r.out, "error   layout.truncated at byte 100000, tensor "
                              "'blk.0.iq2_s.weight' (in the baseline: not counted)\n"),
              "%s", r.out);
    run_result_free(&r);

    /* without --baseline nothing changes */
    cr_assert(run_cli(&r, "certify", "--json", "repo/good.gguf", NULL));
    cr_expect(!contains(r.out, "\"baseline\""));
    run_result_free(&r);
}

Test(baseline_cli, only_new_findings_fail_and_sarif_says_which, .init = setup, .fini = teardown)
{
    run_result r;
    cr_assert(run_cli(&r, "certify", "--sarif", "-q", "repo", NULL));
    save("base.sarif", &r);
    run_result_free(&r);
    /* a new cut file: its findings are new, the old ones unchanged */
    size_t n;
    char *data = read_file(sample, &n);
    cr_assert_not_null(data);
    cr_assert(write_file("repo/new.gguf", data, 90000));
    free(data);
    cr_assert(run_cli(&r, "certify", "--sarif", "-q", "--baseline", "base.sarif", "repo", NULL));
    cr_expect_eq(r.status, 1, "the new cut file fails: %s", r.err);
    save("new.sarif", &r);
    cr_expect(contains(r.out, "\"baselineState\": \"unchanged\""));
    cr_expect(contains(r.out, "\"baselineState\": \"new\""));
    char *checker = source_path("cli/tests/check_sarif.py");
    const char *argv[] = {"/usr/bin/python3", checker, "new.sarif", NULL};
    run_result c;
    cr_assert(run_program(argv, &c));
    cr_expect_eq(c.status, 0, "%s%s", c.out, c.err);
    run_result_free(&c);
    free(checker);
    run_result_free(&r);
    /* the counts: only repo/new.gguf's findings are new */
    CLI_RUN(r, 1, "certify", "--json", "-q", "--baseline", "base.sarif", "repo");
    cr_expect_eq(check_json(dir, "certify-multi.schema.json", r.out, "/summary/certified=3",
                            "/summary/not_certified=1", "/files/2/path=\"repo/new.gguf\"",
                            "/files/2/baseline/suppressed=0", "/files/2/certified=false",
                            "/files/0/baseline/new=0", NULL),
                 0);
    run_result_free(&r);
}

Test(baseline_cli, a_malformed_or_missing_baseline_is_a_usage_error, .init = setup,
     .fini = teardown)
{
    cr_assert(write_file("bad.json", "{\n\"findings\": [1,]}", 19));
    run_result r;
    CLI_RUN(r, 2, "certify", "--baseline", "bad.json", "repo/good.gguf");
    cr_expect_eq(r.out_len, 0);
    cr_expect_str_eq(r.err, "error: malformed baseline bad.json:2:16: a comma before the end of "
                            "an array or object\n");
    run_result_free(&r);
    CLI_RUN(r, 2, "certify", "--baseline", "none.json", "repo/good.gguf");
    cr_expect_str_eq(r.err, "error: cannot open the baseline 'none.json': open: No such file or "
                            "directory\n");
    run_result_free(&r);
}

Test(baseline_cli, the_library_marks_the_baselines_findings, .init = setup, .fini = teardown)
{
    run_result r;
    cr_assert(run_cli(&r, "certify", "--json", "repo/cut.gguf", NULL));
    gs_certify_baseline *b;
    gs_error e;
    cr_assert_eq(gs_certify_baseline_parse(r.out, r.out_len, &b, &e), GS_OK, "%s", e.detail);
    run_result_free(&r);
    cr_expect_eq(gs_certify_baseline_count(b), 21);
    gs_certify_options o;
    gs_certify_options_init(&o);
    o.baseline = b;
    gs_certify *rep;
    cr_assert_eq(gs_certify_path("repo/cut.gguf", &o, &rep, &e), GS_OK);
    gs_certify_summary s = {.struct_size = sizeof s};
    cr_assert_eq(gs_certify_get_summary(rep, &s), GS_OK);
    cr_expect(s.verdict.certified);
    cr_expect_eq(s.baseline_suppressed, 21);
    cr_expect_eq(s.baseline_new, 0);
    gs_certify_finding f = {.struct_size = sizeof f};
    cr_assert_eq(gs_certify_finding_at(rep, 0, &f), GS_OK);
    cr_expect(f.baselined);
    gs_certify_verdict v = {.struct_size = sizeof v};
    cr_assert_eq(gs_certify_verdict_for(rep, GS_PROFILE_LENIENT, GS_CERTIFY_ERROR, &v), GS_OK);
    cr_expect(v.certified);
    gs_certify_free(rep);
    /* another path: nothing matches */
    cr_assert(rename("repo/cut.gguf", "repo/moved.gguf") == 0);
    cr_assert_eq(gs_certify_path("repo/moved.gguf", &o, &rep, &e), GS_OK);
    cr_assert_eq(gs_certify_get_summary(rep, &s), GS_OK);
    cr_expect(!s.verdict.certified);
    cr_expect_eq(s.baseline_suppressed, 0);
    cr_expect_eq(s.baseline_new, 21);
    gs_certify_free(rep);
    gs_certify_baseline_free(b);
}
