#include "key_grammar.h"

#include <stdint.h>
#include <string.h>

#include "utf8.h"

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* 0x80 in each byte of w that is one of [a-z0-9_.], 0 in the others: exact for bytes below
 * 0x80 (the caller rejects words with a byte above, whose borrow could spill over). The range
 * tests subtract from bytes with the high bit set, so no byte borrows from the next; the
 * equality tests are the exact zero-byte test. */
static uint64_t key_bytes(uint64_t w)
{
    const uint64_t x = w | HIGHS;
    const uint64_t lower = (x - 'a' * ONES) & (('z' * ONES | HIGHS) - w);
    const uint64_t digit = (x - '0' * ONES) & (('9' * ONES | HIGHS) - w);
    const uint64_t u = w ^ ('_' * ONES), d = w ^ ('.' * ONES);
    const uint64_t under = ~(((u & ~HIGHS) + ~HIGHS) | u);
    const uint64_t dot = ~(((d & ~HIGHS) + ~HIGHS) | d);
    return (lower | digit | under | dot) & HIGHS;
}

/* The rules a key and a tensor name share, each with its own status: not empty, no NUL and, in
 * strict, at most max bytes. True when that settles it (*st says how), false when the strict
 * rules of the kind come next. */
typedef struct name_rules {
    uint64_t max;
    gs_status empty, has_nul, too_long;
} name_rules;

static bool check_name(const uint8_t *name, uint64_t len, bool strict, const name_rules *r,
                       gs_status *st)
{
    *st = GS_OK;
    if (len == 0) {
        *st = r->empty;
    } else if (memchr(name, 0, (size_t)len) != NULL) {
        *st = r->has_nul;
    } else if (strict && len > r->max) {
        *st = r->too_long;
    }
    return *st != GS_OK || !strict;
}

gs_status gsi_check_key(const uint8_t *key, uint64_t len, bool strict)
{
    static const name_rules rules = {GSI_MAX_KEY_BYTES, GS_E_EMPTY_KEY, GS_E_KEY_HAS_NUL,
                                     GS_E_BAD_KEY};
    gs_status st;
    if (check_name(key, len, strict, &rules, &st)) {
        return st;
    }
    /* [a-z0-9_]+(\.[a-z0-9_]+)* : every byte a key byte or a dot, eight at a time (every key of
     * a file is checked), then no dot first, last or after another one (an empty segment). */
    uint64_t high = 0, all = HIGHS;
    uint64_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, key + i, 8);
        high |= w & HIGHS;
        all &= key_bytes(w);
    }
    if (i < len) {
        uint64_t w = 'a' * ONES; /* the bytes past the key read as valid */
        memcpy(&w, key + i, (size_t)(len - i));
        high |= w & HIGHS;
        all &= key_bytes(w);
    }
    if (high != 0 || all != HIGHS || key[0] == '.' || key[len - 1] == '.') {
        return GS_E_BAD_KEY;
    }
    const uint8_t *end = key + len;
    for (const uint8_t *d = memchr(key, '.', (size_t)len); d != NULL;
         d = memchr(d + 1, '.', (size_t)(end - (d + 1)))) {
        if (d[1] == '.') { /* d is not the last byte */
            return GS_E_BAD_KEY;
        }
    }
    return GS_OK;
}

gs_status gsi_check_tensor_name(const uint8_t *name, uint64_t len, bool strict)
{
    static const name_rules rules = {GSI_MAX_NAME_BYTES, GS_E_TENSOR_NAME_EMPTY,
                                     GS_E_TENSOR_NAME_HAS_NUL, GS_E_TENSOR_NAME_TOO_LONG};
    gs_status st;
    if (check_name(name, len, strict, &rules, &st)) {
        return st;
    }
    if (!gsi_utf8_valid(name, (size_t)len)) {
        return GS_E_INVALID_UTF8;
    }
    return GS_OK;
}
