/* Ternary types on AVX2: every element is (t - 1) * d, t in {0, 1, 2}, computed as an int8
 * t - 1, converted (exact) and multiplied by d like the reference. */
#include "avx2_util.h"
#include "block_layout.h"
#include "decode_avx2.h"

/* TQ1_0 packs up to 5 trits per byte as a base-3 fraction: trit n of byte B is
 * floor(3 * x / 256) with x = B * 3^n mod 256. floor(3x / 256) is 1 from x = 86 and 2 from
 * x = 171, so t - 1 = -1 + [x >= 86] + [x >= 171]; the next x is 3x mod 256 (byte adds wrap,
 * exactly the intended uint8 wrap). Unsigned x >= c is max(x, c) == x. */
static inline __m256i trit_minus_1(__m256i x)
{
    const __m256i ge86 = _mm256_cmpeq_epi8(_mm256_max_epu8(x, _mm256_set1_epi8(86)), x);
    const __m256i ge171 = _mm256_cmpeq_epi8(_mm256_max_epu8(x, _mm256_set1_epi8((char)171)), x);
    /* the compares are -1 where true */
    return _mm256_sub_epi8(_mm256_sub_epi8(_mm256_set1_epi8(-1), ge86), ge171);
}

static inline __m128i trit_minus_1_128(__m128i x)
{
    const __m128i ge86 = _mm_cmpeq_epi8(_mm_max_epu8(x, _mm_set1_epi8(86)), x);
    const __m128i ge171 = _mm_cmpeq_epi8(_mm_max_epu8(x, _mm_set1_epi8((char)171)), x);
    return _mm_sub_epi8(_mm_sub_epi8(_mm_set1_epi8(-1), ge86), ge171);
}

static inline __m256i times3(__m256i x)
{
    return _mm256_add_epi8(_mm256_add_epi8(x, x), x);
}

static inline __m128i times3_128(__m128i x)
{
    return _mm_add_epi8(_mm_add_epi8(x, x), x);
}

/* qs[48], qh[4], d. Trit n of byte m of qs is element 32n + m (bytes 0..31) and
 * 160 + 16n + m (bytes 32..47); of qh, 240 + 4n + m (4 trits each). */
static inline void tq1_0_block(const uint8_t *b, float *y)
{
    const __m256 d = gsa_f16_splat(b + GSI_TQ1_0_D);
    __m256i x = gsa_load256(b + GSI_TQ1_0_QS);
    for (int n = 0; n < 5; n++) {
        gsa_store_s8x32_mul(y + 32 * n, trit_minus_1(x), d);
        x = times3(x);
    }
    __m128i x16 = gsa_load128(b + GSI_TQ1_0_QS + 32);
    for (int n = 0; n < 5; n++) {
        gsa_store_s8x16_mul(y + 160 + 16 * n, trit_minus_1_128(x16), d);
        x16 = times3_128(x16);
    }
    /* The qh word in every 32-bit lane, lane n advanced n trits: all 16 elements at once. */
    const __m128i w0 = _mm_set1_epi32((int)gsi_load_u32le(b + GSI_TQ1_0_QH));
    const __m128i w1 = times3_128(w0), w2 = times3_128(w1), w3 = times3_128(w2);
    const __m128i lanes =
        _mm_blend_epi32(_mm_blend_epi32(w0, w1, 0x2), _mm_blend_epi32(w2, w3, 0x8), 0xc);
    gsa_store_s8x16_mul(y + 240, trit_minus_1_128(lanes), d);
}

/* qs[64], d. Each 32 bytes feed 128 elements through the 2-bit planes at shifts 0, 2,
 * 4, 6: element 128n + 32r + l is plane r of qs[32n + l]. */
static inline void tq2_0_block(const uint8_t *b, float *y)
{
    const __m256 d = gsa_f16_splat(b + GSI_TQ2_0_D);
    const __m256i three = _mm256_set1_epi8(3), one = _mm256_set1_epi8(1);
    for (int n = 0; n < 2; n++) {
        const __m256i x = gsa_load256(b + GSI_TQ2_0_QS + 32 * n);
        for (int r = 0; r < 4; r++) {
            const __m256i q = _mm256_and_si256(_mm256_srli_epi16(x, 2 * r), three);
            gsa_store_s8x32_mul(y + 128 * n + 32 * r, _mm256_sub_epi8(q, one), d);
        }
    }
}

GSI_TERNARY_TYPES(GSI_AVX2_ROW)
