/* cli/common/text_out: the cut of a long field from a file to at most max_src source bytes, never
 * half a UTF-8 sequence, with an ellipsis (U+2026) whenever something was left out. */
#include <criterion/criterion.h>
#include <string.h>

#include "text_out.h"

static void expect_cut(const char *src, size_t max_src, const char *want)
{
    char dst[64];
    size_t len = cli_escape_cut(dst, sizeof dst, src, strlen(src), max_src);
    cr_assert_eq(len, strlen(want), "\"%s\" cut at %zu: %zu bytes", src, max_src, len);
    cr_assert_str_eq(dst, want);
}

Test(cut, exactly_at_the_limit)
{
    expect_cut("abcd", 4, "abcd");
    expect_cut("abcde", 4, "abcd\xe2\x80\xa6");
    expect_cut("abcdef", 4, "abcd\xe2\x80\xa6");
    expect_cut("", 4, "");
    /* the cut counts source bytes; what they escape to may be longer */
    expect_cut("\x1b" "bcd", 4, "\\x1bbcd");
    expect_cut("\x1b" "bcde", 4, "\\x1bbcd\xe2\x80\xa6");
}

Test(cut, backs_off_to_a_whole_character)
{
    /* U+00E9 is 0xc3 0xa9: a cut after 3 bytes would split it */
    expect_cut("ab\xc3\xa9", 3, "ab\xe2\x80\xa6");
    expect_cut("ab\xc3\xa9", 4, "ab\xc3\xa9");
    expect_cut("ab\xc3\xa9z", 4, "ab\xc3\xa9\xe2\x80\xa6");
    cr_assert_eq(cli_text_cut("ab\xe2\x9c\x93", 5, 4), 2);
    cr_assert_eq(cli_text_cut("ab\xe2\x9c\x93", 5, 5), 5);
}

/* What a sink was handed, in one buffer. */
typedef struct collected {
    char bytes[4096];
    size_t len;
} collected;

static int collect(void *ctx, const void *data, size_t n)
{
    collected *c = ctx;
    cr_assert_leq(n, sizeof c->bytes - c->len);
    memcpy(c->bytes + c->len, data, n);
    c->len += n;
    return 0;
}

/* A text printed padded to its column: its bytes, then spaces up to the width (none when it is
 * as wide or wider). */
Test(print_padded, pads_to_the_width_in_columns)
{
    static const struct {
        const char *src;
        size_t width;
        const char *want;
    } cases[] = {
        {"general.name", 15, "general.name   "},
        {"general.name", 12, "general.name"},
        {"general.name", 3, "general.name"},
        {"caf\xc3\xa9", 6, "caf\xc3\xa9  "}, /* 4 columns, 5 bytes */
        {"", 2, "  "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        collected c = {{0}, 0};
        gs_sink s;
        gs_sink_init(&s, collect, &c);
        cli_out o;
        cr_assert_eq(cli_out_init(&o, &s), GS_OK);
        cli_text t;
        cli_text_escape_cstr(&t, cases[i].src);
        cli_text_print_padded(&o, &t, cases[i].width);
        cr_assert_eq(cli_out_finish(&o, NULL), GS_OK);
        cr_assert_eq(c.len, strlen(cases[i].want), "case %zu: %zu bytes", i, c.len);
        cr_assert_eq(memcmp(c.bytes, cases[i].want, c.len), 0, "case %zu", i);
    }
}

/* Where cli_text_is_plain says a text prints as it is (info writes such a key straight from the
 * file), cli_text_escape gives exactly that text, in as many columns as bytes; escapes, UTF-8,
 * control bytes and a cut (max_src from 0 to above CLI_TEXT_MAX_SRC) are never plain. */
Test(is_plain, is_what_escape_gives_back)
{
    static const struct {
        const char *src;
        bool plain_uncut; /* plain whenever it is not cut */
    } cases[] = {
        {"", true}, {"general.name", true}, {"a\\b", false}, {"tab\there", false},
        {"\x1b[31mred", false}, {"caf\xc3\xa9", false}, {"\xff\xfe", false},
        {"abcdefghijklmnopqrstuvwxyz0123456789", true}, {"a\xe2\x80\xae\x62", false},
    };
    static const size_t max_srcs[] = {0, 1, 4, 12, 96, 300};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *src = cases[i].src;
        const size_t n = strlen(src);
        for (size_t m = 0; m < sizeof max_srcs / sizeof max_srcs[0]; m++) {
            const size_t max_src = max_srcs[m];
            const bool plain = cli_text_is_plain(src, n, max_src);
            cr_assert_eq(plain, cases[i].plain_uncut && n <= max_src, "\"%s\" (%zu)", src,
                         max_src);
            if (plain) {
                cli_text t;
                cli_text_escape(&t, src, n, max_src);
                cr_assert_eq(t.len, n, "\"%s\" (%zu)", src, max_src);
                cr_assert_eq(t.width, n, "\"%s\" (%zu)", src, max_src);
                cr_assert_eq(memcmp(t.s, src, n), 0, "\"%s\" (%zu)", src, max_src);
            }
        }
    }
}

/* cli_text_is_plain at every length around the word size: false with a byte that needs escaping
 * at any position (the last word of a text overlaps bytes already checked), true with the
 * printable bytes at the ends of the range and beside the backslash at any position; and false
 * once the text is longer than max_src or than CLI_TEXT_MAX_SRC. */
Test(is_plain, at_every_length_and_position)
{
    static const char bad[] = {'\x01', '\x1f', '\x7f', '\\', '\xc3', '\x80', '\xff'};
    static const char good[] = {' ', '~', '[', ']'};
    char src[40];
    for (size_t n = 0; n <= 33; n++) {
        memset(src, 'k', n);
        cr_assert(cli_text_is_plain(src, n, CLI_TEXT_MAX_SRC), "length %zu", n);
        for (size_t at = 0; at < n; at++) {
            for (size_t b = 0; b < sizeof bad; b++) {
                src[at] = bad[b];
                cr_assert_not(cli_text_is_plain(src, n, CLI_TEXT_MAX_SRC),
                              "length %zu, byte 0x%02x at %zu", n, (unsigned)(uint8_t)bad[b], at);
            }
            for (size_t g = 0; g < sizeof good; g++) {
                src[at] = good[g];
                cr_assert(cli_text_is_plain(src, n, CLI_TEXT_MAX_SRC), "length %zu, '%c' at %zu",
                          n, good[g], at);
            }
            src[at] = 'k';
        }
    }
    cr_assert(cli_text_is_plain("abcd", 4, 4));
    cr_assert_not(cli_text_is_plain("abcde", 5, 4));
    char longer[CLI_TEXT_MAX_SRC + 1];
    memset(longer, 'k', sizeof longer);
    cr_assert(cli_text_is_plain(longer, CLI_TEXT_MAX_SRC, CLI_TEXT_MAX_SRC + 44));
    cr_assert_not(cli_text_is_plain(longer, sizeof longer, CLI_TEXT_MAX_SRC + 44));
}
