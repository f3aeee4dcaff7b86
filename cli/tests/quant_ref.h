/* A small test-side quantizer for the `diff` tests: Q8_0 and Q4_0 blocks made with the formulas
 * of ggml's reference quantizers (quantize_row_q8_0_ref, quantize_row_q4_0_ref), written afresh
 * here, plus the f32 -> f16 rounding they need and deterministic Gaussian test data. Test-only:
 * the library decodes, it never quantizes. */
#ifndef GGUFSAFE_TEST_QUANT_REF_H
#define GGUFSAFE_TEST_QUANT_REF_H

#include <stddef.h>
#include <stdint.h>

/* f32 to IEEE half, round to nearest even (what ggml's GGML_FP32_TO_FP16 gives). */
uint16_t qr_f32_to_f16(float f);

/* n must be a multiple of 32; dst receives n/32 blocks of 34 (Q8_0) or 18 (Q4_0) bytes. */
void qr_quantize_q8_0(const float *src, size_t n, uint8_t *dst);
void qr_quantize_q4_0(const float *src, size_t n, uint8_t *dst);

/* n Gaussian values of mean 0 and standard deviation sigma, from a splitmix64 stream seeded by
 * seed (Box-Muller): the same values on every run. */
void qr_gaussian(uint64_t seed, float sigma, float *dst, size_t n);

#endif
