/* `ggufsafe certify` as a command: the ggml-written sample certifies (text, JSON and SARIF, with
 * and without --deep, reports validated against their schemas); the report is the same bytes
 * whatever --jobs is; exit statuses (certified, findings, usage, I/O, not a GGUF); --profile
 * lenient turns strict-only findings into notes; --fail-on warning; split sets; hostile names
 * stay escaped; a flood of findings is capped and counted. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_test.h"
#include "ggufsafe_certify.h"
#include "gsw_write.h"

CLI_SAMPLE_SUITE(certify);

/* Writes m (canonical layout) to dir/name; returns the path (allocated). */
static char *save_model(const gsw_model *m, const char *name)
{
    char *path = path_join(dir, name);
    char why[256] = "";
    cr_assert_eq(gsw_write_file(m, 0, path, why, sizeof why), 0, "%s", why);
    return path;
}

static void add_f32(gsw_model *m, const char *name, uint64_t n, float nan_every)
{
    gsw_tensor *t = gsw_add_tensor(m, name, 1, &n, GS_TYPE_F32);
    cr_assert(gsw_tensor_fill(t, 1, 1u << 28));
    for (uint64_t i = 0; i < n; i++) {
        float v = nan_every > 0 && fmodf((float)i, nan_every) == 0.0f ? NAN : (float)i * 0.25f;
        memcpy(t->data.ptr + 4 * i, &v, 4);
    }
}

Test(certify, sample_certifies_in_every_format)
{
    run_result r;
    cr_assert(run_cli(&r, "certify", sample, NULL));
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect(contains(r.out, "file:     GGUF v3, 32 key-values, 33 tensors, 148896 bytes\n"),
              "%s", r.out);
    cr_expect(contains(r.out, "what:     model (llama)\n"), "%s", r.out);
    cr_expect(contains(r.out, "\nCERTIFIED (strict): 0 errors, 0 warnings, 3 notes\n"), "%s",
              r.out);
    run_result_free(&r);

    cr_assert(run_cli(&r, "certify", "--json", sample, NULL));
    cr_assert_eq(r.status, 0);
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out, "/certified=true",
                            "/counts/error=0", "/counts/warning=0", "/counts/info=3",
                            "/what/kind=\"model\"", "/what/architecture=\"llama\"",
                            "/kind=\"file\"", "/parts/0/tensor_count=33", "/parts/0/kv_count=32",
                            "/deep=false", "/profile=\"strict\"",
                            "/findings/0/code=\"compat.type_not_in_spec\"",
                            "/findings/0/tensor=\"blk.0.nvfp4.weight\"", NULL),
                 0);
    run_result_free(&r);

    cr_assert(run_cli(&r, "certify", "--json", "--deep", sample, NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out, "/deep=true", "/certified=true",
                            "/statistics/0/tensor=\"blk.0.q4_0.weight\"",
                            "/statistics/0/elements=4096", "/statistics/0/blocks=128",
                            "/statistics/0/nan_count=0", "/statistics/0/bad_scale_blocks=0",
                            "/statistics/27/tensor=\"blk.0.f32.weight\"",
                            "/statistics/28/tensor=\"raw.i8\"", "/statistics/28/min=null",
                            "/statistics/32/tensor=\"raw.f64\"", NULL),
                 0);
    run_result_free(&r);

    cr_assert(run_cli(&r, "certify", "--sarif", "--deep", sample, NULL));
    cr_assert_eq(r.status, 0);
    cr_expect_eq(check_json(dir, "sarif-subset.schema.json", r.out, "/version=\"2.1.0\"",
                            "/runs/0/tool/driver/name=\"ggufsafe\"",
                            "/runs/0/results/0/ruleId=\"compat.type_not_in_spec\"",
                            "/runs/0/results/0/level=\"note\"",
                            "/runs/0/tool/driver/rules/0/id=\"compat.type_not_in_spec\"", NULL),
                 0);
    run_result_free(&r);
}

