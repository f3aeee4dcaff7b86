/* Plain float element types on AVX2: F32 (a copy), F16 (F16C vcvtph2ps, exact and equal to the
 * scalar software conversion on all 65536 inputs) and BF16 (widen, shift into the top half). */
#include <stdint.h>

#include "avx2_util.h"
#include "block_layout.h"
#include "decode_avx2.h"

/* x86-64 is little-endian, so the bytes are the little-endian bits the scalar decoder reads:
 * a copy keeps every payload, signalling NaNs included. */
static void f32_rows(const uint8_t *src, float *dst, size_t n)
{
    size_t i = ((32u - (uintptr_t)dst % 32u) % 32u) / sizeof(float);
    i = i < n ? i : n;
    memcpy(dst, src, i * sizeof(float));
    for (; i + 32 <= n; i += 32) {
        const uint8_t *p = src + 4 * i;
        _mm256_storeu_si256((__m256i *)(void *)(dst + i), gsa_load256(p));
        _mm256_storeu_si256((__m256i *)(void *)(dst + i + 8), gsa_load256(p + 32));
        _mm256_storeu_si256((__m256i *)(void *)(dst + i + 16), gsa_load256(p + 64));
        _mm256_storeu_si256((__m256i *)(void *)(dst + i + 24), gsa_load256(p + 96));
    }
    memcpy(dst + i, src + 4 * i, (n - i) * sizeof(float));
}

GSI_AVX2_DECODER(f32)
{
    gsi_avx2_decode(f32_rows, src, dst, n_blocks, GSI_F32_BYTES, GSI_F32_ELEMS);
}

/* Eight conversions of 16-bit inputs at p to 8 floats. */
typedef __m256 (*convert8_fn)(const uint8_t *p);

static inline __m256 f16x8(const uint8_t *p)
{
    return _mm256_cvtph_ps(gsa_load128(p));
}

/* bf16 is the top half of an f32: zero-extend each u16 to 32 bits and shift it up. */
static inline __m256 bf16x8(const uint8_t *p)
{
    const __m256i wide = _mm256_cvtepu16_epi32(gsa_load128(p));
    return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
}

/* Fewer than 8 elements: through small buffers, never past the input's or output's end. */
static inline void convert_few(convert8_fn cvt, const uint8_t *src, float *dst, size_t n)
{
    uint8_t in[16] = {0};
    float out[8];
    memcpy(in, src, 2 * n);
    _mm256_storeu_ps(out, cvt(in));
    memcpy(dst, out, n * sizeof(float));
}

/* The first few elements bring dst to a 32-byte boundary, so that no 32-byte store of the main
 * loop splits a cache line (split stores cost a quarter of the throughput when the output is
 * in L2, where these conversions are store-bound). */
static inline void convert_rows(convert8_fn cvt, const uint8_t *src, float *dst, size_t n)
{
    size_t i = ((32u - (uintptr_t)dst % 32u) % 32u) / sizeof(float);
    i = i < n ? i : n;
    convert_few(cvt, src, dst, i);
    for (; i + 32 <= n; i += 32) {
        const uint8_t *p = src + 2 * i;
        _mm256_storeu_ps(dst + i, cvt(p));
        _mm256_storeu_ps(dst + i + 8, cvt(p + 16));
        _mm256_storeu_ps(dst + i + 16, cvt(p + 32));
        _mm256_storeu_ps(dst + i + 24, cvt(p + 48));
    }
    for (; i + 8 <= n; i += 8) {
        _mm256_storeu_ps(dst + i, cvt(src + 2 * i));
    }
    convert_few(cvt, src + 2 * i, dst + i, n - i);
}

static void f16_rows(const uint8_t *src, float *dst, size_t n)
{
    convert_rows(f16x8, src, dst, n);
}

static void bf16_rows(const uint8_t *src, float *dst, size_t n)
{
    convert_rows(bf16x8, src, dst, n);
}

GSI_AVX2_DECODER(f16)
{
    gsi_avx2_decode(f16_rows, src, dst, n_blocks, GSI_F16_BYTES, GSI_F16_ELEMS);
}

GSI_AVX2_DECODER(bf16)
{
    gsi_avx2_decode(bf16_rows, src, dst, n_blocks, GSI_BF16_BYTES, GSI_BF16_ELEMS);
}
