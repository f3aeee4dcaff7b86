/* Tensor infos: names, dims, types, shape and size arithmetic. */
#include <criterion/criterion.h>
#include <string.h>

#include "test_util.h"

#define STRICT GS_PROFILE_STRICT
#define LENIENT GS_PROFILE_LENIENT

/* A file with one KV-less header and one tensor info; returns the info's offset. Enough zero
 * bytes follow for any small tensor's data. */
static size_t one_tensor_n(gsw_bytes *b, const void *name, size_t name_len, uint32_t n_dims,
                           const uint64_t *ne, int32_t type)
{
    tu_raw_start(b, 1, 0);
    size_t at = gsw_raw_tensor_n(b, name, name_len, n_dims, ne, type, 0);
    gsw_pad_to(b, 32);
    gsw_put_fill(b, 0, 4096);
    return at;
}

static size_t one_tensor(gsw_bytes *b, const char *name, uint32_t n_dims, const uint64_t *ne,
                         int32_t type)
{
    return one_tensor_n(b, name, strlen(name), n_dims, ne, type);
}

Test(tensors, names)
{
    uint64_t ne[1] = {4};
    gsw_bytes b;
    size_t at = one_tensor_n(&b, "", 0, 1, ne, GS_TYPE_F32);
    TU_EXPECT(&b, STRICT, GS_E_TENSOR_NAME_EMPTY, at);
    TU_EXPECT(&b, LENIENT, GS_E_TENSOR_NAME_EMPTY, at);
    gsw_bytes_free(&b);

    at = one_tensor_n(&b, "w\0hidden", 8, 1, ne, GS_TYPE_F32);
    TU_EXPECT(&b, STRICT, GS_E_TENSOR_NAME_HAS_NUL, at);
    TU_EXPECT(&b, LENIENT, GS_E_TENSOR_NAME_HAS_NUL, at);
    gsw_bytes_free(&b);

    char name[65];
    memset(name, 'n', sizeof name);
    at = one_tensor_n(&b, name, 64, 1, ne, GS_TYPE_F32);
    TU_EXPECT(&b, STRICT, GS_E_TENSOR_NAME_TOO_LONG, at);
    TU_EXPECT(&b, LENIENT, GS_OK, 0);
    gsw_bytes_free(&b);
    at = one_tensor_n(&b, name, 63, 1, ne, GS_TYPE_F32);
    TU_EXPECT(&b, STRICT, GS_OK, 0);
    gsw_bytes_free(&b);

    at = one_tensor_n(&b, "w\xff", 2, 1, ne, GS_TYPE_F32);
    TU_EXPECT(&b, STRICT, GS_E_INVALID_UTF8, at);
    TU_EXPECT(&b, LENIENT, GS_OK, 0);
    gsw_bytes_free(&b);
}

Test(tensors, duplicate_names)
{
    static const tu_tensor t[] = {
        {"w", 1, {8}, GS_TYPE_F32, 0},
        {"w2", 1, {8}, GS_TYPE_F32, 32},
        {"w", 1, {8}, GS_TYPE_F32, 64},
    };
    uint64_t ne[1] = {8};
    gsw_bytes b;
    size_t rec[3];
    tu_tensor_file(&b, t, 3, 96, rec);
    size_t at = rec[2];
    TU_EXPECT(&b, STRICT, GS_E_DUPLICATE_TENSOR_NAME, at);
    TU_EXPECT(&b, LENIENT, GS_E_DUPLICATE_TENSOR_NAME, at);
    gsw_bytes_free(&b);

    /* "w\0a" and "w\0b" collide in ggml (names cut at the NUL); here NUL is refused outright */
    tu_raw_start(&b, 2, 0);
    at = gsw_raw_tensor_n(&b, "w\0a", 3, 1, ne, GS_TYPE_F32, 0);
    gsw_raw_tensor_n(&b, "w\0b", 3, 1, ne, GS_TYPE_F32, 32);
    gsw_pad_to(&b, 32);
    gsw_put_fill(&b, 0, 64);
    TU_EXPECT(&b, LENIENT, GS_E_TENSOR_NAME_HAS_NUL, at);
    gsw_bytes_free(&b);
}

