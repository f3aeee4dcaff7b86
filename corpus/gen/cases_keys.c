/* Keys: empty, NUL, the key grammar (strict only), duplicates, lengths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsc_cases.h"

/* Writes the case and emits it, rejected by both profiles with status at the key of record r. */
static void reject_at_key(gsc_sink *s, gsc_case *c, const char *file, gs_status status,
                          uint32_t r, const char *desc)
{
    gsc_write(c, 0);
    gsc_both(s, c, file, status, gsc_at(c, GSW_KEY_LEN, r, 0), desc);
}

/* The architecture key, then a u8 pair with the given key bytes (record 1). */
static void with_key(gsc_case *c, const void *key, size_t len)
{
    gsc_begin(c, 3);
    gsc_add_arch(&c->m);
    gsw_set_u8(gsw_add_n(&c->m, key, len), 1);
    gsc_add_f32(&c->m, "w", 4);
    gsc_write(c, 0);
}

static void both_profiles(gsc_sink *s)
{
    static const struct {
        const char *key;
        size_t len;
        const char *file;
        gs_status status;
        const char *desc;
    } bad[] = {
        {"", 0, "keys/empty.gguf", GS_E_EMPTY_KEY, "empty key (ggml aborted on it before 2026-07)"},
        {"gen\0eral.x", 10, "keys/nul_inside.gguf", GS_E_KEY_HAS_NUL, "NUL inside a key"},
        {"general.name\0", 13, "keys/nul_trailing.gguf", GS_E_KEY_HAS_NUL, "key ending in NUL"},
        {"\0", 1, "keys/nul_only.gguf", GS_E_KEY_HAS_NUL, "key of one NUL byte"},
    };
    gsc_case c;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        with_key(&c, bad[i].key, bad[i].len);
        gsc_both(s, &c, bad[i].file, bad[i].status, gsc_at(&c, GSW_KEY_LEN, 1, 0), bad[i].desc);
    }

    /* ggml's strcmp lookup finds the first key whose C string is general.alignment (64), an
     * exact-match reader the second (32): two readers, two layouts. */
    gsc_begin(&c, 3);
    gsw_set_u32(gsw_add_n(&c.m, "general.alignment\0x", 19), 64);
    gsw_set_u32(gsw_add(&c.m, "general.alignment"), 32);
    gsc_add_f32(&c.m, "w", 4);
    reject_at_key(s, &c, "keys/alignment_nul_shadow.gguf", GS_E_KEY_HAS_NUL, 0,
                  "general.alignment\\0x=64 before general.alignment=32 (ggml uses 64, "
                  "gguf-py 32)");

    gsc_begin(&c, 3);
    gsw_set_u8(gsw_add(&c.m, "a"), 1);
    gsw_set_u8(gsw_add_n(&c.m, "a\0", 2), 2);
    reject_at_key(s, &c, "keys/same_but_nul.gguf", GS_E_KEY_HAS_NUL, 1,
                  "keys a and a\\0: equal as C strings");
}

static void duplicates(gsc_sink *s)
{
    gsc_case c;
    gsc_begin(&c, 3);
    gsc_add_arch(&c.m);
    gsw_set_cstr(gsw_add(&c.m, "general.name"), "first");
    gsw_set_cstr(gsw_add(&c.m, "general.name"), "second");
    reject_at_key(s, &c, "keys/duplicate.gguf", GS_E_DUPLICATE_KEY, 2, "the same key twice");

    gsc_begin(&c, 3);
    gsw_set_u32(gsw_add(&c.m, "x.count"), 1);
    gsw_set_cstr(gsw_add(&c.m, "x.other"), "between");
    gsw_set_u64(gsw_add(&c.m, "x.count"), 2);
    reject_at_key(s, &c, "keys/duplicate_other_type.gguf", GS_E_DUPLICATE_KEY, 2,
                  "the same key twice with different value types");

    gsc_begin(&c, 3);
    gsw_set_u32(gsw_add(&c.m, "general.alignment"), 32);
    gsw_set_u32(gsw_add(&c.m, "general.alignment"), 64);
    c.m.alignment_override = 32;
    gsc_add_f32(&c.m, "w", 4);
    reject_at_key(s, &c, "keys/duplicate_alignment.gguf", GS_E_DUPLICATE_KEY, 1,
                  "general.alignment twice (32 then 64)");

    gsc_begin(&c, 3);
    gsw_set_u32(gsw_add(&c.m, "general.alignment"), 64);
    gsw_set_u32(gsw_add(&c.m, "general.alignment.x"), 8);
    gsw_set_u32(gsw_add(&c.m, "general.alignmen"), 16);
    gsc_add_f32(&c.m, "w", 4);
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* meta.architecture_missing */
    gsc_ok(s, &c, "keys/prefixes_are_distinct.gguf",
           "general.alignment beside keys it is a prefix of, and one that is its prefix");
}