/* A file with several scan chunks per tensor (2 MiB each), NaNs (the slow path of the
 * statistics) and a quantized tensor. */
static char *multi_chunk_file(void)
{
    gsw_model m;
    llama_model(&m);
    gsw_set_u32(gsw_add(&m, "general.quantization_version"), 2);
    add_f32(&m, "big", 3u << 20, 100003.0f);
    add_f32(&m, "small", 1000, 0.0f);
    uint64_t n = 1u << 20;
    cr_assert(gsw_tensor_fill(gsw_add_tensor(&m, "q", 1, &n, GS_TYPE_Q4_K), 9, 1u << 24));
    char *path = save_model(&m, "multi.gguf");
    gsw_model_free(&m);
    return path;
}

static char *output_of(const char *a, const char *b, const char *c, const char *d,
                       const char *e)
{
    run_result r;
    cr_assert(run_cli(&r, a, b, c, d, e, NULL));
    cr_assert(r.status == 0 || r.status == 1, "%s", r.err);
    char *out = r.out;
    r.out = NULL;
    run_result_free(&r);
    return out;
}

Test(certify, report_bytes_do_not_depend_on_jobs, .timeout = 120)
{
    char *multi = multi_chunk_file();
    const char *files[] = {sample, multi};
    /* JSON, SARIF and text (--fail-on=error is the default: --deep may not be given twice) */
    const char *formats[] = {"--json", "--sarif", "--fail-on=error"};
    for (size_t f = 0; f < 2; f++) {
        for (size_t k = 0; k < 3; k++) {
            char *one = output_of("certify", "--deep", formats[k], "--jobs=1", files[f]);
            for (int jobs = 2; jobs <= 3; jobs++) {
                char opt[16];
                snprintf(opt, sizeof opt, "--jobs=%d", jobs);
                char *other = output_of("certify", "--deep", formats[k], opt, files[f]);
                cr_expect_str_eq(other, one, "%s %s with %s", files[f], formats[k], opt);
                free(other);
            }
            free(one);
        }
    }
    /* the NaNs were found and counted exactly */
    char *json = output_of("certify", "--deep", "--json", "--jobs=2", multi);
    cr_expect_eq(check_json(dir, "certify.schema.json", json, "/statistics/0/tensor=\"big\"",
                            "/statistics/0/nan_count=32", "/statistics/0/blocks=3145728",
                            "/statistics/1/nan_count=0", "/statistics/1/min=0.0",
                            "/statistics/1/max=249.75", "/statistics/1/mean=124.875",
                            "/findings/0/code=\"payload.float_nonfinite\"",
                            "/findings/0/tensor=\"big\"", NULL),
                 0);
    free(json);
    free(multi);
}

