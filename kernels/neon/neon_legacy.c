/* The 32-element legacy blocks (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q8_1) and Q1_0, Q2_0 on NEON.
 * Legacy nibble order needs no shuffle: one 16-byte load gives elements 0..15 in its low
 * nibbles and 16..31 in its high nibbles. Every load stays inside its block (the comments name
 * the fields each load covers). */
#include "neon_common.h"

#if GSI_NEON_ENABLED

/* Low and high nibbles of 16 bytes. */
static inline uint8x16_t low_nibbles(uint8x16_t v)
{
    return vandq_u8(v, vdupq_n_u8(15));
}

static inline uint8x16_t high_nibbles(uint8x16_t v)
{
    return vshrq_n_u8(v, 4);
}

/* Unsigned byte lanes minus a bias, as signed lanes (results fit in int8). */
static inline int8x16_t minus(uint8x16_t v, int8_t bias)
{
    return vsubq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(bias));
}

/* The 5th bits of Q5_0/Q5_1 as 0x10 per byte lane: bit e of the little-endian u32 qh belongs to
 * element e, so elements 0..15 take qh bytes 0 and 1, elements 16..31 bytes 2 and 3. */
static inline void fifth_bits(const uint8_t *qh, uint8x16_t *first, uint8x16_t *second)
{
    const uint8x16_t bit4 = vdupq_n_u8(0x10);
    *first = vandq_u8(gsn_bit_mask16(qh[0], qh[1]), bit4);
    *second = vandq_u8(gsn_bit_mask16(qh[2], qh[3]), bit4);
}

/* d, qs[16]: (q - 8) * d. Load: qs, the block's last 16 bytes. */
static void q4_0_block(const uint8_t *b, float *y)
{
    const float32x4_t d = vdupq_n_f32(gsi_load_f16(b + GSI_Q4_0_D));
    const uint8x16_t qs = vld1q_u8(b + GSI_Q4_0_QS);
    gsn_store_mul_s8(y, minus(low_nibbles(qs), 8), d);
    gsn_store_mul_s8(y + 16, minus(high_nibbles(qs), 8), d);
}

/* d, m, qs[16]: q * d + m, fused (q * d is exact). Load: qs. */
static void q4_1_block(const uint8_t *b, float *y)
{
    const float32x4_t d = vdupq_n_f32(gsi_load_f16(b + GSI_Q4_1_D));
    const float32x4_t m = vdupq_n_f32(gsi_load_f16(b + GSI_Q4_1_M));
    const uint8x16_t qs = vld1q_u8(b + GSI_Q4_1_QS);
    gsn_store_fma_u8(y, low_nibbles(qs), d, m);
    gsn_store_fma_u8(y + 16, high_nibbles(qs), d, m);
}

/* d, qh u32, qs[16]: (q - 16) * d. Load: qs. */
static void q5_0_block(const uint8_t *b, float *y)
{
    const float32x4_t d = vdupq_n_f32(gsi_load_f16(b + GSI_Q5_0_D));
    uint8x16_t h0, h1;
    fifth_bits(b + GSI_Q5_0_QH, &h0, &h1);
    const uint8x16_t qs = vld1q_u8(b + GSI_Q5_0_QS);
    gsn_store_mul_s8(y, minus(vorrq_u8(low_nibbles(qs), h0), 16), d);
    gsn_store_mul_s8(y + 16, minus(vorrq_u8(high_nibbles(qs), h1), 16), d);
}

/* d, m, qh u32, qs[16]: q * d + m, fused. Load: qs. */
static void q5_1_block(const uint8_t *b, float *y)
{
    const float32x4_t d = vdupq_n_f32(gsi_load_f16(b + GSI_Q5_1_D));
    const float32x4_t m = vdupq_n_f32(gsi_load_f16(b + GSI_Q5_1_M));
    uint8x16_t h0, h1;
    fifth_bits(b + GSI_Q5_1_QH, &h0, &h1);
    const uint8x16_t qs = vld1q_u8(b + GSI_Q5_1_QS);
    gsn_store_fma_u8(y, vorrq_u8(low_nibbles(qs), h0), d, m);
    gsn_store_fma_u8(y + 16, vorrq_u8(high_nibbles(qs), h1), d, m);
}

/* 32 int8 quants at qs times d. */
static inline void int8x32(const uint8_t *qs, float d_scalar, float *y)
{
    const float32x4_t d = vdupq_n_f32(d_scalar);
    gsn_store_mul_s8(y, vreinterpretq_s8_u8(vld1q_u8(qs)), d);
    gsn_store_mul_s8(y + 16, vreinterpretq_s8_u8(vld1q_u8(qs + 16)), d);
}

/* d, qs int8[32]. Loads: qs. */
static void q8_0_block(const uint8_t *b, float *y)
{
    int8x32(b + GSI_Q8_0_QS, gsi_load_f16(b + GSI_Q8_0_D), y);
}

/* d, s (unused), qs int8[32]. Loads: qs. */
static void q8_1_block(const uint8_t *b, float *y)
{
    int8x32(b + GSI_Q8_1_QS, gsi_load_f16(b + GSI_Q8_1_D), y);
}

/* d, qs[16], 128 elements: bit e%8 of qs[e/8] selects +d (1) or -d (0). A bit select of the
 * two floats, as the scalar `bit ? d : -d`. 16 elements (2 bytes) per step. */
static void q1_0_block(const uint8_t *b, float *y)
{
    const float d_scalar = gsi_load_f16(b + GSI_Q1_0_D);
    const float32x4_t d = vdupq_n_f32(d_scalar);
    const float32x4_t neg_d = vdupq_n_f32(-d_scalar);
    const uint8_t *qs = b + GSI_Q1_0_QS;
    for (int k = 0; k < 8; k++) {
        uint32x4_t set[4];
        gsn_mask_to_u32(gsn_bit_mask16(qs[2 * k], qs[2 * k + 1]), set);
        for (int i = 0; i < 4; i++) {
            vst1q_f32(y + 16 * k + 4 * i, vbslq_f32(set[i], d, neg_d));
        }
    }
}

/* d, qs[16], 64 elements: q = (qs[e/4] >> 2*(e%4)) & 3, value (q - 1) * d. Each step spreads
 * 4 bytes over 16 lanes (a table lookup) and shifts lane e by 2*(e%4). Load: qs. */
static void q2_0_block(const uint8_t *b, float *y)
{
    static const uint8_t spread[16] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
    static const int8_t shifts[16] = {0, -2, -4, -6, 0, -2, -4, -6,
                                      0, -2, -4, -6, 0, -2, -4, -6};
    const float32x4_t d = vdupq_n_f32(gsi_load_f16(b + GSI_Q2_0_D));
    const uint8x16_t qs = vld1q_u8(b + GSI_Q2_0_QS);
    const uint8x16_t idx0 = vld1q_u8(spread);
    const int8x16_t shift = vld1q_s8(shifts);
    for (int k = 0; k < 4; k++) {
        const uint8x16_t bytes = vqtbl1q_u8(qs, vaddq_u8(idx0, vdupq_n_u8((uint8_t)(4 * k))));
        const uint8x16_t q = vandq_u8(vshlq_u8(bytes, shift), vdupq_n_u8(3));
        gsn_store_mul_s8(y + 16 * k, minus(q, 1), d);
    }
}

GSI_LEGACY_TYPES(GSI_NEON_ROW)

#endif
