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
