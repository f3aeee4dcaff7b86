/* gs_detect: every sample of corpus/writer/gsw_foreign.c is named as it declares (format,
 * inner format, detail, byte for byte), every prefix of every sample is read within its bounds
 * (exactly sized heap copies, so AddressSanitizer sees any read past them), GGUF headers give
 * their version and counts in either byte order, quoted text is escaped, the file variant reads
 * what the memory variant is given and fails as gs_open_file does, and misuse is refused. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gsw_foreign.h"
#include "test_util.h"

static gs_detected detect(const void *p, size_t n)
{
    gs_detected d;
    memset(&d, 0xa5, sizeof d);
    cr_assert_eq(gs_detect(p, n, &d), GS_OK);
    return d;
}

/* The sample's bytes (gsw_bytes_free them). */
static gsw_bytes built(const gsw_foreign *s)
{
    gsw_bytes b;
    gsw_bytes_init(&b);
    s->build(&b);
    return b;
}

static bool is_container(gs_format f)
{
    return f == GS_FORMAT_GZIP || f == GS_FORMAT_XZ || f == GS_FORMAT_ZSTD ||
           f == GS_FORMAT_BZIP2 || f == GS_FORMAT_ZIP || f == GS_FORMAT_7Z || f == GS_FORMAT_TAR;
}

Test(detect, every_sample_is_named_as_it_declares)
{
    for (size_t i = 0; i < gsw_foreign_count; i++) {
        const gsw_foreign *s = &gsw_foreign_samples[i];
        gsw_bytes b = built(s);
        gs_detected d = detect(b.data, b.len);
        cr_expect_eq(d.format, s->format, "%s: %s, want %s", s->file, gs_format_name(d.format),
                     gs_format_name(s->format));
        cr_expect_eq(d.inner, s->inner, "%s: inner %s", s->file, gs_format_name(d.inner));
        cr_expect_str_eq(d.detail, s->detail, "%s", s->file);
        cr_expect_str_eq(d.name, gs_format_name(s->format), "%s", s->file);
        cr_expect_gt(strlen(d.description), 10, "%s", s->file);
        cr_expect_gt(strlen(d.advice), 10, "%s", s->file);
        cr_expect_eq(d.container, is_container(s->format), "%s", s->file);
        cr_expect_eq(d.file_size, b.len, "%s", s->file);
        /* and the reader refuses it as the sample says */
        gs_error e;
        cr_expect_eq(tu_open(&b, GS_PROFILE_LENIENT, &e), s->status, "%s: %s", s->file,
                     gs_status_name(e.status));
        gsw_bytes_free(&b);
    }
}

/* Each prefix in a heap block of exactly its size: a read past n is an ASan report. The magic
 * formats stay named once their magic is in. */
Test(detect, every_prefix_of_every_sample_stays_in_bounds)
{
    for (size_t i = 0; i < gsw_foreign_count; i++) {
        const gsw_foreign *s = &gsw_foreign_samples[i];
        gsw_bytes b = built(s);
        for (size_t n = 0; n <= b.len; n++) {
            uint8_t *copy = malloc(n > 0 ? n : 1);
            cr_assert_not_null(copy);
            memcpy(copy, b.data, n);
            gs_detected d = detect(copy, n);
            free(copy);
            cr_assert_lt((unsigned)d.format, GS_FORMAT_COUNT, "%s[..%zu]", s->file, n);
            cr_assert_lt(strlen(d.detail), sizeof d.detail, "%s[..%zu]", s->file, n);
            if (n == 0) {
                cr_expect_eq(d.format, GS_FORMAT_EMPTY);
            }
        }
        gsw_bytes_free(&b);
    }
}

