/* Signed zeros: a zero factor meets the others in ggml's order, so the sign of a zero result
 * follows IEEE's rule for ((d * sub_scale) * q) (or dl * (g + delta) for IQ1_S). Merging the
 * integer factors first, as d * (sub_scale * q), would give +0 where ggml gives -0. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "block_layout.h"
#include "ggufsafe.h"
#include "grids/grids.h"
#include "le_load.h"

#define POS_ZERO 0x00000000u
#define NEG_ZERO 0x80000000u
#define F16_ONE 0x3c00u
#define F16_MINUS_ONE 0xbc00u

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static void put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* The sign of a product of two non-zero factors and a zero. */
static uint32_t zero_with_sign(int a_negative, int b_negative)
{
    return a_negative != b_negative ? NEG_ZERO : POS_ZERO;
}

static void expect_all(const float *y, size_t n, uint32_t want, const char *what)
{
    for (size_t e = 0; e < n; e++) {
        cr_assert_eq(bits_of(y[e]), want, "%s: element %zu is 0x%08x, want 0x%08x", what, e,
                     bits_of(y[e]), want);
    }
}

/* Decodes the 256-element block b of type and expects every element to be the zero whose sign
 * is sign(d) xor sign(scale). */
static void expect_zero_block(gs_type type, const char *name, const uint8_t *b, size_t size,
                              int neg_d, int scale)
{
    float y[256];
    cr_assert_eq(gs_dequantize(type, b, size, y, 256), GS_OK);
    char what[64];
    snprintf(what, sizeof what, "%s d %s1 scale %d", name, neg_d ? "-" : "+", scale);
    expect_all(y, 256, zero_with_sign(neg_d, scale < 0), what);
}

/* Q3_K: every 6-bit scale S (biased by 32) set to `scale`, q = 0 with the high bit set (no -4):
 * y = (d * S) * 0. */
Test(signed_zero, q3_K)
{
    const int scales[] = {5, -5, 31, -32};
    for (int neg_d = 0; neg_d < 2; neg_d++) {
        for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
            uint8_t b[GSI_Q3_K_BYTES] = {0};
            const int raw = scales[k] + 32;
            const int lo = raw & 15, hi = raw >> 4;
            memset(b + GSI_Q3_K_HMASK, 0xff, 32); /* hmask: high bit set everywhere */
            for (int j = 0; j < 8; j++) {
                b[GSI_Q3_K_SCALES + j] = (uint8_t)(lo | lo << 4);
            }
            for (int j = 8; j < 12; j++) {
                b[GSI_Q3_K_SCALES + j] = (uint8_t)(hi | hi << 2 | hi << 4 | hi << 6);
            }
            put_u16(b + GSI_Q3_K_D, neg_d ? F16_MINUS_ONE : F16_ONE);
            expect_zero_block(GS_TYPE_Q3_K, "q3_K", b, sizeof b, neg_d, scales[k]);
        }
    }
}

/* Q6_K: q6 = 32 (low nibble 0, high bits 2) is the zero point: y = (d * scale) * 0. */
Test(signed_zero, q6_K)
{
    const int scales[] = {1, -1, 127, -128};
    for (int neg_d = 0; neg_d < 2; neg_d++) {
        for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
            uint8_t b[GSI_Q6_K_BYTES] = {0};
            memset(b + GSI_Q6_K_QH, 0xaa, 64); /* every 2-bit high field = 2 */
            memset(b + GSI_Q6_K_SCALES, (uint8_t)(scales[k] & 0xff), 16);
            put_u16(b + GSI_Q6_K_D, neg_d ? F16_MINUS_ONE : F16_ONE);
            expect_zero_block(GS_TYPE_Q6_K, "q6_K", b, sizeof b, neg_d, scales[k]);
        }
    }
}

/* IQ4_XS: the code book has no zero, so the zero factor is the sub-block scale ls - 32 = 0:
 * y = (d * 0) * kv, whose sign is sign(d) xor sign(kv). Byte 0x80: kv[0] = -127 in the low
 * nibble (elements 0..15 of a sub-block), kv[8] = +1 in the high one (16..31). */
Test(signed_zero, iq4_xs)
{
    for (int neg_d = 0; neg_d < 2; neg_d++) {
        uint8_t b[GSI_IQ4_XS_BYTES] = {0};
        put_u16(b + GSI_IQ4_XS_D, neg_d ? F16_MINUS_ONE : F16_ONE);
        /* high 2 bits of every ls = 2, low nibbles 0: ls = 32 */
        put_u16(b + GSI_IQ4_XS_SCALES_H, 0xaaaa);
        memset(b + GSI_IQ4_XS_QS, 0x80, 128);
        float y[256];
        cr_assert_eq(gs_dequantize(GS_TYPE_IQ4_XS, b, sizeof b, y, 256), GS_OK);
        for (int ib = 0; ib < 8; ib++) {
            expect_all(y + 32 * ib, 16, zero_with_sign(neg_d, 1), "iq4_xs negative code");
            expect_all(y + 32 * ib + 16, 16, zero_with_sign(neg_d, 0), "iq4_xs positive code");
        }
    }
}

/* IQ1_S: with d = +-0, dl = d * (2s + 1) is a zero of d's sign and y = dl * (g + delta) takes
 * the sign of g + delta (never zero). The distributed dl*g + dl*delta would differ. */
Test(signed_zero, iq1_s)
{
    for (int neg_d = 0; neg_d < 2; neg_d++) {
        for (int neg_delta = 0; neg_delta < 2; neg_delta++) {
            uint8_t b[GSI_IQ1_S_BYTES] = {0};
            put_u16(b + GSI_IQ1_S_D, neg_d ? 0x8000 : 0x0000);
            for (int g = 0; g < 32; g++) {
                /* grid indices with mixed -1/0/+1 bytes */
                b[GSI_IQ1_S_QS + g] = (uint8_t)(37 * g + 5);
            }
            for (int ib = 0; ib < 8; ib++) {
                const uint16_t h = (uint16_t)((neg_delta ? 0x8000 : 0) | (ib & 7) << 12 |
                                              (uint16_t)(ib * 0x249));
                put_u16(b + GSI_IQ1_S_QH + 2 * ib, h);
            }
            float y[256];
            cr_assert_eq(gs_dequantize(GS_TYPE_IQ1_S, b, sizeof b, y, 256), GS_OK);
            for (int e = 0; e < 256; e++) {
                const int ib = e / 32, l = (e % 32) / 8, j = e % 8;
                const uint16_t h = gsi_load_u16le(b + GSI_IQ1_S_QH + 2 * ib);
                const unsigned idx = b[GSI_IQ1_S_QS + 4 * ib + l] | ((h >> (3 * l)) & 7u) << 8;
                const int g = (int)(int8_t)(uint8_t)(gsi_iq1s_grid[idx] >> (8 * j));
                const double sum = g + (neg_delta ? -0.125 : 0.125);
                cr_assert_eq(bits_of(y[e]), zero_with_sign(neg_d, sum < 0),
                             "iq1_s d %s0 delta %s element %d (g %d)", neg_d ? "-" : "+",
                             neg_delta ? "-" : "+", e, g);
            }
        }
    }
}
