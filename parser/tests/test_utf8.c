/* UTF-8 validation: the SIMD validator (AVX2, for ranges of 64 bytes and more, where the CPU
 * runs it) against the scalar one, which is the reference, on every 1- and 2-byte sequence and
 * the interesting 3- and 4-byte ones at every offset around the 32-byte blocks and the tail,
 * on sequences cut by the end, and on random text with random damage. The two must agree on
 * every input. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

/* A buffer of 'a's of len bytes with seq placed at off: both validators, same answer. */
static void agree(const uint8_t *seq, size_t n, size_t off, size_t len)
{
    uint8_t buf[160];
    cr_assert_leq(off + n, len);
    cr_assert_leq(len, sizeof buf);
    memset(buf, 'a', len);
    memcpy(buf + off, seq, n);
    bool want = gsi_utf8_valid_scalar(buf, len);
    bool got = gsi_utf8_valid(buf, len);
    if (want != got) {
        cr_assert_fail("%zu bytes at offset %zu of %zu (first 0x%02x): scalar %d, dispatched %d",
                       n, off, len, seq[0], want, got);
    }
}

/* Offsets around the 32-byte blocks, the 16-byte lanes and the end of a 96-byte range. */
static const size_t offsets[] = {0, 1, 2, 13, 14, 15, 16, 17, 29, 30, 31, 32, 33, 34,
                                 47, 48, 60, 61, 62, 63, 64, 65, 92, 93, 94, 95};

Test(utf8, every_two_bytes_at_every_block_offset)
{
    for (unsigned x = 0; x < 65536; x++) {
        const uint8_t seq[2] = {(uint8_t)(x >> 8), (uint8_t)x};
        for (size_t k = 0; k < sizeof offsets / sizeof offsets[0]; k++) {
            size_t off = offsets[k];
            agree(seq, off + 2 <= 96 ? 2 : 1, off, 96);
        }
    }
}

static const uint8_t interesting[] = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0,
                                      0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff};
#define N_INTERESTING (sizeof interesting / sizeof interesting[0])

Test(utf8, three_and_four_byte_sequences_at_block_edges)
{
    static const size_t edges[] = {0, 28, 29, 30, 31, 32, 60, 61, 62, 63, 92, 93};
    for (unsigned lead = 0xc0; lead <= 0xff; lead++) {
        for (size_t a = 0; a < N_INTERESTING; a++) {
            for (size_t b = 0; b < N_INTERESTING; b++) {
                for (size_t c = 0; c < (lead >= 0xf0 ? N_INTERESTING : 1); c++) {
                    const uint8_t seq[4] = {(uint8_t)lead, interesting[a], interesting[b],
                                            interesting[c]};
                    size_t n = lead >= 0xf0 ? 4 : 3;
                    for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++) {
                        if (edges[k] + n <= 96) {
                            agree(seq, n, edges[k], 96);
                        }
                    }
                }
            }
        }
    }
}

/* A valid character cut by the end of the range, for every cut and every range length around
 * the blocks: invalid both ways; whole, valid both ways. */
Test(utf8, characters_cut_by_the_end)
{
    static const char *const chars[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                        "\xf4\x8f\xbf\xbf", "\xed\x9f\xbf", "\xef\xbf\xbf"};
    for (size_t c = 0; c < sizeof chars / sizeof chars[0]; c++) {
        size_t n = strlen(chars[c]);
        for (size_t len = 64; len <= 130; len++) {
            for (size_t keep = 1; keep <= n; keep++) {
                agree((const uint8_t *)chars[c], keep, len - keep, len);
                uint8_t buf[160];
                memset(buf, 'a', len);
                memcpy(buf + len - keep, chars[c], keep);
                cr_assert_eq(gsi_utf8_valid(buf, len), keep == n, "len %zu keep %zu", len, keep);
            }
        }
    }
}

/* Random text of valid characters, then one byte changed: the same answer. */
Test(utf8, random_text_with_random_damage)
{
    static const char *const chars[] = {"a", "Z", "0", " ", "\xc3\xa9", "\xd0\x96", "\xe2\x96\x81",
                                        "\xe4\xb8\xad", "\xed\x9f\xbf", "\xee\x80\x80",
                                        "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf"};
    uint8_t buf[600];
    uint64_t x = 88172645463325252ull;
    size_t invalid = 0;
    for (int round = 0; round < 100000; round++) {
        size_t len = 0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t target = 64 + x % 500;
        while (len < target) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            const char *ch = chars[x % (sizeof chars / sizeof chars[0])];
            size_t n = strlen(ch);
            if (len + n > target) {
                break;
            }
            memcpy(buf + len, ch, n);
            len += n;
        }
        cr_assert(gsi_utf8_valid(buf, len) && gsi_utf8_valid_scalar(buf, len));
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        buf[x % len] = (uint8_t)(x >> 24);
        bool want = gsi_utf8_valid_scalar(buf, len);
        cr_assert_eq(gsi_utf8_valid(buf, len), want, "round %d", round);
        invalid += !want;
    }
    cr_assert_gt(invalid, 10000, "the damage makes invalid text often");
}
