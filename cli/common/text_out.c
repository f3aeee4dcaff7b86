#include "text_out.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "text_escape.h"

static const char ellipsis[] = "\xe2\x80\xa6"; /* U+2026 */

/* Columns: one per code point, i.e. per byte that is not a UTF-8 continuation byte. */
static void measure(cli_text *t)
{
    t->width = 0;
    for (size_t i = 0; i < t->len; i++) {
        if (((uint8_t)t->s[i] & 0xc0) != 0x80) {
            t->width++;
        }
    }
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* Whether any of the 8 bytes of w is below 0x20, above 0x7e or a backslash (the classic
 * word-at-a-time tests: exact for "is there one"). */
static bool word_not_plain(uint64_t w)
{
    const uint64_t below = (w - 0x20 * ONES) & ~w & HIGHS;
    const uint64_t above = ((w + (0x7f - 0x7e) * ONES) | w) & HIGHS;
    const uint64_t v = w ^ ('\\' * ONES);
    const uint64_t backslash = (v - ONES) & ~v & HIGHS;
    return (below | above | backslash) != 0;
}

/* Whether s[0..n) is printable ASCII without a backslash: the bytes gsi_escape_text passes
 * through unchanged, one column each. Keys, tensor names and numbers nearly always are. */
static bool plain(const uint8_t *s, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (word_not_plain(w)) {
            return false;
        }
    }
    if (i < n && n >= 8) {
        /* the last 1 to 7 bytes: the word that ends the text, overlapping checked bytes */
        uint64_t w;
        memcpy(&w, s + n - 8, 8);
        return !word_not_plain(w);
    }
    uint8_t bad = 0;
    for (; i < n; i++) {
        bad |= (uint8_t)((s[i] < 0x20) | (s[i] > 0x7e) | (s[i] == '\\'));
    }
    return bad == 0;
}

size_t cli_text_cut(const void *src, size_t n, size_t max_src)
{
    const uint8_t *s = src;
    if (n <= max_src) {
        return n;
    }
    /* Back off to the start of a UTF-8 sequence so that the cut does not turn a valid character
     * into \xHH escapes. Continuation bytes are 10xxxxxx; a sequence has at most 3 of them. */
    size_t cut = max_src;
    for (int k = 0; k < 3 && cut > 0 && (s[cut] & 0xc0) == 0x80; k++) {
        cut--;
    }
    return cut;
}

size_t cli_escape_cut(char *dst, size_t cap, const void *src, size_t n, size_t max_src)
{
    size_t cut = cli_text_cut(src, n, max_src);
    bool cut_short = cut < n && cap >= sizeof ellipsis + 4;
    size_t len = gsi_escape_text(dst, cut_short ? cap - (sizeof ellipsis - 1) : cap, src, cut);
    if (cut_short) {
        memcpy(dst + len, ellipsis, sizeof ellipsis);
        len += sizeof ellipsis - 1;
    }
    return len;
}

void cli_text_escape(cli_text *t, const void *src, size_t n, size_t max_src)
{
    if (max_src > CLI_TEXT_MAX_SRC) {
        max_src = CLI_TEXT_MAX_SRC;
    }
    /* the cut cli_escape_cut makes; plain text escapes to itself, without the per-byte work */
    size_t cut = cli_text_cut(src, n, max_src);
    if (plain(src, cut)) {
        memcpy(t->s, src, cut);
        t->len = cut;
        t->width = cut;
        if (cut < n) {
            memcpy(t->s + t->len, ellipsis, sizeof ellipsis);
            t->len += sizeof ellipsis - 1;
            t->width++;
        }
        t->s[t->len] = '\0';
        return;
    }
    /* The buffer holds 4 bytes per source byte, so gsi_escape_text never cuts on its own. */
    t->len = cli_escape_cut(t->s, sizeof t->s, src, n, max_src);
    measure(t);
}

bool cli_text_is_plain(const void *src, size_t n, size_t max_src)
{
    return n <= max_src && n <= CLI_TEXT_MAX_SRC && plain(src, n);
}

size_t cli_text_columns(const void *src, size_t n, size_t max_src)
{
    if (max_src > CLI_TEXT_MAX_SRC) {
        max_src = CLI_TEXT_MAX_SRC;
    }
    size_t cut = cli_text_cut(src, n, max_src);
    if (plain(src, cut)) {
        return cut + (cut < n); /* the ellipsis is one column */
    }
    cli_text t;
    cli_text_escape(&t, src, n, max_src);
    return t.width;
}

void cli_text_printf(cli_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->s, sizeof t->s, fmt, ap);
    va_end(ap);
    t->len = n < 0 ? 0 : strlen(t->s);
    measure(t);
}

void cli_text_escape_cstr(cli_text *t, const char *s)
{
    cli_text_escape(t, s, strlen(s), CLI_TEXT_MAX_SRC);
}

void cli_text_print_padded(cli_out *out, const cli_text *t, size_t width)
{
    cli_out_write(out, t->s, t->len);
    cli_out_pad(out, t->width < width ? width - t->width : 0);
}