Test(detect, magic_formats_hold_from_their_magic_on)
{
    static const struct {
        const char *file;
        size_t magic_len;
    } magics[] = {{"ggjt_v3.bin", 4},    {"model.gguf.gz", 3}, {"empty.xz", 6},
                  {"model.gguf.zst", 4}, {"empty.7z", 6},      {"model.zip", 4}};
    for (size_t m = 0; m < sizeof magics / sizeof magics[0]; m++) {
        const gsw_foreign *s = NULL;
        for (size_t i = 0; i < gsw_foreign_count; i++) {
            if (strcmp(gsw_foreign_samples[i].file, magics[m].file) == 0) {
                s = &gsw_foreign_samples[i];
            }
        }
        cr_assert_not_null(s, "%s", magics[m].file);
        gsw_bytes b = built(s);
        for (size_t n = magics[m].magic_len; n <= b.len; n++) {
            cr_expect_eq(detect(b.data, n).format, s->format, "%s[..%zu]", s->file, n);
        }
        gsw_bytes_free(&b);
    }
}

Test(detect, gguf_headers_give_version_and_counts)
{
    gsw_bytes b = tu_small(0);
    gs_detected d = detect(b.data, b.len);
    cr_expect_eq(d.format, GS_FORMAT_GGUF);
    cr_expect_str_eq(d.name, "gguf");
    cr_expect_str_eq(d.advice, "");
    cr_expect_eq(d.version, 3);
    cr_expect_eq(d.n_tensors, 2);
    cr_expect_eq(d.n_kv, 1);
    cr_expect_str_eq(d.detail, "");
    /* a prefix of the magic is the start of a GGUF; fewer than 24 bytes give no counts */
    cr_expect_eq(detect("GGU", 3).format, GS_FORMAT_GGUF);
    d = detect(b.data, 12);
    cr_expect_eq(d.format, GS_FORMAT_GGUF);
    cr_expect_eq(d.version, 3);
    cr_expect_eq(d.n_tensors, 0);
    gsw_bytes_free(&b);

    /* version 1 is GGUF (an unsupported one); a byte-swapped 1..3 is big-endian */
    gsw_bytes_init(&b);
    gsw_raw_header(&b, 1, 5, 6);
    d = detect(b.data, b.len);
    cr_expect_eq(d.format, GS_FORMAT_GGUF);
    cr_expect_eq(d.version, 1);
    gsw_bytes_free(&b);
    for (size_t i = 0; i < gsw_foreign_count; i++) {
        const gsw_foreign *s = &gsw_foreign_samples[i];
        if (s->format != GS_FORMAT_GGUF_BIG_ENDIAN) {
            continue;
        }
        b = built(s);
        d = detect(b.data, b.len);
        cr_expect_eq(d.version, 3);
        cr_expect_eq(d.n_tensors, 0);
        cr_expect_eq(d.n_kv, 1);
        gsw_bytes_free(&b);
    }
    /* the magic written as a big-endian number, with a big-endian version */
    static const uint8_t fugg[8] = {'F', 'U', 'G', 'G', 0, 0, 0, 2};
    d = detect(fugg, sizeof fugg);
    cr_expect_eq(d.format, GS_FORMAT_GGUF_BIG_ENDIAN);
    cr_expect_eq(d.version, 2);
    /* but not with a little-endian one: then it is nothing known */
    static const uint8_t fugg_le[8] = {'F', 'U', 'G', 'G', 3, 0, 0, 0};
    cr_expect_eq(detect(fugg_le, sizeof fugg_le).format, GS_FORMAT_UNKNOWN);
}

Test(detect, sizes_of_lfs_pointers_and_safetensors_headers)
{
    for (size_t i = 0; i < gsw_foreign_count; i++) {
        const gsw_foreign *s = &gsw_foreign_samples[i];
        gsw_bytes b = built(s);
        gs_detected d = detect(b.data, b.len);
        uint64_t want = s->format == GS_FORMAT_GIT_LFS_POINTER ? 4368439584ull
                        : s->format == GS_FORMAT_SAFETENSORS   ? 88
                                                               : 0;
        cr_expect_eq(d.size, want, "%s", s->file);
        gsw_bytes_free(&b);
    }
    /* an LFS size that does not fit 64 bits is no size */
    static const char big[] = "version https://git-lfs.github.com/spec/v1\n"
                              "oid sha256:00\nsize 99999999999999999999999\n";
    gs_detected d = detect(big, sizeof big - 1);
    cr_expect_eq(d.format, GS_FORMAT_GIT_LFS_POINTER);
    cr_expect_eq(d.size, 0);
    cr_expect_str_eq(d.detail, "oid sha256:00, size 0 bytes");
}

