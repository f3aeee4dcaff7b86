/* gs_dequantize and gsi_decode_blocks: every status, exactly, and nothing written on failure. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "decode.h"
#include "type_registry.h"

#define SENTINEL 0x5a5a5a5au

static uint8_t src[8 * 292];
static float dst[8 * 256];

static void fill_dst(void)
{
    for (size_t i = 0; i < sizeof dst / sizeof dst[0]; i++) {
        const uint32_t s = SENTINEL;
        memcpy(&dst[i], &s, sizeof s);
    }
}

static void assert_dst_untouched(void)
{
    for (size_t i = 0; i < sizeof dst / sizeof dst[0]; i++) {
        uint32_t bits;
        memcpy(&bits, &dst[i], sizeof bits);
        cr_assert_eq(bits, SENTINEL, "dst[%zu] was written by a failing call", i);
    }
}

static gs_status deq(int32_t type, const void *s, size_t s_bytes, float *d, size_t n)
{
    fill_dst();
    return gs_dequantize((gs_type)type, s, s_bytes, d, n);
}

/* Each id refused with want by gs_dequantize, with and without buffers, and by
 * gsi_decode_blocks; nothing written. */
static void expect_refused_ids(const int32_t *ids, size_t n_ids, gs_status want)
{
    for (size_t i = 0; i < n_ids; i++) {
        cr_expect_eq(deq(ids[i], src, 18, dst, 32), want, "id %d", ids[i]);
        cr_expect_eq(deq(ids[i], NULL, 0, NULL, 0), want, "id %d", ids[i]);
        cr_expect_eq(gsi_decode_blocks(ids[i], src, dst, 1), want);
    }
    assert_dst_untouched();
}

Test(dequantize_args, unknown_ids)
{
    const int32_t ids[] = {-1, INT32_MIN, 43, 44, 99, 1000, INT32_MAX};
    expect_refused_ids(ids, sizeof ids / sizeof ids[0], GS_E_UNKNOWN_TENSOR_TYPE);
}

Test(dequantize_args, removed_ids)
{
    const int32_t ids[] = {4, 5, 31, 32, 33, 36, 37, 38};
    expect_refused_ids(ids, sizeof ids / sizeof ids[0], GS_E_REMOVED_TENSOR_TYPE);
}

Test(dequantize_args, integer_and_f64_not_decodable)
{
    const int32_t ids[] = {GS_TYPE_I8, GS_TYPE_I16, GS_TYPE_I32, GS_TYPE_I64, GS_TYPE_F64};
    const size_t sizes[] = {1, 2, 4, 8, 8};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        cr_expect_eq(deq(ids[i], src, 4 * sizes[i], dst, 4), GS_E_NOT_DECODABLE, "id %d", ids[i]);
        cr_expect_eq(gsi_decode_blocks(ids[i], src, dst, 4), GS_E_NOT_DECODABLE);
    }
    assert_dst_untouched();
}

