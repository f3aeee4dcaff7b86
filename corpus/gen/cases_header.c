/* Header: magic, version classes, counts near 2^63 and 2^64, counts against the bytes left. */
#include <stdio.h>

#include "gsc_cases.h"

static void raw(gsc_sink *s, const char *file, const void *bytes, size_t n, gs_status st,
                uint64_t off, const char *desc)
{
    gsc_emit(s, file, bytes, n, gsc_v(st, off), gsc_v(st, off), GSC_CERTIFY_DERIVED, desc);
}

static void magic_cases(gsc_sink *s)
{
    raw(s, "header/empty.gguf", "", 0, GS_E_TRUNCATED, 0, "empty file: ends inside the magic");
    raw(s, "header/magic_gg.gguf", "GG", 2, GS_E_TRUNCATED, 0,
        "2 bytes, a prefix of the magic: ends inside the magic");
    raw(s, "header/magic_gx.gguf", "GX", 2, GS_E_BAD_MAGIC, 0, "2 bytes that are not a prefix");
    raw(s, "header/magic_only.gguf", "GGUF", 4, GS_E_TRUNCATED, 4,
        "only the magic (Ollama CVE-2024-39720): ends before the version");

    static const struct { const char *file, *magic, *desc; } bad[] = {
        {"header/magic_fugg.gguf", "FUGG", "big-endian magic FUGG (never a C reader path)"},
        {"header/magic_lowercase.gguf", "gguf", "lower-case magic"},
        {"header/magic_ggjt.gguf", "tjgg", "pre-GGUF llama.cpp magic ggjt (0x67676a74 on disk)"},
        {"header/magic_nul.gguf", "\0GGU", "magic shifted by one byte"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gsc_case c;
        gsc_base(&c);
        gsc_write(&c, 0);
        gsw_patch(&c.b, 0, bad[i].magic, 4);
        gsc_both(s, &c, bad[i].file, GS_E_BAD_MAGIC, 0, bad[i].desc);
    }
}

static void version_cases(gsc_sink *s)
{
    static const struct { const char *file; uint32_t v; gs_status st; const char *desc; } vs[] = {
        {"header/version_0.gguf", 0, GS_E_UNSUPPORTED_VERSION, "version 0"},
        {"header/version_1.gguf", 1, GS_E_UNSUPPORTED_VERSION, "version 1 (u32 counts, dropped)"},
        {"header/version_4.gguf", 4, GS_E_UNSUPPORTED_VERSION, "version 4 (future)"},
        {"header/version_0x00010002.gguf", 0x00010002u, GS_E_UNSUPPORTED_VERSION,
         "version 0x00010002: neither 2 nor a byte-swapped 1..3"},
        {"header/version_0x00000100.gguf", 0x00000100u, GS_E_UNSUPPORTED_VERSION,
         "version 256: byte-swapped it is 0x00010000, not 1..3"},
        {"header/version_max.gguf", 0xFFFFFFFFu, GS_E_UNSUPPORTED_VERSION, "version 2^32-1"},
        {"header/version_swapped_1.gguf", 0x01000000u, GS_E_BYTE_SWAPPED,
         "version word of a big-endian v1 file"},
        {"header/version_swapped_2.gguf", 0x02000000u, GS_E_BYTE_SWAPPED,
         "version word of a big-endian v2 file"},
        {"header/version_swapped_3.gguf", 0x03000000u, GS_E_BYTE_SWAPPED,
         "version word of a big-endian v3 file"},
    };
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) {
        gsc_case c;
        gsc_base(&c);
        gsc_write(&c, 0);
        gsw_override(&c.b, &c.map, GSW_VERSION, 0, 0, vs[i].v);
        gsc_both(s, &c, vs[i].file, vs[i].st, 4, vs[i].desc);
    }
    for (uint32_t v = 2; v <= 3; v++) {
        gsc_case c;
        gsc_base(&c);
        c.m.version = v;
        gsc_write(&c, 0);
        gsc_certify(&c, GSC_CERTIFIED); /* version 2 is a note (compat.version_2) */
        gsc_ok(s, &c, v == 2 ? "header/version_2.gguf" : "header/version_3.gguf",
               v == 2 ? "version 2 (u64 counts): read like 3" : "version 3");
    }
}

static void cut_header(gsc_sink *s)
{
    static const struct { const char *file; size_t len; uint64_t at; const char *desc; } cuts[] = {
        {"header/cut_in_version.gguf", 6, 4, "ends inside the version"},
        {"header/cut_in_n_tensors.gguf", 12, 8, "ends inside the tensor count"},
        {"header/cut_in_n_kv.gguf", 20, 16, "ends inside the key-value count"},
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        gsc_case c;
        gsc_base(&c);
        gsc_write(&c, 0);
        gsw_truncate(&c.b, cuts[i].len);
        gsc_both(s, &c, cuts[i].file, GS_E_TRUNCATED, cuts[i].at, cuts[i].desc);
    }
    for (uint32_t v = 2; v <= 3; v++) {
        gsc_case c;
        gsc_begin(&c, v);
        gsc_write(&c, 0);
        gsw_truncate(&c.b, 24);
        gsc_certify(&c, GSC_NOT_CERTIFIED); /* meta.architecture_missing */
        gsc_ok(s, &c, v == 2 ? "header/header_only_v2.gguf" : "header/header_only_v3.gguf",
               "24-byte header, no records, no padding: with no tensors no padding is needed");
    }
}

