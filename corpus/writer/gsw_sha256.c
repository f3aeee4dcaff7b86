/* SHA-256 through OpenSSL's EVP interface (gsw_sha256.h). */
#include "gsw_sha256.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gsw_sha256 {
    EVP_MD_CTX *md;
};

uint32_t gsw_nan_canonical_bits(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0) {
        bits = 0x7FC00000u;
    }
    return bits;
}

gsw_sha256 *gsw_sha256_new(void)
{
    gsw_sha256 *s = malloc(sizeof *s);
    if (s == NULL) {
        return NULL;
    }
    s->md = EVP_MD_CTX_new();
    if (s->md == NULL || EVP_DigestInit_ex(s->md, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(s->md);
        free(s);
        return NULL;
    }
    return s;
}

void gsw_sha256_bytes(gsw_sha256 *s, const void *data, size_t n)
{
    if (n > 0) {
        EVP_DigestUpdate(s->md, data, n);
    }
}

void gsw_sha256_floats(gsw_sha256 *s, const float *x, size_t n)
{
    uint8_t buf[4096];
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        const uint32_t b = gsw_nan_canonical_bits(x[i]);
        buf[used++] = (uint8_t)b;
        buf[used++] = (uint8_t)(b >> 8);
        buf[used++] = (uint8_t)(b >> 16);
        buf[used++] = (uint8_t)(b >> 24);
        if (used == sizeof buf) {
            EVP_DigestUpdate(s->md, buf, used);
            used = 0;
        }
    }
    gsw_sha256_bytes(s, buf, used);
}

void gsw_sha256_finish(gsw_sha256 *s, char hex[65])
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(s->md, digest, &len);
    for (unsigned int i = 0; i < len && i < 32; i++) {
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    }
    hex[64] = '\0';
    EVP_MD_CTX_free(s->md);
    free(s);
}

/* A whole digest of n bytes, or of n floats under the NaN rule. */
static void one_shot(const void *data, size_t n, int floats, char hex[65])
{
    gsw_sha256 *s = gsw_sha256_new();
    if (s == NULL) {
        snprintf(hex, 65, "%s", "error");
        return;
    }
    if (floats) {
        gsw_sha256_floats(s, data, n);
    } else {
        gsw_sha256_bytes(s, data, n);
    }
    gsw_sha256_finish(s, hex);
}

void gsw_sha256_floats_hex(const float *x, size_t n, char hex[65])
{
    one_shot(x, n, 1, hex);
}

void gsw_sha256_hex(const void *data, size_t n, char hex[65])
{
    one_shot(data, n, 0, hex);
}
