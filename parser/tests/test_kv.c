/* Key-value section: value types, keys, strings, arrays, bools, UTF-8, general.alignment. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "gsw_model.h"
#include "key_grammar.h"
#include "test_util.h"

#define STRICT GS_PROFILE_STRICT
#define LENIENT GS_PROFILE_LENIENT

/* A file with one KV whose key and type id are given; the caller appends the value. Returns the
 * offset of the type field. */
static size_t one_kv(gsw_bytes *b, const void *key, size_t key_len, uint32_t type)
{
    tu_raw_start(b, 0, 1);
    gsw_raw_kv_head(b, key, key_len, type);
    return b->len - 4;
}

/* An array's header: its element type and count. */
static void array_head(gsw_bytes *b, uint32_t elem, uint64_t count)
{
    gsw_put_u32(b, elem);
    gsw_put_u64(b, count);
}

/* one_kv of an array of count elements of type elem: the file so far ends at the array's data.
 * Returns the offset of the KV's type field. */
static size_t array_kv(gsw_bytes *b, uint32_t elem, uint64_t count)
{
    size_t type_at = one_kv(b, "k", 1, GS_VALUE_ARRAY);
    array_head(b, elem, count);
    return type_at;
}

Test(kv, bad_value_types)
{
    uint32_t bad[] = {13, 255, 0x80000000u, 0xFFFFFFFFu};
    for (size_t i = 0; i < 4; i++) {
        gsw_bytes b;
        size_t type_at = one_kv(&b, "k", 1, bad[i]);
        gsw_put_fill(&b, 0, 16);
        TU_EXPECT(&b, STRICT, GS_E_BAD_VALUE_TYPE, type_at);
        TU_EXPECT(&b, LENIENT, GS_E_BAD_VALUE_TYPE, type_at);
        gsw_bytes_free(&b);
    }
}

Test(kv, bad_array_element_type_and_nesting)
{
    gsw_bytes b;
    size_t type_at = array_kv(&b, 13, 1);
    gsw_put_fill(&b, 0, 16);
    TU_EXPECT(&b, STRICT, GS_E_BAD_VALUE_TYPE, type_at + 4);
    gsw_bytes_free(&b);

    /* array of arrays: valid by the spec, not loadable by ggml */
    type_at = array_kv(&b, GS_VALUE_ARRAY, 1);
    array_head(&b, GS_VALUE_U8, 1);
    gsw_put_u8(&b, 7);
    TU_EXPECT(&b, STRICT, GS_E_NESTED_ARRAY, type_at + 4);
    TU_EXPECT(&b, LENIENT, GS_E_NESTED_ARRAY, type_at + 4);
    gsw_bytes_free(&b);
}

Test(kv, bool_values)
{
    gsw_bytes b;
    size_t type_at = one_kv(&b, "k", 1, GS_VALUE_BOOL);
    gsw_put_u8(&b, 2);
    TU_EXPECT(&b, STRICT, GS_E_BAD_BOOL, type_at + 4);
    TU_EXPECT(&b, LENIENT, GS_OK, 0);
    gs_options o = tu_options(LENIENT);
    gs_file *f;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, NULL), GS_OK);
    bool v = false;
    cr_assert_eq(gs_kv_get_bool(f, 0, &v), GS_OK);
    cr_assert(v, "a lenient bool byte 2 reads as true");
    gs_close(f);
    gsw_bytes_free(&b);

    type_at = array_kv(&b, GS_VALUE_BOOL, 3);
    gsw_put_u8(&b, 0);
    gsw_put_u8(&b, 1);
    gsw_put_u8(&b, 0xFF);
    TU_EXPECT(&b, STRICT, GS_E_BAD_BOOL, type_at + 4 + 12 + 2);
    TU_EXPECT(&b, LENIENT, GS_OK, 0);
    gsw_bytes_free(&b);
}

Test(kv, empty_and_nul_keys_rejected_in_every_profile)
{
    gsw_bytes b;
    one_kv(&b, "", 0, GS_VALUE_U8);
    gsw_put_u8(&b, 1);
    gsw_put_fill(&b, 0, 4);
    TU_EXPECT(&b, STRICT, GS_E_EMPTY_KEY, 24);
    TU_EXPECT(&b, LENIENT, GS_E_EMPTY_KEY, 24);
    gsw_bytes_free(&b);

    one_kv(&b, "a\0b", 3, GS_VALUE_U8);
    gsw_put_u8(&b, 1);
    TU_EXPECT(&b, STRICT, GS_E_KEY_HAS_NUL, 24);
    TU_EXPECT(&b, LENIENT, GS_E_KEY_HAS_NUL, 24);
    gsw_bytes_free(&b);
}