Test(tensors, dims)
{
    uint64_t ne[4] = {4, 1, 1, 1};
    uint32_t bad_n[] = {5, 9, 0xFFFFFFFFu};
    for (size_t i = 0; i < 3; i++) {
        gsw_bytes b;
        tu_raw_start(&b, 1, 0);
        size_t at = b.len;
        gsw_put_cstr(&b, "t");
        gsw_put_u32(&b, bad_n[i]);
        gsw_put_fill(&b, 0, 128);
        TU_EXPECT(&b, STRICT, GS_E_TOO_MANY_DIMS, at + 9);
        TU_EXPECT(&b, LENIENT, GS_E_TOO_MANY_DIMS, at + 9);
        gsw_bytes_free(&b);
    }
    /* negative (>= 2^63) in any position */
    for (int j = 0; j < 4; j++) {
        uint64_t neg[4] = {4, 1, 1, 1};
        neg[j] = (uint64_t)-1;
        gsw_bytes b;
        size_t at = one_tensor(&b, "t", 4, neg, GS_TYPE_F32);
        TU_EXPECT(&b, STRICT, GS_E_NEGATIVE_DIM, at + 8 + 1 + 4 + 8 * (size_t)j);
        gsw_bytes_free(&b);
    }
    /* 0 dims is a scalar; 4 dims is fine; zero-length dims are accepted (ggml keeps them) */
    gsw_bytes b;
    one_tensor(&b, "s", 0, ne, GS_TYPE_F32);
    TU_EXPECT(&b, STRICT, GS_OK, 0);
    gsw_bytes_free(&b);
    uint64_t four[4] = {2, 3, 4, 5};
    one_tensor(&b, "4d", 4, four, GS_TYPE_F32);
    TU_EXPECT(&b, STRICT, GS_OK, 0);
    gsw_bytes_free(&b);
    uint64_t zero[2] = {4096, 0};
    one_tensor(&b, "z", 2, zero, GS_TYPE_F32);
    gs_file *f;
    cr_assert_eq(gs_open_memory(b.data, b.len, NULL, &f, NULL), GS_OK);
    gs_tensor_info t;
    cr_assert_eq(gs_tensor_info_at(f, 0, &t), GS_OK);
    cr_assert_eq(t.size, 0);
    cr_assert_eq(t.n_elements, 0);
    cr_assert_null(t.data);
    gs_close(f);
    gsw_bytes_free(&b);
}

Test(tensors, types)
{
    uint64_t ne[1] = {256};
    int32_t unknown[] = {43, 44, 153, -1, INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        gsw_bytes b;
        size_t at = one_tensor(&b, "t", 1, ne, unknown[i]);
        TU_EXPECT(&b, STRICT, GS_E_UNKNOWN_TENSOR_TYPE, at + 8 + 1 + 4 + 8);
        TU_EXPECT(&b, LENIENT, GS_E_UNKNOWN_TENSOR_TYPE, at + 8 + 1 + 4 + 8);
        gsw_bytes_free(&b);
    }
    int32_t removed[] = {4, 5, 31, 32, 33, 36, 37, 38};
    for (size_t i = 0; i < sizeof removed / sizeof removed[0]; i++) {
        gsw_bytes b;
        size_t at = one_tensor(&b, "t", 1, ne, removed[i]);
        TU_EXPECT(&b, STRICT, GS_E_REMOVED_TENSOR_TYPE, at + 8 + 1 + 4 + 8);
        gs_error e;
        tu_open(&b, LENIENT, &e);
        cr_assert(strstr(e.detail, gs_type_name(removed[i])) != NULL, "%s", e.detail);
        gsw_bytes_free(&b);
    }
    /* every live type opens with a whole number of blocks, one block per row */
    for (int32_t id = 0; id < GS_TYPE_COUNT; id++) {
        gs_type_info ti;
        if (gs_type_get_info(id, &ti) != GS_OK) {
            continue;
        }
        uint64_t one_block[1] = {ti.block_elems};
        gsw_bytes b;
        one_tensor(&b, "t", 1, one_block, id);
        gs_file *f;
        gs_error e;
        cr_assert_eq(gs_open_memory(b.data, b.len, NULL, &f, &e), GS_OK, "%s: %s", ti.name,
                     gs_status_name(e.status));
        gs_tensor_info t;
        gs_tensor_info_at(f, 0, &t);
        cr_assert_eq(t.size, ti.block_bytes, "%s", ti.name);
        cr_assert_eq((int32_t)t.type, id);
        gs_close(f);
        gsw_bytes_free(&b);
    }
}

Test(tensors, row_must_hold_whole_blocks)
{
    /* a K-quant row of 32 elements: a multiple of 32 but not of 256 (openvino.genai #4002) */
    uint64_t ne[2] = {32, 8};
    gsw_bytes b;
    size_t at = one_tensor(&b, "t", 2, ne, GS_TYPE_Q4_K);
    TU_EXPECT(&b, STRICT, GS_E_ROW_NOT_BLOCK_MULTIPLE, at + 8 + 1 + 4);
    TU_EXPECT(&b, LENIENT, GS_E_ROW_NOT_BLOCK_MULTIPLE, at + 8 + 1 + 4);
    gsw_bytes_free(&b);
    /* a scalar of a 32-element block type */
    at = one_tensor(&b, "t", 0, ne, GS_TYPE_Q4_0);
    TU_EXPECT(&b, STRICT, GS_E_ROW_NOT_BLOCK_MULTIPLE, at + 8 + 1);
    gsw_bytes_free(&b);
}

static void expect_overflow(const uint64_t *ne, uint32_t n_dims, int32_t type)
{
    gsw_bytes b;
    size_t at = one_tensor(&b, "t", n_dims, ne, type);
    TU_EXPECT(&b, STRICT, GS_E_SIZE_OVERFLOW, at + 8 + 1 + 4);
    TU_EXPECT(&b, LENIENT, GS_E_SIZE_OVERFLOW, at + 8 + 1 + 4);
    gsw_bytes_free(&b);
}

