/* Scalar conversions of the scale and element formats to f32, each giving the same bits as ggml's
 * reference routine (ggml-impl.h at d99724f2; see docs/quant-types.md, "Scale conversions"). They
 * are total: every input bit pattern has a defined result, and none depends on FTZ/DAZ. */
#ifndef GGUFSAFE_FP_CONVERT_H
#define GGUFSAFE_FP_CONVERT_H

#include <stdint.h>
#include <string.h>

static inline float gsi_f32_from_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline uint32_t gsi_f32_to_bits(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* IEEE binary16 -> binary32. ggml's software conversion works in f32 arithmetic, and so do we,
 * because the arithmetic is what quiets a signalling NaN exactly as ggml (and F16C) do:
 *  - exponent field 0 (zero, subnormal): place the 10 mantissa bits under the exponent of 0.5,
 *    giving 0.5 + m*2^-24 exactly, and subtract 0.5;
 *  - otherwise: move exponent and mantissa into f32 position with the exponent raised by 224,
 *    then multiply by 2^-112 (net bias change 112 = 127 - 15). Field 31 lands on f32 field 255,
 *    so Inf stays Inf and NaN stays NaN (quieted by the multiply).
 * Both intermediates are normal floats, so flush-to-zero modes cannot touch them. */
static inline float gsi_f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t magnitude = h & 0x7fffu;
    /* Both forms are computed and one is selected, without a branch, so loops vectorize. */
    const float small = gsi_f32_from_bits(magnitude | (126u << 23)) - 0.5f;
    const float normal = gsi_f32_from_bits((magnitude << 13) + (224u << 23)) * 0x1p-112f;
    const float v = magnitude < 0x0400u ? small : normal;
    return gsi_f32_from_bits(sign | gsi_f32_to_bits(v));
}

/* bfloat16 is the top half of an f32: exact, NaN payloads kept. */
static inline float gsi_bf16_to_f32(uint16_t h)
{
    return gsi_f32_from_bits((uint32_t)h << 16);
}

/* Half of an E8M0 scale, 2^(e-128), as MXFP4 uses it (its code book is doubled). e = 0 and 1 are
 * the f32 subnormals 2^-128 and 2^-127; e = 0xff is 2^127, not NaN (ggml has no NaN case). */
static inline float gsi_e8m0_half_to_f32(uint8_t e)
{
    if (e < 2u) {
        return gsi_f32_from_bits(UINT32_C(1) << (21u + e));
    }
    return gsi_f32_from_bits((uint32_t)(e - 1u) << 23);
}

/* Half of a UE4M3 scale, as NVFP4 uses it. Four exponent bits (bias 7) and three mantissa bits;
 * bit 7 is ignored, and 0x7f (the E4M3 NaN code) is 0 while 0xff reads as 240 (ggml's rule).
 * Half the value is man*2^-10 (exponent 0) or (8+man)*2^(exp-11): exact small integers times a
 * power of two, so this equals ggml's ldexpf form bit for bit. */
static inline float gsi_ue4m3_half_to_f32(uint8_t x)
{
    if (x == 0x7fu) {
        return 0.0f;
    }
    const uint32_t exp = (x >> 3) & 15u;
    const uint32_t man = x & 7u;
    if (exp == 0u) {
        return (float)man * 0x1p-10f;
    }
    /* 2^(exp-11) built from its bits: biased exponent 116 + exp, always normal. */
    return (float)(8u + man) * gsi_f32_from_bits((116u + exp) << 23);
}

#endif
