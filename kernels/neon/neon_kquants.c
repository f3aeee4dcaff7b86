/* K-quants on NEON: Q2_K..Q6_K and Q8_K. Per block, the packed sub-block scales are unpacked with
 * table lookups and turned into f32 (d * sub_scale, and dmin * min) in vectors; then every 16
 * quants become 16 floats with one multiply, or one fused multiply-add for Q2_K, Q4_K and Q5_K,
 * whose products are exact so that the single rounding is the reference's final `- dmin * min`.
 * The order (d * sub_scale) * q is kept: signed zeros (docs/quant-types.md, "Bit-exact
 * arithmetic"). Every load stays inside its block (byte ranges in the comments). */
#include "neon_common.h"

#if GSI_NEON_ENABLED

/* 16 scale bytes times a factor, as 16 floats: out[j] = factor * (float)s[j]. */
static void scale16_u8(uint8x16_t s, float factor, float out[16])
{
    float32x4_t f[4];
    gsn_u8_to_f32(s, f);
    for (int i = 0; i < 4; i++) {
        vst1q_f32(out + 4 * i, vmulq_f32(vdupq_n_f32(factor), f[i]));
    }
}

static void scale16_s8(int8x16_t s, float factor, float out[16])
{
    float32x4_t f[4];
    gsn_s8_to_f32(s, f);
    for (int i = 0; i < 4; i++) {
        vst1q_f32(out + 4 * i, vmulq_f32(vdupq_n_f32(factor), f[i]));
    }
}

/* y = dl * q - ml for 16 quants, as one fused multiply-add of -ml. */
static inline void store_scaled_min(float *y, uint8x16_t q, float dl, float ml)
{
    gsn_store_fma_u8(y, q, vdupq_n_f32(dl), vdupq_n_f32(-ml));
}

/* 2-bit plane r (shift 2r) of 16 bytes. */
static inline uint8x16_t plane2(uint8x16_t v, int r)
{
    return vandq_u8(gsn_shr_u8(v, 2 * r), vdupq_n_u8(3));
}

/* scales[16] (low nibble scale, high nibble min), qs[64], d, dmin. Sub-block j (16 elements)
 * takes plane (j/2)%4 of qs[32*(j/8) + 16*(j%2) ..]. Loads: scales and qs. */
static void q2_K_block(const uint8_t *b, float *y)
{
    float dl[16], ml[16];
    const uint8x16_t sc = vld1q_u8(b + GSI_Q2_K_SCALES);
    scale16_u8(vandq_u8(sc, vdupq_n_u8(15)), gsi_load_f16(b + GSI_Q2_K_D), dl);
    scale16_u8(vshrq_n_u8(sc, 4), gsi_load_f16(b + GSI_Q2_K_DMIN), ml);
    for (int n = 0; n < 2; n++) {
        const uint8x16_t qs[2] = {vld1q_u8(b + GSI_Q2_K_QS + 32 * n),
                                  vld1q_u8(b + GSI_Q2_K_QS + 16 + 32 * n)};
        for (int r = 0; r < 4; r++) {
            for (int h = 0; h < 2; h++) {
                const int j = 8 * n + 2 * r + h;
                store_scaled_min(y + 16 * j, plane2(qs[h], r), dl[j], ml[j]);
            }
        }
    }
}

/* Q3_K's 16 six-bit scales, minus 32, times d. The 12 scale bytes are followed only by d, so
 * the 16-byte load is the block's last 16 bytes: it ends at the block's end, and scale byte k
 * is lane 2 + k (asserted). Scale j: low 4 bits from byte j%8 (low nibble for j < 8, high
 * after), high 2 bits from byte 8 + j%4 at shift 2*(j/4). */
#define Q3_K_TAIL (GSI_Q3_K_BYTES - 16)
_Static_assert(GSI_Q3_K_SCALES - Q3_K_TAIL == 2, "q3_K: the lane tables take scale byte k at 2+k");
static void q3_K_scales(const uint8_t *b, float d, float dl[16])
{
    static const uint8_t lo_idx[16] = {2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5, 6, 7, 8, 9};
    static const int8_t lo_shift[16] = {0, 0, 0, 0, 0, 0, 0, 0, -4, -4, -4, -4, -4, -4, -4, -4};
    static const uint8_t hi_idx[16] = {10, 11, 12, 13, 10, 11, 12, 13,
                                       10, 11, 12, 13, 10, 11, 12, 13};
    static const int8_t hi_shift[16] = {0, 0, 0, 0, -2, -2, -2, -2, -4, -4, -4, -4, -6, -6, -6, -6};
    const uint8x16_t raw = vld1q_u8(b + Q3_K_TAIL);
    const uint8x16_t lo =
        vandq_u8(vshlq_u8(vqtbl1q_u8(raw, vld1q_u8(lo_idx)), vld1q_s8(lo_shift)), vdupq_n_u8(15));
    const uint8x16_t hi =
        vandq_u8(vshlq_u8(vqtbl1q_u8(raw, vld1q_u8(hi_idx)), vld1q_s8(hi_shift)), vdupq_n_u8(3));
    const uint8x16_t s6 = vorrq_u8(lo, vshlq_n_u8(hi, 4));
    scale16_s8(vsubq_s8(vreinterpretq_s8_u8(s6), vdupq_n_s8(32)), d, dl);
}

