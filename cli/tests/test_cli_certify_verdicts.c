/* What a person who downloaded a model reads first: for each way a download goes wrong, the
 * verdict sentence (the text report's first line, `verdict` in the JSON), the first finding (its
 * code and place, the root cause), and the exit status. An LFS pointer, an HTML page and a
 * safetensors file instead of the model; the ggml-written sample cut inside its data and inside
 * its metadata; a five-part set without its part 3; a header-only copy, without and with
 * --metadata-only. Every JSON report validates against certify.schema.json. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_test.h"
#include "gsw_foreign.h"
#include "gsw_write.h"

CLI_SAMPLE_SUITE(verdicts);

/* The sample's first n bytes as dir/name. */
static char *sample_cut(const char *name, size_t n)
{
    size_t len;
    char *bytes = read_file(sample, &len);
    cr_assert_not_null(bytes);
    cr_assert_leq(n, len);
    char *path = path_join(dir, name);
    cr_assert(write_file(path, bytes, n));
    free(bytes);
    return path;
}

static char *foreign(gs_format format, const char *name)
{
    for (size_t i = 0; i < gsw_foreign_count; i++) {
        if (gsw_foreign_samples[i].format == format) {
            gsw_bytes b;
            gsw_bytes_init(&b);
            gsw_foreign_samples[i].build(&b);
            char *path = path_join(dir, name);
            cr_assert_eq(gsw_bytes_save(&b, path), 0);
            gsw_bytes_free(&b);
            return path;
        }
    }
    cr_assert_fail("no sample of %s", gs_format_name(format));
    return NULL;
}

/* A set of five parts as gguf-split writes them, one layer each; part 1 holds the metadata. */
static char *five_part_set(void)
{
    for (int p = 0; p < 5; p++) {
        gsw_model m;
        gsw_model_init(&m, 3);
        if (p == 0) {
            gsw_set_cstr(gsw_add(&m, "general.architecture"), "llama");
            gsw_set_u32(gsw_add(&m, "llama.block_count"), 5);
        }
        gsw_set_u16(gsw_add(&m, "split.no"), (uint16_t)p);
        gsw_set_u16(gsw_add(&m, "split.count"), 5);
        gsw_set_i32(gsw_add(&m, "split.tensors.count"), 5);
        char tensor[64];
        snprintf(tensor, sizeof tensor, "blk.%d.attn_q.weight", p);
        uint64_t n = 8;
        gsw_tensor *t = gsw_add_tensor(&m, tensor, 1, &n, GS_TYPE_F32);
        cr_assert(gsw_tensor_fill(t, 0, 1u << 20));
        memset(t->data.ptr, 0, 32);
        char name[64], why[256];
        snprintf(name, sizeof name, "model-%05d-of-00005.gguf", p + 1);
        char *path = path_join(dir, name);
        cr_assert_eq(gsw_write_file(&m, 0, path, why, sizeof why), 0, "%s", why);
        free(path);
        gsw_model_free(&m);
    }
    return path_join(dir, "model-00001-of-00005.gguf");
}

typedef struct expect {
    int status;
    const char *verdict;
    const char *first; /* the first finding's line: "<severity> <code>[ at <where>]" */
    const char *code;
} expect;

static void check(const char *path, const char *flag, const expect *x)
{
    run_result r;
    cr_assert(run_cli(&r, "certify", flag != NULL ? flag : path, flag != NULL ? path : NULL,
                      NULL));
    cr_expect_eq(r.status, x->status, "%s: exit %d\n%s%s", path, r.status, r.out, r.err);
    char line[1024];
    snprintf(line, sizeof line, "verdict: %s\n\n", x->verdict);
    cr_expect(starts_with(r.out, line), "%s: wanted\n%s\nin\n%s", path, line, r.out);
    /* the first finding is the first line after the header's blank line */
    const char *findings = strstr(r.out, "\n\n");
    findings = findings != NULL ? strstr(findings + 2, "\n\n") : NULL;
    snprintf(line, sizeof line, "\n\n%s\n", x->first);
    cr_expect(findings != NULL && strncmp(findings, line, strlen(line)) == 0,
              "%s: the first finding is not\n%s\nin\n%s", path, x->first, r.out);
    run_result_free(&r);

    cr_assert(run_cli(&r, "certify", "--json", flag != NULL ? flag : path,
                      flag != NULL ? path : NULL, NULL));
    cr_expect_eq(r.status, x->status);
    char verdict[1024], code[128];
    snprintf(verdict, sizeof verdict, "/verdict=\"%s\"", x->verdict); /* no " or \ in them */
    snprintf(code, sizeof code, "/findings/0/code=\"%s\"", x->code);
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out, verdict, code, "/root_cause=0",
                            "/findings/0/caused_by=null", NULL),
                 0, "%s", path);
    run_result_free(&r);
}

/* A file of another format saved as model.gguf: refused as not a GGUF file, the verdict naming
 * what it is. */
