/* Policy files (`certify --policy FILE`, gs_certify_policy_*): the parser's exact statuses,
 * offsets and "LINE:COL: what" details for every malformed form (CRLF accepted, a lone CR, NUL,
 * over-long lines, too many rules, unknown actions and codes, bad globs, words after the glob),
 * matching (the last rule wins, globs on the name as reports show it, a pathological glob that
 * a recursive matcher would take years over), and the command: findings ignored or re-graded
 * before the verdict, the exit status following the policy, the policy's counts in the text and
 * JSON reports (certify.schema.json), a malformed policy a usage error naming FILE:LINE:COL. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_test.h"
#include "ggufsafe_certify.h"

CLI_TEXT_READER(gs_certify_policy, gs_certify_policy_parse)

Test(policy, parses_rules_comments_blank_lines_and_crlf)
{
    const char *text = "# a repository's policy\r\n"
                       "\r\n"
                       "  ignore  compat.type_not_in_spec\tblk.*.q1_0.weight  # old file\r\n"
                       "warn layout.gap\r\n"
                       "error reader.GS_E_MISALIGNED_OFFSET\r\n";
    gs_certify_policy *p;
    gs_error e;
    cr_assert_eq(parse(text, &p, &e), GS_OK, "%s", e.detail);
    cr_expect_eq(gs_certify_policy_rule_count(p), 3);
    gs_certify_action a = (gs_certify_action)-1;
    cr_expect(gs_certify_policy_match(p, "compat.type_not_in_spec", "blk.0.q1_0.weight", &a));
    cr_expect_eq(a, GS_CERTIFY_ACTION_IGNORE);
    cr_expect(!gs_certify_policy_match(p, "compat.type_not_in_spec", "blk.0.q2_0.weight", &a));
    cr_expect(!gs_certify_policy_match(p, "compat.type_not_in_spec", NULL, &a),
              "a rule with a glob never matches a finding without a name");
    cr_expect(gs_certify_policy_match(p, "layout.gap", NULL, &a));
    cr_expect_eq(a, GS_CERTIFY_ACTION_WARN);
    cr_expect(gs_certify_policy_match(p, "reader.GS_E_MISALIGNED_OFFSET", "t", &a));
    cr_expect_eq(a, GS_CERTIFY_ACTION_ERROR);
    cr_expect(!gs_certify_policy_match(p, "layout.truncated", "t", &a));
    gs_certify_policy_free(p);

    cr_assert_eq(parse("", &p, &e), GS_OK);
    cr_expect_eq(gs_certify_policy_rule_count(p), 0);
    gs_certify_policy_free(p);
    cr_assert_eq(parse("warn layout.gap", &p, &e), GS_OK, "no line end on the last line");
    cr_expect_eq(gs_certify_policy_rule_count(p), 1);
    gs_certify_policy_free(p);
}

Test(policy, the_last_matching_rule_decides)
{
    gs_certify_policy *p;
    gs_error e;
    cr_assert_eq(parse("error compat.type_not_in_spec\n"
                       "ignore compat.type_not_in_spec blk.*\n"
                       "warn compat.type_not_in_spec blk.1.*\n",
                       &p, &e),
                 GS_OK);
    gs_certify_action a;
    cr_expect(gs_certify_policy_match(p, "compat.type_not_in_spec", "out.weight", &a));
    cr_expect_eq(a, GS_CERTIFY_ACTION_ERROR);
    cr_expect(gs_certify_policy_match(p, "compat.type_not_in_spec", "blk.0.x", &a));
    cr_expect_eq(a, GS_CERTIFY_ACTION_IGNORE);
    cr_expect(gs_certify_policy_match(p, "compat.type_not_in_spec", "blk.1.x", &a));
    cr_expect_eq(a, GS_CERTIFY_ACTION_WARN);
    gs_certify_policy_free(p);
}

Test(policy, globs_match_as_fnmatch_does)
{
    static const struct {
        const char *glob, *name;
        bool hit;
    } cases[] = {
        {"blk.?.attn", "blk.3.attn", true},      {"blk.?.attn", "blk.33.attn", false},
        {"blk.[0-3].x", "blk.2.x", true},        {"blk.[0-3].x", "blk.7.x", false},
        {"blk.[!0-3].x", "blk.7.x", true},       {"blk.[!0-3].x", "blk.2.x", false},
        {"[]]x", "]x", true},                    {"a\\*b", "a*b", true},
        {"a\\*b", "axb", false},                 {"*", "", true},
        {"a*b*c", "aXXbYYc", true},              {"a*b*c", "aXXbYYd", false},
        {"*weight", "blk.0.weight", true},       {"**a**", "bab", true},
        {"a*", "b", false},                      {"blk.0.q1_0.weight", "blk.0.q1_0.weight", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "warn layout.gap %s\n", cases[i].glob);
        gs_certify_policy *p;
        gs_error e;
        cr_assert_eq(parse(text, &p, &e), GS_OK, "%s: %s", cases[i].glob, e.detail);
        cr_expect_eq(gs_certify_policy_match(p, "layout.gap", cases[i].name, NULL),
                     cases[i].hit, "'%s' on '%s'", cases[i].glob, cases[i].name);
        gs_certify_policy_free(p);
    }
}

Test(policy, a_pathological_glob_is_matched_in_bounded_steps)
{
    /* "*a*a*...*a*b" on a name of 1,000 'a': a recursive matcher tries C(1000, 60) ways */
    char text[512] = "warn layout.gap ";
    for (int i = 0; i < 60; i++) {
        strcat(text, "*a");
    }
    strcat(text, "*b\n");
    gs_certify_policy *p;
    gs_error e;
    cr_assert_eq(parse(text, &p, &e), GS_OK, "%s", e.detail);
    char name[1001];
    memset(name, 'a', 1000);
    name[1000] = '\0';
    cr_expect(!gs_certify_policy_match(p, "layout.gap", name, NULL));
    name[999] = 'b';
    cr_expect(gs_certify_policy_match(p, "layout.gap", name, NULL));
    gs_certify_policy_free(p);
}

