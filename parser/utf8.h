/* UTF-8 validation (RFC 3629): no overlongs, no surrogates, nothing above U+10FFFF. */
#ifndef GGUFSAFE_UTF8_H
#define GGUFSAFE_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The SIMD validator for long ranges where the CPU runs it (kernels/utf8_kernels.h), else the
 * scalar one: the same answer either way. */
bool gsi_utf8_valid(const uint8_t *s, size_t n);
/* The scalar validator alone: the reference the SIMD one is tested against. */
bool gsi_utf8_valid_scalar(const uint8_t *s, size_t n);

/* Length of the valid UTF-8 sequence starting at s[0] (1..4), or 0 if s[0] starts an invalid
 * sequence within the n bytes available. */
size_t gsi_utf8_seq_len(const uint8_t *s, size_t n);

/* The same length, with the sequence's code point in *cp when it is valid (len > 0). */
size_t gsi_utf8_decode(const uint8_t *s, size_t n, uint32_t *cp);

#endif
