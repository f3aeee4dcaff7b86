/* String values: declared lengths against the file, and UTF-8 (strict only). */
#include <stdio.h>
#include <string.h>

#include "gsc_cases.h"

/* Architecture key, then a string value (record 1) and a tensor. */
static void with_string(gsc_case *c, const void *str, size_t len)
{
    gsc_begin(c, 3);
    gsc_add_arch(&c->m);
    gsw_set_string(gsw_add(&c->m, "x.text"), str, len);
    gsc_add_f32(&c->m, "w", 4);
    gsc_write(c, 0);
}

static void lengths(gsc_sink *s)
{
    static const struct { const char *file; uint64_t len; const char *desc; } big[] = {
        {"strings/len_2p64m1.gguf", UINT64_MAX, "string length 2^64-1"},
        {"strings/len_2p63.gguf", 1ull << 63, "string length 2^63"},
        {"strings/len_2p32.gguf", 1ull << 32, "string length 2^32"},
        {"strings/len_over_limit.gguf", (64ull << 20) + 1,
         "string length one past the 64 MiB limit in a small file: the file bound comes first"},
    };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        gsc_case c;
        with_string(&c, "hello", 5);
        gsc_bad_len(s, &c, GSW_STR_LEN, big[i].len, big[i].file, big[i].desc);
    }
    gsc_case c;
    with_string(&c, "hello", 5);
    gsc_len_past_eof(s, &c, GSW_STR_LEN, "strings/len_one_past_eof.gguf",
                     "string length one byte more than the file has left");

    /* With no tensors nothing follows the key-values: a string may end the file. */
    gsc_begin(&c, 3);
    gsc_add_arch(&c.m);
    gsw_set_cstr(gsw_add(&c.m, "x.text"), "the last bytes of the file");
    gsc_write(&c, 0);
    gsw_truncate(&c.b, gsc_at(&c, GSW_PADDING, 0, 0));
    gsc_certify(&c, GSC_CERTIFIED); /* no tensors: no padding needed */
    gsc_ok(s, &c, "strings/ends_the_file.gguf",
           "no tensors and no padding: the last string value ends the file");
}

static void utf8(gsc_sink *s)
{
    static const struct { const char *name, *bytes; size_t len; const char *desc; } bad[] = {
        {"lone_continuation", "a\x80z", 3, "a lone continuation byte"},
        {"byte_ff", "\xff", 1, "byte FF"},
        {"byte_fe", "ab\xfe", 3, "byte FE"},
        {"overlong_nul", "\xc0\x80", 2, "overlong NUL (C0 80)"},
        {"overlong_2", "\xc1\xbf", 2, "overlong 2-byte form (C1 BF)"},
        {"overlong_3", "\xe0\x80\xaf", 3, "overlong 3-byte form (E0 80 AF)"},
        {"overlong_4", "\xf0\x80\x80\xaf", 4, "overlong 4-byte form (F0 80 80 AF)"},
        {"surrogate_high", "\xed\xa0\x80", 3, "surrogate U+D800"},
        {"surrogate_low", "\xed\xbf\xbf", 3, "surrogate U+DFFF"},
        {"surrogate_pair_cesu8", "\xed\xa0\xbd\xed\xb8\x80", 6, "CESU-8 surrogate pair"},
        {"above_10ffff", "\xf4\x90\x80\x80", 4, "code point above U+10FFFF"},
        {"lead_f5", "\xf5\x80\x80\x80", 4, "lead byte F5"},
        {"cut_2", "abc\xc3", 4, "2-byte sequence cut by the end of the string"},
        {"cut_3", "\xe2\x82", 2, "3-byte sequence cut by the end of the string"},
        {"cut_4", "\xf0\x9f\x98", 3, "4-byte sequence cut by the end of the string"},
        {"missing_continuation", "\xc3\x41", 2, "lead byte followed by ASCII"},
        {"after_ascii_run", "0123456789abcdef\x80", 17, "invalid byte after 16 ASCII bytes"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gsc_case c;
        with_string(&c, bad[i].bytes, bad[i].len);
        char file[96], desc[160];
        snprintf(file, sizeof file, "strings/utf8_%s.gguf", bad[i].name);
        snprintf(desc, sizeof desc, "string value with %s: not UTF-8", bad[i].desc);
        gsc_strict(s, &c, file, GS_E_INVALID_UTF8, gsc_at(&c, GSW_STR_LEN, 1, 0), desc);
    }

    /* The edges of valid UTF-8, each as an element and all together as one string. */
    static const struct { const char *bytes; size_t len; } good[] = {
        {"\x00", 1},             {"\x7f", 1},             {"\xc2\x80", 2},
        {"\xdf\xbf", 2},         {"\xe0\xa0\x80", 3},     {"\xed\x9f\xbf", 3},
        {"\xee\x80\x80", 3},     {"\xef\xbf\xbd", 3},     {"\xef\xbf\xbf", 3},
        {"\xef\xbb\xbf", 3},     {"\xf0\x90\x80\x80", 4}, {"\xf4\x8f\xbf\xbf", 4},
    };
    size_t n = sizeof good / sizeof good[0];
    gsc_case c;
    gsc_begin(&c, 3);
    gsc_add_arch(&c.m);
    gsw_value *arr = gsw_add(&c.m, "x.edges");
    gsw_set_string_array(arr, n);
    char all[64];
    size_t all_len = 0;
    for (size_t i = 0; i < n; i++) {
        gsw_array_string(arr, i, good[i].bytes, good[i].len);
        memcpy(all + all_len, good[i].bytes, good[i].len);
        all_len += good[i].len;
    }
    gsw_set_string(gsw_add(&c.m, "x.all"), all, all_len);
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "strings/utf8_valid_edges.gguf",
           "U+0000, U+007F, U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFD, U+FFFF, BOM, U+10000, "
           "U+10FFFF");

    static const char mixed[] = "\xd0\x9f\xd1\x80\xd0\xb8 \xe4\xb8\x96\xe7\x95\x8c "
                                "\xf0\x9f\xa6\x99";
    with_string(&c, mixed, sizeof mixed - 1);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "strings/utf8_mixed_scripts.gguf", "Cyrillic, CJK and an emoji");
}

void gsc_cases_strings(gsc_sink *s)
{
    lengths(s);
    utf8(s);
}
