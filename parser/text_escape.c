#include "text_escape.h"

#include <string.h>

#include "utf8.h"

size_t gsi_escape_text(char *dst, size_t cap, const uint8_t *src, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t out = 0;
    size_t i = 0;
    /* Reserve room for "..." and the NUL. */
    size_t limit = cap - 4;
    while (i < n) {
        char piece[8];
        size_t plen;
        size_t consumed;
        uint8_t b = src[i];
        if (b == '\\') {
            piece[0] = '\\';
            piece[1] = '\\';
            plen = 2;
            consumed = 1;
        } else if (b < 0x20 || b == 0x7f) {
            piece[0] = '\\';
            piece[1] = 'x';
            piece[2] = hex[b >> 4];
            piece[3] = hex[b & 15];
            plen = 4;
            consumed = 1;
        } else if (b < 0x80) {
            piece[0] = (char)b;
            plen = 1;
            consumed = 1;
        } else {
            size_t len = gsi_utf8_seq_len(src + i, n - i);
            if (len == 0) {
                piece[0] = '\\';
                piece[1] = 'x';
                piece[2] = hex[b >> 4];
                piece[3] = hex[b & 15];
                plen = 4;
                consumed = 1;
            } else {
                memcpy(piece, src + i, len);
                plen = len;
                consumed = len;
            }
        }
        if (out + plen > limit) {
            memcpy(dst + out, "...", 3);
            out += 3;
            break;
        }
        memcpy(dst + out, piece, plen);
        out += plen;
        i += consumed;
    }
    dst[out] = '\0';
    return out;
}
