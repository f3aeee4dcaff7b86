/* `ggufsafe info` and the tool's dispatch, run as a program: exit codes, report fragments, the
 * JSON validated against conformance/schema/info.schema.json, and the error line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_test.h"
#include "ggufsafe.h"

CLI_SAMPLE_SUITE(cli);

/* The error line a failure to open path must produce, from the reader's own gs_error. */
static char *expected_error_line(const char *path)
{
    gs_file *f = NULL;
    gs_error err;
    gs_status st = gs_open_file(path, NULL, &f, &err);
    cr_assert_neq(st, GS_OK);
    const char *context = err.context_kind == GS_CONTEXT_HEADER ? "header"
                          : err.context[0] != '\0'            ? err.context
                                                              : "-";
    char *line = malloc(1024);
    snprintf(line, 1024, "error: %s at byte %llu (%s): %s%s%s\n", gs_status_name(st),
             (unsigned long long)err.offset, context, gs_status_message(st),
             err.detail[0] ? ": " : "", err.detail);
    return line;
}

/* A copy of the sample's first n bytes. */
static char *truncated_sample(size_t n)
{
    size_t len;
    char *bytes = read_file(sample, &len);
    cr_assert_not_null(bytes);
    cr_assert_lt(n, len);
    char *path = path_join(dir, "truncated.gguf");
    cr_assert(write_file(path, bytes, n));
    free(bytes);
    return path;
}

Test(cli, version)
{
    run_result r;
    cr_assert(run_cli(&r, "--version", NULL));
    cr_assert_eq(r.status, 0);
    cr_assert_str_eq(r.out, "ggufsafe " GS_VERSION_STRING "\n");
    cr_assert_eq(r.err_len, 0);
    run_result_free(&r);
}

Test(cli, help_lists_info)
{
    run_result r;
    cr_assert(run_cli(&r, "--help", NULL));
    cr_assert_eq(r.status, 0);
    cr_assert(contains(r.out, "usage: ggufsafe COMMAND"));
    cr_assert(contains(r.out, "\n  info "));
    run_result_free(&r);

    cr_assert(run_cli(&r, "info", "--help", NULL));
    cr_assert_eq(r.status, 0);
    /* generated from the option table, wrapped before column 80 */
    static const char synopsis[] =
        "usage: ggufsafe info FILE... [--json] [--profile strict|lenient] [--rows N]\n"
        "                     [--part-only] [--metadata-only] [--max-depth N]\n"
        "                     [--max-entries N] [--output FILE]\n"
        "                     [--type ID:NAME:BLOCK_ELEMENTS:BLOCK_BYTES]...\n"
        "                     [--plugin PATH.so]... [--plugin-in-process]\n"
        "                     [--plugin-timeout MS] [--ggml PATH]\n\n";
    cr_assert(strncmp(r.out, synopsis, strlen(synopsis)) == 0, "%s", r.out);
    run_result_free(&r);
}

Test(cli, usage_errors_exit_2)
{
    static const char *const cases[][4] = {
        {"frobnicate", NULL},                          /* unknown command */
        {"--frobnicate", NULL},                        /* unknown global option */
        {"info", NULL},                                /* FILE missing */
        {"info", "--frobnicate", "x.gguf", NULL},      /* unknown option */
        {"info", "--profile", "medium", "x.gguf"},     /* bad profile */
        {"info", "--rows", "many", "x.gguf"},          /* bad count */
        {"info", "a.gguf", "b.gguf", NULL},            /* two files */
        {"info", "x.gguf", "--profile", NULL},         /* option without its value */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r;
        cr_assert(run_cli(&r, cases[i][0], cases[i][1], cases[i][2], cases[i][3], NULL));
        cr_expect_eq(r.status, 2, "case %zu (%s %s): exit %d", i, cases[i][0],
                     cases[i][1] ? cases[i][1] : "", r.status);
        cr_expect_eq(r.out_len, 0, "case %zu printed a report", i);
        cr_expect(strncmp(r.err, "error: ", 7) == 0, "case %zu: stderr %s", i, r.err);
        run_result_free(&r);
    }
    run_result r;
    const char *const bare[] = {cli_binary(), NULL}; /* no command at all */
    cr_assert(run_program(bare, &r));
    cr_expect_eq(r.status, 2);
    cr_expect(contains(r.err, "usage: ggufsafe COMMAND"));
    run_result_free(&r);

    CLI_RUN(r, 2, "info", "--frobnicate", sample);
    cr_expect(contains(r.err, "error: unknown option '--frobnicate'\n"), "%s", r.err);
    run_result_free(&r);
}