static void grammar(gsc_sink *s)
{
    static const struct {
        const char *file, *key;
        size_t len;
        const char *desc;
    } bad[] = {
        {"keys/uppercase.gguf", "General.Name", 12, "upper-case letters"},
        {"keys/space.gguf", "general. name", 13, "a space"},
        {"keys/leading_dot.gguf", ".general", 8, "leading dot"},
        {"keys/trailing_dot.gguf", "general.", 8, "trailing dot"},
        {"keys/double_dot.gguf", "general..name", 13, "empty segment"},
        {"keys/only_dot.gguf", ".", 1, "a lone dot"},
        {"keys/hyphen.gguf", "general.file-type", 17, "a hyphen"},
        {"keys/slash.gguf", "general/name", 12, "a slash"},
        {"keys/non_ascii.gguf", "g\xc3\xa9n\xc3\xa9ral.name", 14,
         "non-ASCII letters (valid UTF-8)"},
        {"keys/invalid_utf8.gguf", "general.\xff\xfe", 10, "bytes that are not UTF-8"},
        {"keys/control_char.gguf", "general.\x1b[31m", 13, "a terminal escape"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gsc_case c;
        with_key(&c, bad[i].key, bad[i].len);
        char desc[160];
        snprintf(desc, sizeof desc, "key with %s: outside [a-z0-9_]+(.[a-z0-9_]+)*",
                 bad[i].desc);
        gsc_strict(s, &c, bad[i].file, GS_E_BAD_KEY, gsc_at(&c, GSW_KEY_LEN, 1, 0), desc);
    }
    gsc_case c;
    with_key(&c, "architecture", 12);
    gsc_certify(&c, GSC_CERTIFIED); /* an ordinary key: general.architecture is there too */
    gsc_ok(s, &c, "keys/one_segment.gguf", "key of one segment");
    with_key(&c, "a_1.b2._.x9_", 12);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "keys/digits_underscores.gguf", "segments of digits and underscores");

    /* The spec's 65535-byte limit: at it, and one past (strict only). */
    char *key = malloc(65536);
    memset(key, 'k', 65536);
    with_key(&c, key, 65535);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "keys/len_65535.gguf", "key of 65535 bytes, the spec's longest");
    with_key(&c, key, 65536);
    gsc_strict(s, &c, "keys/len_65536.gguf", GS_E_BAD_KEY, gsc_at(&c, GSW_KEY_LEN, 1, 0),
               "key of 65536 bytes, one past the spec's limit");
    free(key);
}

static void lengths(gsc_sink *s)
{
    gsc_case c;
    with_key(&c, "x.k", 3);
    gsc_bad_len(s, &c, GSW_KEY_LEN, UINT64_MAX, "keys/len_2p64m1.gguf",
                "key length 2^64-1 (the length+1 allocation wraps)");

    with_key(&c, "x.k", 3);
    gsc_len_past_eof(s, &c, GSW_KEY_LEN, "keys/len_one_past_eof.gguf",
                     "key length one byte more than the file has left");

    with_key(&c, "x.k", 3);
    const uint64_t at = gsc_len_to_eof(&c, GSW_KEY_LEN, 0);
    gsc_both(s, &c, "keys/len_to_eof.gguf", GS_E_KEY_HAS_NUL, at,
             "key length exactly the bytes left: the key swallows the rest, zero bytes included");
}

void gsc_cases_keys(gsc_sink *s)
{
    both_profiles(s);
    duplicates(s);
    grammar(s);
    lengths(s);
}
