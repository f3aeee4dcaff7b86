/* Diagnostic mode (for certification): layout violations become findings instead of failing the
 * open; tensors whose data is outside the file stay listed but cannot be decoded. Also the
 * bounded byte reader gs_file_read. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

/* Opens b in diagnostic mode under profile: the status, the file in *f, the error in *e. */
static gs_status try_diag(const gsw_bytes *b, gs_profile profile, gs_file **f, gs_error *e)
{
    gs_options o = tu_options(profile);
    o.diagnostic = true;
    return gs_open_memory(b->data, b->len, &o, f, e);
}

static gs_file *open_diag(const gsw_bytes *b, gs_profile profile)
{
    gs_file *f = NULL;
    gs_error e;
    gs_status st = try_diag(b, profile, &f, &e);
    cr_assert_eq(st, GS_OK, "%s at %llu: %s", gs_status_name(st), (unsigned long long)e.offset,
                 e.detail);
    return f;
}

static void expect_finding(const gs_file *f, size_t i, gs_status st, uint64_t at,
                           const char *context)
{
    gs_error e;
    cr_assert_eq(gs_file_finding(f, i, &e), GS_OK);
    cr_assert_eq(e.status, st, "finding %zu: %s, want %s", i, gs_status_name(e.status),
                 gs_status_name(st));
    cr_assert_eq(e.offset, at, "finding %zu at %llu, want %llu", i, (unsigned long long)e.offset,
                 (unsigned long long)at);
    if (context != NULL) {
        cr_assert_str_eq(e.context, context);
    }
}

Test(diagnostic, truncated_data_is_a_finding)
{
    gsw_bytes b = tu_small(32);
    b.len -= 8; /* tensor "b" loses its last two floats */
    gs_file *f = open_diag(&b, GS_PROFILE_STRICT);
    cr_assert_eq(gs_file_finding_count(f), 1);
    gs_tensor_info t;
    gs_tensor_info_at(f, 1, &t);
    size_t b_info = t.info_offset;
    expect_finding(f, 0, GS_E_DATA_OUTSIDE_FILE, gsw_raw_offset_field(b_info, 1, 2), "b");
    cr_assert(!t.data_in_file);
    cr_assert_null(t.data);
    float out[8];
    cr_assert_eq(gs_tensor_dequantize(f, 1, out, 8), GS_E_DATA_OUTSIDE_FILE);
    cr_assert_eq(gs_tensor_dequantize(f, 0, out, 8), GS_OK, "the other tensor still decodes");
    cr_assert_eq(out[7], 7.0f);
    gs_tensor_info_at(f, 0, &t);
    cr_assert(t.data_in_file);
    gs_layout l;
    gs_file_layout(f, &l);
    cr_assert_eq(l.findings_dropped, 0);
    gs_close(f);
    /* without diagnostic mode the same bytes fail the open exactly there */
    TU_EXPECT(&b, GS_PROFILE_STRICT, GS_E_DATA_OUTSIDE_FILE, gsw_raw_offset_field(b_info, 1, 2));
    gsw_bytes_free(&b);
}

/* Layout violations in diagnostic mode: each file's findings in order, each the status and the
 * record whose offset field it names, with that record's name as context (record -1: the end
 * of the records, where the missing padding starts, without a context). */