Test(certify, exit_statuses)
{
    run_result r;
    char *missing = path_join(dir, "missing.gguf");
    CLI_RUN(r, 2, "certify", missing);
    char want[1024];
    snprintf(want, sizeof want, "error: cannot read '%s': open: No such file or directory\n",
             missing);
    cr_expect_str_eq(r.err, want);
    cr_expect_eq(r.out_len, 0);
    run_result_free(&r);
    free(missing);

    char *text = path_join(dir, "hello.gguf");
    cr_assert(write_file(text, "hello, world\n", 13));
    cr_assert(run_cli(&r, "certify", text, NULL));
    cr_expect_eq(r.status, 1, "not a GGUF at all: the file under test is bad");
    cr_expect(starts_with(r.out, "verdict: not a GGUF file: this is a text file, not a model "
                                 "(an error message, or a listing)\n"),
              "%s", r.out);
    cr_expect(contains(r.out, "\n\nerror   reader.not_gguf at byte 0\n        a text file, not "
                              "a model (an error message, or a listing) (kind text; hello, "
                              "world); what to do: read it"),
              "%s", r.out);
    cr_expect_eq(r.err_len, 0, "%s", r.err);
    run_result_free(&r);
    free(text);

    char *empty = path_join(dir, "empty.gguf");
    cr_assert(write_file(empty, "", 0));
    CLI_RUN(r, 1, "certify", empty);
    cr_expect(starts_with(r.out, "verdict: not a GGUF file: this is an empty file (0 bytes)\n"),
              "%s", r.out);
    cr_expect(contains(r.out, "\n\nerror   reader.not_gguf at byte 0\n"), "%s", r.out);
    run_result_free(&r);
    free(empty);

    static const char *const bad[][3] = {
        {"--json", "--sarif", NULL}, {"--jobs", "0", NULL},     {"--jobs", "x", NULL},
        {"--jobs", "257", NULL},     {"--fail-on", "info", NULL}, {"--profile", "loose", NULL},
        {"--frobnicate", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert(run_cli(&r, "certify", bad[i][0], bad[i][1] ? bad[i][1] : sample,
                          bad[i][1] ? sample : NULL, NULL));
        cr_expect_eq(r.status, 2, "%s %s", bad[i][0], bad[i][1] ? bad[i][1] : "");
        cr_expect(strncmp(r.err, "error: ", 7) == 0, "%s", r.err);
        cr_expect_eq(r.out_len, 0);
        run_result_free(&r);
    }
    CLI_RUN(r, 2, "certify");
    run_result_free(&r);
    /* two files are one run over both (test_cli_certify_many) */
    CLI_RUN(r, 0, "certify", sample, sample);
    run_result_free(&r);
    CLI_RUN(r, 0, "certify", "--help");
    cr_expect(contains(r.out, "usage: ggufsafe certify FILE"));
    run_result_free(&r);
}

Test(certify, fail_on_warning)
{
    gsw_model m;
    llama_model(&m);
    gsw_set_cstr(gsw_add(&m, "general.type"), "a-new-kind");
    add_f32(&m, "w", 8, 0.0f);
    char *path = save_model(&m, "warn.gguf");
    gsw_model_free(&m);
    run_result r;
    cr_assert(run_cli(&r, "certify", path, NULL));
    cr_expect_eq(r.status, 0, "%s", r.out);
    cr_expect(contains(r.out, "CERTIFIED (strict): 0 errors, 1 warning, 0 notes"), "%s", r.out);
    run_result_free(&r);
    CLI_RUN(r, 1, "certify", "--fail-on", "warning", "--json", path);
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out, "/fail_on=\"warning\"",
                            "/certified=false", "/counts/warning=1", "/what/kind=\"unknown\"",
                            "/what/general_type=\"a-new-kind\"", NULL),
                 0);
    run_result_free(&r);
    free(path);
}

/* A bool byte of 2: strict rejects the file, lenient reads it as true. */
Test(certify, lenient_profile_makes_strict_only_findings_notes)
{
    gsw_model m;
    llama_model(&m);
    gsw_set_bool(gsw_add(&m, "x.flag"), 2);
    add_f32(&m, "w", 8, 0.0f);
    char *path = save_model(&m, "bool2.gguf");
    gsw_model_free(&m);
    run_result r;
    CLI_RUN(r, 1, "certify", path);
    cr_expect(contains(r.out, "\nerror   reader.GS_E_BAD_BOOL at byte "), "%s", r.out);
    cr_expect(contains(r.out, "\nwarning compat.bool_value at byte "), "%s", r.out);
    run_result_free(&r);
    cr_assert(run_cli(&r, "certify", "--profile", "lenient", path, NULL));
    cr_expect_eq(r.status, 0, "%s", r.out);
    cr_expect(contains(r.out, "\ninfo    reader.GS_E_BAD_BOOL at byte "), "%s", r.out);
    cr_expect(contains(r.out, "\ninfo    compat.bool_value at byte "), "%s", r.out);
    cr_expect(contains(r.out, "CERTIFIED (lenient): 0 errors, 0 warnings, 2 notes"), "%s",
              r.out);
    run_result_free(&r);
    cr_assert(run_cli(&r, "certify", "--profile=lenient", "--json", path, NULL));
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out, "/profile=\"lenient\"",
                            "/certified=true", "/findings/0/code=\"reader.GS_E_BAD_BOOL\"",
                            "/findings/0/severity=\"info\"", "/findings/0/profiles=[\"strict\"]",
                            NULL),
                 0);
    run_result_free(&r);
    free(path);
}