Test(kv, nul_key_cannot_shadow_alignment)
{
    /* ggml's strcmp lookup would take 64 from the first key; gguf-py 32 from the second. */
    static const char evil[] = "general.alignment\0x";
    gsw_bytes b;
    tu_raw_start(&b, 0, 2);
    gsw_raw_kv_head(&b, evil, sizeof evil - 1, GS_VALUE_U32);
    gsw_put_u32(&b, 64);
    gsw_raw_kv_u32(&b, "general.alignment", 32);
    TU_EXPECT(&b, STRICT, GS_E_KEY_HAS_NUL, 24);
    TU_EXPECT(&b, LENIENT, GS_E_KEY_HAS_NUL, 24);
    gsw_bytes_free(&b);
}

Test(kv, key_grammar_is_strict_only)
{
    const char *bad[] = {"General.name", "a b", "a..b", ".a", "a.", "a-b", "tokenizer.ggml.t\xc3\xa9",
                         "a/b", "\x1b[31m"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gsw_bytes b;
        one_kv(&b, bad[i], strlen(bad[i]), GS_VALUE_U8);
        gsw_put_u8(&b, 1);
        TU_EXPECT(&b, STRICT, GS_E_BAD_KEY, 24);
        TU_EXPECT(&b, LENIENT, GS_OK, 0);
        gsw_bytes_free(&b);
    }
    const char *good[] = {"a", "general.base_model.0.name", "x_1.y2", "split.tensors.count"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        gsw_bytes b;
        one_kv(&b, good[i], strlen(good[i]), GS_VALUE_U8);
        gsw_put_u8(&b, 1);
        TU_EXPECT(&b, STRICT, GS_OK, 0);
        gsw_bytes_free(&b);
    }
}

/* The grammar byte by byte, as the spec states it, against gsi_check_key (which tests eight
 * bytes at a time): every byte at every position of keys of 1 to 17 bytes (both sides of a word
 * and of the tail), every key of up to 3 symbols from a small alphabet, and dots in every
 * arrangement. */
static bool grammar_reference(const uint8_t *k, size_t n)
{
    bool segment_empty = true;
    for (size_t i = 0; i < n; i++) {
        if (k[i] == '.') {
            if (segment_empty) {
                return false;
            }
            segment_empty = true;
        } else if ((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= '0' && k[i] <= '9') || k[i] == '_') {
            segment_empty = false;
        } else {
            return false;
        }
    }
    return n > 0 && !segment_empty;
}

static void expect_grammar(const uint8_t *k, size_t n)
{
    bool has_nul = memchr(k, 0, n) != NULL;
    gs_status want = n == 0 ? GS_E_EMPTY_KEY
                     : has_nul ? GS_E_KEY_HAS_NUL
                     : grammar_reference(k, n) ? GS_OK
                                               : GS_E_BAD_KEY;
    cr_assert_eq(gsi_check_key(k, n, true), want, "key of %zu bytes, first 0x%02x", n,
                 n > 0 ? k[0] : 0);
}

Test(kv, key_grammar_agrees_with_the_byte_by_byte_rule)
{
    uint8_t k[24];
    for (size_t n = 1; n <= 17; n++) {
        for (size_t pos = 0; pos < n; pos++) {
            for (int c = 0; c < 256; c++) {
                memset(k, 'q', n);
                k[pos] = (uint8_t)c;
                expect_grammar(k, n);
            }
        }
    }
    static const uint8_t alphabet[] = {'a', 'z', '0', '9', '_', '.', 'A', '-', '`', '{',
                                       '/', ':', '@', '[', 0x7f, 0x80, 0xff, ' '};
    const size_t m = sizeof alphabet;
    for (size_t n = 1; n <= 3; n++) {
        size_t total = 1;
        for (size_t i = 0; i < n; i++) {
            total *= m;
        }
        for (size_t x = 0; x < total; x++) {
            size_t y = x;
            for (size_t i = 0; i < n; i++, y /= m) {
                k[i] = alphabet[y % m];
            }
            expect_grammar(k, n);
        }
    }
    for (unsigned dots = 0; dots < (1u << 12); dots++) {
        for (size_t i = 0; i < 12; i++) {
            k[i] = dots >> i & 1 ? '.' : 'k';
        }
        expect_grammar(k, 12);
    }
    expect_grammar(k, 0);
}

