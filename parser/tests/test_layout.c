/* Data layout: padding, packing, overlap, bounds, trailing bytes, embedded GGUFs. */
#include <criterion/criterion.h>
#include <string.h>

#include "test_util.h"

#define STRICT GS_PROFILE_STRICT
#define LENIENT GS_PROFILE_LENIENT

/* Two F32 tensors of 8 elements (32 bytes each), "a" at off_a and "b" at off_b, then
 * data_bytes of data: what strict and lenient say, each naming the offset field of record
 * strict_at or lenient_at when it fails. */
typedef struct two_tensors {
    uint64_t off_a, off_b;
    size_t data_bytes;
    gs_status strict;
    size_t strict_at;
    gs_status lenient;
    size_t lenient_at;
} two_tensors;

static void expect_two_tensors(const two_tensors *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const two_tensors *c = &cases[i];
        const tu_tensor t[2] = {{"a", 1, {8}, GS_TYPE_F32, c->off_a},
                                {"b", 1, {8}, GS_TYPE_F32, c->off_b}};
        gsw_bytes b;
        size_t at[2];
        tu_tensor_file(&b, t, 2, c->data_bytes, at);
        TU_EXPECT(&b, STRICT, c->strict,
                  c->strict == GS_OK ? 0 : gsw_raw_offset_field(at[c->strict_at], 1, 1));
        TU_EXPECT(&b, LENIENT, c->lenient,
                  c->lenient == GS_OK ? 0 : gsw_raw_offset_field(at[c->lenient_at], 1, 1));
        gsw_bytes_free(&b);
    }
}

Test(layout, packed_offsets_in_strict)
{
    static const two_tensors cases[] = {
        {0, 32, 64, GS_OK, 0, GS_OK, 0},
        {0, 48, 96, GS_E_MISALIGNED_OFFSET, 1, GS_OK, 0},              /* misaligned */
        {0, 64, 96, GS_E_OFFSET_NOT_PACKED, 1, GS_OK, 0},              /* a gap */
        {32, 0, 64, GS_E_OFFSET_NOT_PACKED, 0, GS_OK, 0},              /* reordered */
        {0, 0, 64, GS_E_OFFSET_NOT_PACKED, 1, GS_E_TENSOR_OVERLAP, 1}, /* aliasing */
    };
    expect_two_tensors(cases, sizeof cases / sizeof cases[0]);
}