static void split_part(const char *name, uint16_t no, const char *tensor)
{
    gsw_model m;
    llama_model(&m);
    gsw_set_u16(gsw_add(&m, "split.no"), no);
    gsw_set_u16(gsw_add(&m, "split.count"), 2);
    gsw_set_i32(gsw_add(&m, "split.tensors.count"), 2);
    add_f32(&m, tensor, 8, 0.0f);
    free(save_model(&m, name));
    gsw_model_free(&m);
}

Test(certify, split_set_certifies_as_a_whole)
{
    split_part("s-00001-of-00002.gguf", 0, "a");
    split_part("s-00002-of-00002.gguf", 1, "b");
    char *first = path_join(dir, "s-00001-of-00002.gguf");
    run_result r;
    cr_assert(run_cli(&r, "certify", "--deep", first, NULL));
    cr_expect_eq(r.status, 0, "%s", r.out);
    cr_expect(contains(r.out, "part 1:   s-00001-of-00002.gguf: GGUF v3, 4 key-values, 1 tensors"),
              "%s", r.out);
    cr_expect(contains(r.out, "part 2:   s-00002-of-00002.gguf: GGUF v3"), "%s", r.out);
    cr_expect(contains(r.out, "2 of 2 tensors scanned"), "%s", r.out);
    run_result_free(&r);
    cr_assert(run_cli(&r, "certify", "--json", first, NULL));
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out, "/kind=\"split\"",
                            "/parts/0/name=\"s-00001-of-00002.gguf\"", "/parts/1/status=\"read\"",
                            "/certified=true", NULL),
                 0);
    run_result_free(&r);
    CLI_RUN(r, 0, "certify", "--part-only", first);
    cr_expect(contains(r.out, "info    split.part_alone\n        part 1 of 2"), "%s", r.out);
    run_result_free(&r);
    free(first);
}

/* Names with terminal escapes and invalid UTF-8 (lenient accepts them) never reach the report
 * raw. */
Test(certify, hostile_names_stay_escaped)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    gsw_set_cstr(gsw_add(&m, "general.architecture"), "llama\x1b[2J");
    static const char evil[] = "w\x1b]0;pwned\x07\xff\xfe";
    uint64_t n = 8;
    gsw_tensor *t = gsw_add_tensor_n(&m, evil, sizeof evil - 1, 1, &n, GS_TYPE_F32);
    cr_assert(gsw_tensor_fill(t, 1, 1024));
    memset(t->data.ptr, 0, t->data.len);
    char *path = save_model(&m, "evil.gguf");
    gsw_model_free(&m);
    run_result r;
    CLI_RUN(r, 1, "certify", "--deep", path);
    cr_expect(no_control_bytes(r.out, r.out_len), "%s", r.out);
    cr_expect(contains(r.out, "\\x1b]0;pwned\\x07\\xff\\xfe"), "%s", r.out);
    run_result_free(&r);
    cr_assert(run_cli(&r, "certify", "--deep", "--json", path, NULL));
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out, NULL, NULL), 0);
    run_result_free(&r);
    cr_assert(run_cli(&r, "certify", "--deep", "--sarif", path, NULL));
    cr_expect_eq(check_json(dir, "sarif-subset.schema.json", r.out, NULL, NULL), 0);
    run_result_free(&r);
    free(path);
}

/* A name longer than the report keeps (GS_CERTIFY_NAME_MAX, 256 bytes) is cut where a
 * character starts and marked: "name_cut" in JSON, an ellipsis in text. The name is "a" and 150
 * two-byte characters: 301 bytes, cut to "a" and 127 of them (255 bytes), since the 256th byte
 * is the middle of a character. --deep finds the NaN in its data (lenient reads the long name;
 * the reader's own finding about its length names it in the reader's shorter escaped form). */
