#include "utf8.h"

#include <string.h>

size_t gsi_utf8_seq_len(const uint8_t *s, size_t n)
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

bool gsi_utf8_valid(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        /* ASCII fast path, 8 bytes at a time: tokenizer strings are mostly ASCII. */
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if ((w & 0x8080808080808080ull) != 0) {
                break;
            }
            i += 8;
        }
        while (i < n && s[i] < 0x80) {
            i++;
        }
        if (i == n) {
            return true;
        }
        size_t len = gsi_utf8_seq_len(s + i, n - i);
        if (len == 0) {
            return false;
        }
        i += len;
    }
    return true;
}
