/* The 32-element legacy blocks (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q8_1) and Q1_0, Q2_0 on AVX2.
 * Legacy nibble order puts elements 0..15 in the low nibbles of qs and 16..31 in the high
 * ones, so masking and shifting give the elements in order without a shuffle. */
#include "avx2_util.h"
#include "block_layout.h"
#include "decode_avx2.h"

static inline void q4_0_block(const uint8_t *b, float *y)
{
    const __m256 d = gsa_f16_splat(b + GSI_Q4_0_D);
    const __m128i x = gsa_load128(b + GSI_Q4_0_QS);
    const __m128i eight = _mm_set1_epi8(8);
    gsa_store_s8x16_mul(y, _mm_sub_epi8(gsa_low_nibbles(x), eight), d);
    gsa_store_s8x16_mul(y + 16, _mm_sub_epi8(gsa_high_nibbles(x), eight), d);
}

/* q * d + m: the product is exact (4-bit q, f16 d), so one fused rounding is the reference's
 * rounding of the + m. */
static inline void q4_1_block(const uint8_t *b, float *y)
{
    const __m256 d = gsa_f16_splat(b + GSI_Q4_1_D);
    const __m256 m = gsa_f16_splat(b + GSI_Q4_1_M);
    const __m128i x = gsa_load128(b + GSI_Q4_1_QS);
    gsa_store_s8x16_fmadd(y, gsa_low_nibbles(x), d, m);
    gsa_store_s8x16_fmadd(y + 16, gsa_high_nibbles(x), d, m);
}

/* The 32 nibbles of a legacy qs as 32 bytes in element order. */
static inline __m256i legacy_nibbles(const uint8_t *qs)
{
    const __m128i x = gsa_load128(qs);
    return _mm256_set_m128i(gsa_high_nibbles(x), gsa_low_nibbles(x));
}

/* q - 16 for q = nibble | fifth << 4: the nibble itself when the fifth bit is set, and
 * nibble - 16 = nibble | 0xf0 (as int8) when it is clear. */
static inline void q5_0_block(const uint8_t *b, float *y)
{
    const __m256 d = gsa_f16_splat(b + GSI_Q5_0_D);
    const __m256i fifth = gsa_bits_to_bytes(gsi_load_u32le(b + GSI_Q5_0_QH));
    const __m256i q = _mm256_or_si256(legacy_nibbles(b + GSI_Q5_0_QS),
                                      _mm256_andnot_si256(fifth, _mm256_set1_epi8((char)0xf0)));
    gsa_store_s8x32_mul(y, q, d);
}

static inline void q5_1_block(const uint8_t *b, float *y)
{
    const __m256 d = gsa_f16_splat(b + GSI_Q5_1_D);
    const __m256 m = gsa_f16_splat(b + GSI_Q5_1_M);
    const __m256i fifth = gsa_bits_to_bytes(gsi_load_u32le(b + GSI_Q5_1_QH));
    const __m256i q = _mm256_or_si256(legacy_nibbles(b + GSI_Q5_1_QS),
                                      _mm256_and_si256(fifth, _mm256_set1_epi8(0x10)));
    gsa_store_s8x16_fmadd(y, _mm256_castsi256_si128(q), d, m);
    gsa_store_s8x16_fmadd(y + 16, _mm256_extracti128_si256(q, 1), d, m);
}

/* 32 int8 at qs times d. */
static inline void int8x32_times(const uint8_t *qs, __m256 d, float *y)
{
    for (int k = 0; k < 4; k++) {
        _mm256_storeu_ps(y + 8 * k, _mm256_mul_ps(gsa_s8x8_ps(gsa_load64(qs + 8 * k)), d));
    }
}

static inline void q8_0_block(const uint8_t *b, float *y)
{
    int8x32_times(b + GSI_Q8_0_QS, gsa_f16_splat(b + GSI_Q8_0_D), y);
}

static inline void q8_1_block(const uint8_t *b, float *y)
{
    /* the s field is ignored, as in scalar */
    int8x32_times(b + GSI_Q8_1_QS, gsa_f16_splat(b + GSI_Q8_1_D), y);
}

/* 128 elements, one bit each, LSB first: +d for 1, -d for 0. Each 32-bit word of qs covers 32
 * elements; lane k of group g shifts bit 8g+k of the word into the sign position, which
 * blendv reads to choose d or -d. -d is a sign flip, as C's unary minus. */
static inline void q1_0_block(const uint8_t *b, float *y)
{
    const __m256 d = gsa_f16_splat(b + GSI_Q1_0_D);
    const __m256 neg_d = _mm256_xor_ps(d, _mm256_set1_ps(-0.0f));
    const __m256i to_top[4] = {
        _mm256_setr_epi32(31, 30, 29, 28, 27, 26, 25, 24),
        _mm256_setr_epi32(23, 22, 21, 20, 19, 18, 17, 16),
        _mm256_setr_epi32(15, 14, 13, 12, 11, 10, 9, 8),
        _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0),
    };
    for (int w = 0; w < 4; w++) {
        const __m256i word = _mm256_set1_epi32((int)gsi_load_u32le(b + GSI_Q1_0_QS + 4 * w));
        for (int g = 0; g < 4; g++) {
            const __m256 sel = _mm256_castsi256_ps(_mm256_sllv_epi32(word, to_top[g]));
            _mm256_storeu_ps(y + 32 * w + 8 * g, _mm256_blendv_ps(neg_d, d, sel));
        }
    }
}

/* 64 elements of 2 bits, linear and LSB first: element t of a 32-bit word is bits 2t..2t+1.
 * The four possible values (q - 1) * d are computed once per block, with the reference's
 * multiply, and each element picks its own with a lane permute. */
static inline void q2_0_block(const uint8_t *b, float *y)
{
    const __m256 values = _mm256_mul_ps(_mm256_setr_ps(-1, 0, 1, 2, -1, 0, 1, 2),
                                        gsa_f16_splat(b + GSI_Q2_0_D));
    const __m256i shift_lo = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
    const __m256i shift_hi = _mm256_setr_epi32(16, 18, 20, 22, 24, 26, 28, 30);
    const __m256i three = _mm256_set1_epi32(3);
    for (int w = 0; w < 4; w++) {
        const __m256i word = _mm256_set1_epi32((int)gsi_load_u32le(b + GSI_Q2_0_QS + 4 * w));
        const __m256i q_lo = _mm256_and_si256(_mm256_srlv_epi32(word, shift_lo), three);
        const __m256i q_hi = _mm256_and_si256(_mm256_srlv_epi32(word, shift_hi), three);
        _mm256_storeu_ps(y + 16 * w, _mm256_permutevar8x32_ps(values, q_lo));
        _mm256_storeu_ps(y + 16 * w + 8, _mm256_permutevar8x32_ps(values, q_hi));
    }
}

GSI_LEGACY_TYPES(GSI_AVX2_ROW)
