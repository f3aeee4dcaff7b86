/* Metadata-only mode (gs_options.metadata_only): tensor data need not be in the file. A file of
 * tensor infos without data (what ggml's gguf_write_to_file(..., only_meta = true) writes), one
 * cut right after its tensor infos or inside its data opens under both profiles; tensors whose
 * data is not wholly in the file are listed with their offsets and data_in_file false, cannot be
 * decoded and are counted in gs_layout.tensors_outside; the data that is in the file decodes and
 * is still checked (packing, alignment, overlap), and so is every other part of the file. */
#include <criterion/criterion.h>
#include <string.h>

#include "test_util.h"

static gs_options meta_options(gs_profile profile)
{
    gs_options o = tu_options(profile);
    o.metadata_only = true;
    return o;
}

static gs_file *open_meta(const gsw_bytes *b, gs_profile profile)
{
    gs_options o = meta_options(profile);
    gs_file *f = NULL;
    TU_OPEN_OK(f, b, &o);
    return f;
}

/* tu_small_file's layout with alignment 32: the data section starts at data_offset, tensor a
 * takes 32 bytes, b 32 more. */
static size_t data_offset_of_small_file(void)
{
    gsw_bytes b = tu_small(32);
    size_t n = b.len - 64;
    gsw_bytes_free(&b);
    return n;
}

Test(metadata_only, a_header_only_file_opens_in_both_profiles)
{
    gsw_bytes b = tu_small(32);
    size_t full = b.len, data_at = data_offset_of_small_file();
    gs_file *whole = open_meta(&b, GS_PROFILE_STRICT);
    gs_tensor_info t0;
    gs_tensor_info_at(whole, 0, &t0);
    gs_close(whole);
    gsw_truncate(&b, data_at); /* only_meta: header, key-values, tensor infos, padding */
    gs_profile profiles[2] = {GS_PROFILE_STRICT, GS_PROFILE_LENIENT};
    for (int p = 0; p < 2; p++) {
        TU_EXPECT(&b, profiles[p], GS_E_DATA_OUTSIDE_FILE,
                  gsw_raw_offset_field(t0.info_offset, 1, 1));
        gs_file *f = open_meta(&b, profiles[p]);
        cr_assert_eq(gs_tensor_count(f), 2);
        gs_tensor_info t;
        cr_assert_eq(gs_tensor_info_at(f, 1, &t), GS_OK);
        cr_expect(!t.data_in_file);
        cr_expect_null(t.data);
        cr_expect_eq(t.offset, 32);
        cr_expect_eq(t.data_offset, data_at + 32);
        cr_expect_eq(t.size, 32);
        float out[8];
        cr_expect_eq(gs_tensor_dequantize(f, 1, out, 8), GS_E_DATA_OUTSIDE_FILE);
        gs_layout l;
        cr_assert_eq(gs_file_layout(f, &l), GS_OK);
        cr_expect_eq(l.tensors_outside, 2);
        cr_expect_eq(l.data_offset, data_at);
        cr_expect_eq(l.described_size, full, "the complete file's size");
        cr_expect_eq(gs_file_finding_count(f), 0);
        size_t i;
        cr_expect_eq(gs_kv_find(f, "general.architecture", &i), GS_OK);
        gs_close(f);
    }
    gsw_bytes_free(&b);
}

/* Cut anywhere from the end of the tensor infos on: the padding before the data may be missing,
 * and what data is whole is listed as in the file and decodes. */
Test(metadata_only, every_cut_inside_the_padding_or_the_data)
{
    gsw_bytes b = tu_small(32);
    size_t full = b.len, data_at = data_offset_of_small_file();
    gs_file *whole = open_meta(&b, GS_PROFILE_STRICT);
    gs_layout wl;
    gs_file_layout(whole, &wl);
    size_t info_end = (size_t)wl.tensor_info_end;
    gs_close(whole);
    for (size_t len = info_end; len <= full; len++) {
        gsw_bytes cut = {b.data, len, len};
        gs_file *f = open_meta(&cut, GS_PROFILE_STRICT);
        bool a_in = len >= data_at + 32, b_in = len >= data_at + 64;
        gs_tensor_info t;
        gs_tensor_info_at(f, 0, &t);
        cr_expect_eq(t.data_in_file, a_in, "cut at %zu", len);
        gs_tensor_info_at(f, 1, &t);
        cr_expect_eq(t.data_in_file, b_in, "cut at %zu", len);
        gs_layout l;
        gs_file_layout(f, &l);
        cr_expect_eq(l.tensors_outside, (uint64_t)!a_in + !b_in, "cut at %zu", len);
        cr_expect_eq(l.described_size, full);
        float out[8];
        cr_expect_eq(gs_tensor_dequantize(f, 0, out, 8), a_in ? GS_OK : GS_E_DATA_OUTSIDE_FILE);
        if (a_in) {
            cr_expect_eq(out[7], 7.0f);
        }
        gs_close(f);
    }
    gsw_bytes_free(&b);
}

/* A complete file reads exactly as without the option. */
Test(metadata_only, a_complete_file_is_unchanged)
{
    gsw_bytes b = tu_small(32);
    gs_file *f = open_meta(&b, GS_PROFILE_STRICT);
    gs_layout l;
    gs_file_layout(f, &l);
    cr_expect_eq(l.tensors_outside, 0);
    cr_expect_eq(l.described_size, b.len);
    cr_expect_eq(l.predicted_size, b.len);
    gs_close(f);
    gsw_bytes_free(&b);
}

