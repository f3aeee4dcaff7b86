#include "utf8.h"

#include <string.h>

#include "cpu_features.h"
#include "utf8_kernels.h"

/* Below this the scalar loop is as fast: keys and tensor names. String arrays are checked a run
 * of elements at a time (parse_kv.c), so a vocabulary is a few long ranges. */
#define SIMD_MIN_BYTES 64

/* Inlined into the validator's loops: most of a vocabulary's time is spent here. */
static inline __attribute__((always_inline)) size_t seq_len(const uint8_t *s, size_t n)
{
    uint8_t b0 = s[0];
    if (b0 < 0x80) {
        return 1;
    }
    if (b0 < 0xC2) {
        return 0; /* continuation byte, or overlong 2-byte lead */
    }
    if (b0 < 0xE0) {
        return (n >= 2 && (s[1] & 0xC0) == 0x80) ? 2 : 0;
    }
    if (b0 < 0xF0) {
        if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) {
            return 0;
        }
        if (b0 == 0xE0 && s[1] < 0xA0) {
            return 0; /* overlong */
        }
        if (b0 == 0xED && s[1] >= 0xA0) {
            return 0; /* surrogate */
        }
        return 3;
    }
    if (b0 < 0xF5) {
        if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80) {
            return 0;
        }
        if (b0 == 0xF0 && s[1] < 0x90) {
            return 0; /* overlong */
        }
        if (b0 == 0xF4 && s[1] >= 0x90) {
            return 0; /* above U+10FFFF */
        }
        return 4;
    }
    return 0;
}

size_t gsi_utf8_seq_len(const uint8_t *s, size_t n)
{
    return seq_len(s, n);
}

size_t gsi_utf8_decode(const uint8_t *s, size_t n, uint32_t *cp)
{
    size_t len = seq_len(s, n);
    static const uint8_t lead_mask[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
    if (len > 0) {
        uint32_t v = s[0] & lead_mask[len];
        for (size_t k = 1; k < len; k++) {
            v = v << 6 | (s[k] & 0x3fu);
        }
        *cp = v;
    }
    return len;
}

#define HIGH_BITS 0x8080808080808080ull

bool gsi_utf8_valid(const uint8_t *s, size_t n)
{
#if defined(__x86_64__)
    if (n >= SIMD_MIN_BYTES && gsi_cpu_avx2()) {
        return gsi_utf8_valid_avx2(s, n);
    }
#endif
    return gsi_utf8_valid_scalar(s, n);
}

bool gsi_utf8_valid_scalar(const uint8_t *s, size_t n)
{
    size_t i = 0;
    /* Eight bytes at a time: skip straight to the first non-ASCII byte. Tokenizer strings are
     * short and mostly ASCII, so this is the hot path of parsing a vocabulary. */
    while (n - i >= 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        uint64_t high = w & HIGH_BITS;
        if (high == 0) {
            i += 8;
            continue;
        }
        /* little-endian load: the lowest set bit is the first byte in memory order */
        uint64_t le_high = high;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        le_high = __builtin_bswap64(high);
#endif
        i += (size_t)__builtin_ctzll(le_high) / 8;
        size_t len = seq_len(s + i, n - i);
        if (len == 0) {
            return false;
        }
        i += len;
    }
    while (i < n) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t len = seq_len(s + i, n - i);
        if (len == 0) {
            return false;
        }
        i += len;
    }
    return true;
}
