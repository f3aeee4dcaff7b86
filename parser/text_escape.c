#include "text_escape.h"

#include <string.h>

#include "utf8.h"

/* The hidden characters above DEL, as inclusive ranges in code point order (docs/cli.md lists
 * them with their names). */
static const struct {
    uint32_t first, last;
} hidden[] = {
    {0x0080, 0x009f},   /* C1 controls: CSI U+009B, OSC U+009D, NEL U+0085, ... */
    {0x00ad, 0x00ad},   /* soft hyphen */
    {0x061c, 0x061c},   /* Arabic letter mark */
    {0x180e, 0x180e},   /* Mongolian vowel separator */
    {0x200b, 0x200f},   /* zero width space, non-joiner, joiner; LRM, RLM */
    {0x2028, 0x202e},   /* line and paragraph separators; LRE, RLE, PDF, LRO, RLO */
    {0x2060, 0x206f},   /* word joiner, invisible operators; LRI, RLI, FSI, PDI; deprecated
                           format controls */
    {0xfeff, 0xfeff},   /* byte order mark, zero width no-break space */
    {0xfff9, 0xfffb},   /* interlinear annotation controls */
    {0x1bca0, 0x1bca3}, /* shorthand format controls */
    {0x1d173, 0x1d17a}, /* musical symbol format controls */
    {0xe0000, 0xe007f}, /* tag characters */
};

bool gsi_char_hidden(uint32_t cp)
{
    if (cp < 0x20 || cp == 0x7f) {
        return true;
    }
    if (cp < 0x80) {
        return false;
    }
    for (size_t i = 0; i < sizeof hidden / sizeof hidden[0] && cp >= hidden[i].first; i++) {
        if (cp <= hidden[i].last) {
            return true;
        }
    }
    return false;
}

gsi_char gsi_char_next(const uint8_t *s, size_t n)
{
    gsi_char c = {GSI_CHAR_PLAIN, s[0], 1};
    if (s[0] < 0x80) {
        c.cls = gsi_char_hidden(s[0]) ? GSI_CHAR_HIDDEN : GSI_CHAR_PLAIN;
        return c;
    }
    uint32_t cp;
    size_t len = gsi_utf8_decode(s, n, &cp);
    if (len == 0) {
        c.cls = GSI_CHAR_INVALID;
        return c;
    }
    c.cp = cp;
    c.len = len;
    c.cls = gsi_char_hidden(cp) ? GSI_CHAR_HIDDEN : GSI_CHAR_PLAIN;
    return c;
}

/* The text form of one character into piece (room for 10 bytes, as in \u{10ffff}); its length. */
static size_t text_piece(char *piece, const uint8_t *src, gsi_char c)
{
    static const char hex[] = "0123456789abcdef";
    if (c.cls == GSI_CHAR_PLAIN) {
        if (c.cp == '\\') {
            memcpy(piece, "\\\\", 2);
            return 2;
        }
        memcpy(piece, src, c.len);
        return c.len;
    }
    if (c.cls == GSI_CHAR_INVALID || c.cp < 0x80) {
        piece[0] = '\\';
        piece[1] = 'x';
        piece[2] = hex[c.cp >> 4 & 15];
        piece[3] = hex[c.cp & 15];
        return 4;
    }
    /* \u{XXXX}: at least four hex digits, as many as the code point needs. */
    size_t digits = c.cp > 0xfffff ? 6 : c.cp > 0xffff ? 5 : 4;
    size_t k = 0;
    piece[k++] = '\\';
    piece[k++] = 'u';
    piece[k++] = '{';
    for (size_t d = digits; d-- > 0;) {
        piece[k++] = hex[c.cp >> (4 * d) & 15];
    }
    piece[k++] = '}';
    return k;
}

size_t gsi_escape_text(char *dst, size_t cap, const uint8_t *src, size_t n)
{
    size_t out = 0;
    size_t i = 0;
    /* Reserve room for "..." and the NUL. */
    size_t limit = cap - 4;
    while (i < n) {
        char piece[10];
        gsi_char c = gsi_char_next(src + i, n - i);
        size_t plen = text_piece(piece, src + i, c);
        if (out + plen > limit) {
            memcpy(dst + out, "...", 3);
            out += 3;
            break;
        }
        memcpy(dst + out, piece, plen);
        out += plen;
        i += c.len;
    }
    dst[out] = '\0';
    return out;
}