/* Offsets are metadata: strict still wants them packed and aligned, lenient still refuses two
 * tensors sharing bytes that are in the file; key-values are checked as ever. */
Test(metadata_only, everything_else_is_still_checked)
{
    /* "c" where 32 is expected: strict refuses the gap */
    static const tu_tensor gap[] = {{"a", 1, {8}, GS_TYPE_F32, 0}, {"c", 1, {8}, GS_TYPE_F32, 64}};
    gsw_bytes b;
    size_t at[2];
    tu_tensor_file(&b, gap, 2, 0, at);
    gs_options o = meta_options(GS_PROFILE_STRICT);
    gs_error e;
    cr_expect_eq(tu_open_opts(&b, &o, &e), GS_E_OFFSET_NOT_PACKED);
    cr_expect_eq(e.offset, gsw_raw_offset_field(at[1], 1, 1));
    gsw_bytes_free(&b);

    /* "x" overlaps "a", both in the file */
    static const tu_tensor overlap[] = {{"a", 1, {8}, GS_TYPE_F32, 0},
                                        {"x", 1, {8}, GS_TYPE_F32, 16}};
    tu_tensor_file(&b, overlap, 2, 48, at);
    o = meta_options(GS_PROFILE_LENIENT);
    cr_expect_eq(tu_open_opts(&b, &o, &e), GS_E_TENSOR_OVERLAP);
    cr_expect_eq(e.offset, gsw_raw_offset_field(at[1], 1, 1));
    gsw_truncate(&b, b.len - 48); /* neither in the file: nothing to overlap */
    cr_expect_eq(tu_open_opts(&b, &o, &e), GS_OK, "%s", e.detail);
    gsw_bytes_free(&b);

    tu_raw_start(&b, 0, 1);
    size_t k = gsw_raw_kv_u8(&b, "Bad.Key", 1);
    o = meta_options(GS_PROFILE_STRICT);
    cr_expect_eq(tu_open_opts(&b, &o, &e), GS_E_BAD_KEY);
    cr_expect_eq(e.offset, k);
    gsw_bytes_free(&b);
}

/* With diagnostic mode too: data outside the file is no finding, the other layout rules are. */
Test(metadata_only, with_diagnostic_mode_only_real_problems_are_findings)
{
    static const tu_tensor t[] = {{"a", 1, {8}, GS_TYPE_F32, 0}, {"c", 1, {8}, GS_TYPE_F32, 64}};
    gsw_bytes b;
    size_t at[2];
    tu_tensor_file(&b, t, 2, TU_NO_DATA, at);
    gs_options o = meta_options(GS_PROFILE_STRICT);
    o.diagnostic = true;
    gs_file *f = NULL;
    gs_error e;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_OK, "%s", e.detail);
    cr_assert_eq(gs_file_finding_count(f), 1);
    cr_assert_eq(gs_file_finding(f, 0, &e), GS_OK);
    cr_expect_eq(e.status, GS_E_OFFSET_NOT_PACKED);
    cr_expect_eq(e.offset, gsw_raw_offset_field(at[1], 1, 1));
    gs_layout l;
    gs_file_layout(f, &l);
    cr_expect_eq(l.tensors_outside, 2);
    gs_close(f);
    gsw_bytes_free(&b);
}

/* A crafted offset: the described size overflows and says so. */
Test(metadata_only, described_size_that_overflows)
{
    uint64_t ne[1] = {8};
    gsw_bytes b;
    tu_raw_start(&b, 1, 0);
    gsw_raw_tensor(&b, "a", 1, ne, GS_TYPE_F32, UINT64_MAX - 64);
    gs_file *f = open_meta(&b, GS_PROFILE_LENIENT);
    gs_layout l;
    gs_file_layout(f, &l);
    cr_expect_eq(l.described_size, UINT64_MAX);
    cr_expect_eq(l.tensors_outside, 1);
    gs_close(f);
    gsw_bytes_free(&b);
}

/* Sets: every part is opened with the option. */
Test(metadata_only, split_sets_of_header_only_parts)
{
    /* two parts of one F32 tensor each ("a", "b"), header only */
    gsw_bytes p[2];
    const void *data[2];
    size_t sizes[2];
    for (uint8_t i = 0; i < 2; i++) {
        uint64_t ne[1] = {8};
        tu_raw_start(&p[i], 1, 3);
        gsw_raw_kv_u8(&p[i], "split.no", i);
        gsw_raw_kv_u8(&p[i], "split.count", 2);
        gsw_raw_kv_u8(&p[i], "split.tensors.count", 2);
        gsw_raw_tensor(&p[i], i == 0 ? "a" : "b", 1, ne, GS_TYPE_F32, 0);
        gsw_pad_to(&p[i], 32);
        data[i] = p[i].data;
        sizes[i] = p[i].len;
    }
    gs_options o = meta_options(GS_PROFILE_STRICT);
    gs_split *s = NULL;
    gs_error e;
    cr_assert_eq(gs_open_split_memory(data, sizes, 2, NULL, &s, &e), GS_E_DATA_OUTSIDE_FILE);
    cr_assert_eq(gs_open_split_memory(data, sizes, 2, &o, &s, &e), GS_OK, "%s", e.detail);
    cr_expect_eq(gs_split_tensor_count(s), 2);
    gs_split_close(s);
    gsw_bytes_free(&p[0]);
    gsw_bytes_free(&p[1]);
}