Test(certify, long_names_are_cut_and_marked)
{
    char name[301];
    name[0] = 'a';
    for (int i = 0; i < 150; i++) {
        memcpy(name + 1 + 2 * i, "\xc3\xa9", 2);
    }
    gsw_model m;
    llama_model(&m);
    const uint64_t n = 4;
    const float data[4] = {1, __builtin_nanf(""), 3, 4};
    gsw_tensor_set_data(gsw_add_tensor_n(&m, name, sizeof name, 1, &n, GS_TYPE_F32), data,
                        sizeof data);
    char *path = save_model(&m, "long-name.gguf");
    gsw_model_free(&m);
    char kept[300];
    kept[0] = 'a';
    for (int i = 0; i < 127; i++) {
        memcpy(kept + 1 + 2 * i, "\xc3\xa9", 2);
    }
    kept[255] = '\0';
    run_result r;
    cr_assert(run_cli(&r, "certify", "--profile", "lenient", "--deep", "--json", path, NULL));
    cr_expect_eq(r.status, 0, "%s", r.err); /* a NaN and a long name: notes under lenient */
    char member[400];
    snprintf(member, sizeof member, "\"tensor\": \"%s\",\n      \"name_cut\": true,", kept);
    cr_expect(contains(r.out, member), "wanted %s in\n%s", member, r.out);
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out, NULL, NULL), 0);
    run_result_free(&r);
    cr_assert(run_cli(&r, "certify", "--profile", "lenient", "--deep", path, NULL));
    /* the NaN is element 1 of the tensor's data, wherever the reader says that starts */
    gs_options o;
    gs_options_init(&o);
    o.profile = GS_PROFILE_LENIENT;
    gs_file *f;
    cr_assert_eq(gs_open_file(path, &o, &f, NULL), GS_OK);
    gs_tensor_info t;
    cr_assert_eq(gs_tensor_info_at(f, 0, &t), GS_OK);
    const uint64_t nan_at = t.data_offset + 4;
    gs_close(f);
    char where[400];
    snprintf(where, sizeof where,
             "info    payload.float_nonfinite at byte %llu, tensor '%s\xe2\x80\xa6'\n",
             (unsigned long long)nan_at, kept);
    cr_expect(contains(r.out, where), "wanted %s in\n%s", where, r.out);
    run_result_free(&r);
    free(path);
}

/* 150 tensors with 64-byte names, each a strict reader error and a compat error: 100 findings
 * of each code kept, 50 counted, every one in the verdict. */
Test(certify, findings_are_capped_per_code_and_counted)
{
    gsw_model m;
    llama_model(&m);
    for (int i = 0; i < 150; i++) {
        char name[65];
        snprintf(name, sizeof name, "%064d", i);
        add_f32(&m, name, 8, 0.0f);
    }
    char *path = save_model(&m, "many.gguf");
    gsw_model_free(&m);
    run_result r;
    CLI_RUN(r, 1, "certify", path);
    cr_expect(contains(r.out, "(50 more compat.tensor_name_64 findings not shown)"), "%s", r.out);
    cr_expect(contains(r.out, "(50 more reader.GS_E_TENSOR_NAME_TOO_LONG findings not shown)"),
              "%s", r.out);
    cr_expect(contains(r.out, "NOT CERTIFIED (strict): 300 errors"), "%s", r.out);
    run_result_free(&r);
    cr_assert(run_cli(&r, "certify", "--json", path, NULL));
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out, "/counts/error=300",
                            "/omitted/0/code=\"reader.GS_E_TENSOR_NAME_TOO_LONG\"",
                            "/omitted/0/count=50", "/omitted/1/code=\"compat.tensor_name_64\"",
                            "/omitted/1/count=50",
                            "/findings/0/code=\"reader.GS_E_TENSOR_NAME_TOO_LONG\"",
                            "/findings/100/code=\"compat.tensor_name_64\"", NULL),
                 0);
    run_result_free(&r);
    free(path);
}

