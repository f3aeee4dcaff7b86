/* Ternary types on NEON: every element is (t - 1) * d with a trit t in {0, 1, 2}. */
#include "neon_common.h"

#if GSI_NEON_ENABLED

/* Trit n of each byte lane minus one, with lane-wise powers pow3 = 3^n: multiply modulo 256
 * (the wrap drops the leading trits, as in the scalar path), then the high byte of 3 times that
 * is the trit. */
static inline int8x16_t trits_minus_one(uint8x16_t bytes, uint8x16_t pow3)
{
    const uint8x16_t shifted = vmulq_u8(bytes, pow3);
    const uint16x8_t lo = vmull_u8(vget_low_u8(shifted), vdup_n_u8(3));
    const uint16x8_t hi = vmull_high_u8(shifted, vdupq_n_u8(3));
    const uint8x16_t t = vcombine_u8(vshrn_n_u16(lo, 8), vshrn_n_u16(hi, 8));
    return vsubq_s8(vreinterpretq_s8_u8(t), vdupq_n_s8(1));
}

/* qs[48], qh[4], d. Trit n of byte m of qs: element 32n + m for bytes 0..31, 160 + 16n + (m-32)
 * for bytes 32..47; of qh, 240 + 4n + m. The qh bytes are read from the block's last 16 bytes
 * (so that the load ends at the block's end: qh is lanes 10..13, asserted) and spread over 16
 * lanes, lane 4n + m taking trit n of qh[m]. Loads: qs and the last 16 bytes. */
#define TQ1_0_TAIL (GSI_TQ1_0_BYTES - 16)
_Static_assert(GSI_TQ1_0_QH - TQ1_0_TAIL == 10, "tq1_0: qh_idx takes qh at lanes 10..13");
static void tq1_0_block(const uint8_t *b, float *y)
{
    static const uint8_t pow3[5] = {1, 3, 9, 27, 81};
    static const uint8_t qh_idx[16] = {10, 11, 12, 13, 10, 11, 12, 13,
                                       10, 11, 12, 13, 10, 11, 12, 13};
    static const uint8_t qh_pow3[16] = {1, 1, 1, 1, 3, 3, 3, 3, 9, 9, 9, 9, 27, 27, 27, 27};
    const float32x4_t d = vdupq_n_f32(gsi_load_f16(b + GSI_TQ1_0_D));
    const uint8_t *bytes = b + GSI_TQ1_0_QS;
    const uint8x16_t qs[3] = {vld1q_u8(bytes), vld1q_u8(bytes + 16), vld1q_u8(bytes + 32)};
    for (int n = 0; n < 5; n++) {
        const uint8x16_t p = vdupq_n_u8(pow3[n]);
        gsn_store_mul_s8(y + 32 * n, trits_minus_one(qs[0], p), d);
        gsn_store_mul_s8(y + 32 * n + 16, trits_minus_one(qs[1], p), d);
        gsn_store_mul_s8(y + 160 + 16 * n, trits_minus_one(qs[2], p), d);
    }
    const uint8x16_t qh = vqtbl1q_u8(vld1q_u8(b + TQ1_0_TAIL), vld1q_u8(qh_idx));
    gsn_store_mul_s8(y + 240, trits_minus_one(qh, vld1q_u8(qh_pow3)), d);
}

/* qs[64], d: 2-bit planes, each 32 bytes feeding 128 elements at shifts 0, 2, 4, 6. Loads:
 * qs. */
static void tq2_0_block(const uint8_t *b, float *y)
{
    const float32x4_t d = vdupq_n_f32(gsi_load_f16(b + GSI_TQ2_0_D));
    const uint8_t *bytes = b + GSI_TQ2_0_QS;
    for (int n = 0; n < 2; n++) {
        const uint8x16_t qs[2] = {vld1q_u8(bytes + 32 * n), vld1q_u8(bytes + 32 * n + 16)};
        for (int r = 0; r < 4; r++) {
            for (int h = 0; h < 2; h++) {
                const uint8x16_t q = vandq_u8(gsn_shr_u8(qs[h], 2 * r), vdupq_n_u8(3));
                const int8x16_t centred = vsubq_s8(vreinterpretq_s8_u8(q), vdupq_n_s8(1));
                gsn_store_mul_s8(y + 128 * n + 32 * r + 16 * h, centred, d);
            }
        }
    }
}

GSI_TERNARY_TYPES(GSI_NEON_ROW)

#endif
