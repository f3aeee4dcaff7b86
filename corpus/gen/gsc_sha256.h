/* SHA-256 (FIPS 180-4) for the corpus manifest: the generator records each file's hash and the
 * replay checks it, with no dependency beyond libc. Checked against sha256sum by a ctest. */
#ifndef GGUFSAFE_GSC_SHA256_H
#define GGUFSAFE_GSC_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct gsc_sha256 {
    uint32_t h[8];
    uint64_t total;     /* bytes hashed so far */
    uint8_t block[64];
    size_t fill;        /* bytes waiting in block */
} gsc_sha256;

void gsc_sha256_init(gsc_sha256 *s);
void gsc_sha256_update(gsc_sha256 *s, const void *data, size_t n);
void gsc_sha256_final(gsc_sha256 *s, uint8_t digest[32]);

/* The digest of data as 64 lowercase hex digits and a NUL. */
void gsc_sha256_hex(const void *data, size_t n, char hex[65]);

#endif