/* A header length whose low byte is '{' is still safetensors, and JSON is never safetensors. */
Test(detect, binary_lengths_are_not_text)
{
    gsw_bytes b;
    gsw_bytes_init(&b);
    gsw_put_u64(&b, 0x7b);
    gsw_put(&b, "{\"a\":{}}", 8);
    gsw_put_fill(&b, ' ', 0x7b - 8);
    cr_expect_eq(detect(b.data, b.len).format, GS_FORMAT_SAFETENSORS);
    gsw_bytes_free(&b);
    cr_expect_eq(detect("{\"error\": {\"message\": \"Unauthorized\"}}", 38).format,
                 GS_FORMAT_JSON);
    cr_expect_str_eq(detect("{\"error\": {\"message\": \"Unauthorized\"}}", 38).detail,
                     "Unauthorized");
    /* a pickle protocol outside 2..5 is no pickle */
    cr_expect_eq(detect("\x80\x09xyz", 5).format, GS_FORMAT_UNKNOWN);
}

/* Bytes quoted in detail are escaped as gs_error's context is: control bytes, backslashes and
 * invalid UTF-8 as \xHH and \\. */
Test(detect, quoted_text_is_escaped)
{
    static const char page[] = "<html><title>\x1b]0;owned\x07 \\ \xff</title></html>";
    gs_detected d = detect(page, sizeof page - 1);
    cr_expect_eq(d.format, GS_FORMAT_HTML);
    cr_expect_str_eq(d.detail, "\\x1b]0;owned\\x07 \\\\ \\xff");
    static const char json[] = "{\"error\":\"bad\\u001b\x1b\"}";
    d = detect(json, sizeof json - 1);
    cr_expect_str_eq(d.detail, "bad\\\\u001b\\x1b");
    /* a title longer than the detail is cut with "..." */
    char longer[400] = "<html><title>";
    memset(longer + 13, 'x', 300);
    memcpy(longer + 313, "</title>", 8);
    d = detect(longer, 321);
    cr_expect_eq(strlen(d.detail), GS_ERROR_TEXT_MAX - 1);
    cr_expect_str_eq(d.detail + GS_ERROR_TEXT_MAX - 4, "...");
}

/* Only the first GS_DETECT_BYTES are looked at: an HTML tag beyond them is not seen (the dashes
 * before it are plain text). */
Test(detect, only_the_head_is_read)
{
    size_t n = GS_DETECT_BYTES + 64;
    char *buf = malloc(n);
    cr_assert_not_null(buf);
    memcpy(buf, "<!--", 4);
    memset(buf + 4, '-', n - 4);
    memcpy(buf + GS_DETECT_BYTES + 8, "<html>", 6);
    cr_expect_eq(detect(buf, n).format, GS_FORMAT_TEXT);
    cr_expect_eq(detect(buf, n).file_size, n, "the size given, not the part looked at");
    memcpy(buf + GS_DETECT_BYTES - 16, "<html>", 6);
    cr_expect_eq(detect(buf, n).format, GS_FORMAT_HTML);
    free(buf);
}

