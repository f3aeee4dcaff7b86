/* SHA-256 under the NaN rule, through OpenSSL's EVP interface. */
#include "nan_sha256.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gsx_sha {
    EVP_MD_CTX *md;
};

uint32_t gsx_canonical_bits(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0) {
        bits = 0x7FC00000u;
    }
    return bits;
}

gsx_sha *gsx_sha_new(void)
{
    gsx_sha *s = malloc(sizeof *s);
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

void gsx_sha_bytes(gsx_sha *s, const void *data, size_t n)
{
    if (n > 0) {
        EVP_DigestUpdate(s->md, data, n);
    }
}

void gsx_sha_floats(gsx_sha *s, const float *x, size_t n)
{
    uint8_t buf[4096];
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        const uint32_t b = gsx_canonical_bits(x[i]);
        buf[used++] = (uint8_t)b;
        buf[used++] = (uint8_t)(b >> 8);
        buf[used++] = (uint8_t)(b >> 16);
        buf[used++] = (uint8_t)(b >> 24);
        if (used == sizeof buf) {
            EVP_DigestUpdate(s->md, buf, used);
            used = 0;
        }
    }
    gsx_sha_bytes(s, buf, used);
}

void gsx_sha_finish(gsx_sha *s, char hex[65])
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

void gsx_sha_floats_hex(const float *x, size_t n, char hex[65])
{
    gsx_sha *s = gsx_sha_new();
    if (s == NULL) {
        snprintf(hex, 65, "%s", "error");
        return;
    }
    gsx_sha_floats(s, x, n);
    gsx_sha_finish(s, hex);
}

void gsx_sha_bytes_hex(const void *data, size_t n, char hex[65])
{
    gsx_sha *s = gsx_sha_new();
    if (s == NULL) {
        snprintf(hex, 65, "%s", "error");
        return;
    }
    gsx_sha_bytes(s, data, n);
    gsx_sha_finish(s, hex);
}
