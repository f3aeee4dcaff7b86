/* The scalar conversions against references written another way: f16 by integer construction
 * of the f32 bits, E8M0 and UE4M3 through ldexpf; E8M0 and UE4M3 also end to end through the
 * MXFP4 and NVFP4 decoders. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "fp_convert.h"
#include "ggufsafe.h"

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* binary16 -> binary32 bits by integer rebiasing: normalise subnormals by hand, widen the
 * mantissa, and quiet NaNs by setting the top mantissa bit (what IEEE arithmetic does to a
 * signalling NaN, keeping its payload). */
static uint32_t f16_reference(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h >> 15) << 31;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1fu) {
        return sign | 0x7f800000u | (man << 13) | (man != 0 ? 0x00400000u : 0);
    }
    if (exp == 0) {
        if (man == 0) {
            return sign;
        }
        int e = -14; /* value = man * 2^-24 = 1.f * 2^e after normalising */
        while ((man & 0x400u) == 0) {
            man <<= 1;
            e--;
        }
        return sign | (uint32_t)(e + 127) << 23 | (man & 0x3ffu) << 13;
    }
    return sign | (exp - 15u + 127u) << 23 | man << 13;
}

Test(fp_convert, f16_all_65536)
{
    for (uint32_t h = 0; h <= 0xffffu; h++) {
        const uint32_t got = bits_of(gsi_f16_to_f32((uint16_t)h));
        cr_assert_eq(got, f16_reference((uint16_t)h), "f16 0x%04x -> 0x%08x, want 0x%08x", h, got,
                     f16_reference((uint16_t)h));
    }
}

Test(fp_convert, f16_landmarks)
{
    cr_expect_eq(gsi_f16_to_f32(0x3c00), 1.0f);
    cr_expect_eq(gsi_f16_to_f32(0xc000), -2.0f);
    cr_expect_eq(gsi_f16_to_f32(0x7bff), 65504.0f);
    cr_expect_eq(gsi_f16_to_f32(0x0001), ldexpf(1.0f, -24));
    cr_expect_eq(gsi_f16_to_f32(0x03ff), ldexpf(1023.0f, -24));
    cr_expect_eq(bits_of(gsi_f16_to_f32(0x8000)), 0x80000000u);
    cr_expect_eq(bits_of(gsi_f16_to_f32(0xfc00)), 0xff800000u);
    cr_expect_eq(bits_of(gsi_f16_to_f32(0x7c01)), 0x7fc02000u); /* sNaN quieted, payload kept */
}

Test(fp_convert, bf16_is_the_top_half)
{
    cr_expect_eq(gsi_bf16_to_f32(0x3f80), 1.0f);
    cr_expect_eq(gsi_bf16_to_f32(0xc040), -3.0f);
    cr_expect_eq(gsi_bf16_to_f32(0x0001), ldexpf(1.0f, -133));
    cr_expect_eq(bits_of(gsi_bf16_to_f32(0x8000)), 0x80000000u);
    cr_expect_eq(bits_of(gsi_bf16_to_f32(0x7f81)), 0x7f810000u); /* sNaN kept as is */
    for (uint32_t h = 0; h <= 0xffffu; h++) {
        cr_assert_eq(bits_of(gsi_bf16_to_f32((uint16_t)h)) & 0xffffu, 0u);
        cr_assert_eq(bits_of(gsi_bf16_to_f32((uint16_t)h)) >> 16, h);
    }
}

Test(fp_convert, e8m0_half_all_256)
{
    for (int e = 0; e < 256; e++) {
        const float want = ldexpf(1.0f, e - 128);
        cr_assert_eq(bits_of(gsi_e8m0_half_to_f32((uint8_t)e)), bits_of(want), "e8m0 %d", e);
    }
    cr_expect_eq(bits_of(gsi_e8m0_half_to_f32(0)), 0x00200000u);  /* 2^-128, subnormal */
    cr_expect_eq(bits_of(gsi_e8m0_half_to_f32(255)), 0x7f000000u); /* 2^127, not NaN */
}