/* Every result's ruleId is one of the run's rules, each listed once. */
Test(certify, sarif_results_name_listed_rules)
{
    char *path = path_join(dir, "rules.gguf");
    gsw_model m;
    gsw_model_init(&m, 3);
    gsw_set_bool(gsw_add(&m, "x.flag"), 3);
    add_f32(&m, "w", 8, 4.0f);
    free(save_model(&m, "rules.gguf"));
    gsw_model_free(&m);
    run_result r;
    cr_assert(run_cli(&r, "certify", "--sarif", "--deep", path, NULL));
    cr_expect_eq(check_json(dir, "sarif-subset.schema.json", r.out, NULL, NULL), 0);
    size_t results = 0;
    for (const char *p = strstr(r.out, "\"ruleId\": \""); p != NULL;
         p = strstr(p + 1, "\"ruleId\": \"")) {
        const char *id = p + strlen("\"ruleId\": \"");
        const char *end = strchr(id, '"');
        char rule[128];
        snprintf(rule, sizeof rule, "\"id\": \"%.*s\"", (int)(end - id), id);
        const char *first = strstr(r.out, rule);
        cr_expect_not_null(first, "%s not among the rules", rule);
        cr_expect(first == NULL || strstr(first + 1, rule) == NULL, "%s listed twice", rule);
        results++;
    }
    cr_expect_geq(results, 4, "%s", r.out);
    run_result_free(&r);
    free(path);
}

Test(certify, list_codes_lists_the_library_table)
{
    run_result r;
    cr_assert(run_cli(&r, "certify", "--list-codes", NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_eq(r.err_len, 0);
    size_t n = gs_certify_code_count();
    /* a header, then one line per code, in the table's order, with what the table says */
    size_t lines = 0;
    for (const char *c = r.out; *c != '\0'; c++) {
        lines += *c == '\n';
    }
    cr_expect_eq(lines, n + 1, "%zu lines for %zu codes", lines, n);
    cr_expect(strncmp(r.out, "CODE ", 5) == 0, "%s", r.out);
    const char *at = strchr(r.out, '\n');
    for (size_t i = 0; i < n && at != NULL; i++) {
        gs_certify_code c = {.struct_size = sizeof c};
        cr_assert_eq(gs_certify_code_at(i, &c), GS_OK);
        const char *line = at + 1;
        at = strchr(line, '\n');
        cr_expect(strncmp(line, c.code, strlen(c.code)) == 0 && line[strlen(c.code)] == ' ',
                  "line %zu is not %s", i + 1, c.code);
        char tail[300];
        snprintf(tail, sizeof tail, " %s\n", c.summary);
        cr_expect(contains(line, tail) && contains(line, gs_certify_severity_name(c.severity)),
                  "%s", c.code);
    }
    cr_expect(contains(r.out, "\nlayout.truncated "));
    cr_expect(contains(r.out, " error    strict, lenient  the file ends before the data"),
              "%s", r.out);
    cr_expect(contains(r.out, "\nreader.<STATUS> "));
    char *text = r.out;
    r.out = NULL;
    run_result_free(&r);

    cr_assert(run_cli(&r, "certify", "--list-codes", "--json", NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    char last[32];
    snprintf(last, sizeof last, "/codes/%zu/code", n - 1);
    gs_certify_code c = {.struct_size = sizeof c};
    cr_assert_eq(gs_certify_code_at(n - 1, &c), GS_OK);
    char want_last[160];
    snprintf(want_last, sizeof want_last, "%s=\"%s\"", last, c.code);
    int st = check_json(dir, "certify-codes.schema.json", r.out, "/command=\"certify --list-codes\"",
                        "/codes/0/code=\"reader.<STATUS>\"", "/codes/0/profiles_per_finding=true",
                        "/codes/1/code=\"reader.not_gguf\"",
                        "/codes/1/profiles=[\"strict\", \"lenient\"]", want_last, NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
    free(text);
}
