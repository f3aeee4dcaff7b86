/* Dimensions: n_dims 0..4 and past 4, negative and zero dimensions, partial blocks, and every
 * shape whose element count, byte size, stride or padded size does not fit. */
#include <stdio.h>

#include "gsc_cases.h"
#include "type_registry.h"

/* Architecture key and one tensor "t" (record 0) of the given shape; its data is filled when
 * the registry gives it a size, else left empty (written lax). */
static void with_shape(gsc_case *c, uint32_t n_dims, const uint64_t *ne, int32_t type)
{
    gsc_begin(c, 3);
    gsc_add_arch(&c->m);
    gsw_tensor *t = gsw_add_tensor(&c->m, "t", n_dims, ne, type);
    gsw_tensor_fill(t, 7, 1u << 20);
    gsc_write(c, GSW_LAX);
}

static void dim_counts(gsc_sink *s)
{
    gsc_case c;
    const uint64_t ne[GSW_MAX_DIMS] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
    with_shape(&c, 0, ne, GS_TYPE_F32);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "dims/n_dims_0.gguf", "n_dims 0: a one-element scalar");
    with_shape(&c, 0, ne, GS_TYPE_I64);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "dims/n_dims_0_i64.gguf", "n_dims 0 of type i64");
    with_shape(&c, 4, ne, GS_TYPE_F32);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "dims/n_dims_4.gguf", "n_dims 4: 2 x 3 x 4 x 5");
    const uint64_t ones[4] = {4, 1, 1, 1};
    with_shape(&c, 4, ones, GS_TYPE_F32);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "dims/n_dims_4_trailing_ones.gguf", "n_dims 4 with trailing 1s, kept as stored");

    static const struct { uint32_t n; uint32_t written; const char *desc; } many[] = {
        {5, 5, "n_dims 5 followed by 5 dimensions (CVE-2024-21802)"},
        {8, 8, "n_dims 8 followed by 8 dimensions"},
        {9, 9, "n_dims 9 followed by 9 dimensions (gguf-tools ndim > 8)"},
        {16, 16, "n_dims 16 followed by 16 dimensions"},
        {1u << 31, 4, "n_dims 2^31"},
        {0xFFFFFFFFu, 4, "n_dims 2^32-1 (a 2^32-iteration loop in other readers)"},
    };
    for (size_t i = 0; i < sizeof many / sizeof many[0]; i++) {
        with_shape(&c, many[i].written, ne, GS_TYPE_F32);
        gsw_override(&c.b, &c.map, GSW_N_DIMS, 0, 0, many[i].n);
        char file[64];
        snprintf(file, sizeof file, "dims/n_dims_%u.gguf", many[i].n);
        gsc_both(s, &c, file, GS_E_TOO_MANY_DIMS, gsc_at(&c, GSW_N_DIMS, 0, 0), many[i].desc);
    }
}

static void negative_and_zero(gsc_sink *s)
{
    /* f32, one dimension negative as int64: the last */
    static const gsc_shape neg[] = {
        {"dims/negative_ne0.gguf", 1, {UINT64_MAX}, GS_TYPE_F32, "ne[0] = -1"},
        {"dims/negative_ne1.gguf", 2, {4, UINT64_MAX}, GS_TYPE_F32,
         "ne[1] = -1 (test-gguf BAD_SHAPE)"},
        {"dims/negative_ne3_min.gguf", 4, {4, 1, 1, 1ull << 63}, GS_TYPE_F32, "ne[3] = INT64_MIN"},
    };
    for (size_t i = 0; i < sizeof neg / sizeof neg[0]; i++) {
        gsc_case c;
        with_shape(&c, neg[i].n, neg[i].ne, neg[i].type);
        gsc_both(s, &c, neg[i].file, GS_E_NEGATIVE_DIM, gsc_at(&c, GSW_DIM, 0, neg[i].n - 1),
                 neg[i].desc);
    }
    static const gsc_shape zero[] = {
        {"dims/zero_1d.gguf", 1, {0}, GS_TYPE_F32, "shape (0): no elements, no data"},
        {"dims/zero_ne1.gguf", 2, {8, 0}, GS_TYPE_F32, "shape (8, 0) (test-gguf ZERO_DIM)"},
        {"dims/zero_all.gguf", 4, {0, 0, 0, 0}, GS_TYPE_F32, "shape (0, 0, 0, 0)"},
        {"dims/zero_q4_k.gguf", 2, {0, 4}, GS_TYPE_Q4_K, "q4_K of shape (0, 4)"},
        {"dims/zero_with_huge.gguf", 2, {0, 1ull << 62}, GS_TYPE_F32,
         "shape (0, 2^62): no elements, every stride fits"},
    };
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++) {
        gsc_case c;
        with_shape(&c, zero[i].n, zero[i].ne, zero[i].type);
        /* no general.quantization_version: a quantized tensor, even empty, needs it */
        gsc_certify(&c, gsi_type_lookup(zero[i].type)->quantized ? GSC_NOT_CERTIFIED
                                                                 : GSC_CERTIFIED);
        gsc_ok(s, &c, zero[i].file, zero[i].desc);
    }
    /* No elements, but the row stride (nb[1] = 2^62 * 4) wraps: consumers compute it. */
    gsc_case c;
    const uint64_t wide[2] = {1ull << 62, 0};
    with_shape(&c, 2, wide, GS_TYPE_F32);
    gsc_both(s, &c, "dims/zero_rows_wide_stride.gguf", GS_E_SIZE_OVERFLOW,
             gsc_at(&c, GSW_DIM, 0, 0),
             "shape (2^62, 0) f32: no elements, but the row stride 2^64 wraps (ggml accepts)");
}

