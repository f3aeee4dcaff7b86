/* 4-bit code-book types on NEON: IQ4_NL, IQ4_XS (kvalues_iq4nl, f16 scales), MXFP4 and NVFP4
 * (kvalues_fp4, E8M0 / UE4M3 half scales). The 16-entry code book is a byte table indexed by the
 * nibbles with TBL (vqtbl1q_s8), then widened and multiplied once by the scale. */
#include "neon_common.h"

#if GSI_NEON_ENABLED

#include "grids/grids.h"

/* The code book entries of the low and high nibbles of 16 bytes. */
static inline int8x16_t lookup_low(int8x16_t book, uint8x16_t v)
{
    return vqtbl1q_s8(book, vandq_u8(v, vdupq_n_u8(15)));
}

static inline int8x16_t lookup_high(int8x16_t book, uint8x16_t v)
{
    return vqtbl1q_s8(book, vshrq_n_u8(v, 4));
}

/* One legacy-order 32-element group: byte j gives element j (low nibble) and j+16 (high). */
static inline void legacy_group(const uint8_t *qs, int8x16_t book, float32x4_t scale, float *y)
{
    const uint8x16_t v = vld1q_u8(qs);
    gsn_store_mul_s8(y, lookup_low(book, v), scale);
    gsn_store_mul_s8(y + 16, lookup_high(book, v), scale);
}

/* d, qs[16]: d * kvalues_iq4nl[nibble]. Load: qs. */
GSI_NEON_DECODER(iq4_nl)
{
    const int8x16_t book = vld1q_s8(gsi_kvalues_iq4nl);
    for (size_t i = 0; i < n_blocks; i++) {
        const uint8_t *b = src + GSI_IQ4_NL_BYTES * i;
        legacy_group(b + GSI_IQ4_NL_QS, book, vdupq_n_f32(gsi_load_f16(b + GSI_IQ4_NL_D)),
                     dst + GSI_IQ4_NL_ELEMS * i);
    }
}

/* The 8 sub-block scales of an IQ4_XS block, d * (ls - 32), with ls = nibble ib%2 of
 * scales_l[ib/2] | (bits 2ib..2ib+1 of scales_h) << 4. The block's first 8 bytes are loaded:
 * scales_h is lanes 2..3, scales_l lanes 4..7 (asserted). */
_Static_assert(GSI_IQ4_XS_SCALES_H == 2 && GSI_IQ4_XS_SCALES_L == 4 && GSI_IQ4_XS_QS == 8,
               "iq4_xs: the lane tables take scales_h at lanes 2..3, scales_l at 4..7");
static void iq4_xs_scales(const uint8_t *b, float dl[8])
{
    static const uint8_t lo_idx[8] = {4, 4, 5, 5, 6, 6, 7, 7};
    static const int8_t lo_shift[8] = {0, -4, 0, -4, 0, -4, 0, -4};
    static const uint8_t hi_idx[8] = {2, 2, 2, 2, 3, 3, 3, 3};
    static const int8_t hi_shift[8] = {0, -2, -4, -6, 0, -2, -4, -6};
    const uint8x8_t raw = vld1_u8(b);
    const uint8x8_t lo =
        vand_u8(vshl_u8(vtbl1_u8(raw, vld1_u8(lo_idx)), vld1_s8(lo_shift)), vdup_n_u8(15));
    const uint8x8_t hi =
        vand_u8(vshl_u8(vtbl1_u8(raw, vld1_u8(hi_idx)), vld1_s8(hi_shift)), vdup_n_u8(3));
    const int8x8_t ls = vsub_s8(vreinterpret_s8_u8(vorr_u8(lo, vshl_n_u8(hi, 4))), vdup_n_s8(32));
    const int16x8_t wide = vmovl_s8(ls);
    const float32x4_t d = vdupq_n_f32(gsi_load_f16(b + GSI_IQ4_XS_D));
    vst1q_f32(dl, vmulq_f32(d, vcvtq_f32_s32(vmovl_s16(vget_low_s16(wide)))));
    vst1q_f32(dl + 4, vmulq_f32(d, vcvtq_f32_s32(vmovl_high_s16(wide))));
}

/* d, scales_h u16, scales_l[4], qs[128]: (d * (ls - 32)) * kvalue, the scale formed first
 * (signed zeros). Loads: the first 8 bytes and qs. */
GSI_NEON_DECODER(iq4_xs)
{
    const int8x16_t book = vld1q_s8(gsi_kvalues_iq4nl);
    for (size_t i = 0; i < n_blocks; i++) {
        const uint8_t *b = src + GSI_IQ4_XS_BYTES * i;
        float dl[8];
        iq4_xs_scales(b, dl);
        for (int ib = 0; ib < 8; ib++) {
            legacy_group(b + GSI_IQ4_XS_QS + 16 * ib, book, vdupq_n_f32(dl[ib]),
                         dst + GSI_IQ4_XS_ELEMS * i + 32 * ib);
        }
    }
}

/* e E8M0, qs[16]: kvalues_fp4[nibble] * 2^(e-128). e = 0, 1 give subnormal scales, kept
 * because FPCR.FZ = 0. 17-byte blocks: any address. Load: qs. */
GSI_NEON_DECODER(mxfp4)
{
    const int8x16_t book = vld1q_s8(gsi_kvalues_fp4);
    for (size_t i = 0; i < n_blocks; i++) {
        const uint8_t *b = src + GSI_MXFP4_BYTES * i;
        legacy_group(b + GSI_MXFP4_QS, book, vdupq_n_f32(gsi_e8m0_half_to_f32(b[GSI_MXFP4_E])),
                     dst + GSI_MXFP4_ELEMS * i);
    }
}

/* d UE4M3[4], qs[32]: four 16-element sub-blocks of 8 bytes; inside each, low nibbles are
 * elements 0..7 and high nibbles 8..15. One 16-byte load covers two sub-blocks; their halves
 * are regrouped as (low, high) per sub-block. Loads: qs. */
GSI_NEON_DECODER(nvfp4)
{
    const int8x16_t book = vld1q_s8(gsi_kvalues_fp4);
    for (size_t i = 0; i < n_blocks; i++) {
        const uint8_t *b = src + GSI_NVFP4_BYTES * i;
        const uint8_t *d = b + GSI_NVFP4_D;
        float *y = dst + GSI_NVFP4_ELEMS * i;
        for (int s = 0; s < 4; s += 2) {
            const uint8x16_t v = vld1q_u8(b + GSI_NVFP4_QS + 8 * s);
            const int8x16_t lo = lookup_low(book, v), hi = lookup_high(book, v);
            gsn_store_mul_s8(y + 16 * s, vcombine_s8(vget_low_s8(lo), vget_low_s8(hi)),
                             vdupq_n_f32(gsi_ue4m3_half_to_f32(d[s])));
            gsn_store_mul_s8(y + 16 * s + 16, vcombine_s8(vget_high_s8(lo), vget_high_s8(hi)),
                             vdupq_n_f32(gsi_ue4m3_half_to_f32(d[s + 1])));
        }
    }
}

#endif