static void check_foreign(gs_format format, const char *verdict)
{
    char *path = foreign(format, "model.gguf");
    expect x = {1, verdict, "error   reader.not_gguf at byte 0", "reader.not_gguf"};
    check(path, NULL, &x);
    free(path);
}

Test(verdicts, a_git_lfs_pointer)
{
    check_foreign(GS_FORMAT_GIT_LFS_POINTER,
                  "not a GGUF file: this is a Git LFS pointer: the small text file Git leaves in "
                  "place of the model when Git LFS is not used");
}

Test(verdicts, an_html_page)
{
    check_foreign(GS_FORMAT_HTML,
                  "not a GGUF file: this is an HTML web page, not a model: the server sent an "
                  "error, login or licence page instead of the file");
}

Test(verdicts, a_safetensors_file)
{
    check_foreign(GS_FORMAT_SAFETENSORS,
                  "not a GGUF file: this is a safetensors file (Hugging Face's tensor format), not "
                  "GGUF");
}

Test(verdicts, a_download_cut_in_its_data)
{
    char *path = sample_cut("download.gguf", 140000);
    expect x = {1, "incomplete download: 140,000 of the 148,896 bytes the header describes",
                "error   layout.truncated at byte 140000, tensor 'blk.0.f32.weight'",
                "layout.truncated"};
    check(path, NULL, &x);
    free(path);
}

Test(verdicts, a_download_cut_in_its_metadata)
{
    char *path = sample_cut("cut.gguf", 175);
    expect x = {1, "incomplete download: the file ends at byte 175, inside its metadata",
                "error   layout.metadata_truncated at byte 175", "layout.metadata_truncated"};
    check(path, NULL, &x);
    /* cut inside a key-value further on, the section is named */
    free(path);
    path = sample_cut("cut_kv.gguf", 30000);
    x.verdict = "incomplete download: the file ends at byte 30,000, inside its key-values";
    x.first = "error   layout.metadata_truncated at byte 30000";
    check(path, NULL, &x);
    free(path);
}

Test(verdicts, a_set_without_its_part_3)
{
    char *first = five_part_set();
    char *third = path_join(dir, "model-00003-of-00005.gguf");
    cr_assert_eq(unlink(third), 0);
    expect x = {1, "split set incomplete: part 3 of 5, `model-00003-of-00005.gguf`, is missing",
                "error   split.part_missing at part 3", "split.part_missing"};
    check(first, NULL, &x);
    /* the layer count it throws off is listed under it, not before it */
    run_result r;
    cr_assert(run_cli(&r, "certify", first, NULL));
    cr_expect(contains(r.out, "        part 3 of 5, model-00003-of-00005.gguf, cannot be opened: "
                              "open: No such file or directory\n"),
              "%s", r.out);
    cr_expect(contains(r.out, "        because of it, 1 more finding:\n          - error "
                              "meta.block_count_mismatch at part 1, byte "),
              "%s", r.out);
    run_result_free(&r);
    cr_assert(run_cli(&r, "certify", "--json", first, NULL));
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out,
                            "/findings/1/code=\"meta.block_count_mismatch\"",
                            "/findings/1/caused_by=0", NULL),
                 0);
    run_result_free(&r);
    free(third);
    free(first);
}

Test(verdicts, a_header_only_copy)
{
    char *path = sample_cut("header_only.gguf", 63840); /* where the sample's data begins */
    expect x = {1,
                "incomplete download: 63,840 of the 148,896 bytes the header describes; it holds "
                "the metadata only (certify --metadata-only checks that)",
                "error   layout.truncated at byte 63840, tensor 'blk.0.q4_0.weight'",
                "layout.truncated"};
    check(path, NULL, &x);
    expect meta = {0,
                   "metadata sound: the tensor data is not in this file (a metadata-only check); "
                   "certify the complete file before using it",
                   "info    layout.data_absent at byte 63840, tensor 'blk.0.q4_0.weight'",
                   "layout.data_absent"};
    check(path, "--metadata-only", &meta);
    /* with the option, the only notes are the absent data and the sample's own three */
    run_result r;
    cr_assert(run_cli(&r, "certify", "--metadata-only", path, NULL));
    cr_expect(contains(r.out, "\nCERTIFIED (strict): 0 errors, 0 warnings, 4 notes\n"), "%s",
              r.out);
    run_result_free(&r);
    free(path);
}

/* A complete file gives the same report with --metadata-only (nothing is absent). */
Test(verdicts, metadata_only_changes_nothing_for_a_whole_file)
{
    run_result a, b;
    cr_assert(run_cli(&a, "certify", "--json", sample, NULL));
    cr_assert(run_cli(&b, "certify", "--json", "--metadata-only", sample, NULL));
    cr_expect_eq(a.status, 0);
    cr_expect_eq(b.status, 0);
    const char *fa = strstr(a.out, "\"findings\"");
    const char *fb = strstr(b.out, "\"findings\"");
    cr_assert(fa != NULL && fb != NULL);
    cr_expect_str_eq(fa, fb, "the findings differ");
    run_result_free(&a);
    run_result_free(&b);
}
