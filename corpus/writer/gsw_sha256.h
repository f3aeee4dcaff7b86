/* SHA-256, through OpenSSL's libcrypto (EVP): the one SHA-256 of the tests and tools. The corpus
 * generator records each file's hash and the replay and certify runs check it; gs_golden, the
 * KAT and decode tests and the ggml oracle (both sides) hash decoded f32 output under the NaN
 * rule (architecture.md): every NaN as 0x7FC00000, every other bit pattern as it is,
 * little-endian. The corpus_sha256sum ctest holds the hashes to sha256sum. */
#ifndef GGUFSAFE_GSW_SHA256_H
#define GGUFSAFE_GSW_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct gsw_sha256 gsw_sha256;

/* NULL when libcrypto cannot start SHA-256. */
gsw_sha256 *gsw_sha256_new(void);
void gsw_sha256_bytes(gsw_sha256 *s, const void *data, size_t n);
/* Hashes n floats after NaN canonicalization. */
void gsw_sha256_floats(gsw_sha256 *s, const float *x, size_t n);
/* Writes 64 lowercase hex digits and a NUL, and frees s. */
void gsw_sha256_finish(gsw_sha256 *s, char hex[65]);

/* One-shot digests; "error" instead of hex digits when libcrypto fails (it matches no hash). */
void gsw_sha256_hex(const void *data, size_t n, char hex[65]);
void gsw_sha256_floats_hex(const float *x, size_t n, char hex[65]);

/* The canonical bits of one float (NaN -> 0x7FC00000). */
uint32_t gsw_nan_canonical_bits(float f);

#endif