Test(detect, the_file_variant_reads_the_head)
{
    char dir[] = "/tmp/gs_detect_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[4096];
    snprintf(path, sizeof path, "%s/pointer.gguf", dir);
    const gsw_foreign *s = &gsw_foreign_samples[0];
    cr_assert_eq(s->format, GS_FORMAT_GIT_LFS_POINTER);
    gsw_bytes b = built(s);
    cr_assert_eq(gsw_bytes_save(&b, path), 0);
    gs_detected d;
    gs_error e;
    cr_assert_eq(gs_detect_file(path, &d, &e), GS_OK);
    cr_expect_eq(d.format, GS_FORMAT_GIT_LFS_POINTER);
    cr_expect_str_eq(d.detail, s->detail);
    cr_expect_eq(d.file_size, b.len);
    /* an empty file, a missing one, a directory */
    gsw_truncate(&b, 0);
    cr_assert_eq(gsw_bytes_save(&b, path), 0);
    cr_assert_eq(gs_detect_file(path, &d, &e), GS_OK);
    cr_expect_eq(d.format, GS_FORMAT_EMPTY);
    cr_assert_eq(unlink(path), 0);
    cr_expect_eq(gs_detect_file(path, &d, &e), GS_E_NO_SUCH_FILE);
    cr_expect_str_eq(e.detail, "open: No such file or directory");
    cr_expect_eq(gs_detect_file(dir, &d, &e), GS_E_NOT_REGULAR_FILE);
    cr_expect_str_eq(e.detail, "a directory, not a regular file");
    cr_assert_eq(rmdir(dir), 0);
    gsw_bytes_free(&b);
}