Test(kv, key_length_limit_of_the_spec)
{
    size_t n = 65536;
    char *key = malloc(n);
    memset(key, 'a', n);
    gsw_bytes b;
    one_kv(&b, key, n, GS_VALUE_U8);
    gsw_put_u8(&b, 1);
    TU_EXPECT(&b, STRICT, GS_E_BAD_KEY, 24);
    TU_EXPECT(&b, LENIENT, GS_OK, 0);
    gsw_bytes_free(&b);
    one_kv(&b, key, n - 1, GS_VALUE_U8);
    gsw_put_u8(&b, 1);
    TU_EXPECT(&b, STRICT, GS_OK, 0);
    gsw_bytes_free(&b);
    free(key);
}

Test(kv, duplicate_keys)
{
    gsw_bytes b;
    tu_raw_start(&b, 0, 3);
    gsw_raw_kv_u8(&b, "a", 1);
    gsw_raw_kv_u8(&b, "ab", 1);
    size_t at = gsw_raw_kv_u32(&b, "a", 2);
    TU_EXPECT(&b, STRICT, GS_E_DUPLICATE_KEY, at);
    TU_EXPECT(&b, LENIENT, GS_E_DUPLICATE_KEY, at);
    gs_error e;
    tu_open(&b, STRICT, &e);
    cr_assert_str_eq(e.context, "a");
    cr_assert_eq(e.context_kind, GS_CONTEXT_KEY);
    gsw_bytes_free(&b);
}

Test(kv, strings_bounded_by_file)
{
    gsw_bytes b;
    /* key length larger than the file (Talos 2024-1913 shape) */
    tu_raw_start(&b, 0, 1);
    gsw_put_u64(&b, UINT64_MAX);
    gsw_put_fill(&b, 'a', 16);
    TU_EXPECT(&b, STRICT, GS_E_STRING_EXCEEDS_FILE, 24);
    gsw_bytes_free(&b);

    /* string value one byte longer than what remains */
    size_t type_at = one_kv(&b, "k", 1, GS_VALUE_STRING);
    gsw_put_u64(&b, 6);
    gsw_put(&b, "hello", 5);
    TU_EXPECT(&b, STRICT, GS_E_STRING_EXCEEDS_FILE, type_at + 4);
    b.len = type_at + 4 + 3; /* inside the length field */
    TU_EXPECT(&b, STRICT, GS_E_TRUNCATED, type_at + 4);
    gsw_bytes_free(&b);
}

Test(kv, utf8_strict_only)
{
    const char *bad[] = {"\xff", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82",
                         "ok\x80", "\xf5\x80\x80\x80", "\xe0\x9f\xbf"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gsw_bytes b;
        size_t type_at = one_kv(&b, "k", 1, GS_VALUE_STRING);
        gsw_put_cstr(&b, bad[i]);
        TU_EXPECT(&b, STRICT, GS_E_INVALID_UTF8, type_at + 4);
        TU_EXPECT(&b, LENIENT, GS_OK, 0);
        gsw_bytes_free(&b);
    }
    const char *good[] = {"", "plain", "\xc3\xa9t\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                          "\xf4\x8f\xbf\xbf", "\xed\x9f\xbf", "0123456789abcdef\xc3\xa9"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        gsw_bytes b;
        one_kv(&b, "k", 1, GS_VALUE_STRING);
        gsw_put_cstr(&b, good[i]);
        TU_EXPECT(&b, STRICT, GS_OK, 0);
        gsw_bytes_free(&b);
    }
    /* an invalid element deep in a string array */
    gsw_bytes b;
    size_t type_at = array_kv(&b, GS_VALUE_STRING, 3);
    gsw_put_cstr(&b, "a");
    size_t at = b.len;
    gsw_put_cstr(&b, "\xc3");
    gsw_put_cstr(&b, "c");
    TU_EXPECT(&b, STRICT, GS_E_INVALID_UTF8, at);
    TU_EXPECT(&b, LENIENT, GS_OK, 0);
    (void)type_at;
    gsw_bytes_free(&b);
}

/* Strings of a string array are checked for UTF-8 a run of elements at a time (parse_kv.c):
 * whatever the run, the reported element is the first invalid one, at its offset, as one
 * element at a time would report it; long elements (128 bytes or more) end runs; an element
 * cut inside a character, or starting with a continuation byte, is invalid even though the
 * bytes next to it would complete it; diagnostic mode records one finding per key. */
static const char *const utf8_bad[] = {"\xff", "\x80x", "x\xc3", "\xc0\x80", "\xed\xa0\x80",
                                       "\xf4\x90\x80\x80", "\xe2\x82"};

