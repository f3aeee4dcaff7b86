/* The bounds of the manifest reader and hash's check against them (cli/manifest/manifest_limits.c,
 * issue #14 point 6): the limits are the reader's defaults turned into manifest terms; the
 * reader refuses one past each bound and accepts the bound itself; and hash's check refuses
 * exactly the files whose manifest the reader would refuse, so hash never writes a manifest that
 * verify cannot read. Small limits stand in for the real ones, which take gigabytes to reach. */
#define _DEFAULT_SOURCE /* open_memstream */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_source.h"
#include "gsw_write.h"
#include "manifest.h"

static const char hex64[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/* Parses text with limits; the status, and the detail in why. */
static gs_status parse_with(const char *text, size_t len, const mf_limits *limits, char *why,
                            size_t cap)
{
    mf_input in = {NULL, (const uint8_t *)text, len, 0};
    mf_doc d;
    gs_error err;
    gs_status st = mf_parse(&in, limits, &d, &err);
    snprintf(why, cap, "%s", st == GS_OK ? "" : err.detail);
    if (st == GS_OK) {
        mf_doc_free(&d);
    }
    return st;
}

Test(manifest_limits, derived_from_the_reader_defaults)
{
    gs_options o;
    gs_options_init(&o);
    mf_limits l;
    mf_limits_default(&l);
    cr_expect_eq(l.max_line, 4 * o.limits.max_string_length + MF_LINE_OVERHEAD);
    cr_expect_eq(l.max_line, 268444032u); /* 4 x 64 MiB + 256 + 8,320: docs/manifests.md */
    cr_expect_eq(l.max_part_value_bytes, 16777216u);
    cr_expect_eq(l.max_part_entries, o.limits.max_kv_count + o.limits.max_tensor_count);
    cr_expect_eq(l.max_part_entries, 2097152u);
    cr_expect_eq(l.max_entries, 4194304u);
    cr_expect_eq(l.max_name_bytes, o.limits.max_metadata_memory);
    cr_expect_eq(l.max_name_bytes, 1073741824u);
}

/* "kv <64 hex> " is 68 bytes: a name of n bytes makes a line of 68 + n. */
static char *kv_manifest(size_t name_len, size_t *len)
{
    size_t cap = name_len + 256;
    char *s = malloc(cap);
    cr_assert_not_null(s);
    int n = snprintf(s, cap, "ggufsafe-manifest 1\npart 1 of 1\nfile %s 7\nkv %s ", hex64,
                     hex64);
    memset(s + n, 'k', name_len);
    size_t k = (size_t)n + name_len;
    k += (size_t)snprintf(s + k, cap - k, "\nend\n");
    *len = k;
    return s;
}

Test(manifest_limits, a_line_of_max_line_bytes_is_read_one_more_is_not)
{
    mf_limits l;
    mf_limits_default(&l);
    l.max_line = 100;
    char why[GS_ERROR_TEXT_MAX];
    size_t len;
    char *s = kv_manifest(100 - 68, &len);
    cr_expect_eq(parse_with(s, len, &l, why, sizeof why), GS_OK, "%s", why);
    free(s);
    s = kv_manifest(101 - 68, &len);
    cr_expect_eq(parse_with(s, len, &l, why, sizeof why), GS_E_INVALID_ARGUMENT);
    cr_expect_str_eq(why, "line 4: longer than 100 bytes, the longest line a manifest can have");
    free(s);
}

/* Lines far beyond the old fixed 262,268-byte buffer: the buffer grows with them. */
Test(manifest_limits, long_lines_grow_the_buffer)
{
    char why[GS_ERROR_TEXT_MAX];
    size_t len;
    char *s = kv_manifest(3u << 20, &len);
    cr_expect_eq(parse_with(s, len, NULL, why, sizeof why), GS_OK, "%s", why);
    free(s);
}

static char *entries_manifest(int parts, int per_part, size_t name_len)
{
    size_t cap = 256 + (size_t)parts * (160 + (size_t)per_part * (80 + name_len));
    char *s = malloc(cap);
    cr_assert_not_null(s);
    size_t k = (size_t)snprintf(s, cap, "ggufsafe-manifest 1\n");
    for (int p = 0; p < parts; p++) {
        k += (size_t)snprintf(s + k, cap - k, "part %d of %d\nfile %s 7\n", p + 1, parts, hex64);
        for (int i = 0; i < per_part; i++) {
            k += (size_t)snprintf(s + k, cap - k, "kv %s %0*d\n", hex64, (int)name_len, i);
        }
    }
    snprintf(s + k, cap - k, "end\n");
    return s;
}

/* entries_manifest(parts, per_part, name_len) under l: parsed (refusal NULL) or refused with
 * GS_E_INVALID_ARGUMENT and exactly that detail. */
static void expect_entries(const mf_limits *l, int parts, int per_part, size_t name_len,
                           const char *refusal)
{
    char why[GS_ERROR_TEXT_MAX];
    char *s = entries_manifest(parts, per_part, name_len);
    const gs_status st = parse_with(s, strlen(s), l, why, sizeof why);
    if (refusal == NULL) {
        cr_expect_eq(st, GS_OK, "%s", why);
    } else {
        cr_expect_eq(st, GS_E_INVALID_ARGUMENT);
        cr_expect_str_eq(why, refusal);
    }
    free(s);
}

Test(manifest_limits, entries_per_part_in_all_and_name_bytes)
{
    mf_limits l;
    mf_limits_default(&l);
    l.max_part_entries = 3;
    l.max_entries = 5;
    l.max_name_bytes = 20;
    expect_entries(&l, 1, 3, 2, NULL);
    expect_entries(&l, 1, 4, 2,
                   "line 7: more entries than any GGUF the reader accepts can have (3 per part, 5 "
                   "in all)");
    /* 2 + 3 = 5 in all is the bound; 3 + 3 is past it */
    expect_entries(&l, 2, 3, 2,
                   "line 11: more entries than any GGUF the reader accepts can have (3 per part, "
                   "5 in all)");
    /* names: 5 x 4 = 20 bytes is the bound, 3 x 7 = 21 past it */
    l.max_part_entries = 5;
    expect_entries(&l, 1, 5, 4, NULL);
    expect_entries(&l, 1, 3, 7,
                   "line 6: the names take more than 20 bytes in all, more than any GGUF the "
                   "reader accepts");
}

/* ---- hash's check agrees with the reader ------------------------------------------------ */

/* A lenient file: a 70,000-byte key (past strict's 65,535) of bytes that need escaping, a
 * 100-byte tensor name (past strict's 63), and short keys. */
static gs_file *lenient_file(gsw_bytes *bytes)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    char *key = malloc(70000);
    cr_assert_not_null(key);
    for (size_t i = 0; i < 70000; i++) {
        key[i] = i % 2 == 0 ? 'K' : (char)0xff;
    }
    gsw_set_u32(gsw_add_n(&m, key, 70000), 1);
    gsw_set_u32(gsw_add(&m, "a"), 2);
    free(key);
    char name[100];
    memset(name, 'T', sizeof name);
    const uint64_t ne = 4;
    static const float data[4] = {1, 2, 3, 4};
    gsw_tensor_set_data(gsw_add_tensor_n(&m, name, sizeof name, 1, &ne, GS_TYPE_F32), data,
                        sizeof data);
    gsw_bytes_init(bytes);
    char why[256];
    cr_assert_eq(gsw_write(&m, 0, bytes, NULL, why, sizeof why), 0, "%s", why);
    gsw_model_free(&m);
    gs_options o;
    gs_options_init(&o);
    o.profile = GS_PROFILE_LENIENT;
    gs_file *f;
    cr_assert_eq(gs_open_memory(bytes->data, bytes->len, &o, &f, NULL), GS_OK);
    return f;
}

