/* SHA-256 (FIPS 180-4), self-contained so that gs_golden runs where there is no libcrypto
 * (qemu-aarch64). Checked against OpenSSL by test_golden_sha256. */
#ifndef GGUFSAFE_GS_SHA256_H
#define GGUFSAFE_GS_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct gsg_sha256 {
    uint32_t h[8];
    uint64_t total;     /* bytes hashed so far */
    uint8_t buf[64];
    size_t used;        /* bytes waiting in buf */
} gsg_sha256;

void gsg_sha256_init(gsg_sha256 *s);
void gsg_sha256_update(gsg_sha256 *s, const void *data, size_t size);
void gsg_sha256_final(gsg_sha256 *s, uint8_t digest[32]);

/* One-shot digest as 64 lowercase hex digits and a NUL. */
void gsg_sha256_hex(const void *data, size_t size, char hex[65]);

#endif