Test(policy, every_malformed_line_names_its_line_and_column)
{
    static const text_refusal malformed[] = {
        {"warn layout.gap\nbogus layout.gap\n", 16,
         "2:1: unknown action 'bogus': a rule starts with ignore, warn or error"},
        {"  warn\n", 6, "1:7: warn names no finding code: a rule is ACTION CODE [GLOB]"},
        {"warn layout.nope\n", 5,
         "1:6: unknown finding code 'layout.nope' ('ggufsafe certify --list-codes' lists "
         "them)"},
        {"warn reader.<STATUS>\n", 5,
         "1:6: unknown finding code 'reader.<STATUS>' ('ggufsafe certify --list-codes' "
         "lists them)"},
        {"warn reader.GS_E_NOPE\n", 5,
         "1:6: unknown finding code 'reader.GS_E_NOPE' ('ggufsafe certify --list-codes' "
         "lists them)"},
        {"warn layout.gap blk.[0\n", 20,
         "1:21: the glob 'blk.[0' opens a [ class that is never closed"},
        {"warn layout.gap x\\\n", 17,
         "1:18: the glob 'x\\\\' ends in a backslash that escapes nothing"},
        {"warn layout.gap x y\n", 18,
         "1:19: 'y' after the glob: a rule is ACTION CODE [GLOB] (a '#' word starts a "
         "comment)"},
        {"warn layout.gap\rx\n", 15, "1:16: a carriage return not followed by a newline"},
        {"warn\x1b[31m layout.gap\n", 0,
         "1:1: unknown action 'warn\\x1b[31m': a rule starts with ignore, warn or error"},
    };
    expect_refusals(malformed, sizeof malformed / sizeof malformed[0]);
    gs_certify_policy *p = (gs_certify_policy *)1;
    gs_error e;
    cr_assert_eq(gs_certify_policy_parse("warn\0x\n", 7, &p, &e), GS_E_INVALID_ARGUMENT);
    cr_expect_null(p);
    cr_expect_eq(e.offset, 4);
    cr_expect_str_eq(e.detail, "1:5: a NUL byte");
}

