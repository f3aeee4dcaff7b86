/* The corpus SHA-256 against the FIPS 180-4 examples. */
#include <criterion/criterion.h>
#include <string.h>

#include "gsc_sha256.h"

static void expect(const void *data, size_t n, const char *hex)
{
    char got[65];
    gsc_sha256_hex(data, n, got);
    cr_assert_str_eq(got, hex);
}

Test(sha256, fips_examples)
{
    expect("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    expect(two, strlen(two), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

Test(sha256, million_a_in_uneven_pieces)
{
    static char a[1000000];
    memset(a, 'a', sizeof a);
    gsc_sha256 s;
    gsc_sha256_init(&s);
    size_t done = 0, step = 1;
    while (done < sizeof a) {
        size_t n = sizeof a - done < step ? sizeof a - done : step;
        gsc_sha256_update(&s, a + done, n);
        done += n;
        step = step * 3 % 1021 + 1;
    }
    uint8_t d[32];
    gsc_sha256_final(&s, d);
    static const uint8_t want[32] = {
        0xcd, 0xc7, 0x6e, 0x5c, 0x99, 0x14, 0xfb, 0x92, 0x81, 0xa1, 0xc7, 0xe2, 0x84, 0xd7, 0x3e,
        0x67, 0xf1, 0x80, 0x9a, 0x48, 0xa4, 0x97, 0x20, 0x0e, 0x04, 0x6d, 0x39, 0xcc, 0xc7, 0x11,
        0x2c, 0xd0,
    };
    cr_assert_arr_eq(d, want, 32);
}
