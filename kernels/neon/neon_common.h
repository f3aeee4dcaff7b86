/* Building blocks shared by the NEON decoders: byte lanes widened to f32, the one multiply (or
 * one fused multiply-add) per element, and bit masks spread over byte lanes.
 *
 * Bit-identity with kernels/scalar/ rests on docs/quant-types.md ("Bit-exact arithmetic"): every
 * integer converts to f32 exactly, so an element is bit-identical when the same float operations
 * meet in the same order ((d * sub_scale) first, then * q). AArch64 Advanced SIMD is IEEE with
 * FPCR.FZ = 0 on Linux (never AArch32 NEON, which flushes subnormals). vfmaq_f32 appears only
 * where the reference rounds once after exact products (Q4_1, Q5_1, Q2_K, Q4_K, Q5_K).
 *
 * Everything is guarded by GSI_NEON_ENABLED: AArch64 little-endian only, since multi-byte
 * fields are read as vector lanes. */
#ifndef GGUFSAFE_NEON_COMMON_H
#define GGUFSAFE_NEON_COMMON_H

#if defined(__aarch64__) && defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define GSI_NEON_ENABLED 1
#else
#define GSI_NEON_ENABLED 0
#endif

#if GSI_NEON_ENABLED

#include <arm_neon.h>
#include <stdint.h>

#include "block_layout.h"
#include "decode_neon.h"
#include "le_load.h"

/* 16 lanes of 16 bits (lo, then hi) sign-extended to four 32-bit vectors, in lane order. */
static inline void gsn_widen_s16(int16x8_t lo, int16x8_t hi, int32x4_t w[4])
{
    w[0] = vmovl_s16(vget_low_s16(lo));
    w[1] = vmovl_high_s16(lo);
    w[2] = vmovl_s16(vget_low_s16(hi));
    w[3] = vmovl_high_s16(hi);
}

/* 16 signed byte lanes sign-extended to four 32-bit vectors, in lane order. */
static inline void gsn_widen_s8(int8x16_t v, int32x4_t w[4])
{
    gsn_widen_s16(vmovl_s8(vget_low_s8(v)), vmovl_high_s8(v), w);
}

/* 16 signed byte lanes as four f32 vectors, in lane order (exact: |v| < 2^7). */
static inline void gsn_s8_to_f32(int8x16_t v, float32x4_t f[4])
{
    int32x4_t w[4];
    gsn_widen_s8(v, w);
    for (int i = 0; i < 4; i++) {
        f[i] = vcvtq_f32_s32(w[i]);
    }
}

/* 16 unsigned byte lanes as four f32 vectors, in lane order (exact: v < 2^8, so each lane
 * zero-extended to 16 bits is a non-negative int16 and converts to the same f32). */
static inline void gsn_u8_to_f32(uint8x16_t v, float32x4_t f[4])
{
    int32x4_t w[4];
    gsn_widen_s16(vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(v))),
                  vreinterpretq_s16_u16(vmovl_high_u8(v)), w);
    for (int i = 0; i < 4; i++) {
        f[i] = vcvtq_f32_s32(w[i]);
    }
}

/* A byte-lane mask (0x00 or 0xff) widened to four 32-bit lane masks: sign extension keeps
 * all-ones all-ones. */
static inline void gsn_mask_to_u32(uint8x16_t m, uint32x4_t w[4])
{
    int32x4_t s[4];
    gsn_widen_s8(vreinterpretq_s8_u8(m), s);
    for (int i = 0; i < 4; i++) {
        w[i] = vreinterpretq_u32_s32(s[i]);
    }
}

/* y[0..15] = scale * q: one product per element, as the scalar (float)q * scale (IEEE
 * multiplication commutes bit for bit; only a NaN's payload could differ, which the NaN rule
 * ignores). */
static inline void gsn_store_mul_s8(float *y, int8x16_t q, float32x4_t scale)
{
    float32x4_t f[4];
    gsn_s8_to_f32(q, f);
    for (int i = 0; i < 4; i++) {
        vst1q_f32(y + 4 * i, vmulq_f32(scale, f[i]));
    }
}

/* y[0..15] = q * scale + add, fused. Only for the formulas whose product q * scale is exact, so
 * that the single rounding is the reference's own rounding of the add. */
static inline void gsn_store_fma_u8(float *y, uint8x16_t q, float32x4_t scale, float32x4_t add)
{
    float32x4_t f[4];
    gsn_u8_to_f32(q, f);
    for (int i = 0; i < 4; i++) {
        vst1q_f32(y + 4 * i, vfmaq_f32(add, f[i], scale));
    }
}

/* 0xff in byte lane j where bit j%8 of (j < 8 ? lo : hi) is set; each byte of the constant is
 * 1 << (lane % 8). */
static inline uint8x16_t gsn_bit_mask16(uint8_t lo, uint8_t hi)
{
    const uint8x16_t bits = vreinterpretq_u8_u64(vdupq_n_u64(UINT64_C(0x8040201008040201)));
    return vtstq_u8(vcombine_u8(vdup_n_u8(lo), vdup_n_u8(hi)), bits);
}

/* Every lane shifted right by n (0..7), for shift counts that vary in a loop. */
static inline uint8x16_t gsn_shr_u8(uint8x16_t v, int n)
{
    return vshlq_u8(v, vdupq_n_s8((int8_t)-n));
}

/* Two u64 grid entries (8 byte-elements each, little-endian) as one byte vector. */
static inline uint8x16_t gsn_grid_pair(uint64_t first, uint64_t second)
{
    return vcombine_u8(vcreate_u8(first), vcreate_u8(second));
}

#endif /* GSI_NEON_ENABLED */
#endif