Test(policy, a_long_quoted_word_is_cut_between_characters)
{
    /* fuzz_policy's finding: a quoted word of multi-byte characters and backslashes made the
     * detail end inside a UTF-8 sequence when it was cut to GS_ERROR_TEXT_MAX */
    static const uint8_t input[] = {
        0x69, 0x67, 0x6e, 0x6f, 0xcf, 0xcf, 0xcf, 0x5c, 0x5c, 0x5c, 0x5c, 0x4c, 0x5c, 0x6e,
        0x6f, 0xcf, 0xcf, 0xcf, 0x5c, 0x5c, 0x5c, 0x5c, 0x4c, 0x5c, 0x5c, 0x5c, 0x5c, 0x63,
        0x6f, 0x6d, 0x70, 0x61, 0x74, 0x2e, 0x74, 0x79, 0x70, 0xc4, 0x65, 0x5c, 0x5c, 0x5c,
        0x63, 0x6f, 0x6d, 0x70, 0x61, 0x74, 0x2e, 0x74, 0x79, 0x70, 0xc4, 0x65, 0x5f, 0x6e,
        0x6f, 0x74, 0x5f, 0x69, 0x6e, 0x5f, 0x73, 0x70, 0x65, 0x63, 0xd4, 0xd4, 0xd4, 0xd4,
        0xd4, 0x61};
    gs_certify_policy *p;
    gs_error e;
    cr_assert_eq(gs_certify_policy_parse(input, sizeof input, &p, &e), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(e.offset, 0);
    cr_expect(no_control_bytes(e.detail, strlen(e.detail)) &&
                  no_hidden_chars(e.detail, strlen(e.detail)),
              "%s", e.detail);
    cr_expect_str_eq(e.detail,
                     "1:1: unknown action 'igno\\xcf\\xcf\\xcf\\\\\\\\\\\\\\\\L\\\\no\\xcf\\"
                     "xcf\\xcf\\\\\\\\\\\\\\\\L\\\\\\\\\\\\\\\\compa\xe2\x80\xa6': a rule starts with ignore, warn or\xe2\x80\xa6");
}

Test(policy, lines_globs_rules_and_size_are_bounded)
{
    gs_certify_policy *p;
    gs_error e;
    /* a line of exactly the bound is read; one byte more is refused at that byte */
    char *line = malloc(GS_CERTIFY_POLICY_MAX_LINE + 3);
    cr_assert_not_null(line);
    memset(line, ' ', GS_CERTIFY_POLICY_MAX_LINE + 2);
    memcpy(line, "warn layout.gap", 15);
    line[GS_CERTIFY_POLICY_MAX_LINE] = '\n';
    cr_assert_eq(gs_certify_policy_parse(line, GS_CERTIFY_POLICY_MAX_LINE + 1, &p, &e), GS_OK,
                 "%s", e.detail);
    gs_certify_policy_free(p);
    line[GS_CERTIFY_POLICY_MAX_LINE] = ' ';
    line[GS_CERTIFY_POLICY_MAX_LINE + 1] = '\n';
    cr_assert_eq(gs_certify_policy_parse(line, GS_CERTIFY_POLICY_MAX_LINE + 2, &p, &e),
                 GS_E_INVALID_ARGUMENT);
    cr_expect_eq(e.offset, GS_CERTIFY_POLICY_MAX_LINE);
    cr_expect_str_eq(e.detail, "1:1025: longer than 1024 bytes, the longest line a policy can "
                               "have");
    free(line);

    char glob[GS_CERTIFY_POLICY_MAX_GLOB + 64];
    snprintf(glob, sizeof glob, "warn layout.gap %0*d\n", GS_CERTIFY_POLICY_MAX_GLOB + 1, 0);
    cr_assert_eq(parse(glob, &p, &e), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(e.offset, 16);
    cr_expect_str_eq(e.detail, "1:17: a glob of 257 bytes, longer than the 256 a policy allows");

    size_t n = (GS_CERTIFY_POLICY_MAX_RULES + 1) * 16;
    char *many = malloc(n + 1);
    cr_assert_not_null(many);
    many[0] = '\0';
    for (unsigned i = 0; i <= GS_CERTIFY_POLICY_MAX_RULES; i++) {
        strcat(many, "warn layout.gap\n");
    }
    cr_assert_eq(gs_certify_policy_parse(many, n - 16, &p, &e), GS_OK, "%s", e.detail);
    cr_expect_eq(gs_certify_policy_rule_count(p), GS_CERTIFY_POLICY_MAX_RULES);
    gs_certify_policy_free(p);
    cr_assert_eq(gs_certify_policy_parse(many, n, &p, &e), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(e.offset, (uint64_t)GS_CERTIFY_POLICY_MAX_RULES * 16);
    cr_expect_str_eq(e.detail, "1025:1: more than 1024 rules, the most a policy can have");
    free(many);

    cr_assert_eq(gs_certify_policy_parse("", GS_CERTIFY_POLICY_MAX_BYTES + 1u, &p, &e),
                 GS_E_INVALID_ARGUMENT);
    cr_expect_str_eq(e.detail, "1:1: longer than 1048576 bytes, the most a policy file can hold");

    /* a stream: read to its end, the same bound */
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    for (size_t i = 0; i <= GS_CERTIFY_POLICY_MAX_BYTES; i += 8) {
        fputs("#comment", f);
    }
    rewind(f);
    p = (gs_certify_policy *)1;
    cr_assert_eq(gs_certify_policy_read(f, &p, &e), GS_E_INVALID_ARGUMENT);
    cr_expect_null(p);
    fclose(f);
    f = tmpfile();
    cr_assert_not_null(f);
    fputs("ignore layout.gap\r\n", f);
    rewind(f);
    cr_assert_eq(gs_certify_policy_read(f, &p, &e), GS_OK);
    cr_expect_eq(gs_certify_policy_rule_count(p), 1);
    gs_certify_policy_free(p);
    fclose(f);
}

Test(policy, null_arguments)
{
    gs_error e;
    cr_expect_eq(gs_certify_policy_parse("x", 1, NULL, &e), GS_E_INVALID_ARGUMENT);
    gs_certify_policy *p;
    cr_expect_eq(gs_certify_policy_parse(NULL, 1, &p, &e), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(gs_certify_policy_read(NULL, &p, &e), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(gs_certify_policy_rule_count(NULL), 0);
    cr_expect(!gs_certify_policy_match(NULL, "layout.gap", NULL, NULL));
    gs_certify_policy_free(NULL);
}

/* ---- the engine and the command ----------------------------------------------------------- */

CLI_SAMPLE_SUITE(policy_engine);

static char *policy_file(const char *text)
{
    char *path = path_join(dir, "policy.txt");
    cr_assert(write_file(path, text, strlen(text)));
    return path;
}

/* Runs `certify --policy FILE sample`, FILE a policy file of text; returns FILE's path. */
static char *certify_sample_with_policy(run_result *r, const char *text)
{
    char *pol = policy_file(text);
    cr_assert(run_cli(r, "certify", "--policy", pol, sample, NULL));
    return pol;
}

/* The sample certifies with three notes, compat.type_not_in_spec on blk.0.nvfp4.weight,
 * blk.0.q1_0.weight and blk.0.q2_0.weight. */
Test(policy_engine, the_library_applies_the_policy_before_the_verdict)
{
    gs_certify_policy *pol;
    gs_error e;
    cr_assert_eq(parse("error compat.type_not_in_spec blk.0.q1_*\n"
                       "ignore compat.type_not_in_spec blk.0.nvfp4.weight\n",
                       &pol, &e),
                 GS_OK);
    gs_certify_options o;
    gs_certify_options_init(&o);
    o.policy = pol;
    gs_certify *r;
    cr_assert_eq(gs_certify_path(sample, &o, &r, &e), GS_OK, "%s", e.detail);
    gs_certify_summary s = {.struct_size = sizeof s};
    cr_assert_eq(gs_certify_get_summary(r, &s), GS_OK);
    cr_expect(!s.verdict.certified);
    cr_expect_eq(s.verdict.counts[GS_CERTIFY_ERROR], 1);
    cr_expect_eq(s.verdict.counts[GS_CERTIFY_INFO], 1);
    cr_expect_eq(s.policy_ignored, 1);
    cr_expect_eq(s.policy_changed, 1);
    cr_assert_eq(s.finding_count, 2);
    gs_certify_finding f = {.struct_size = sizeof f};
    cr_assert_eq(gs_certify_finding_at(r, 0, &f), GS_OK);
    cr_expect_str_eq(f.code, "compat.type_not_in_spec");
    cr_expect_eq(f.severity, GS_CERTIFY_ERROR, "re-graded, and first in report order");
    cr_expect_eq(f.effective, GS_CERTIFY_ERROR);
    cr_expect_eq(f.profiles, GS_CERTIFY_STRICT | GS_CERTIFY_LENIENT, "a note breaks none");
    cr_expect_eq(f.name_len, strlen("blk.0.q1_0.weight"));
    cr_expect(memcmp(f.name, "blk.0.q1_0.weight", f.name_len) == 0);
    gs_certify_verdict v = {.struct_size = sizeof v};
    cr_assert_eq(gs_certify_verdict_for(r, GS_PROFILE_LENIENT, GS_CERTIFY_ERROR, &v), GS_OK);
    cr_expect(!v.certified, "an error by policy under both profiles");
    gs_certify_free(r);
    gs_certify_policy_free(pol);
}

Test(policy_engine, the_command_follows_the_policy)
{
    run_result r;
    char *pol = certify_sample_with_policy(&r, "ignore compat.type_not_in_spec\n");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(starts_with(r.out, "verdict: sound: no problems found\n"), "%s", r.out);
    cr_expect(contains(r.out, "\npolicy:   1 rule: 3 findings ignored, 0 re-graded (they count "
                              "as the policy says)\n"),
              "%s", r.out);
    cr_expect(contains(r.out, "CERTIFIED (strict): 0 errors, 0 warnings, 0 notes"), "%s", r.out);
    run_result_free(&r);
    free(pol);

    pol = certify_sample_with_policy(&r, "warn compat.type_not_in_spec blk.0.q2_0.weight\r\n");
    cr_expect_eq(r.status, 0, "a warning does not fail by default: %s", r.err);
    run_result_free(&r);
    cr_assert(run_cli(&r, "certify", "--policy", pol, "--fail-on", "warning", "--json", sample,
                      NULL));
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out, "/certified=false",
                            "/policy={\"rules\":1,\"ignored\":0,\"changed\":1}",
                            "/counts={\"error\":0,\"warning\":1,\"info\":2}",
                            "/findings/0/code=\"compat.type_not_in_spec\"",
                            "/findings/0/severity=\"warning\"",
                            "/findings/0/tensor=\"blk.0.q2_0.weight\"", NULL),
                 0);
    run_result_free(&r);
    free(pol);

    /* without --policy the report has no policy member (reports stay byte for byte) */
    cr_assert(run_cli(&r, "certify", "--json", sample, NULL));
    cr_expect(!contains(r.out, "\"policy\""));
    run_result_free(&r);
}

/* One code split between severities by a glob: each finding counts as its own rule says (the
 * cut sample has 17 reader.GS_E_DATA_OUTSIDE_FILE errors, 12 of them on blk.* tensors). */
Test(policy_engine, a_code_split_by_a_glob_counts_each_part_as_it_says)
{
    size_t n;
    char *data = read_file(sample, &n);
    cr_assert_not_null(data);
    char *cut = path_join(dir, "cut.gguf");
    cr_assert(write_file(cut, data, 100000));
    free(data);
    char *pol = policy_file("warn reader.GS_E_DATA_OUTSIDE_FILE blk.*\n"
                            "ignore compat.type_not_in_spec\n");
    run_result r;
    cr_assert(run_cli(&r, "certify", "--policy", pol, "--json", cut, NULL));
    cr_expect_eq(r.status, 1, "the raw.* tensors' errors stay errors: %s", r.err);
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out, "/certified=false",
                            "/counts={\"error\":6,\"warning\":12,\"info\":0}",
                            "/policy={\"rules\":2,\"ignored\":3,\"changed\":12}", NULL),
                 0);
    run_result_free(&r);
    free(pol);
    free(cut);
}

Test(policy_engine, a_malformed_or_missing_policy_is_a_usage_error)
{
    run_result r;
    char *pol = certify_sample_with_policy(&r, "# ok\r\nwarn compat.type_not_in_spec\r\nwarn layout.gapp\r\n");
    cr_expect_eq(r.status, 2);
    cr_expect_eq(r.out_len, 0, "nothing certified: %s", r.out);
    char want[1024];
    snprintf(want, sizeof want,
             "error: malformed policy %s:3:6: unknown finding code 'layout.gapp' ('ggufsafe "
             "certify --list-codes' lists them)\n",
             pol);
    cr_expect_str_eq(r.err, want);
    run_result_free(&r);
    free(pol);

    char *missing = path_join(dir, "none.txt");
    CLI_RUN(r, 2, "certify", "--policy", missing, sample);
    snprintf(want, sizeof want,
             "error: cannot open the policy '%s': open: No such file or directory\n", missing);
    cr_expect_str_eq(r.err, want);
    run_result_free(&r);
    free(missing);

    CLI_RUN(r, 2, "certify", "--list-codes", "--policy", "x");
    cr_expect(contains(r.err, "--policy does not go with --list-codes"), "%s", r.err);
    run_result_free(&r);
}

Test(policy_engine, a_policy_applies_to_every_file_of_a_run)
{
    char *a = path_join(dir, "a.gguf"), *b = path_join(dir, "b.gguf");
    size_t n;
    char *data = read_file(sample, &n);
    cr_assert_not_null(data);
    cr_assert(write_file(a, data, n));
    cr_assert(write_file(b, data, n));
    free(data);
    char *pol = policy_file("error compat.type_not_in_spec blk.0.nvfp4.weight\n");
    run_result r;
    CLI_RUN(r, 1, "certify", "--policy", pol, "--json", "-q", a, b);
    cr_expect_eq(check_json(dir, "certify-multi.schema.json", r.out, "/summary/not_certified=2",
                            "/files/0/policy/changed=1", "/files/1/policy/changed=1", NULL),
                 0);
    run_result_free(&r);
    free(pol);
    free(a);
    free(b);
}