/* Element k of a 40-element array: mixes of ASCII, multi-byte, empty and long strings. */
static size_t element(char *buf, int k)
{
    static const char *const pieces[] = {"a", "\xc3\xa9", "\xe2\x96\x81", "\xf0\x9f\x98\x80", ""};
    size_t n = 0;
    int reps = k % 7 == 3 ? 80 : 1 + k % 3; /* every 7th a long one: 160 bytes */
    for (int r = 0; r < reps; r++) {
        const char *piece = pieces[(k + r) % 5];
        memcpy(buf + n, piece, strlen(piece));
        n += strlen(piece);
    }
    return n;
}

Test(kv, utf8_of_string_arrays_element_by_element)
{
    const int count = 40;
    for (size_t bad = 0; bad < sizeof utf8_bad / sizeof utf8_bad[0]; bad++) {
        for (int j = 0; j < count; j++) {
            gsw_bytes b;
            array_kv(&b, GS_VALUE_STRING, (uint64_t)count);
            size_t at_j = 0;
            for (int k = 0; k < count; k++) {
                char buf[512];
                size_t n = element(buf, k);
                if (k == j || k == j + 5) { /* the invalid one, and a later one */
                    memcpy(buf + n, utf8_bad[bad], strlen(utf8_bad[bad]));
                    n += strlen(utf8_bad[bad]);
                }
                if (k == j) {
                    at_j = b.len;
                }
                gsw_put_str(&b, buf, n);
            }
            TU_EXPECT(&b, STRICT, GS_E_INVALID_UTF8, at_j);
            gs_error e;
            cr_assert_eq(tu_open(&b, STRICT, &e), GS_E_INVALID_UTF8);
            char want[64];
            snprintf(want, sizeof want, "element %d", j);
            cr_assert_str_eq(e.detail, want, "bad %zu at %d", bad, j);
            TU_EXPECT(&b, LENIENT, GS_OK, 0);
            /* diagnostic: one finding, the first element's */
            gs_options o;
            gs_options_init(&o);
            o.diagnostic = true;
            gs_file *f;
            cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_OK, "%s", e.detail);
            cr_assert_eq(gs_file_finding_count(f), 1, "bad %zu at %d", bad, j);
            cr_assert_eq(gs_file_finding(f, 0, &e), GS_OK);
            cr_assert_eq(e.status, GS_E_INVALID_UTF8);
            cr_assert_eq(e.offset, at_j);
            cr_assert_str_eq(e.detail, want);
            gs_close(f);
            gsw_bytes_free(&b);
        }
    }
}

/* Valid arrays whose elements are 0 to 300 bytes long, around the 128 where a length field
 * stops being ASCII, open. */
Test(kv, utf8_of_valid_string_arrays_with_long_elements)
{
    const size_t lengths[] = {0, 1, 127, 128, 129, 200, 255, 256, 300, 3, 128};
    gsw_bytes b;
    one_kv(&b, "k", 1, GS_VALUE_ARRAY);
    gsw_put_u32(&b, GS_VALUE_STRING);
    const size_t count = sizeof lengths / sizeof lengths[0];
    gsw_put_u64(&b, count);
    for (size_t k = 0; k < count; k++) {
        char buf[400];
        for (size_t i = 0; i < lengths[k]; i++) {
            buf[i] = (char)('a' + (i + k) % 26);
        }
        if (lengths[k] >= 2) {
            memcpy(buf + lengths[k] - 2, "\xc3\xa9", 2);
        }
        gsw_put_str(&b, buf, lengths[k]);
    }
    TU_EXPECT(&b, STRICT, GS_OK, 0);
    gsw_bytes_free(&b);
}

/* A character split across two elements: each half is invalid on its own; a valid array of the
 * same bytes in one element is not. An invalid element followed by a fatal problem reports the
 * invalid element first, as the first problem. */
Test(kv, utf8_runs_do_not_join_elements)
{
    gsw_bytes b;
    array_kv(&b, GS_VALUE_STRING, 3);
    gsw_put_cstr(&b, "ok");
    size_t at = b.len;
    gsw_put_cstr(&b, "\xe2\x82"); /* U+20AC cut in two */
    gsw_put_cstr(&b, "\xac");
    TU_EXPECT(&b, STRICT, GS_E_INVALID_UTF8, at);
    gsw_bytes_free(&b);

    array_kv(&b, GS_VALUE_STRING, 3);
    gsw_put_cstr(&b, "ok");
    at = b.len;
    gsw_put_cstr(&b, "\xff");
    gsw_put_u64(&b, 1000); /* runs past the end of the file */
    TU_EXPECT(&b, STRICT, GS_E_INVALID_UTF8, at);
    TU_EXPECT(&b, LENIENT, GS_E_STRING_EXCEEDS_FILE, at + 9);
    gsw_bytes_free(&b);
}