/* The manifest of f as hash writes it, then parsed back with limits. */
static gs_status round_trip(const gs_file *f, const mf_limits *l, char *why, size_t cap)
{
    mf_doc d;
    cr_assert_eq(mf_doc_init(&d, 1), GS_OK);
    mf_hash_options ho = {.jobs = 1};
    uint64_t where;
    cr_assert_eq(mf_hash_part(f, &ho, &d.parts[0], &where), GS_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    cr_assert_not_null(mem);
    gs_sink sink;
    gs_sink_file(&sink, mem);
    cli_out out;
    cr_assert_eq(cli_out_init(&out, &sink), GS_OK);
    mf_write(&out, &d);
    cr_assert_eq(cli_out_finish(&out, NULL), GS_OK);
    cr_assert_eq(fclose(mem), 0);
    mf_doc_free(&d);
    gs_status st = parse_with(text, len, l, why, cap);
    free(text);
    return st;
}

/* At the file's own needs both accept; one below the entries or the names, both refuse; one
 * below the line, hash refuses (its margin for the fields around a name is MF_LINE_OVERHEAD, the
 * reader's the fields' real length), so it never writes a line the reader cannot take. */
Test(manifest_limits, hash_refuses_what_the_reader_would_refuse)
{
    gsw_bytes bytes;
    gs_file *f = lenient_file(&bytes);
    cli_source src = {NULL, f};
    /* the long key: 35,000 'K' as they are, 35,000 0xff as \xff; then "a" and 100 'T' */
    const uint64_t key_escaped = 35000 + 4 * 35000;
    mf_limits exact = {.max_line = key_escaped + MF_LINE_OVERHEAD, .max_part_entries = 3,
                       .max_entries = 3, .max_name_bytes = key_escaped + 1 + 100,
                       .max_part_value_bytes = MF_PART_VALUE_BYTES};
    char why[GS_ERROR_TEXT_MAX];
    gs_error err;
    cr_expect_eq(mf_check_fits(&src, &exact, &err), GS_OK, "%s", err.detail);
    cr_expect_eq(round_trip(f, &exact, why, sizeof why), GS_OK, "%s", why);

    mf_limits l = exact;
    l.max_part_entries = 2;
    cr_expect_eq(mf_check_fits(&src, &l, &err), GS_E_LIMIT_TENSOR_COUNT);
    cr_expect_str_eq(err.detail, "manifest: 3 entries by part 1; it holds 2 a part, 3 in all "
                                 "(hash each part with --part-only)");
    cr_expect_eq(round_trip(f, &l, why, sizeof why), GS_E_INVALID_ARGUMENT);
    l = exact;
    l.max_entries = 2;
    cr_expect_eq(mf_check_fits(&src, &l, &err), GS_E_LIMIT_TENSOR_COUNT);
    cr_expect_eq(round_trip(f, &l, why, sizeof why), GS_E_INVALID_ARGUMENT);
    l = exact;
    l.max_name_bytes--;
    cr_expect_eq(mf_check_fits(&src, &l, &err), GS_E_LIMIT_MEMORY);
    cr_expect_str_eq(err.detail, "manifest: names of 175101 bytes escaped by part 1; it holds "
                                 "175100 (hash each part with --part-only)");
    cr_expect_eq(round_trip(f, &l, why, sizeof why), GS_E_INVALID_ARGUMENT);
    cr_expect(strstr(why, "the names take more than") != NULL, "%s", why);
    l = exact;
    l.max_line--;
    cr_expect_eq(mf_check_fits(&src, &l, &err), GS_E_LIMIT_STRING_LENGTH);
    cr_expect_str_eq(err.detail, "manifest: a name of part 1 is 175000 bytes escaped; a line "
                                 "holds 174999");
    cr_expect_eq(round_trip(f, &l, why, sizeof why), GS_OK, "%s", why);
    l.max_line = 68 + key_escaped - 1; /* "kv <digest> " and the key: one byte too long */
    cr_expect_eq(round_trip(f, &l, why, sizeof why), GS_E_INVALID_ARGUMENT);
    gs_close(f);
    gsw_bytes_free(&bytes);
}