Test(tensors, size_arithmetic_never_wraps)
{
    /* ggml #27203: nelements wraps to exactly 0 */
    expect_overflow((const uint64_t[]){1ull << 32, 1ull << 32}, 2, GS_TYPE_F32);
    /* ggml #27203: INT64_MAX x 2 int8 */
    expect_overflow((const uint64_t[]){(uint64_t)INT64_MAX, 2}, 2, GS_TYPE_I8);
    /* ggml #26978: nbytes = 2^64 - 16, the pad then wraps to 0 */
    expect_overflow((const uint64_t[]){4, (1ull << 30) - 1, (1ull << 30) + 1}, 3, GS_TYPE_F32);
    /* CVE-2026-33298 class: element count fits int64, byte size does not */
    expect_overflow((const uint64_t[]){1ull << 62}, 1, GS_TYPE_F32);
    expect_overflow((const uint64_t[]){32, 1ull << 61}, 2, GS_TYPE_Q8_0);
    /* strides overflow even though a later dim is 0 and the tensor is empty */
    expect_overflow((const uint64_t[]){1ull << 62, 0}, 2, GS_TYPE_F32);
    /* the row's bound on its own: 2^61 F32 is a row of exactly 2^63 bytes, which does not wrap
     * uint64 but is past int64; the tensor is empty (ne[1] = 0), so no later check sees it */
    expect_overflow((const uint64_t[]){1ull << 61, 0}, 2, GS_TYPE_F32);
    /* the stride's bound on its own: nb[2] = 4 x 2^61 = 2^63 bytes, empty because ne[2] = 0 */
    expect_overflow((const uint64_t[]){1, 1ull << 61, 0}, 3, GS_TYPE_F32);
    /* the element-count limit on its own: 6 x 2^61 = 1.5 x 2^63 elements, more than int64
     * holds, while the bytes (2^56 blocks of 18 bytes, 6 times: about 0.84 x 2^63) and every
     * product on the way fit; only the element count's bound catches it, at the shape */
    expect_overflow((const uint64_t[]){1ull << 61, 6}, 2, GS_TYPE_Q4_0);
    /* every dim at the top of int64 */
    uint64_t max4[4] = {(uint64_t)INT64_MAX, (uint64_t)INT64_MAX, (uint64_t)INT64_MAX,
                        (uint64_t)INT64_MAX};
    expect_overflow(max4, 4, GS_TYPE_I8);
    /* the largest representable tensor is accepted by the arithmetic and then fails on the file */
    gsw_bytes b;
    size_t at = one_tensor(&b, "t", 1, (const uint64_t[]){1ull << 60}, GS_TYPE_I8);
    TU_EXPECT(&b, STRICT, GS_E_DATA_OUTSIDE_FILE, gsw_raw_offset_field(at, 1, 1));
    gsw_bytes_free(&b);
}

Test(tensors, getters)
{
    gsw_bytes b = tu_small(64);
    gs_file *f;
    cr_assert_eq(gs_open_memory(b.data, b.len, NULL, &f, NULL), GS_OK);
    cr_assert_eq(gs_tensor_count(f), 2);
    size_t idx;
    cr_assert_eq(gs_tensor_find(f, "b", &idx), GS_OK);
    cr_assert_eq(idx, 1);
    cr_assert_eq(gs_tensor_find(f, "c", &idx), GS_E_NOT_FOUND);
    cr_assert_eq(gs_tensor_find_n(f, "bb", 1, &idx), GS_OK);
    cr_assert_eq(idx, 1);
    gs_tensor_info t;
    cr_assert_eq(gs_tensor_info_at(f, 1, &t), GS_OK);
    cr_assert_eq(t.name.len, 1);
    cr_assert_eq(t.n_dims, 2);
    cr_assert_eq(t.ne[0], 4);
    cr_assert_eq(t.ne[1], 2);
    cr_assert_eq(t.ne[2], 1);
    cr_assert_eq(t.nb[0], 4);
    cr_assert_eq(t.nb[1], 16);
    cr_assert_eq(t.nb[2], 32);
    cr_assert_eq(t.nb[3], 32);
    cr_assert_eq(t.n_elements, 8);
    cr_assert_eq(t.offset, 64);
    cr_assert_eq(t.size, 32);
    gs_layout l;
    gs_file_layout(f, &l);
    cr_assert_eq(t.data_offset, l.data_offset + 64);
    float v;
    memcpy(&v, (const uint8_t *)t.data + 4, 4);
    cr_assert_eq(v, 9.0f);
    cr_assert_eq(gs_tensor_info_at(f, 2, &t), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_tensor_info_at(NULL, 0, &t), GS_E_INVALID_ARGUMENT);
    gs_close(f);
    gsw_bytes_free(&b);
}
