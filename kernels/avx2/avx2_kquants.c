/* K-quants (Q2_K..Q6_K, Q8_K) on AVX2. Per block, the packed sub-block scales are unpacked once
 * and turned into f32 factors with the reference's multiplies (d * sc, dmin * m); the elements
 * are then unpacked 32 bytes at a time. Factors meet in the reference order, (d * sc) first and
 * then * q, so zero results keep their sign. Q2_K, Q4_K and Q5_K use fmsub(q, d*sc, dmin*m):
 * d*sc*q is exact in f32 (at most 22 significant bits), so the one fused rounding equals the
 * reference's rounding of the final subtraction (docs/quant-types.md, "Bit-exact arithmetic"). */
#include "avx2_util.h"
#include "block_layout.h"
#include "decode_avx2.h"

/* A per-sub-block factor from the block's small array, in all 8 lanes. Broadcast from memory
 * (vbroadcastss, a load): built from a register instead, gcc spends two shuffles per factor on
 * the port that also widens the bytes, which measured a third slower. */
static inline __m256 at(const float *factor)
{
    return _mm256_broadcast_ss(factor);
}

/* scales[16] (low nibble scale, high nibble min), qs[64], d, dmin. Each 32 bytes of qs feed
 * 128 elements through the 2-bit planes at shifts 0, 2, 4, 6; the first 16 bytes of a plane
 * belong to one 16-element sub-block, the next 16 to the following one. */
static inline void q2_K_block(const uint8_t *b, float *y)
{
    float dl[16], ml[16];
    const __m128i sc = gsa_load128(b + GSI_Q2_K_SCALES);
    gsa_store_s8x16_mul(dl, gsa_low_nibbles(sc), gsa_f16_splat(b + GSI_Q2_K_D));
    gsa_store_s8x16_mul(ml, gsa_high_nibbles(sc), gsa_f16_splat(b + GSI_Q2_K_DMIN));
    const __m256i three = _mm256_set1_epi8(3);
    for (int n = 0; n < 2; n++) {
        const __m256i x = gsa_load256(b + GSI_Q2_K_QS + 32 * n);
        for (int r = 0; r < 4; r++) {
            const __m256i q = _mm256_and_si256(_mm256_srli_epi16(x, 2 * r), three);
            const int j = 8 * n + 2 * r;
            float *out = y + 128 * n + 32 * r;
            gsa_store_s8x16_fmsub(out, _mm256_castsi256_si128(q), at(dl + j), at(ml + j));
            gsa_store_s8x16_fmsub(out + 16, _mm256_extracti128_si256(q, 1), at(dl + j + 1),
                                  at(ml + j + 1));
        }
    }
}

/* Q3_K's 16 scales S(j) - 32 as int8: the low 4 bits are the low nibbles of scales[0..7] for
 * j < 8 and their high nibbles after; the high 2 bits of scale j are bits 2(j/4).. of byte
 * 8 + j%4, so each 32-bit lane k of (word >> 2k) & 3 holds those of scales 4k..4k+3. */
static inline __m128i q3_K_scales(const uint8_t *sc)
{
    const __m128i x = gsa_load64(sc);
    const __m128i lo = _mm_unpacklo_epi64(gsa_low_nibbles(x), gsa_high_nibbles(x));
    const __m128i hi = _mm_and_si128(
        _mm_srlv_epi32(_mm_set1_epi32((int)gsi_load_u32le(sc + 8)), _mm_setr_epi32(0, 2, 4, 6)),
        _mm_set1_epi8(3));
    return _mm_sub_epi8(_mm_or_si128(lo, _mm_slli_epi16(hi, 4)), _mm_set1_epi8(32));
}

/* hmask[32], qs[64], scales[12], d. Element 128n + 32r + l: plane r of qs[32n + l], minus 4
 * unless bit 4n + r of hmask[l] is set. */