Test(dequantize_args, null_pointers)
{
    cr_expect_eq(deq(GS_TYPE_Q4_0, NULL, 18, dst, 32), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(deq(GS_TYPE_Q4_0, src, 18, NULL, 32), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(deq(GS_TYPE_Q4_0, NULL, 18, NULL, 32), GS_E_INVALID_ARGUMENT);
    /* A NULL buffer with a size of zero on its side is not an argument error: the sizes decide. */
    cr_expect_eq(deq(GS_TYPE_Q4_0, NULL, 0, dst, 32), GS_E_SIZE_MISMATCH);
    cr_expect_eq(deq(GS_TYPE_Q4_0, src, 18, NULL, 0), GS_E_SIZE_MISMATCH);
    cr_expect_eq(gsi_decode_blocks(GS_TYPE_Q4_0, NULL, dst, 1), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(gsi_decode_blocks(GS_TYPE_Q4_0, src, NULL, 1), GS_E_INVALID_ARGUMENT);
    assert_dst_untouched();
}

Test(dequantize_args, empty_is_ok)
{
    cr_expect_eq(deq(GS_TYPE_Q4_0, NULL, 0, NULL, 0), GS_OK);
    cr_expect_eq(deq(GS_TYPE_Q4_K, src, 0, dst, 0), GS_OK);
    cr_expect_eq(gsi_decode_blocks(GS_TYPE_Q4_0, NULL, NULL, 0), GS_OK);
    assert_dst_untouched();
}

/* gs_dequantize(type, src, src_bytes, dst, n_elems) calls that must be size mismatches. */
typedef struct sized_call {
    int32_t type;
    size_t src_bytes, n_elems;
} sized_call;

static void expect_size_mismatches(const sized_call *calls, size_t n_calls)
{
    for (size_t i = 0; i < n_calls; i++) {
        const sized_call *c = &calls[i];
        cr_expect_eq(deq(c->type, src, c->src_bytes, dst, c->n_elems), GS_E_SIZE_MISMATCH,
                     "%s: %zu bytes for %zu elements", gs_type_name(c->type), c->src_bytes,
                     c->n_elems);
    }
    assert_dst_untouched();
}

Test(dequantize_args, partial_blocks)
{
    const sized_call calls[] = {{GS_TYPE_Q4_0, 18, 31}, {GS_TYPE_Q4_0, 18, 33},
                                {GS_TYPE_Q4_0, 36, 48}, {GS_TYPE_Q4_K, 144, 255},
                                {GS_TYPE_NVFP4, 36, 32}};
    expect_size_mismatches(calls, sizeof calls / sizeof calls[0]);
}

Test(dequantize_args, byte_count_must_be_exact)
{
    const sized_call calls[] = {{GS_TYPE_Q4_0, 17, 32}, {GS_TYPE_Q4_0, 19, 32},
                                {GS_TYPE_Q4_0, 36, 32}, {GS_TYPE_Q4_0, 18, 0},
                                {GS_TYPE_F16, 7, 4},    {GS_TYPE_MXFP4, 34, 32}};
    expect_size_mismatches(calls, sizeof calls / sizeof calls[0]);
}

/* n_blocks * block_bytes wraps size_t (possible where a block has more bytes than elements):
 * a size mismatch, never a wrapped product that happens to equal src_bytes. */
Test(dequantize_args, byte_count_overflow)
{
    const size_t n_elems = SIZE_MAX - SIZE_MAX % 256; /* whole Q8_K blocks */
    const size_t wrapped = n_elems / 256 * 292;       /* what an unchecked multiply computes */
    /* ... and 2^62 (or 2^30) f32 elements need 2^64 (2^32) bytes, which wraps to 0. */
    const sized_call calls[] = {{GS_TYPE_Q8_K, wrapped, n_elems},
                                {GS_TYPE_F32, 0, SIZE_MAX / 4 + 1},
                                {GS_TYPE_F16, 0, SIZE_MAX / 2 + 1}};
    expect_size_mismatches(calls, sizeof calls / sizeof calls[0]);
}

/* Every decodable type decodes two whole blocks with GS_OK and writes exactly 2 blocks of
 * output, the same as its scalar decoder. */
Test(dequantize_args, ok_for_every_decodable_type)
{
    for (size_t i = 0; i < sizeof src; i++) {
        src[i] = (uint8_t)(i * 37u + 11u);
    }
    size_t n_ok = 0;
    for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
        const gsi_type_row *row = gsi_type_lookup(t);
        if (!row->decodable) {
            continue;
        }
        const size_t n = 2 * row->block_elems;
        cr_assert_eq(deq(t, src, 2 * row->block_bytes, dst, n), GS_OK, "%s", row->name);
        float ref[2 * 256];
        gsi_decoder_scalar(t)(src, ref, 2);
        cr_expect_eq(memcmp(dst, ref, n * sizeof(float)), 0, "%s", row->name);
        uint32_t bits;
        memcpy(&bits, &dst[n], sizeof bits);
        cr_expect_eq(bits, SENTINEL, "%s wrote past its output", row->name);
        n_ok++;
    }
    cr_expect_eq(n_ok, 30); /* 27 ggml to_float types + F32, Q8_1, Q8_K */
}
