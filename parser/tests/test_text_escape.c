/* The escaping rule of text output (parser/text_escape.h, docs/cli.md "Escaping"): every
 * character that can control a terminal, reorder text or show nothing is written as an escape,
 * invalid UTF-8 as \xHH, the rest as it is. The list below is the documented one, written out
 * here on its own so that a change of the code's table fails the test. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "text_escape.h"
#include "utf8.h"

/* docs/cli.md, "Escaping": the hidden characters above DEL. */
static const struct {
    uint32_t first, last;
} documented[] = {
    {0x0080, 0x009f}, {0x00ad, 0x00ad}, {0x061c, 0x061c}, {0x180e, 0x180e},
    {0x200b, 0x200f}, {0x2028, 0x202e}, {0x2060, 0x206f}, {0xfeff, 0xfeff},
    {0xfff9, 0xfffb}, {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a}, {0xe0000, 0xe007f},
};
#define N_DOCUMENTED (sizeof documented / sizeof documented[0])

static bool documented_hidden(uint32_t cp)
{
    if (cp < 0x20 || cp == 0x7f) {
        return true;
    }
    for (size_t i = 0; i < N_DOCUMENTED; i++) {
        if (cp >= documented[i].first && cp <= documented[i].last) {
            return true;
        }
    }
    return false;
}

static size_t encode(uint32_t cp, uint8_t out[4])
{
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xc0 | cp >> 6);
        out[1] = (uint8_t)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xe0 | cp >> 12);
        out[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (uint8_t)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (uint8_t)(0xf0 | cp >> 18);
    out[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (uint8_t)(0x80 | (cp & 0x3f));
    return 4;
}

/* What the rule says one character becomes. */
static void expected_for(uint32_t cp, char *out, size_t cap)
{
    if (cp == '\\') {
        snprintf(out, cap, "\\\\");
    } else if (cp < 0x20 || cp == 0x7f) {
        snprintf(out, cap, "\\x%02x", (unsigned)cp);
    } else if (documented_hidden(cp)) {
        snprintf(out, cap, "\\u{%04x}", (unsigned)cp);
    } else {
        uint8_t b[4];
        size_t n = encode(cp, b);
        memcpy(out, b, n);
        out[n] = '\0';
    }
}

static void expect_escape(const void *src, size_t n, const char *want)
{
    char out[256];
    size_t len = gsi_escape_text(out, sizeof out, src, n);
    cr_expect_eq(len, strlen(out));
    cr_expect_str_eq(out, want);
}

/* Each documented range: its first, a middle and its last code point are escaped, the code
 * points just outside are not (unless another range or DEL starts there). */
Test(text_escape, every_documented_range_and_its_neighbours)
{
    for (size_t r = 0; r < N_DOCUMENTED; r++) {
        const uint32_t probes[] = {documented[r].first - 1, documented[r].first,
                                   documented[r].first + (documented[r].last - documented[r].first) / 2,
                                   documented[r].last, documented[r].last + 1};
        for (size_t k = 0; k < sizeof probes / sizeof probes[0]; k++) {
            uint32_t cp = probes[k];
            uint8_t src[6] = {'<'};
            size_t n = 1 + encode(cp, src + 1);
            src[n++] = '>';
            char one[16], want[24];
            expected_for(cp, one, sizeof one);
            snprintf(want, sizeof want, "<%s>", one);
            char out[64];
            gsi_escape_text(out, sizeof out, src, n);
            cr_expect_str_eq(out, want, "U+%04X", (unsigned)cp);
            cr_expect_eq(gsi_char_hidden(cp), documented_hidden(cp), "U+%04X", (unsigned)cp);
        }
    }
}

Test(text_escape, the_trojan_source_name_and_terminal_controls)
{
    /* U+202E turns "safe<RLO>gnp.exe" into "safeexe.png" on screen */
    expect_escape("safe\xe2\x80\xaegnp.exe", 14, "safe\\u{202e}gnp.exe");
    /* U+009B is CSI and U+009D is OSC on terminals that honour C1 controls */
    expect_escape("a\xc2\x9b" "2Jb\xc2\x9d" "0;x\xc2\x9c", 13, "a\\u{009b}2Jb\\u{009d}0;x\\u{009c}");
    /* isolates, marks, zero-width characters, separators, BOM, a tag */
    expect_escape("\xe2\x81\xa6x\xe2\x81\xa9", 7, "\\u{2066}x\\u{2069}");
    expect_escape("\xd8\x9c\xe2\x80\x8b\xe2\x80\x8f\xe2\x80\xa8\xe2\x80\xa9\xef\xbb\xbf", 17,
                  "\\u{061c}\\u{200b}\\u{200f}\\u{2028}\\u{2029}\\u{feff}");
    expect_escape("\xf3\xa0\x80\x81\xf3\xa0\x81\x81", 8, "\\u{e0001}\\u{e0041}");
    expect_escape("\xef\xbf\xb9\xef\xbf\xbb\xc2\xad", 8, "\\u{fff9}\\u{fffb}\\u{00ad}");
}

Test(text_escape, c0_del_and_backslash_as_bytes)
{
    for (unsigned b = 0; b < 0x80; b++) {
        uint8_t src = (uint8_t)b;
        char want[8];
        expected_for(b, want, sizeof want);
        char out[16];
        gsi_escape_text(out, sizeof out, &src, 1);
        cr_expect_str_eq(out, want, "byte 0x%02x", b);
    }
}

/* Bytes that start no valid sequence stay \xHH, one escape per byte, and the next byte is read
 * on its own: a truncated sequence, a stray continuation byte, overlongs, surrogates, values
 * above U+10FFFF, the bytes that never occur. */
Test(text_escape, invalid_utf8_as_bytes)
{
    expect_escape("\xe2\x80", 2, "\\xe2\\x80");
    expect_escape("\x80x", 2, "\\x80x");
    expect_escape("\xc0\xaf\xc1\xbf", 4, "\\xc0\\xaf\\xc1\\xbf");
    expect_escape("\xe0\x80\xaf", 3, "\\xe0\\x80\\xaf");
    expect_escape("\xed\xa0\x80", 3, "\\xed\\xa0\\x80");
    expect_escape("\xf4\x90\x80\x80", 4, "\\xf4\\x90\\x80\\x80");
    expect_escape("\xf5\xfe\xff", 3, "\\xf5\\xfe\\xff");
    /* a C1 control's lead byte without its continuation byte */
    expect_escape("\xc2" "A", 2, "\\xc2A");
}

/* Every code point, alone: escaped as the rule says, never more than 4 output bytes per source
 * byte (what the command's buffers are sized for), and never cut by a buffer of that size. */
Test(text_escape, every_code_point_within_four_bytes_per_source_byte)
{
    for (uint32_t cp = 0; cp <= 0x10ffff; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) {
            continue;
        }
        uint8_t src[4];
        size_t n = encode(cp, src);
        char out[4 * 4 + 4];
        size_t len = gsi_escape_text(out, 4 * n + 4, src, n);
        char want[16];
        expected_for(cp, want, sizeof want);
        if (strcmp(out, want) != 0 || len > 4 * n) {
            cr_assert_fail("U+%04X: got '%s' (%zu bytes), want '%s'", (unsigned)cp, out, len,
                           want);
        }
    }
}