Test(cli, info_text_of_sample)
{
    run_result r;
    cr_assert(run_cli(&r, "info", sample, NULL));
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    cr_expect_eq(r.err_len, 0);
    static const char *const fragments[] = {
        "header:      GGUF v3, 33 tensors, 32 metadata pairs\n",
        "metadata (25 scalars, 7 arrays, ends at byte ",
        "  general.architecture ",
        "string  llama\n",
        "u64     18000000000000000000\n",
        "f32     1e-05\n",
        "array   [string; 1000]\n",
        "tensor directory (33 tensors, ends at byte ",
        "  blk.0.q4_0.weight  512 \xc3\x97 8  Q4_0  offset     0\n",
        "  \xe2\x80\xa6 21 more \xe2\x80\xa6\n",
        "parameters:  115.65 K (115648)\n",
        "quantization mix:\n",
        "alignment:   32 (data begins at byte ",
        ("predicted:   148896 bytes\n"
         "actual:      148896 bytes (stat)\n"
         "EXACT\n"),
    };
    CLI_EXPECT_ALL_IN(r.out, fragments);
    cr_expect(no_control_bytes(r.out, r.out_len));
    run_result_free(&r);
}

Test(cli, info_rows_option)
{
    run_result r;
    cr_assert(run_cli(&r, "info", "--rows", "100", sample, NULL));
    cr_assert_eq(r.status, 0);
    cr_expect(!contains(r.out, " more \xe2\x80\xa6"));
    cr_expect(contains(r.out, "blk.0.iq4_xs.weight"));
    run_result_free(&r);

    cr_assert(run_cli(&r, "info", sample, "--rows=1", NULL));
    cr_assert_eq(r.status, 0);
    cr_expect(contains(r.out, "\xe2\x80\xa6 31 more \xe2\x80\xa6\n"));
    run_result_free(&r);
}