static inline void q3_K_block(const uint8_t *b, float *y)
{
    float dl[16];
    gsa_store_s8x16_mul(dl, q3_K_scales(b + GSI_Q3_K_SCALES), gsa_f16_splat(b + GSI_Q3_K_D));
    const __m256i hmask = gsa_load256(b + GSI_Q3_K_HMASK);
    const __m256i three = _mm256_set1_epi8(3), four = _mm256_set1_epi8(4);
    for (int n = 0; n < 2; n++) {
        const __m256i x = gsa_load256(b + GSI_Q3_K_QS + 32 * n);
        for (int r = 0; r < 4; r++) {
            const __m256i bit = _mm256_set1_epi8((char)(1 << (4 * n + r)));
            const __m256i clear = _mm256_cmpeq_epi8(_mm256_and_si256(hmask, bit),
                                                    _mm256_setzero_si256());
            const __m256i q = _mm256_sub_epi8(_mm256_and_si256(_mm256_srli_epi16(x, 2 * r), three),
                                              _mm256_and_si256(clear, four));
            const int j = 8 * n + 2 * r;
            float *out = y + 128 * n + 32 * r;
            gsa_store_s8x16_mul(out, _mm256_castsi256_si128(q), at(dl + j));
            gsa_store_s8x16_mul(out + 16, _mm256_extracti128_si256(q, 1), at(dl + j + 1));
        }
    }
}

/* Q4_K/Q5_K's eight 6-bit scales and mins, unpacked from the 12 bytes at s with 32-bit word
 * operations (bytes j < 4 and j >= 4 of each packed the same way), then multiplied by d and
 * dmin: dl[j] = d * sc[j], ml[j] = dmin * m[j]. */
static inline void k4_factors(const uint8_t *s, __m256 d, __m256 dmin, float *dl, float *ml)
{
    const uint32_t u0 = gsi_load_u32le(s), u1 = gsi_load_u32le(s + 4), u2 = gsi_load_u32le(s + 8);
    const uint32_t low6 = 0x3f3f3f3fu, low4 = 0x0f0f0f0fu, bits45 = 0x30303030u;
    /* j < 4: low 6 bits of bytes j (scale) and j+4 (min). j >= 4: a nibble of byte j+4, and the
     * top 2 bits of byte j-4 (scale) or j (min) as bits 4..5. */
    const uint32_t sc_lo = u0 & low6, sc_hi = (u2 & low4) | ((u0 >> 2) & bits45);
    const uint32_t m_lo = u1 & low6, m_hi = ((u2 >> 4) & low4) | ((u1 >> 2) & bits45);
    const __m128i sc = _mm_cvtsi64_si128((long long)((uint64_t)sc_hi << 32 | sc_lo));
    const __m128i m = _mm_cvtsi64_si128((long long)((uint64_t)m_hi << 32 | m_lo));
    _mm256_storeu_ps(dl, _mm256_mul_ps(d, gsa_s8x8_ps(sc)));
    _mm256_storeu_ps(ml, _mm256_mul_ps(dmin, gsa_s8x8_ps(m)));
}

/* d, dmin, scales[12], qs[128]. Each 32-byte chunk gives its low nibbles to one 32-element
 * sub-block and its high nibbles to the next. */
static inline void q4_K_block(const uint8_t *b, float *y)
{
    float dl[8], ml[8];
    k4_factors(b + GSI_Q4_K_SCALES, gsa_f16_splat(b + GSI_Q4_K_D),
               gsa_f16_splat(b + GSI_Q4_K_DMIN), dl, ml);
    for (int c = 0; c < 4; c++) {
        const __m256i x = gsa_load256(b + GSI_Q4_K_QS + 32 * c);
        const int j = 2 * c;
        gsa_store_s8x32_fmsub(y + 64 * c, gsa_low_nibbles256(x), at(dl + j), at(ml + j));
        gsa_store_s8x32_fmsub(y + 64 * c + 32, gsa_high_nibbles256(x), at(dl + j + 1),
                              at(ml + j + 1));
    }
}

/* Bit j of each byte of qh, as 0x10 (the 5th bit of the element) or 0. */
static inline __m256i fifth_bits(__m256i qh, int j)
{
    const __m256i bit = _mm256_set1_epi8((char)(1 << j));
    const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(qh, bit), bit);
    return _mm256_and_si256(set, _mm256_set1_epi8(0x10));
}