/* A string that ends in a lead byte, where the next byte of the file (the first byte of the
 * next key's length, 0xa9 = 169, or of the next element's) is a continuation byte: the string
 * is invalid; a validator that looked one byte past its end would accept it. Every sequence
 * length, in a value and in an array element, and past the validator's 8-byte stride. */
Test(kv, utf8_lead_byte_at_the_end_is_invalid_whatever_follows)
{
    static const char *const cut[] = {"x\xc3", "x\xe2\x82", "x\xe2", "x\xf0\x9f\x98",
                                      "abcdefg\xc3", "abcdefghijklmno\xe2\x82"};
    for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
        gsw_bytes b;
        tu_raw_start(&b, 0, 2);
        gsw_raw_kv_head(&b, "k", 1, GS_VALUE_STRING);
        size_t at = b.len;
        gsw_put_cstr(&b, cut[i]);
        char key[0xa9];
        memset(key, 'a', sizeof key);
        gsw_raw_kv_head(&b, key, sizeof key, GS_VALUE_U8); /* length bytes a9 00 .. 00 */
        gsw_put_u8(&b, 1);
        cr_assert_eq((uint8_t)b.data[at + 8 + strlen(cut[i])], 0xa9);
        TU_EXPECT(&b, STRICT, GS_E_INVALID_UTF8, at);
        TU_EXPECT(&b, LENIENT, GS_OK, 0);
        gsw_bytes_free(&b);
    }
    /* in an array: the next element's length is 0x80 */
    gsw_bytes b;
    array_kv(&b, GS_VALUE_STRING, 2);
    size_t at = b.len;
    gsw_put_cstr(&b, "\xf0\x9f\x98");
    char elem[0x80];
    memset(elem, 'e', sizeof elem);
    gsw_put_u64(&b, sizeof elem);
    gsw_put(&b, elem, sizeof elem);
    TU_EXPECT(&b, STRICT, GS_E_INVALID_UTF8, at);
    TU_EXPECT(&b, LENIENT, GS_OK, 0);
    gsw_bytes_free(&b);
}

Test(kv, array_counts_bounded_by_file)
{
    /* numeric: count * size larger than what remains, and a count whose product wraps
     * (Talos 2024-1912 shape) */
    uint64_t counts[] = {5, UINT64_MAX / 4 + 1, UINT64_MAX};
    for (size_t i = 0; i < 3; i++) {
        gsw_bytes b;
        size_t type_at = array_kv(&b, GS_VALUE_U32, counts[i]);
        gsw_put_fill(&b, 0, 16);
        TU_EXPECT(&b, STRICT, GS_E_COUNT_EXCEEDS_FILE, type_at + 8);
        gsw_bytes_free(&b);
    }
    /* strings: each needs at least 8 bytes */
    gsw_bytes b;
    size_t type_at = array_kv(&b, GS_VALUE_STRING, 3);
    gsw_put_fill(&b, 0, 23);
    TU_EXPECT(&b, STRICT, GS_E_COUNT_EXCEEDS_FILE, type_at + 8);
    gsw_put_u8(&b, 0); /* 24 bytes: three empty strings */
    TU_EXPECT(&b, STRICT, GS_OK, 0);
    gsw_bytes_free(&b);
    /* truncated array header */
    type_at = one_kv(&b, "k", 1, GS_VALUE_ARRAY);
    gsw_put_u32(&b, GS_VALUE_U8);
    gsw_put_u32(&b, 0);
    TU_EXPECT(&b, STRICT, GS_E_TRUNCATED, type_at + 8);
    b.len = type_at + 6;
    TU_EXPECT(&b, STRICT, GS_E_TRUNCATED, type_at + 4);
    gsw_bytes_free(&b);
}

Test(kv, truncated_scalars_and_type)
{
    gsw_bytes b;
    size_t type_at = one_kv(&b, "k", 1, GS_VALUE_U64);
    gsw_put_fill(&b, 0, 5); /* 5 of the value's 8 bytes */
    /* 24 + 9 + 4 + 5: the count check needs 14 bytes, so the file passes it */
    TU_EXPECT(&b, STRICT, GS_E_TRUNCATED, type_at + 4);
    b.len = type_at + 2;
    /* now 24 + 9 + 2 = 35 < 38: count check fails first */
    TU_EXPECT(&b, STRICT, GS_E_COUNT_EXCEEDS_FILE, 16);
    gsw_bytes_free(&b);
}