Test(diagnostic, layout_violations_are_findings)
{
    static const struct {
        const char *what;
        gs_profile profile;
        tu_tensor t[4];
        size_t n, data_bytes, findings;
        struct {
            gs_status st;
            int record;
        } want[3];
    } cases[] = {
        {"packing violations, reported once each",
         GS_PROFILE_STRICT,
         {{"a", 1, {8}, GS_TYPE_F32, 0},
          {"b", 1, {8}, GS_TYPE_F32, 64},   /* expected 32 */
          {"c", 1, {8}, GS_TYPE_F32, 96},   /* packed after b */
          {"d", 1, {8}, GS_TYPE_F32, 130}}, /* misaligned */
         4, 192, 2,
         {{GS_E_OFFSET_NOT_PACKED, 1}, {GS_E_MISALIGNED_OFFSET, 3}}},
        {"missing padding and every tensor outside",
         GS_PROFILE_STRICT,
         {{"a", 1, {8}, GS_TYPE_F32, 0}, {"c", 1, {8}, GS_TYPE_F32, 32}},
         2, TU_NO_DATA, 3,
         {{GS_E_TRUNCATED, -1}, {GS_E_DATA_OUTSIDE_FILE, 0}, {GS_E_DATA_OUTSIDE_FILE, 1}}},
        {"every overlap in lenient",
         GS_PROFILE_LENIENT,
         {{"long", 1, {32}, GS_TYPE_F32, 0},
          {"x", 1, {8}, GS_TYPE_F32, 16},
          {"y", 1, {8}, GS_TYPE_F32, 64},
          {"after", 1, {8}, GS_TYPE_F32, 128}},
         4, 160, 2,
         {{GS_E_TENSOR_OVERLAP, 1}, {GS_E_TENSOR_OVERLAP, 2}}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gsw_bytes b;
        size_t at[4];
        tu_tensor_file(&b, cases[i].t, cases[i].n, cases[i].data_bytes, at);
        gs_file *f = open_diag(&b, cases[i].profile);
        cr_assert_eq(gs_file_finding_count(f), cases[i].findings, "%s", cases[i].what);
        for (size_t k = 0; k < cases[i].findings; k++) {
            const int r = cases[i].want[k].record;
            const tu_tensor *t = r >= 0 ? &cases[i].t[r] : NULL;
            expect_finding(f, k, cases[i].want[k].st,
                           t != NULL ? gsw_raw_offset_field(at[r], strlen(t->name), t->n_dims)
                                     : b.len,
                           t != NULL ? t->name : NULL);
        }
        gs_close(f);
        gsw_bytes_free(&b);
    }
    /* lenient does not require packing: the first file has no finding there */
    gsw_bytes b;
    tu_tensor_file(&b, cases[0].t, cases[0].n, cases[0].data_bytes, NULL);
    gs_file *f = open_diag(&b, GS_PROFILE_LENIENT);
    cr_assert_eq(gs_file_finding_count(f), 0, "lenient does not require packing");
    gs_close(f);
    gsw_bytes_free(&b);
}

Test(diagnostic, metadata_errors_still_fail)
{
    gsw_bytes b = tu_small(32);
    b.data[0] = 'X';
    gs_file *f;
    gs_error e;
    cr_assert_eq(try_diag(&b, GS_PROFILE_STRICT, &f, &e), GS_E_BAD_MAGIC);
    cr_assert_null(f);
    gsw_bytes_free(&b);
}

Test(diagnostic, findings_are_capped)
{
    /* 70,000 one-element tensors, all beyond the end: 65,536 kept, the rest counted */
    const size_t n = 70000;
    gsw_bytes b;
    tu_raw_start(&b, n, 0);
    uint64_t ne[1] = {1};
    char name[32];
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "t%zu", i);
        gsw_raw_tensor(&b, name, 1, ne, GS_TYPE_F32, 32 * i);
    }
    gsw_pad_to(&b, 32);
    gs_file *f = open_diag(&b, GS_PROFILE_STRICT);
    cr_assert_eq(gs_file_finding_count(f), GS_MAX_FINDINGS);
    gs_layout l;
    gs_file_layout(f, &l);
    cr_assert_eq(l.findings_dropped, n - GS_MAX_FINDINGS);
    gs_error e;
    cr_assert_eq(gs_file_finding(f, GS_MAX_FINDINGS, &e), GS_E_OUT_OF_RANGE);
    gs_close(f);
    gsw_bytes_free(&b);
}

Test(diagnostic, bounded_reads)
{
    gsw_bytes b;
    gs_file *f = tu_open_small(&b);
    uint8_t buf[16];
    cr_assert_eq(gs_file_read(f, 0, buf, 4), GS_OK);
    cr_assert(memcmp(buf, "GGUF", 4) == 0);
    cr_assert_eq(gs_file_read(f, b.len - 4, buf, 4), GS_OK);
    cr_assert_eq(gs_file_read(f, b.len - 3, buf, 4), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_file_read(f, UINT64_MAX, buf, 2), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_file_read(f, b.len, buf, 0), GS_OK);
    cr_assert_eq(gs_file_read(NULL, 0, buf, 1), GS_E_INVALID_ARGUMENT);
    gs_close(f);
    /* a file that shrinks after opening: truncation, not SIGBUS */
    char path[] = "/tmp/gs_read_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_eq(write(fd, b.data, b.len), (ssize_t)b.len);
    cr_assert_eq(gs_open_file(path, NULL, &f, NULL), GS_OK);
    cr_assert_eq(gs_file_read(f, 8, buf, 8), GS_OK);
    cr_assert_eq(ftruncate(fd, 40), 0);
    cr_assert_eq(gs_file_read(f, b.len - 8, buf, 8), GS_E_TRUNCATED);
    gs_close(f);
    close(fd);
    unlink(path);
    gsw_bytes_free(&b);
}