Test(layout, lenient_overlap_detection)
{
    /* three records each; the status lenient gives and, for an overlap, the record reported */
    static const struct {
        tu_tensor t[3];
        size_t data_bytes;
        gs_status want;
        size_t reported;
    } cases[] = {
        /* partial overlap, listed out of order: the later record is the one reported */
        {{{"a", 1, {8}, GS_TYPE_F32, 64}, {"b", 1, {8}, GS_TYPE_F32, 0},
          {"c", 1, {8}, GS_TYPE_F32, 16}},
         96, GS_E_TENSOR_OVERLAP, 2},
        /* empty tensors may share an offset with anything */
        {{{"a", 1, {8}, GS_TYPE_F32, 0}, {"e", 2, {8, 0}, GS_TYPE_F32, 0},
          {"f", 2, {8, 0}, GS_TYPE_F32, 0}},
         32, GS_OK, 0},
        /* a tensor inside a long one, listed after a tensor that follows the long one */
        {{{"long", 1, {32}, GS_TYPE_F32, 0}, {"after", 1, {8}, GS_TYPE_F32, 128},
          {"in", 1, {8}, GS_TYPE_F32, 96}},
         160, GS_E_TENSOR_OVERLAP, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gsw_bytes b;
        size_t at[3];
        tu_tensor_file(&b, cases[i].t, 3, cases[i].data_bytes, at);
        const tu_tensor *r = &cases[i].t[cases[i].reported];
        TU_EXPECT(&b, LENIENT, cases[i].want,
                  cases[i].want == GS_OK
                      ? 0
                      : gsw_raw_offset_field(at[cases[i].reported], strlen(r->name), r->n_dims));
        gsw_bytes_free(&b);
    }
}

/* Two I8 tensors: "a" of 33 bytes at 0, "b" of 31 bytes at off_b; returns b's info offset. */
static size_t i8_pair(gsw_bytes *b, uint64_t off_b)
{
    tu_raw_start(b, 2, 0);
    gsw_raw_tensor(b, "a", 1, (const uint64_t[]){33}, GS_TYPE_I8, 0);
    size_t second = gsw_raw_tensor(b, "b", 1, (const uint64_t[]){31}, GS_TYPE_I8, off_b);
    gsw_pad_to(b, 32);
    gsw_put_fill(b, 0, 64);
    return second;
}

Test(layout, overlap_of_one_byte)
{
    gsw_bytes b;
    /* "b" starts on a's last byte: they share byte 32 */
    size_t second = i8_pair(&b, 32);
    TU_EXPECT(&b, LENIENT, GS_E_TENSOR_OVERLAP, gsw_raw_offset_field(second, 1, 1));
    gsw_bytes_free(&b);
    /* "b" starts right after a's last byte: touching is not sharing (misaligned: lenient only) */
    second = i8_pair(&b, 33);
    TU_EXPECT(&b, LENIENT, GS_OK, 0);
    TU_EXPECT(&b, STRICT, GS_E_MISALIGNED_OFFSET, gsw_raw_offset_field(second, 1, 1));
    gsw_bytes_free(&b);
}

Test(layout, data_must_lie_inside_the_file)
{
    static const two_tensors cases[] = {
        /* one byte short */
        {0, 32, 63, GS_E_DATA_OUTSIDE_FILE, 1, GS_E_DATA_OUTSIDE_FILE, 1},
        /* Bleeding Llama: an offset far past the end of the file */
        {0, 1ull << 40, 64, GS_E_OFFSET_NOT_PACKED, 1, GS_E_DATA_OUTSIDE_FILE, 1},
        /* an offset whose sum with the data start wraps */
        {0, UINT64_MAX - 31, 64, GS_E_OFFSET_NOT_PACKED, 1, GS_E_DATA_OUTSIDE_FILE, 1},
    };
    expect_two_tensors(cases, sizeof cases / sizeof cases[0]);
}

Test(layout, padding_before_data_must_exist)
{
    uint64_t ne[2] = {8, 0}; /* an empty tensor still needs the data section to start */
    gsw_bytes b;
    tu_raw_start(&b, 1, 0);
    gsw_raw_tensor(&b, "e", 2, ne, GS_TYPE_F32, 0);
    size_t info_end = b.len;
    cr_assert_neq(info_end % 32, 0);
    TU_EXPECT(&b, STRICT, GS_E_TRUNCATED, info_end);
    gsw_pad_to(&b, 32);
    TU_EXPECT(&b, STRICT, GS_OK, 0);
    gsw_bytes_free(&b);
}

Test(layout, trailing_bytes_and_padding_are_recorded)
{
    gsw_bytes b;
    gsw_bytes_init(&b);
    tu_small_file(&b, 64); /* tensor b: 32 bytes of data, then 32 of padding */
    size_t canonical = b.len;
    gsw_put_fill(&b, 0xAB, 1000);
    /* a non-zero byte in the padding before the data section */
    gs_file *f;
    cr_assert_eq(gs_open_memory(b.data, b.len, NULL, &f, NULL), GS_OK);
    gs_layout l;
    gs_file_layout(f, &l);
    cr_assert_eq(l.predicted_size, canonical);
    cr_assert_eq(l.trailing_bytes, 1000);
    cr_assert_eq(l.header_padding_nonzero, 0);
    uint64_t pad_at = l.tensor_info_end;
    cr_assert_lt(pad_at, l.data_offset);
    gs_close(f);
    b.data[pad_at] = 7;
    b.data[l.data_offset - 1] = 9;
    cr_assert_eq(gs_open_memory(b.data, b.len, NULL, &f, NULL), GS_OK);
    gs_file_layout(f, &l);
    cr_assert_eq(l.header_padding_nonzero, 2);
    cr_assert_eq(l.first_nonzero_padding, pad_at);
    gs_close(f);
    /* the last tensor's padding may be missing */
    b.len = canonical - 1;
    b.data[pad_at] = 0;
    b.data[l.data_offset - 1] = 0;
    gs_options o;
    gs_options_init(&o);
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, NULL), GS_OK);
    gs_file_layout(f, &l);
    cr_assert_eq(l.trailing_bytes, 0);
    cr_assert_eq(l.missing_tail_padding, 1);
    cr_assert_eq(l.data_end, canonical - 32, "data ends where b's bytes end");
    gs_close(f);
    gsw_bytes_free(&b);
}

Test(layout, alignment_is_relative_to_the_gguf_start)
{
    /* The same GGUF embedded at an odd offset in a larger buffer (llama.cpp #28993) reads the
     * same tensor data. */
    gsw_bytes b = tu_small(64);
    uint8_t *outer = malloc(b.len + 7);
    memset(outer, 0xEE, 7);
    memcpy(outer + 7, b.data, b.len);
    gs_file *f;
    cr_assert_eq(gs_open_memory(outer + 7, b.len, NULL, &f, NULL), GS_OK);
    gs_tensor_info t;
    gs_tensor_info_at(f, 1, &t);
    float v;
    memcpy(&v, t.data, 4);
    cr_assert_eq(v, 8.0f);
    cr_assert_eq((const uint8_t *)t.data - (outer + 7), (ptrdiff_t)t.data_offset);
    gs_close(f);
    free(outer);
    gsw_bytes_free(&b);
}