Test(cli, info_json_of_sample_validates)
{
    run_result r;
    cr_assert(run_cli(&r, "info", "--json", sample, NULL));
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    cr_expect_eq(r.err_len, 0);
    int st = check_json(dir, "info.schema.json", r.out,
                        "/kind=\"file\"", "/kv_count=32", "/tensor_count=33", "/version=3",
                        "/tool/name=\"ggufsafe\"", "/tool/version=\"" GS_VERSION_STRING "\"",
                        "/command=\"info\"", "/profile=\"strict\"",
                        "/limits/max_kv_count=1048576",
                        "kv:general.architecture=\"llama\"",
                        "kv:tokenizer.ggml.bos_token_id=1",
                        "kv:oracle.u64=18000000000000000000",
                        "kv:oracle.i64=-9000000000000000000",
                        "kv:oracle.f64=3.141592653589793",
                        "kv:oracle.utf8=\"h\\u00e9llo \\u2713 \\ud83d\\ude00\"",
                        "kv:oracle.bool=true",
                        "/metadata/25/key=\"tokenizer.ggml.tokens\"", "/metadata/25/count=1000",
                        "/metadata/25/head/1=\"tok1\\u0120x\"",
                        "/metadata/22/head=[1.5, 0.0, 1e+300]",
                        "/tensors/0/name=\"blk.0.q4_0.weight\"", "/tensors/0/shape=[512, 8]",
                        "/tensors/0/type=\"q4_0\"", "/tensors/0/size=2304",
                        "/layout/file_size=148896", "/layout/alignment=32",
                        "/parameters=115648", "/size_check=\"EXACT\"", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
}

/* Not a GGUF at all: the file under test is bad (1), and the error line is followed by what it
 * is and what to do. */
Test(cli, not_a_gguf_exits_1_and_says_what_it_is)
{
    char *path = path_join(dir, "hello.txt");
    cr_assert(write_file(path, "hello, world\n", 13));
    run_result r;
    CLI_RUN(r, 1, "info", path);
    cr_expect_eq(r.out_len, 0);
    cr_expect_str_eq(r.err, "error: GS_E_BAD_MAGIC at byte 0 (header): not a GGUF file: the "
                            "first 4 bytes are not \"GGUF\": magic\n"
                            "note: this is a text file, not a model (an error message, or a "
                            "listing) (hello, world)\n"
                            "hint: read it to see what the server said, then download the file "
                            "again\n");
    run_result_free(&r);
    free(path);
}

/* A header-only copy: --metadata-only lists the tensors as having no data, and says how large
 * the complete file is; the JSON has data_in_file false and the layout's counts. */
Test(cli, metadata_only_reads_a_header_only_copy)
{
    char *path = truncated_sample(63840); /* where the sample's data begins */
    run_result r;
    CLI_RUN(r, 0, "info", "--metadata-only", path);
    cr_expect(contains(r.out, "  (data not in the file)\n"), "%s", r.out);
    cr_expect(contains(r.out, "MISMATCH (metadata only: the data of 33 of 33 tensors is not in "
                              "the file; the complete file has 148896 bytes)\n"),
              "%s", r.out);
    run_result_free(&r);
    CLI_RUN(r, 0, "info", "--json", "--metadata-only", path);
    cr_expect_eq(check_json(dir, "info.schema.json", r.out, "/tensor_count=33",
                            "/tensors/0/data_in_file=false", "/tensors/32/data_in_file=false",
                            "/layout/tensors_outside=33", "/layout/described_size=148896",
                            "/size_check=\"MISMATCH\"", NULL),
                 0);
    run_result_free(&r);
    /* the whole sample is unchanged by the option */
    cr_assert(run_cli(&r, "info", "--json", "--metadata-only", sample, NULL));
    cr_expect_eq(check_json(dir, "info.schema.json", r.out, "/tensors/0/data_in_file=true",
                            "/layout/tensors_outside=0", "/layout/described_size=148896",
                            "/size_check=\"EXACT\"", NULL),
                 0);
    run_result_free(&r);
    free(path);
}

Test(cli, missing_file_exits_2)
{
    char *path = path_join(dir, "absent.gguf");
    run_result r;
    CLI_RUN(r, 2, "info", path);
    /* an environment error names the file first */
    char want[1024];
    snprintf(want, sizeof want, "error: cannot read '%s': open: No such file or directory\n", path);
    cr_expect_str_eq(r.err, want);
    cr_expect_eq(r.out_len, 0);
    run_result_free(&r);
    free(path);
}

Test(cli, empty_file_is_truncated_exit_1)
{
    char *path = path_join(dir, "empty.gguf");
    cr_assert(write_file(path, "", 0));
    run_result r;
    CLI_RUN(r, 1, "info", path);
    cr_expect(strncmp(r.err, "error: GS_E_TRUNCATED at byte 0 (header): ", 42) == 0, "%s", r.err);
    cr_expect(contains(r.err, "\nnote: this is an empty file (0 bytes)\nhint: download the file "
                              "again: nothing of it was written\n"),
              "%s", r.err);
    run_result_free(&r);
    free(path);
}

Test(cli, truncated_sample_exits_1_with_error_line)
{
    /* Inside the metadata, inside the tensor directory, and one byte short of the data. */
    static const size_t cuts[] = {100, 62000, 148895};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        char *path = truncated_sample(cuts[i]);
        char *want = expected_error_line(path);
        /* then what to do: the metadata is cut, or only the data is missing */
        char hint[4096];
        if (cuts[i] < 63840) {
            snprintf(hint, sizeof hint, "hint: the file ends before its metadata does: most "
                                        "likely an incomplete download; download it again "
                                        "('ggufsafe certify %s' says more)\n", path);
        } else {
            snprintf(hint, sizeof hint, "hint: the metadata is whole but tensor data is missing "
                                        "(a header-only copy, or a download cut short): "
                                        "'ggufsafe info --metadata-only %s' reads what is "
                                        "there\n", path);
        }
        size_t wl = strlen(want);
        for (int json = 0; json < 2; json++) {
            run_result r;
            cr_assert(run_cli(&r, "info", path, json ? "--json" : NULL, NULL));
            cr_expect_eq(r.status, 1, "cut at %zu: exit %d", cuts[i], r.status);
            cr_expect_eq(r.out_len, 0);
            cr_expect(strncmp(r.err, want, wl) == 0, "%s", r.err);
            cr_expect_str_eq(r.err + (strlen(r.err) >= wl ? wl : 0), hint, "cut at %zu",
                             cuts[i]);
            run_result_free(&r);
        }
        free(want);
        free(path);
    }
    /* The line's shape, spelled out once for the last cut: the tensor that runs past the end. */
    char *path = truncated_sample(148895);
    run_result r;
    cr_assert(run_cli(&r, "info", path, NULL));
    cr_expect(strncmp(r.err, "error: GS_E_DATA_OUTSIDE_FILE at byte ", 38) == 0, "%s", r.err);
    cr_expect(contains(r.err, " (raw.f64): tensor data extends past the end of the file: "), "%s",
              r.err);
    run_result_free(&r);
    free(path);
}