Test(diagnostic, strict_only_rules_become_findings)
{
    gsw_bytes b;
    tu_raw_start(&b, 1, 5);
    size_t align_at = gsw_raw_kv_u32(&b, "general.alignment", 24);
    size_t utf8_at = gsw_raw_kv_head(&b, "k.s", 3, GS_VALUE_STRING);
    gsw_put_cstr(&b, "\xff");
    size_t bool_at = gsw_raw_kv_head(&b, "k.b", 3, GS_VALUE_BOOL);
    gsw_put_u8(&b, 2);
    size_t key_at = gsw_raw_kv_u8(&b, "Bad.Key", 1);
    size_t arr_at = gsw_raw_kv_head(&b, "k.a", 3, GS_VALUE_ARRAY);
    gsw_put_u32(&b, GS_VALUE_STRING);
    gsw_put_u64(&b, 3);
    gsw_put_cstr(&b, "\xc0");
    gsw_put_cstr(&b, "ok");
    gsw_put_cstr(&b, "\xc1"); /* a second invalid element: one finding per key */
    char name[65];
    memset(name, 'n', 64);
    uint64_t ne[1] = {8};
    size_t name_at = gsw_raw_tensor_n(&b, name, 64, 1, ne, GS_TYPE_F32, 0);
    gsw_pad_to(&b, 24);
    gsw_put_fill(&b, 0, 48);
    gs_file *f = open_diag(&b, GS_PROFILE_STRICT);
    cr_assert_eq(gs_file_finding_count(f), 6);
    expect_finding(f, 0, GS_E_INVALID_UTF8, utf8_at + 8 + 3 + 4, "k.s");
    expect_finding(f, 1, GS_E_BAD_BOOL, bool_at + 8 + 3 + 4, "k.b");
    expect_finding(f, 2, GS_E_BAD_KEY, key_at, "Bad.Key");
    expect_finding(f, 3, GS_E_INVALID_UTF8, arr_at + 8 + 3 + 4 + 12, "k.a");
    expect_finding(f, 4, GS_E_ALIGNMENT_VALUE, align_at + 8 + 17 + 4, "general.alignment");
    expect_finding(f, 5, GS_E_TENSOR_NAME_TOO_LONG, name_at, NULL);
    gs_close(f);
    /* lenient: none of these is a problem; strict without diagnostics stops at the first */
    f = open_diag(&b, GS_PROFILE_LENIENT);
    cr_assert_eq(gs_file_finding_count(f), 0);
    gs_close(f);
    TU_EXPECT(&b, GS_PROFILE_STRICT, GS_E_INVALID_UTF8, utf8_at + 8 + 3 + 4);
    gsw_bytes_free(&b);
}

Test(diagnostic, failed_open_reports_the_first_problem)
{
    /* a bad bool (a finding), then a truncated value (fatal): the error is the bool, exactly as
     * a normal strict open reports it */
    gsw_bytes b;
    tu_raw_start(&b, 0, 2);
    size_t bool_at = gsw_raw_kv_head(&b, "k.b", 3, GS_VALUE_BOOL);
    gsw_put_u8(&b, 7);
    gsw_raw_kv_head(&b, "k.u", 3, GS_VALUE_U64);
    gsw_put_u32(&b, 0);
    gsw_put_fill(&b, 0, 1);
    gs_file *f;
    gs_error e;
    cr_assert_eq(try_diag(&b, GS_PROFILE_STRICT, &f, &e), GS_E_BAD_BOOL);
    cr_assert_eq(e.offset, bool_at + 8 + 3 + 4);
    cr_assert_null(f);
    TU_EXPECT(&b, GS_PROFILE_STRICT, GS_E_BAD_BOOL, bool_at + 8 + 3 + 4);
    gsw_bytes_free(&b);
}

/* One name both too long and not UTF-8 breaks two strict rules: two findings, and a normal
 * strict open still fails on the first. */
Test(diagnostic, a_name_too_long_and_not_utf8_is_two_findings)
{
    char name[87];
    memset(name, 'n', sizeof name);
    name[40] = (char)0xff;
    uint64_t ne[1] = {8};
    gsw_bytes b;
    tu_raw_start(&b, 1, 0);
    size_t at = gsw_raw_tensor_n(&b, name, sizeof name, 1, ne, GS_TYPE_F32, 0);
    gsw_pad_to(&b, 32);
    gsw_put_fill(&b, 0, 32);
    gs_file *f = open_diag(&b, GS_PROFILE_STRICT);
    cr_assert_eq(gs_file_finding_count(f), 2);
    expect_finding(f, 0, GS_E_TENSOR_NAME_TOO_LONG, at, NULL);
    expect_finding(f, 1, GS_E_INVALID_UTF8, at, NULL);
    gs_close(f);
    TU_EXPECT(&b, GS_PROFILE_STRICT, GS_E_TENSOR_NAME_TOO_LONG, at);
    gsw_bytes_free(&b);
}

/* A key that is not UTF-8 says so in its detail (the rule it breaks is the key grammar). */
Test(diagnostic, a_key_not_utf8_says_so)
{
    gsw_bytes b;
    tu_raw_start(&b, 0, 1);
    size_t at = gsw_raw_kv_u8(&b, "k.\xc3\x28", 1);
    gs_file *f = open_diag(&b, GS_PROFILE_STRICT);
    cr_assert_eq(gs_file_finding_count(f), 1);
    expect_finding(f, 0, GS_E_BAD_KEY, at, "k.\\xc3(");
    gs_error e;
    cr_assert_eq(gs_file_finding(f, 0, &e), GS_OK);
    cr_expect_str_eq(e.detail, "key-value pair 0, not valid UTF-8");
    gs_close(f);
    gsw_bytes_free(&b);
}