static gs_file *open_ok(const gsw_bytes *b, gs_profile profile)
{
    gs_options o = tu_options(profile);
    gs_file *f = NULL;
    TU_OPEN_OK(f, b, &o);
    return f;
}

static size_t alignment_file(gsw_bytes *b, uint32_t type, const void *value, size_t n)
{
    tu_raw_start(b, 1, 1);
    size_t at = gsw_raw_kv_head(b, "general.alignment", 17, type);
    gsw_put(b, value, n);
    uint64_t ne[1] = {4};
    gsw_raw_tensor(b, "t", 1, ne, GS_TYPE_F32, 0);
    gsw_put_fill(b, 0, 4096);
    return at;
}

Test(kv, alignment_type)
{
    gsw_bytes b;
    int32_t i32 = 32;
    size_t at = alignment_file(&b, GS_VALUE_I32, &i32, 4);
    TU_EXPECT(&b, STRICT, GS_E_ALIGNMENT_TYPE, at + 8 + 17);
    TU_EXPECT(&b, LENIENT, GS_E_ALIGNMENT_TYPE, at + 8 + 17);
    gsw_bytes_free(&b);
    uint64_t u64 = 32;
    at = alignment_file(&b, GS_VALUE_U64, &u64, 8);
    TU_EXPECT(&b, STRICT, GS_E_ALIGNMENT_TYPE, at + 8 + 17);
    gsw_bytes_free(&b);
    uint8_t arr[16] = {GS_VALUE_U32, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0};
    at = alignment_file(&b, GS_VALUE_ARRAY, arr, sizeof arr);
    TU_EXPECT(&b, STRICT, GS_E_ALIGNMENT_TYPE, at + 8 + 17);
    gsw_bytes_free(&b);
}