/* Counts that no file can hold: they must be refused before anything is allocated. */
static void huge_counts(gsc_sink *s)
{
    static const struct { const char *file; gsw_kind kind; uint64_t n; const char *desc; } cs[] = {
        {"header/n_tensors_2p64m1.gguf", GSW_N_TENSORS, UINT64_MAX, "tensor count 2^64-1"},
        {"header/n_tensors_2p63.gguf", GSW_N_TENSORS, 1ull << 63, "tensor count 2^63"},
        {"header/n_tensors_2p63m1.gguf", GSW_N_TENSORS, INT64_MAX, "tensor count 2^63-1"},
        {"header/n_tensors_times_25_wraps.gguf", GSW_N_TENSORS, 737869762948382065ull,
         "tensor count ceil(2^64/25): times 25 wraps to 9"},
        {"header/n_tensors_2p32.gguf", GSW_N_TENSORS, 1ull << 32, "tensor count 2^32"},
        {"header/n_kv_2p64m1.gguf", GSW_N_KV, UINT64_MAX, "key-value count 2^64-1"},
        {"header/n_kv_2p63.gguf", GSW_N_KV, 1ull << 63, "key-value count 2^63"},
        {"header/n_kv_times_14_wraps.gguf", GSW_N_KV, 1317624576693539402ull,
         "key-value count ceil(2^64/14): times 14 wraps to 12"},
        {"header/n_kv_2p32.gguf", GSW_N_KV, 1ull << 32, "key-value count 2^32"},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        gsc_case c;
        gsc_base(&c);
        gsc_write(&c, 0);
        gsw_override(&c.b, &c.map, cs[i].kind, 0, 0, cs[i].n);
        gsc_both(s, &c, cs[i].file, GS_E_COUNT_EXCEEDS_FILE, cs[i].kind == GSW_N_KV ? 16 : 8,
                 cs[i].desc);
    }
}

/* Counts just past what the bytes after the header could hold. */
static void counts_vs_bytes(gsc_sink *s)
{
    gsc_case c;

    gsc_base(&c);
    gsc_write(&c, 0);
    gsw_override(&c.b, &c.map, GSW_N_TENSORS, 0, 0, (c.b.len - 24) / 25 + 1);
    gsc_both(s, &c, "counts/n_tensors_one_past_bound.gguf", GS_E_COUNT_EXCEEDS_FILE, 8,
             "tensor count one more than (file size - 24) / 25");

    gsc_base(&c);
    gsc_write(&c, 0);
    gsw_override(&c.b, &c.map, GSW_N_KV, 0, 0, (c.b.len - 24 - 25) / 14 + 1);
    gsc_both(s, &c, "counts/n_kv_one_past_bound.gguf", GS_E_COUNT_EXCEEDS_FILE, 16,
             "key-value count one more than the bytes left after 25 per tensor allow");

    /* Each count fits on its own; together they do not: the key-value count is blamed. */
    gsc_base(&c);
    gsc_write(&c, 0);
    uint64_t rem = c.b.len - 24;
    gsw_override(&c.b, &c.map, GSW_N_TENSORS, 0, 0, rem / 25 / 2 + 1);
    gsw_override(&c.b, &c.map, GSW_N_KV, 0, 0, rem / 14 / 2 + 1);
    gsc_both(s, &c, "counts/both_fit_alone_not_together.gguf", GS_E_COUNT_EXCEEDS_FILE, 16,
             "tensor and key-value counts each fit the file alone but not together");

    /* The tensor count passes the header bound but not the bytes left after the key-values. */
    gsc_begin(&c, 3);
    uint8_t big[600];
    for (size_t i = 0; i < sizeof big; i++) {
        big[i] = (uint8_t)('a' + i % 26);
    }
    gsw_set_string(gsw_add(&c.m, "general.name"), big, sizeof big);
    gsc_add_f32(&c.m, "w", 1);
    gsc_write(&c, 0);
    uint64_t after_kv = c.b.len - gsc_at(&c, GSW_NAME_LEN, 0, 0);
    gsw_override(&c.b, &c.map, GSW_N_TENSORS, 0, 0, after_kv / 25 + 1);
    gsc_both(s, &c, "counts/n_tensors_past_bytes_after_kvs.gguf", GS_E_COUNT_EXCEEDS_FILE, 8,
             "tensor count fits the header bound but not the bytes left after the key-values");

    /* At the bound the parse runs into the padding and reads a zero-length key. */
    gsc_begin(&c, 3);
    gsw_set_u8(gsw_add(&c.m, "a"), 1); /* 14 bytes: 24 + 14 = 38, padded to 64 */
    gsc_write(&c, 0);
    uint64_t key_at = gsc_at(&c, GSW_PADDING, 0, 0);
    gsw_override(&c.b, &c.map, GSW_N_KV, 0, 0, (c.b.len - 24) / 14);
    gsc_both(s, &c, "counts/n_kv_at_bound_reads_padding.gguf", GS_E_EMPTY_KEY, key_at,
             "key-value count at the bound: the second record is the zero padding, an empty key");

    /* Fewer records declared than written: the rest is padding, data or trailing bytes. */
    gsc_begin(&c, 3);
    gsc_add_arch(&c.m);
    gsc_write(&c, 0);
    gsw_override(&c.b, &c.map, GSW_N_KV, 0, 0, 0);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* the architecture is padding now: missing */
    gsc_ok(s, &c, "counts/n_kv_undercount.gguf",
           "declares 0 key-values but one follows: read as padding (non-zero) and accepted");

    gsc_two_tensors(&c, 4, 4);
    gsw_override(&c.b, &c.map, GSW_N_TENSORS, 0, 0, 1);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* no architecture; b's data is trailing bytes */
    gsc_ok(s, &c, "counts/n_tensors_undercount.gguf",
           "declares 1 of 2 tensors: the second info is read as padding and data; accepted");
}

void gsc_cases_header(gsc_sink *s)
{
    magic_cases(s);
    version_cases(s);
    cut_header(s);
    huge_counts(s);
    counts_vs_bytes(s);
}