/* hmask[32], qs[64], scales[12], d. Element e: plane (e/32)%4 of qs[32*(e/128) + e%32],
 * minus 4 unless bit e/32 of hmask[e%32] is set. Loads: hmask, qs and the last 16 bytes. */
static void q3_K_block(const uint8_t *b, float *y)
{
    float dl[16];
    q3_K_scales(b, gsi_load_f16(b + GSI_Q3_K_D), dl);
    const uint8x16_t hmask[2] = {vld1q_u8(b + GSI_Q3_K_HMASK), vld1q_u8(b + GSI_Q3_K_HMASK + 16)};
    const uint8x16_t four = vdupq_n_u8(4);
    for (int n = 0; n < 2; n++) {
        const uint8x16_t qs[2] = {vld1q_u8(b + GSI_Q3_K_QS + 32 * n),
                                  vld1q_u8(b + GSI_Q3_K_QS + 16 + 32 * n)};
        for (int r = 0; r < 4; r++) {
            const uint8x16_t bit = vdupq_n_u8((uint8_t)(1u << (4 * n + r)));
            for (int h = 0; h < 2; h++) {
                const int j = 8 * n + 2 * r + h;
                /* 4 where the high bit is clear, 0 where it is set. */
                const uint8x16_t sub = vbicq_u8(four, vtstq_u8(hmask[h], bit));
                const int8x16_t q = vsubq_s8(vreinterpretq_s8_u8(plane2(qs[h], r)),
                                             vreinterpretq_s8_u8(sub));
                gsn_store_mul_s8(y + 16 * j, q, vdupq_n_f32(dl[j]));
            }
        }
    }
}

/* Q4_K/Q5_K: the 8 six-bit scales and 8 mins packed in the 12 scale bytes, times d and dmin.
 * The block's first 16 bytes (d, dmin, scales: asserted) are loaded, so scale byte k is lane
 * 4+k; lanes 0..7 of the result are the scales, 8..15 the mins:
 *   j < 4:  scale = s[j] & 63,                     min = s[j+4] & 63
 *   j >= 4: scale = (s[j+4] & 15) | (s[j-4] >> 6) << 4,  min = (s[j+4] >> 4) | (s[j] >> 6) << 4
 * The table index 0xff yields 0, so j < 4 gets no high bits. */
_Static_assert(GSI_Q4_K_D == 0 && GSI_Q4_K_DMIN == 2 && GSI_Q4_K_SCALES == 4 &&
                   GSI_Q4_K_QS == 16,
               "q4_K: d, dmin and the scales fill the first 16 bytes, scale byte k at 4+k");
_Static_assert(GSI_Q5_K_D == 0 && GSI_Q5_K_DMIN == 2 && GSI_Q5_K_SCALES == 4 &&
                   GSI_Q5_K_QH == 16,
               "q5_K: the first 16 bytes as in q4_K");
static void k4_scales_mins(const uint8_t *b, float dl[8], float ml[8])
{
    static const uint8_t lo_idx[16] = {4, 5, 6, 7, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15};
    static const int8_t lo_shift[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -4, -4, -4, -4};
    static const uint8_t lo_mask[16] = {63, 63, 63, 63, 15, 15, 15, 15,
                                        63, 63, 63, 63, 15, 15, 15, 15};
    static const uint8_t hi_idx[16] = {0xff, 0xff, 0xff, 0xff, 4, 5, 6, 7,
                                       0xff, 0xff, 0xff, 0xff, 8, 9, 10, 11};
    const uint8x16_t raw = vld1q_u8(b);
    const uint8x16_t lo = vandq_u8(vshlq_u8(vqtbl1q_u8(raw, vld1q_u8(lo_idx)), vld1q_s8(lo_shift)),
                                   vld1q_u8(lo_mask));
    const uint8x16_t hi = vshlq_n_u8(vshrq_n_u8(vqtbl1q_u8(raw, vld1q_u8(hi_idx)), 6), 4);
    float32x4_t f[4]; /* f[0..1]: the 8 scales, f[2..3]: the 8 mins */
    gsn_u8_to_f32(vorrq_u8(lo, hi), f);
    const float32x4_t d = vdupq_n_f32(gsi_load_f16(b + GSI_Q4_K_D));
    const float32x4_t dmin = vdupq_n_f32(gsi_load_f16(b + GSI_Q4_K_DMIN));
    for (int i = 0; i < 2; i++) {
        vst1q_f32(dl + 4 * i, vmulq_f32(d, f[i]));
        vst1q_f32(ml + 4 * i, vmulq_f32(dmin, f[2 + i]));
    }
}