Test(kv, alignment_values)
{
    static const struct {
        uint32_t value;
        gs_status strict, lenient;
    } cases[] = {
        {0, GS_E_ALIGNMENT_VALUE, GS_E_ALIGNMENT_VALUE},
        {1, GS_E_ALIGNMENT_VALUE, GS_OK},
        {4, GS_E_ALIGNMENT_VALUE, GS_OK},
        {3, GS_E_ALIGNMENT_VALUE, GS_OK},
        {24, GS_E_ALIGNMENT_VALUE, GS_OK}, /* the spec's "multiple of 8"; ggml wants 2^k */
        {8, GS_OK, GS_OK},
        {4096, GS_OK, GS_OK},
        {1u << 20, GS_OK, GS_OK},
        {(1u << 20) + 8, GS_E_ALIGNMENT_VALUE, GS_E_LIMIT_ALIGNMENT},
        {1u << 21, GS_E_LIMIT_ALIGNMENT, GS_E_LIMIT_ALIGNMENT},
        {1u << 31, GS_E_LIMIT_ALIGNMENT, GS_E_LIMIT_ALIGNMENT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gsw_bytes b;
        tu_raw_start(&b, 0, 1);
        size_t at = gsw_raw_kv_u32(&b, "general.alignment", cases[i].value);
        TU_EXPECT(&b, STRICT, cases[i].strict, at + 8 + 17 + 4);
        TU_EXPECT(&b, LENIENT, cases[i].lenient, at + 8 + 17 + 4);
        gsw_bytes_free(&b);
    }
}

Test(kv, lenient_alignment_is_used_for_layout)
{
    /* alignment 24: data starts at the next multiple of 24 */
    gsw_bytes b;
    tu_raw_start(&b, 1, 1);
    gsw_raw_kv_u32(&b, "general.alignment", 24);
    uint64_t ne[1] = {4};
    gsw_raw_tensor(&b, "t", 1, ne, GS_TYPE_F32, 0);
    size_t info_end = b.len;
    gsw_pad_to(&b, 24);
    gsw_put_fill(&b, 0, 24);
    gs_file *f = open_ok(&b, LENIENT);
    gs_layout l;
    gs_file_layout(f, &l);
    cr_assert_eq(l.alignment, 24);
    cr_assert_eq(l.data_offset, (info_end + 23) / 24 * 24);
    gs_close(f);
    gsw_bytes_free(&b);
}

Test(kv, empty_arrays_of_every_type)
{
    /* an empty string array first: the string table does not exist yet */
    for (uint32_t t = 0; t <= GS_VALUE_F64; t++) {
        if (t == GS_VALUE_ARRAY) {
            continue;
        }
        gsw_bytes b;
        array_kv(&b, t, 0);
        gs_file *f = open_ok(&b, STRICT);
        gs_kv_info info;
        cr_assert_eq(gs_kv_info_at(f, 0, &info), GS_OK);
        cr_assert_eq(info.count, 0);
        cr_assert_eq(info.elem_type, t);
        gs_str s;
        cr_assert_eq(gs_kv_get_array_string(f, 0, 0, &s),
                     t == GS_VALUE_STRING ? GS_E_OUT_OF_RANGE : GS_E_WRONG_TYPE);
        gs_close(f);
        gsw_bytes_free(&b);
    }
}

Test(kv, every_value_type_reads_back)
{
    gsw_bytes b;
    /* KVs 0 to 11: key, type and wire bits (the string's bytes) */
    const struct {
        const char *key;
        uint32_t type;
        uint64_t bits;
        const char *str;
    } scalars[] = {
        {"u8", GS_VALUE_U8, 250, NULL},          {"i8", GS_VALUE_I8, 0x80, NULL},
        {"u16", GS_VALUE_U16, 65535, NULL},      {"i16", GS_VALUE_I16, 0x8000, NULL},
        {"u32", GS_VALUE_U32, 0xDEADBEEF, NULL}, {"i32", GS_VALUE_I32, 0xFFFFFFFF, NULL},
        {"f32", GS_VALUE_F32, gsw_f32_bits(-1.5f), NULL},
        {"bool", GS_VALUE_BOOL, 1, NULL},        {"str", GS_VALUE_STRING, 0, "h\xc3\xa9llo"},
        {"u64", GS_VALUE_U64, UINT64_MAX, NULL}, {"i64", GS_VALUE_I64, 0x8000000000000000ull, NULL},
        {"f64", GS_VALUE_F64, gsw_f64_bits(1e300), NULL},
    };
    tu_raw_start(&b, 0, 14);
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        gsw_raw_kv_head(&b, scalars[i].key, strlen(scalars[i].key), scalars[i].type);
        if (scalars[i].str != NULL) {
            gsw_put_cstr(&b, scalars[i].str);
        }
        for (unsigned k = 0; k < gsw_value_size(scalars[i].type); k++) {
            gsw_put_u8(&b, (uint8_t)(scalars[i].bits >> (8 * k)));
        }
    }
    gsw_raw_kv_head(&b, "arr", 3, GS_VALUE_ARRAY);
    gsw_put_u32(&b, GS_VALUE_STRING);
    gsw_put_u64(&b, 3);
    gsw_put_cstr(&b, "x");
    gsw_put_cstr(&b, "");
    gsw_put_cstr(&b, "zz");
    gsw_raw_kv_head(&b, "ai16", 4, GS_VALUE_ARRAY);
    gsw_put_u32(&b, GS_VALUE_I16);
    gsw_put_u64(&b, 2);
    gsw_put_u16(&b, 0xFFFE);
    gsw_put_u16(&b, 7);

    gs_file *f = open_ok(&b, STRICT);
    cr_assert_eq(gs_kv_count(f), 14);
    uint8_t u8; int8_t i8; uint16_t u16; int16_t i16; uint32_t u32; int32_t i32; float f32;
    bool bo; gs_str s; uint64_t u64; int64_t i64; double f64;
    cr_assert_eq(gs_kv_get_u8(f, 0, &u8), GS_OK); cr_assert_eq(u8, 250);
    cr_assert_eq(gs_kv_get_i8(f, 1, &i8), GS_OK); cr_assert_eq(i8, -128);
    cr_assert_eq(gs_kv_get_u16(f, 2, &u16), GS_OK); cr_assert_eq(u16, 65535);
    cr_assert_eq(gs_kv_get_i16(f, 3, &i16), GS_OK); cr_assert_eq(i16, -32768);
    cr_assert_eq(gs_kv_get_u32(f, 4, &u32), GS_OK); cr_assert_eq(u32, 0xDEADBEEF);
    cr_assert_eq(gs_kv_get_i32(f, 5, &i32), GS_OK); cr_assert_eq(i32, -1);
    cr_assert_eq(gs_kv_get_f32(f, 6, &f32), GS_OK); cr_assert_eq(f32, -1.5f);
    cr_assert_eq(gs_kv_get_bool(f, 7, &bo), GS_OK); cr_assert(bo);
    cr_assert_eq(gs_kv_get_string(f, 8, &s), GS_OK);
    cr_assert_eq(s.len, 6); cr_assert(memcmp(s.ptr, "h\xc3\xa9llo", 6) == 0);
    cr_assert_eq(gs_kv_get_u64(f, 9, &u64), GS_OK); cr_assert_eq(u64, UINT64_MAX);
    cr_assert_eq(gs_kv_get_i64(f, 10, &i64), GS_OK); cr_assert_eq(i64, INT64_MIN);
    cr_assert_eq(gs_kv_get_f64(f, 11, &f64), GS_OK); cr_assert_eq(f64, 1e300);
    cr_assert_eq(gs_kv_get_array_string(f, 12, 0, &s), GS_OK); cr_assert_eq(s.len, 1);
    cr_assert_eq(gs_kv_get_array_string(f, 12, 1, &s), GS_OK); cr_assert_eq(s.len, 0);
    cr_assert_eq(gs_kv_get_array_string(f, 12, 2, &s), GS_OK);
    cr_assert(s.len == 2 && memcmp(s.ptr, "zz", 2) == 0);
    cr_assert_eq(gs_kv_get_array_string(f, 12, 3, &s), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_kv_get_array_i16(f, 13, 0, &i16), GS_OK); cr_assert_eq(i16, -2);
    cr_assert_eq(gs_kv_get_array_i16(f, 13, 1, &i16), GS_OK); cr_assert_eq(i16, 7);

    /* typed getters refuse the wrong type, kind and index */
    cr_assert_eq(gs_kv_get_u32(f, 0, &u32), GS_E_WRONG_TYPE);
    cr_assert_eq(gs_kv_get_i32(f, 4, &i32), GS_E_WRONG_TYPE, "u32 is not i32");
    cr_assert_eq(gs_kv_get_string(f, 12, &s), GS_E_WRONG_TYPE, "an array is not a string");
    cr_assert_eq(gs_kv_get_array_u16(f, 13, 0, &u16), GS_E_WRONG_TYPE);
    cr_assert_eq(gs_kv_get_array_i16(f, 2, 0, &i16), GS_E_WRONG_TYPE, "a scalar is not an array");
    cr_assert_eq(gs_kv_get_array_i16(f, 13, 2, &i16), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_kv_get_array_i16(f, 13, UINT64_MAX, &i16), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_kv_get_u8(f, 14, &u8), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_kv_get_u8(f, 0, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_u8(NULL, 0, &u8), GS_E_INVALID_ARGUMENT);
    const void *data;
    uint64_t count;
    cr_assert_eq(gs_kv_get_array_data(f, 13, &data, &count), GS_OK);
    cr_assert_eq(count, 2);
    cr_assert_eq(((const uint8_t *)data)[0], 0xFE);
    cr_assert_eq(gs_kv_get_array_data(f, 12, &data, &count), GS_E_WRONG_TYPE);
    cr_assert_eq(gs_kv_get_array_data(f, 0, &data, &count), GS_E_WRONG_TYPE);

    /* any-integer getter */
    cr_assert_eq(gs_kv_get_unsigned(f, 0, &u64), GS_OK); cr_assert_eq(u64, 250);
    cr_assert_eq(gs_kv_get_unsigned(f, 1, &u64), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_kv_get_unsigned(f, 9, &u64), GS_OK); cr_assert_eq(u64, UINT64_MAX);
    cr_assert_eq(gs_kv_get_unsigned(f, 10, &u64), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_kv_get_unsigned(f, 6, &u64), GS_E_WRONG_TYPE);

    /* lookups by exact key, in O(1) */
    size_t idx;
    cr_assert_eq(gs_kv_find(f, "f64", &idx), GS_OK); cr_assert_eq(idx, 11);
    cr_assert_eq(gs_kv_find(f, "f6", &idx), GS_E_NOT_FOUND);
    cr_assert_eq(gs_kv_find(f, "f644", &idx), GS_E_NOT_FOUND);
    cr_assert_eq(gs_kv_find_n(f, "u8\0", 3, &idx), GS_E_NOT_FOUND);
    cr_assert_eq(gs_kv_find_n(f, "u8", 2, &idx), GS_OK); cr_assert_eq(idx, 0);

    gs_kv_info info;
    cr_assert_eq(gs_kv_info_at(f, 12, &info), GS_OK);
    cr_assert_eq(info.type, GS_VALUE_ARRAY);
    cr_assert_eq(info.elem_type, GS_VALUE_STRING);
    cr_assert_eq(info.count, 3);
    cr_assert_eq(info.size, 8 + 3 + 4 + 4 + 8 + 9 + 8 + 10);
    cr_assert_eq(gs_kv_info_at(f, 14, &info), GS_E_OUT_OF_RANGE);
    cr_assert_str_eq(gs_value_type_name(GS_VALUE_F64), "f64");
    cr_assert_str_eq(gs_value_type_name((gs_value_type)99), "unknown");
    gs_close(f);
    gsw_bytes_free(&b);
}