/* d, dmin, scales[12], qh[32], qs[128]: Q4_K plus bit j of qh[l] as the 5th bit of element
 * 32j + l. */
static inline void q5_K_block(const uint8_t *b, float *y)
{
    float dl[8], ml[8];
    k4_factors(b + GSI_Q5_K_SCALES, gsa_f16_splat(b + GSI_Q5_K_D),
               gsa_f16_splat(b + GSI_Q5_K_DMIN), dl, ml);
    const __m256i qh = gsa_load256(b + GSI_Q5_K_QH);
    for (int c = 0; c < 4; c++) {
        const __m256i x = gsa_load256(b + GSI_Q5_K_QS + 32 * c);
        const int j = 2 * c;
        const __m256i q_lo = _mm256_or_si256(gsa_low_nibbles256(x), fifth_bits(qh, j));
        const __m256i q_hi = _mm256_or_si256(gsa_high_nibbles256(x), fifth_bits(qh, j + 1));
        gsa_store_s8x32_fmsub(y + 64 * c, q_lo, at(dl + j), at(ml + j));
        gsa_store_s8x32_fmsub(y + 64 * c + 32, q_hi, at(dl + j + 1), at(ml + j + 1));
    }
}

/* ql[128], qh[64], scales int8[16], d. In half n, quarter r takes nibble r/2 of
 * ql[64n + 32(r%2) + l] and bits 2r..2r+1 of qh[32n + l], moved to bits 4..5. */
static inline void q6_K_block(const uint8_t *b, float *y)
{
    float dl[16];
    gsa_store_s8x16_mul(dl, gsa_load128(b + GSI_Q6_K_SCALES), gsa_f16_splat(b + GSI_Q6_K_D));
    const __m256i bits45 = _mm256_set1_epi8(0x30), bias = _mm256_set1_epi8(32);
    for (int n = 0; n < 2; n++) {
        const __m256i qa = gsa_load256(b + GSI_Q6_K_QL + 64 * n);
        const __m256i qb = gsa_load256(b + GSI_Q6_K_QL + 64 * n + 32);
        const __m256i qh = gsa_load256(b + GSI_Q6_K_QH + 32 * n);
        __m256i q[4];
        q[0] = _mm256_or_si256(gsa_low_nibbles256(qa),
                               _mm256_and_si256(_mm256_slli_epi16(qh, 4), bits45));
        q[1] = _mm256_or_si256(gsa_low_nibbles256(qb),
                               _mm256_and_si256(_mm256_slli_epi16(qh, 2), bits45));
        q[2] = _mm256_or_si256(gsa_high_nibbles256(qa), _mm256_and_si256(qh, bits45));
        q[3] = _mm256_or_si256(gsa_high_nibbles256(qb),
                               _mm256_and_si256(_mm256_srli_epi16(qh, 2), bits45));
        for (int r = 0; r < 4; r++) {
            const __m256i v = _mm256_sub_epi8(q[r], bias);
            const int j = 8 * n + 2 * r;
            float *out = y + 128 * n + 32 * r;
            gsa_store_s8x16_mul(out, _mm256_castsi256_si128(v), at(dl + j));
            gsa_store_s8x16_mul(out + 16, _mm256_extracti128_si256(v, 1), at(dl + j + 1));
        }
    }
}

/* d f32, qs int8[256]: d * q, one rounding, as in the reference. */
static inline void q8_K_block(const uint8_t *b, float *y)
{
    const __m256 d = _mm256_set1_ps(gsi_load_f32le(b + GSI_Q8_K_D));
    const uint8_t *qs = b + GSI_Q8_K_QS;
    for (int k = 0; k < 32; k++) {
        _mm256_storeu_ps(y + 8 * k, _mm256_mul_ps(d, gsa_s8x8_ps(gsa_load64(qs + 8 * k))));
    }
}

GSI_KQUANT_TYPES(GSI_AVX2_ROW)
