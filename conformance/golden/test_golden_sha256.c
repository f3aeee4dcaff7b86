/* gs_golden's own SHA-256 against OpenSSL, on every length around the block and padding
 * boundaries and with the input fed in pieces. */
#include <criterion/criterion.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#include "gs_sha256.h"

static void openssl_hex(const void *data, size_t size, char hex[65])
{
    unsigned char md[32];
    unsigned int len = 0;
    cr_assert(EVP_Digest(data, size, md, &len, EVP_sha256(), NULL) == 1 && len == 32);
    for (int i = 0; i < 32; i++) {
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    }
}

Test(golden_sha256, known_vectors)
{
    char hex[65];
    gsg_sha256_hex("", 0, hex);
    cr_expect_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    gsg_sha256_hex("abc", 3, hex);
    cr_expect_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

Test(golden_sha256, matches_openssl)
{
    static unsigned char data[1100];
    for (size_t i = 0; i < sizeof data; i++) {
        data[i] = (unsigned char)(i * 131u + 7u);
    }
    for (size_t n = 0; n <= sizeof data; n++) {
        char ours[65], theirs[65];
        gsg_sha256_hex(data, n, ours);
        openssl_hex(data, n, theirs);
        cr_assert_str_eq(ours, theirs, "length %zu", n);
    }
}

Test(golden_sha256, pieces)
{
    static unsigned char data[700];
    for (size_t i = 0; i < sizeof data; i++) {
        data[i] = (unsigned char)(i ^ 0x5a);
    }
    char want[65];
    openssl_hex(data, sizeof data, want);
    for (size_t piece = 1; piece < 130; piece++) {
        gsg_sha256 s;
        gsg_sha256_init(&s);
        for (size_t off = 0; off < sizeof data; off += piece) {
            gsg_sha256_update(&s, data + off, off + piece <= sizeof data ? piece : sizeof data - off);
        }
        uint8_t digest[32];
        gsg_sha256_final(&s, digest);
        char hex[65];
        for (int i = 0; i < 32; i++) {
            snprintf(hex + 2 * i, 3, "%02x", digest[i]);
        }
        cr_assert_str_eq(hex, want, "pieces of %zu", piece);
    }
}
