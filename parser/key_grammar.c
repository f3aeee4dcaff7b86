#include "key_grammar.h"

#include <stdint.h>
#include <string.h>

#include "utf8.h"

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* 0x80 in each byte of w that is one of [a-z0-9_] (*dots: the bytes that are '.'), 0 in the
 * others: exact for bytes below 0x80 (the caller rejects words with a byte above, whose borrow
 * could spill over). The range tests subtract from bytes with the high bit set, so no byte
 * borrows from the next; the equality tests are the exact zero-byte test. */
static uint64_t key_bytes(uint64_t w, uint64_t *dots)
{
    const uint64_t x = w | HIGHS;
    const uint64_t lower = (x - 'a' * ONES) & (('z' * ONES | HIGHS) - w);
    const uint64_t digit = (x - '0' * ONES) & (('9' * ONES | HIGHS) - w);
    const uint64_t u = w ^ ('_' * ONES), d = w ^ ('.' * ONES);
    const uint64_t under = ~(((u & ~HIGHS) + ~HIGHS) | u);
    const uint64_t dot = ~(((d & ~HIGHS) + ~HIGHS) | d);
    *dots = dot & HIGHS;
    return (lower | digit | under) & HIGHS;
}

gs_status gsi_check_key(const uint8_t *key, uint64_t len, bool strict)
{
    if (len == 0) {
        return GS_E_EMPTY_KEY;
    }
    if (!strict) {
        return memchr(key, 0, (size_t)len) != NULL ? GS_E_KEY_HAS_NUL : GS_OK;
    }
    /* [a-z0-9_]+(\.[a-z0-9_]+)* : every byte a key byte or a dot, eight at a time (every key of
     * a file is checked), no dot first or last, and no dot after another one (an empty
     * segment): a dot in a byte whose previous byte, in this word or the last, is one too. A key
     * that passes has no NUL; one that fails is looked at again for the status a NUL gives in
     * every profile. */
    uint64_t high = 0, all = HIGHS, doubled = 0, last_dot = 0;
    uint64_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w, dots;
        memcpy(&w, key + i, 8);
        high |= w & HIGHS;
        all &= key_bytes(w, &dots) | dots;
        doubled |= dots & ((dots << 8) | last_dot);
        last_dot = dots >> 56;
    }
    if (i < len) {
        /* the last 1 to 7 bytes, and above them bytes that read as valid: from the key's last
         * eight bytes when it has eight (one load, not a copy of a variable length) */
        const unsigned rest = (unsigned)(len - i);
        uint64_t w = 'a' * ONES, dots;
        if (len >= 8) {
            memcpy(&w, key + len - 8, 8);
            w = w >> (8 * (8 - rest)) | ('a' * ONES) << (8 * rest);
        } else {
            memcpy(&w, key, rest);
        }
        high |= w & HIGHS;
        all &= key_bytes(w, &dots) | dots;
        doubled |= dots & ((dots << 8) | last_dot);
    }
    bool bad = len > GSI_MAX_KEY_BYTES || high != 0 || all != HIGHS || doubled != 0 ||
               key[0] == '.' || key[len - 1] == '.';
    if (!bad) {
        return GS_OK;
    }
    return memchr(key, 0, (size_t)len) != NULL ? GS_E_KEY_HAS_NUL : GS_E_BAD_KEY;
}

gs_status gsi_check_tensor_name(const uint8_t *name, uint64_t len, bool strict)
{
    if (len == 0) {
        return GS_E_TENSOR_NAME_EMPTY;
    }
    if (memchr(name, 0, (size_t)len) != NULL) {
        return GS_E_TENSOR_NAME_HAS_NUL;
    }
    if (!strict) {
        return GS_OK;
    }
    if (len > GSI_MAX_NAME_BYTES) {
        return GS_E_TENSOR_NAME_TOO_LONG;
    }
    if (!gsi_utf8_valid(name, (size_t)len)) {
        return GS_E_INVALID_UTF8;
    }
    return GS_OK;
}
