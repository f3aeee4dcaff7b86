/* SHA-256 of decoded f32 output under the NaN rule (docs/decoders.md): every NaN hashes as
 * 0x7FC00000, every other bit pattern as it is, little-endian. Shared by the oracle runner
 * (ggml's side) and the tests (our side), so both hash the same way. OpenSSL libcrypto. */
#ifndef GGUFSAFE_NAN_SHA256_H
#define GGUFSAFE_NAN_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct gsx_sha gsx_sha;

/* NULL when libcrypto cannot start SHA-256. */
gsx_sha *gsx_sha_new(void);
/* Hashes n floats after NaN canonicalization. */
void gsx_sha_floats(gsx_sha *s, const float *x, size_t n);
void gsx_sha_bytes(gsx_sha *s, const void *data, size_t n);
/* Writes 64 lowercase hex digits and a NUL, and frees s. */
void gsx_sha_finish(gsx_sha *s, char hex[65]);

/* One-shot helpers. */
void gsx_sha_floats_hex(const float *x, size_t n, char hex[65]);
void gsx_sha_bytes_hex(const void *data, size_t n, char hex[65]);

/* The canonical bits of one float (NaN -> 0x7FC00000). */
uint32_t gsx_canonical_bits(float f);

#endif