/* d, dmin, scales[12], qs[128]. Each 32-byte chunk c gives its low nibbles to sub-block 2c
 * and its high nibbles to 2c+1. Loads: the first 16 bytes and qs. */
static void q4_K_block(const uint8_t *b, float *y)
{
    float dl[8], ml[8];
    k4_scales_mins(b, dl, ml);
    for (int c = 0; c < 4; c++) {
        for (int h = 0; h < 2; h++) {
            const uint8x16_t qs = vld1q_u8(b + GSI_Q4_K_QS + 32 * c + 16 * h);
            store_scaled_min(y + 64 * c + 16 * h, vandq_u8(qs, vdupq_n_u8(15)), dl[2 * c],
                             ml[2 * c]);
            store_scaled_min(y + 64 * c + 32 + 16 * h, vshrq_n_u8(qs, 4), dl[2 * c + 1],
                             ml[2 * c + 1]);
        }
    }
}

/* d, dmin, scales[12], qh[32], qs[128]. As Q4_K, with bit j of qh[l] as the 5th bit of
 * element 32j+l. Loads: the first 16 bytes, qh and qs. */
static void q5_K_block(const uint8_t *b, float *y)
{
    float dl[8], ml[8];
    k4_scales_mins(b, dl, ml);
    const uint8x16_t qh[2] = {vld1q_u8(b + GSI_Q5_K_QH), vld1q_u8(b + GSI_Q5_K_QH + 16)};
    const uint8x16_t bit4 = vdupq_n_u8(0x10);
    for (int c = 0; c < 4; c++) {
        const uint8x16_t lo_bit = vdupq_n_u8((uint8_t)(1u << (2 * c)));
        const uint8x16_t hi_bit = vdupq_n_u8((uint8_t)(2u << (2 * c)));
        for (int h = 0; h < 2; h++) {
            const uint8x16_t qs = vld1q_u8(b + GSI_Q5_K_QS + 32 * c + 16 * h);
            const uint8x16_t q_lo = vorrq_u8(vandq_u8(qs, vdupq_n_u8(15)),
                                             vandq_u8(vtstq_u8(qh[h], lo_bit), bit4));
            const uint8x16_t q_hi = vorrq_u8(vshrq_n_u8(qs, 4),
                                             vandq_u8(vtstq_u8(qh[h], hi_bit), bit4));
            store_scaled_min(y + 64 * c + 16 * h, q_lo, dl[2 * c], ml[2 * c]);
            store_scaled_min(y + 64 * c + 32 + 16 * h, q_hi, dl[2 * c + 1], ml[2 * c + 1]);
        }
    }
}

/* ql[128], qh[64], scales int8[16], d. In half n, quarter r (32 elements) takes nibble r/2 of
 * ql[64n + 32*(r%2) + l] and bits 2r..2r+1 of qh[32n + l]; value (d * scale) * (q - 32).
 * Loads: ql, qh and scales. */
static void q6_K_block(const uint8_t *b, float *y)
{
    float dl[16];
    scale16_s8(vreinterpretq_s8_u8(vld1q_u8(b + GSI_Q6_K_SCALES)), gsi_load_f16(b + GSI_Q6_K_D),
               dl);
    for (int n = 0; n < 2; n++) {
        for (int r = 0; r < 4; r++) {
            for (int h = 0; h < 2; h++) {
                const int j = 8 * n + 2 * r + h;
                const uint8x16_t ql = vld1q_u8(b + GSI_Q6_K_QL + 64 * n + 32 * (r % 2) + 16 * h);
                const uint8x16_t qh = vld1q_u8(b + GSI_Q6_K_QH + 32 * n + 16 * h);
                const uint8x16_t lo = r < 2 ? vandq_u8(ql, vdupq_n_u8(15)) : vshrq_n_u8(ql, 4);
                const uint8x16_t q = vorrq_u8(lo, vshlq_n_u8(plane2(qh, r), 4));
                const int8x16_t centred = vsubq_s8(vreinterpretq_s8_u8(q), vdupq_n_s8(32));
                gsn_store_mul_s8(y + 16 * j, centred, vdupq_n_f32(dl[j]));
            }
        }
    }
}

/* d f32, qs int8[256], bsums (unused): d * q, one rounding. Loads: qs. */
static void q8_K_block(const uint8_t *b, float *y)
{
    const float32x4_t d = vdupq_n_f32(gsi_load_f32le(b + GSI_Q8_K_D));
    for (int k = 0; k < 16; k++) {
        gsn_store_mul_s8(y + 16 * k, vreinterpretq_s8_u8(vld1q_u8(b + GSI_Q8_K_QS + 16 * k)), d);
    }
}

GSI_KQUANT_TYPES(GSI_NEON_ROW)

#endif