Test(text_escape, a_full_buffer_ends_in_dots)
{
    char out[12];
    size_t len = gsi_escape_text(out, sizeof out, (const uint8_t *)"ab\xe2\x80\xaexyz", 8);
    /* 8 bytes fit before "..." and the NUL: "ab" and the 8-byte escape would not */
    cr_expect_str_eq(out, "ab...");
    cr_expect_eq(len, 5);
}

Test(text_escape, char_next_classifies)
{
    gsi_char c = gsi_char_next((const uint8_t *)"\xc2\x85", 2);
    cr_expect_eq(c.cls, GSI_CHAR_HIDDEN);
    cr_expect_eq(c.cp, 0x85);
    cr_expect_eq(c.len, 2);
    c = gsi_char_next((const uint8_t *)"\xc2\xa0", 2);
    cr_expect_eq(c.cls, GSI_CHAR_PLAIN);
    cr_expect_eq(c.cp, 0xa0);
    c = gsi_char_next((const uint8_t *)"\xc2", 1);
    cr_expect_eq(c.cls, GSI_CHAR_INVALID);
    cr_expect_eq(c.cp, 0xc2);
    cr_expect_eq(c.len, 1);
    c = gsi_char_next((const uint8_t *)"\\", 1);
    cr_expect_eq(c.cls, GSI_CHAR_PLAIN);
    uint32_t cp = 0;
    cr_expect_eq(gsi_utf8_decode((const uint8_t *)"\xf0\x9f\x98\x80", 4, &cp), 4);
    cr_expect_eq(cp, 0x1f600);
    cr_expect_eq(gsi_utf8_decode((const uint8_t *)"\xf0\x9f\x98", 3, &cp), 0);
}

/* The validator looks at s[0..n) only: a lead byte at s[n - 1] is invalid even when s[n] would
 * complete it, at every position of the 8-byte stride and in the tail loop. */
Test(text_escape, utf8_valid_never_reads_past_n)
{
    uint8_t buf[40];
    for (size_t n = 1; n <= 32; n++) {
        memset(buf, 'a', sizeof buf);
        buf[n - 1] = 0xc3;
        buf[n] = 0xa9;
        cr_expect(!gsi_utf8_valid(buf, n), "lead byte at %zu of %zu", n - 1, n);
        cr_expect(gsi_utf8_valid(buf, n + 1), "the whole sequence, %zu bytes", n + 1);
        cr_expect_eq(gsi_utf8_seq_len(buf + n - 1, 1), 0);
        if (n >= 2) {
            buf[n - 2] = 0xe2;
            buf[n - 1] = 0x82;
            buf[n] = 0xac;
            cr_expect(!gsi_utf8_valid(buf, n), "3-byte lead at %zu of %zu", n - 2, n);
            cr_expect(gsi_utf8_valid(buf, n + 1));
        }
    }
}