/* ggml's definition, written with ldexpf: 0 and 0x7f are zero, bit 7 ignored otherwise. */
static float ue4m3_reference(uint8_t x)
{
    if (x == 0 || x == 0x7f) {
        return 0.0f;
    }
    const int exp = (x >> 3) & 15;
    const int man = x & 7;
    const float raw = exp == 0 ? ldexpf((float)man, -9) : ldexpf(1.0f + (float)man / 8.0f, exp - 7);
    return raw * 0.5f;
}

Test(fp_convert, ue4m3_half_all_256)
{
    for (int x = 0; x < 256; x++) {
        cr_assert_eq(bits_of(gsi_ue4m3_half_to_f32((uint8_t)x)), bits_of(ue4m3_reference((uint8_t)x)),
                     "ue4m3 0x%02x", x);
    }
    cr_expect_eq(gsi_ue4m3_half_to_f32(0xff), 240.0f);
    cr_expect_eq(gsi_ue4m3_half_to_f32(0x7e), 224.0f);
    cr_expect_eq(bits_of(gsi_ue4m3_half_to_f32(0x80)), 0u);
    cr_expect_eq(bits_of(gsi_ue4m3_half_to_f32(0x7f)), 0u);
    cr_expect_eq(gsi_ue4m3_half_to_f32(0x01), ldexpf(1.0f, -10));
}

/* The doubled E2M1 value of a 4-bit code (sign bit 3, exponent bits 1-2, mantissa bit 0), an
 * integer: the code book holds no negative zero. */
static int fp4_doubled(int code)
{
    const int exp = (code >> 1) & 3, man = code & 1;
    const int twice = exp == 0 ? man : (2 + man) << (exp - 1);
    return (code & 8) ? -twice : twice;
}

/* Every E8M0 scale through the MXFP4 decoder, with every code in both nibble positions. */
Test(fp_convert, mxfp4_every_scale)
{
    uint8_t block[17];
    float y[32];
    for (int e = 0; e < 256; e++) {
        block[0] = (uint8_t)e;
        for (int j = 0; j < 16; j++) {
            block[1 + j] = (uint8_t)(j | (15 - j) << 4);
        }
        cr_assert_eq(gs_dequantize(GS_TYPE_MXFP4, block, sizeof block, y, 32), GS_OK);
        for (int j = 0; j < 16; j++) {
            const float lo = (float)fp4_doubled(j) * ldexpf(1.0f, e - 128);
            const float hi = (float)fp4_doubled(15 - j) * ldexpf(1.0f, e - 128);
            cr_assert_eq(bits_of(y[j]), bits_of(lo), "e %d code %d", e, j);
            cr_assert_eq(bits_of(y[j + 16]), bits_of(hi), "e %d code %d (high)", e, 15 - j);
        }
    }
}

/* Every UE4M3 scale through the NVFP4 decoder: 64 blocks of 4 sub-blocks. */
Test(fp_convert, nvfp4_every_scale)
{
    uint8_t block[36];
    float y[64];
    for (int b = 0; b < 64; b++) {
        for (int s = 0; s < 4; s++) {
            block[s] = (uint8_t)(4 * b + s);
        }
        for (int j = 0; j < 32; j++) {
            block[4 + j] = (uint8_t)((j % 16) | (15 - j % 16) << 4);
        }
        cr_assert_eq(gs_dequantize(GS_TYPE_NVFP4, block, sizeof block, y, 64), GS_OK);
        for (int s = 0; s < 4; s++) {
            const float d = ue4m3_reference(block[s]);
            for (int j = 0; j < 8; j++) {
                const int byte = block[4 + 8 * s + j];
                const float lo = (float)fp4_doubled(byte & 15) * d;
                const float hi = (float)fp4_doubled(byte >> 4) * d;
                cr_assert_eq(bits_of(y[16 * s + j]), bits_of(lo), "ue4m3 0x%02x j %d", block[s], j);
                cr_assert_eq(bits_of(y[16 * s + j + 8]), bits_of(hi), "ue4m3 0x%02x j %d (high)",
                             block[s], j);
            }
        }
    }
}
