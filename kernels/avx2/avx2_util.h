/* Helpers shared by the AVX2 decoders. Include only from files compiled with the AVX2 target
 * flags (kernels/avx2/CMakeLists.txt); everything here is static inline, so no AVX2 code can
 * be merged into a function that non-AVX2 files call.
 *
 * Bit-identity: every helper performs the scalar reference's own float operations (one int to
 * float conversion, which is exact, then the same multiply, or the same single rounding of an
 * exact product plus an addend), so results equal the scalar decoders bit for bit; only the
 * payload of a NaN may differ (x86 propagates the first NaN operand), which the NaN rule
 * ignores. All loads are unaligned and stay inside the blocks given. */
#ifndef GGUFSAFE_AVX2_UTIL_H
#define GGUFSAFE_AVX2_UTIL_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "le_load.h"

/* An f16 field converted by F16C (exact; same bits as gsi_f16_to_f32, sNaN quieting included:
 * docs/quant-types.md, "Scale conversions"), in all 8 lanes. */
static inline __m256 gsa_f16_splat(const uint8_t *p)
{
    return _mm256_broadcastss_ps(_mm_cvtph_ps(_mm_cvtsi32_si128(gsi_load_u16le(p))));
}

static inline __m128i gsa_load128(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

static inline __m256i gsa_load256(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

/* 8 bytes at p in the low half of a vector (an unaligned 64-bit load). */
static inline __m128i gsa_load64(const uint8_t *p)
{
    return _mm_cvtsi64_si128((long long)gsi_load_u64le(p));
}

/* Signed bytes 0..7 of v as 8 floats (both conversions exact). */
static inline __m256 gsa_s8x8_ps(__m128i v)
{
    return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(v));
}

/* y[0..15] = (float)q[k] * d for the 16 signed bytes of q. */
static inline void gsa_store_s8x16_mul(float *y, __m128i q, __m256 d)
{
    _mm256_storeu_ps(y, _mm256_mul_ps(gsa_s8x8_ps(q), d));
    _mm256_storeu_ps(y + 8, _mm256_mul_ps(gsa_s8x8_ps(_mm_srli_si128(q, 8)), d));
}

/* y[0..31] = (float)q[k] * d for the 32 signed bytes of q. */
static inline void gsa_store_s8x32_mul(float *y, __m256i q, __m256 d)
{
    gsa_store_s8x16_mul(y, _mm256_castsi256_si128(q), d);
    gsa_store_s8x16_mul(y + 16, _mm256_extracti128_si256(q, 1), d);
}

/* y[0..15] = (float)q[k] * d - m, rounded once: the product of a small integer and an f16
 * (or f16 times a 6-bit scale) is exact in f32, so the fused form gives the bits of the
 * reference's separate multiply and subtract (docs/quant-types.md, "Bit-exact arithmetic"). */
static inline void gsa_store_s8x16_fmsub(float *y, __m128i q, __m256 d, __m256 m)
{
    _mm256_storeu_ps(y, _mm256_fmsub_ps(gsa_s8x8_ps(q), d, m));
    _mm256_storeu_ps(y + 8, _mm256_fmsub_ps(gsa_s8x8_ps(_mm_srli_si128(q, 8)), d, m));
}

/* The same over 32 signed bytes. */
static inline void gsa_store_s8x32_fmsub(float *y, __m256i q, __m256 d, __m256 m)
{
    gsa_store_s8x16_fmsub(y, _mm256_castsi256_si128(q), d, m);
    gsa_store_s8x16_fmsub(y + 16, _mm256_extracti128_si256(q, 1), d, m);
}

/* The same with + m (Q4_1, Q5_1): fused for the same reason. */
static inline void gsa_store_s8x16_fmadd(float *y, __m128i q, __m256 d, __m256 m)
{
    _mm256_storeu_ps(y, _mm256_fmadd_ps(gsa_s8x8_ps(q), d, m));
    _mm256_storeu_ps(y + 8, _mm256_fmadd_ps(gsa_s8x8_ps(_mm_srli_si128(q, 8)), d, m));
}

/* The low and high nibbles of 16 bytes: for the legacy layout these are elements 0..15 and
 * 16..31, already in order (no shuffle needed). */
static inline __m128i gsa_low_nibbles(__m128i x)
{
    return _mm_and_si128(x, _mm_set1_epi8(15));
}

static inline __m128i gsa_high_nibbles(__m128i x)
{
    return _mm_and_si128(_mm_srli_epi16(x, 4), _mm_set1_epi8(15));
}

static inline __m256i gsa_low_nibbles256(__m256i x)
{
    return _mm256_and_si256(x, _mm256_set1_epi8(15));
}

static inline __m256i gsa_high_nibbles256(__m256i x)
{
    return _mm256_and_si256(_mm256_srli_epi16(x, 4), _mm256_set1_epi8(15));
}

/* Byte e of the result is 0xff when bit e of the 32-bit word w is set, else 0: each byte picks
 * the byte of w that holds its bit (shuffle), then tests its own bit. */
static inline __m256i gsa_bits_to_bytes(uint32_t w)
{
    const __m256i byte_of_bit = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                                 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bit_of_byte = _mm256_set1_epi64x((long long)0x8040201008040201ull);
    const __m256i spread = _mm256_shuffle_epi8(_mm256_set1_epi32((int)w), byte_of_bit);
    return _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit_of_byte), bit_of_byte);
}

#endif
