/* UTF-8 validation on a SIMD path, for parser/utf8.c (which picks it for long ranges when
 * gsi_cpu_avx2() says the CPU runs it). Same answer as the scalar validator on every input. */
#ifndef GGUFSAFE_UTF8_KERNELS_H
#define GGUFSAFE_UTF8_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
/* kernels/avx2/avx2_utf8.c, compiled for AVX2: only call when gsi_cpu_avx2(). */
bool gsi_utf8_valid_avx2(const uint8_t *s, size_t n);
#endif

#endif