Test(detect, misuse_is_refused)
{
    gs_detected d;
    cr_expect_eq(gs_detect(NULL, 0, &d), GS_OK);
    cr_expect_eq(d.format, GS_FORMAT_EMPTY);
    cr_expect_eq(gs_detect(NULL, 1, &d), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(gs_detect("GGUF", 4, NULL), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(gs_detect_sized("GGUF", 4, &d, sizeof d - 1), GS_E_INVALID_ARGUMENT);
    gs_error e;
    cr_expect_eq(gs_detect_file(NULL, &d, &e), GS_E_INVALID_ARGUMENT);
    /* a larger struct (a later header) gets zeros past this version's fields */
    struct {
        gs_detected d;
        unsigned char later[16];
    } big;
    memset(&big, 0xff, sizeof big);
    cr_expect_eq(gs_detect_sized("GGUF", 4, &big.d, sizeof big), GS_OK);
    for (size_t i = 0; i < sizeof big.later; i++) {
        cr_expect_eq(big.later[i], 0);
    }
    cr_expect_str_eq(gs_format_name(GS_FORMAT_COUNT), "unknown");
    cr_expect_str_eq(gs_format_name((gs_format)-1), "unknown");
    for (int f = 0; f < GS_FORMAT_COUNT; f++) {
        cr_expect_gt(strlen(gs_format_name((gs_format)f)), 1);
    }
}

/* Near misses and the alternatives of each sniffer, one row each: the format every small head is
 * named as (a near miss of a binary format is UNKNOWN; of a text one, TEXT). */
Test(detect, near_misses_and_alternatives)
{
    static const struct {
        const char *bytes;
        size_t n;
        gs_format format;
    } rows[] = {
        /* GGUF written big-endian says too little without its version */
        {"FUGG", 4, GS_FORMAT_TEXT},
        /* safetensors: a length below 2 or above 100 MB, a header that is no JSON object */
        {"\x01\0\0\0\0\0\0\0{}", 10, GS_FORMAT_UNKNOWN},
        {"\x00\xe2\xf5\x05\0\0\0\0{}", 10, GS_FORMAT_UNKNOWN},
        {"\x0a\0\0\0\0\0\0\0{ x", 11, GS_FORMAT_UNKNOWN},
        {"\x02\0\0\0\0\0\0\0{}", 10, GS_FORMAT_SAFETENSORS},
        {"\x0a\0\0\0\0\0\0\0{\t\r\n\"", 13, GS_FORMAT_SAFETENSORS},
        /* zip: the end-of-archive and spanning magics */
        {"PK\x05\x06\0\0\0\0", 8, GS_FORMAT_ZIP},
        {"PK\x07\x08\0\0\0\0", 8, GS_FORMAT_ZIP},
        /* gzip: FEXTRA without FNAME, FEXTRA cut before its length */
        {"\x1f\x8b\x08\x04\0\0\0\0\0\x03\x02\0xy", 14, GS_FORMAT_GZIP},
        {"\x1f\x8b\x08\x0c\0\0\0\0\0\x03\x02", 11, GS_FORMAT_GZIP},
        {"\x1f\x8b\x08\x0c\0\0\0\0\0\x03\x02\0xym.gguf", 20, GS_FORMAT_GZIP},
        /* bzip2: the block size alone, then a block's or the end's magic, or neither */
        {"BZh9", 4, GS_FORMAT_BZIP2},
        {"BZh91AY&SY", 10, GS_FORMAT_BZIP2},
        {"BZh9\x17\x72\x45\x38\x50\x90", 10, GS_FORMAT_BZIP2},
        {"BZh9abcdef", 10, GS_FORMAT_TEXT},
        {"BZh0", 4, GS_FORMAT_TEXT},
        /* JSON: every way a value may start, and one that is none */
        {"[1]", 3, GS_FORMAT_JSON},
        {"[-1]", 4, GS_FORMAT_JSON},
        {"[true]", 6, GS_FORMAT_JSON},
        {"[false]", 7, GS_FORMAT_JSON},
        {"[null]", 6, GS_FORMAT_JSON},
        {"[[]]", 4, GS_FORMAT_JSON},
        {"[{}]", 4, GS_FORMAT_JSON},
        {"[]", 2, GS_FORMAT_JSON},
        {"{}", 2, GS_FORMAT_JSON},
        {"{\t\r\n\"a\": 1}", 11, GS_FORMAT_JSON},
        {"[x]", 3, GS_FORMAT_TEXT},
        {"{\"error\": \"ab\\", 14, GS_FORMAT_JSON}, /* its message cut inside an escape */
        /* markup */
        {"<head><title>t</title>", 22, GS_FORMAT_HTML},
        {"<html><title lang=en>t</title>", 30, GS_FORMAT_HTML},
        {"<body>", 6, GS_FORMAT_HTML},
        {"<?xml version=\"1.0\"?>", 21, GS_FORMAT_XML},
        {"<a>", 3, GS_FORMAT_XML},
        {"<1>", 3, GS_FORMAT_TEXT},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint8_t *copy = malloc(rows[i].n); /* exactly sized: ASan sees a read past it */
        cr_assert_not_null(copy);
        memcpy(copy, rows[i].bytes, rows[i].n);
        gs_detected d = detect(copy, rows[i].n);
        cr_expect_eq(d.format, rows[i].format, "row %zu: format %d, want %d", i, (int)d.format,
                     (int)rows[i].format);
        free(copy);
    }
}

/* ONNX: field 1 (ir_version 1..32) and each second field; a string field must be short
 * printable text. */
Test(detect, onnx_fields)
{
    static const struct {
        uint8_t ir_version, tag;
        int len;             /* -1: no length byte */
        const char *text;    /* the string's bytes, after the length */
        bool onnx;
    } rows[] = {{7, 0x1a, 3, "abc", true},  {7, 0x22, 1, "a", true},    {7, 0x32, 1, "a", true},
                {7, 0x28, 1, "", true},     {7, 0x3a, 1, "", true},     {7, 0x42, 1, "", true},
                {7, 0x50, 1, "", false},    {7, 0x12, -1, "", false},   {7, 0x12, 0, "", false},
                {7, 0x12, 0x80, "", false}, {7, 0x12, 3, "a\x01c", false},
                {7, 0x12, 3, "a\x7f" "c", false}, {0, 0x12, 1, "a", false},
                {33, 0x12, 1, "a", false}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint8_t b[16] = {0x08, rows[i].ir_version, rows[i].tag};
        size_t n = 3;
        if (rows[i].len >= 0) {
            b[n++] = (uint8_t)rows[i].len;
            memcpy(b + n, rows[i].text, strlen(rows[i].text));
            n += strlen(rows[i].text);
        }
        uint8_t *copy = malloc(n);
        cr_assert_not_null(copy);
        memcpy(copy, b, n);
        gs_format f = detect(copy, n).format;
        cr_expect_eq(f, rows[i].onnx ? GS_FORMAT_ONNX : GS_FORMAT_UNKNOWN, "row %zu: %d", i,
                     (int)f);
        free(copy);
    }
}