static void partial_blocks(gsc_sink *s)
{
    static const struct { const char *file; uint64_t ne0; int32_t type; const char *desc; } p[] = {
        {"dims/q4_0_ne0_100.gguf", 100, GS_TYPE_Q4_0, "q4_0 row of 100: not whole 32-blocks"},
        {"dims/q4_k_ne0_32.gguf", 32, GS_TYPE_Q4_K,
         "q4_K row of 32: a multiple of 32, not of the 256-element superblock (openvino)"},
        {"dims/iq4_nl_ne0_16.gguf", 16, GS_TYPE_IQ4_NL, "iq4_nl row of 16"},
        {"dims/q1_0_ne0_64.gguf", 64, GS_TYPE_Q1_0, "q1_0 row of 64: blocks are 128"},
    };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        gsc_case c;
        const uint64_t ne[2] = {p[i].ne0, 2};
        with_shape(&c, 2, ne, p[i].type);
        gsc_both(s, &c, p[i].file, GS_E_ROW_NOT_BLOCK_MULTIPLE, gsc_at(&c, GSW_DIM, 0, 0),
                 p[i].desc);
    }
    gsc_case c;
    with_shape(&c, 0, NULL, GS_TYPE_Q4_0);
    gsc_both(s, &c, "dims/q4_0_scalar.gguf", GS_E_ROW_NOT_BLOCK_MULTIPLE,
             gsc_at(&c, GSW_N_DIMS, 0, 0), "q4_0 with n_dims 0: one element, not a block");
}

static void sizes(gsc_sink *s)
{
    static const gsc_shape big[] = {
        {"dims/nelements_wraps_to_0.gguf", 2, {1ull << 32, 1ull << 32}, GS_TYPE_F32,
         "(2^32, 2^32) f32: the element count wraps to 0 (ggml hole #27203, accepted upstream)"},
        {"dims/nelements_negative.gguf", 2, {INT64_MAX, 2}, GS_TYPE_I8,
         "(INT64_MAX, 2) i8: the element count is negative as int64 (ggml hole #27203)"},
        {"dims/pad_wraps.gguf", 3, {4, (1ull << 30) - 1, (1ull << 30) + 1}, GS_TYPE_F32,
         "(4, 2^30-1, 2^30+1) f32: 2^64-16 bytes, the padded size wraps to 0 (ggml hole #26978)"},
        {"dims/padded_past_int64.gguf", 1, {INT64_MAX}, GS_TYPE_I8,
         "(INT64_MAX) i8: the bytes fit int64, padded to 32 they do not"},
        {"dims/ne_4x_int32_max.gguf", 4,
         {4ull * INT32_MAX, 4ull * INT32_MAX, 4ull * INT32_MAX, 4ull * INT32_MAX}, GS_TYPE_F32,
         "4 x (4 * INT32_MAX) (test-gguf NE_TOO_BIG)"},
        {"dims/nbytes_too_big_i64.gguf", 2, {1ull << 31, 1ull << 31}, GS_TYPE_I64,
         "(2^31, 2^31) i64: 2^62 elements, 2^65 bytes (test-gguf NBYTES_TOO_BIG)"},
        {"dims/q8_0_bytes_past_int64.gguf", 2, {(1ull << 21) - 32, (1ull << 42) + 1},
         GS_TYPE_Q8_0,
         "q8_0 (2^21-32, 2^42+1): elements fit int64, bytes do not (CVE-2026-33298)"},
    };
    /* with_shape's fill gives these no data: their sizes do not compute or exceed 1 MiB */
    gsc_size_overflows(s, big, sizeof big / sizeof big[0], true);
}

void gsc_cases_dims(gsc_sink *s)
{
    dim_counts(s);
    negative_and_zero(s);
    partial_blocks(s);
    sizes(s);
}
