/* 4-bit code-book types on AVX2 (IQ4_NL, IQ4_XS, MXFP4, NVFP4): pshufb looks the 16 nibbles up
 * in the 16-entry int8 table (kernels/grids/), then each value is widened, converted (exact)
 * and multiplied once by its scale, as in the reference. */
#include "avx2_util.h"
#include "block_layout.h"
#include "decode_avx2.h"
#include "fp_convert.h"
#include "grids/grids.h"

static inline __m128i table16(const int8_t *table)
{
    return _mm_loadu_si128((const __m128i *)(const void *)table);
}

/* 16 bytes of nibbles in legacy order (the low nibbles are elements 0..15, the high ones
 * 16..31) looked up in kv and multiplied by d: 32 floats. */
static inline void lookup_nibbles(__m128i kv, const uint8_t *qs, __m256 d, float *y)
{
    const __m128i x = gsa_load128(qs);
    gsa_store_s8x16_mul(y, _mm_shuffle_epi8(kv, gsa_low_nibbles(x)), d);
    gsa_store_s8x16_mul(y + 16, _mm_shuffle_epi8(kv, gsa_high_nibbles(x)), d);
}

/* d, qs[16]; legacy nibble order. */
static inline void iq4_nl_block(const uint8_t *b, float *y)
{
    const __m128i kv = table16(gsi_kvalues_iq4nl);
    lookup_nibbles(kv, b + GSI_IQ4_NL_QS, gsa_f16_splat(b + GSI_IQ4_NL_D), y);
}

GSI_AVX2_ROW(IQ4_NL, iq4_nl)

/* d, scales_h u16, scales_l[4], qs[128]. The eight 6-bit scales of the sub-blocks in 32-bit
 * lanes: nibble ib of scales_l's word, bits 2ib..2ib+1 of scales_h on top; dl = d * (ls - 32),
 * formed first (signed zeros). */
static inline void iq4_xs_block(const uint8_t *b, float *y)
{
    const __m128i kv = table16(gsi_kvalues_iq4nl);
    const __m256i lo = _mm256_and_si256(
        _mm256_srlv_epi32(_mm256_set1_epi32((int)gsi_load_u32le(b + GSI_IQ4_XS_SCALES_L)),
                          _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28)),
        _mm256_set1_epi32(15));
    const __m256i hi = _mm256_and_si256(
        _mm256_srlv_epi32(_mm256_set1_epi32(gsi_load_u16le(b + GSI_IQ4_XS_SCALES_H)),
                          _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14)),
        _mm256_set1_epi32(3));
    const __m256i ls = _mm256_sub_epi32(_mm256_or_si256(lo, _mm256_slli_epi32(hi, 4)),
                                        _mm256_set1_epi32(32));
    float dl[8];
    _mm256_storeu_ps(dl, _mm256_mul_ps(gsa_f16_splat(b + GSI_IQ4_XS_D), _mm256_cvtepi32_ps(ls)));
    for (int ib = 0; ib < 8; ib++) {
        lookup_nibbles(kv, b + GSI_IQ4_XS_QS + 16 * ib, _mm256_broadcast_ss(&dl[ib]), y + 32 * ib);
    }
}

GSI_AVX2_ROW(IQ4_XS, iq4_xs)

/* e E8M0, qs[16]; legacy nibble order. Blocks are 17 bytes, so they sit at every
 * address. The scale 2^(e-128) is a subnormal for e < 2: the multiply keeps it because this
 * library never sets FTZ/DAZ. */
static inline void mxfp4_block(const uint8_t *b, float *y)
{
    const __m128i kv = table16(gsi_kvalues_fp4);
    lookup_nibbles(kv, b + GSI_MXFP4_QS, _mm256_set1_ps(gsi_e8m0_half_to_f32(b[GSI_MXFP4_E])), y);
}

GSI_AVX2_ROW(MXFP4, mxfp4)

/* d UE4M3[4], qs[32]: four 16-element sub-blocks of 8 bytes; the low nibbles of a
 * sub-block's 8 bytes are its elements 0..7, the high nibbles 8..15. 16 bytes (two
 * sub-blocks) at a time: unpacklo/hi_epi64 of the looked-up low and high nibbles put each
 * sub-block's 16 values in element order. */
static inline void nvfp4_block(const uint8_t *b, float *y)
{
    const __m128i kv = table16(gsi_kvalues_fp4);
    for (int h = 0; h < 2; h++) {
        const __m128i x = gsa_load128(b + GSI_NVFP4_QS + 16 * h);
        const __m128i lo = _mm_shuffle_epi8(kv, gsa_low_nibbles(x));
        const __m128i hi = _mm_shuffle_epi8(kv, gsa_high_nibbles(x));
        const __m256 d0 = _mm256_set1_ps(gsi_ue4m3_half_to_f32(b[GSI_NVFP4_D + 2 * h]));
        const __m256 d1 = _mm256_set1_ps(gsi_ue4m3_half_to_f32(b[GSI_NVFP4_D + 2 * h + 1]));
        gsa_store_s8x16_mul(y + 32 * h, _mm_unpacklo_epi64(lo, hi), d0);
        gsa_store_s8x16_mul(y + 32 * h + 16, _mm_unpackhi_epi64(lo, hi), d1);
    }
}

GSI_AVX2_ROW(NVFP4, nvfp4)
