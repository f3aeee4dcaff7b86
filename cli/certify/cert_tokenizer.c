/* The tokenizer arrays, where loaders have read out of bounds (docs/certify.md, meta.*): tokens,
 * scores and token_type of equal length and of element types string, f32 and i32; token types
 * within 1..6; BYTE tokens spelled <0xHH>; special token ids below the vocabulary size; no
 * token twice; merges of two non-empty tokens. Each problem is one finding with its count and
 * first instance, so a crafted vocabulary cannot flood the report. */
#include <stdio.h>
#include <string.h>

#include "cert.h"
#include "cert_keys.h"
#include "cert_nameset.h"
#include "le_load.h"
#include "text_out.h"

typedef struct arr {
    const char *key;
    gs_value_type elem;
    bool present, usable;
    size_t index;
    gs_kv_info kv;
} arr;

static void lookup(cert_run *r, const gs_file *f, arr *a)
{
    a->present = cert_find_key(f, a->key, &a->index);
    if (!a->present) {
        return;
    }
    gs_kv_info_at(f, a->index, &a->kv);
    a->usable = a->kv.type == GS_VALUE_ARRAY && a->kv.elem_type == a->elem;
    if (!a->usable) {
        cert_add(&r->findings, "meta.tokenizer_type", 0, a->kv.offset, CERT_SUBJECT_KEY, a->key,
                 strlen(a->key), "%s must be an array of %s, not %s%s", a->key,
                 gs_value_type_name(a->elem), a->kv.type == GS_VALUE_ARRAY ? "an array of " : "a ",
                 gs_value_type_name(a->kv.elem_type));
    }
}

/* File offset of the length field of string element s of kv (s points into the file). */
static uint64_t string_offset(const gs_kv_info *kv, gs_str s)
{
    return kv->offset + (uint64_t)(s.ptr - kv->key.ptr);
}

/* The finding `code` on array a: n of its strings are wrong (what), the first of them entry
 * `first` (a `kind`), string s, shown escaped and cut to 32 bytes, and then `tail`. */
static void bad_strings(cert_run *r, const char *code, const arr *a, uint64_t n,
                        const char *what, const char *kind, uint64_t first, gs_str s,
                        const char *tail)
{
    char shown[4 * 32 + 8];
    cli_escape_cut(shown, sizeof shown, s.ptr, s.len, 32);
    cert_add(&r->findings, code, 0, string_offset(&a->kv, s), CERT_SUBJECT_KEY, a->key,
             strlen(a->key), "%llu %s; the first: %s %llu '%s'%s", (unsigned long long)n, what,
             kind, (unsigned long long)first, shown, tail);
}

static void length(cert_run *r, const arr *a, const arr *tokens)
{
    if (!a->usable) {
        return;
    }
    if (!tokens->present) {
        cert_add(&r->findings, "meta.tokenizer_length", 0, a->kv.offset, CERT_SUBJECT_KEY,
                 a->key, strlen(a->key), "%llu entries, but there is no tokenizer.ggml.tokens",
                 (unsigned long long)a->kv.count);
    } else if (tokens->usable && a->kv.count != tokens->kv.count) {
        cert_add(&r->findings, "meta.tokenizer_length", 0, a->kv.offset, CERT_SUBJECT_KEY,
                 a->key, strlen(a->key), "%llu entries for %llu tokens",
                 (unsigned long long)a->kv.count, (unsigned long long)tokens->kv.count);
    }
}

static int32_t i32_at(const uint8_t *p, uint64_t i)
{
    return (int32_t)gsi_load_u32le(p + 4 * i);
}

static void token_types(cert_run *r, const gs_file *f, const arr *types, const arr *tokens)
{
    const void *data;
    uint64_t count;
    if (!types->usable || gs_kv_get_array_data(f, types->index, &data, &count) != GS_OK) {
        return;
    }
    uint64_t bad = 0, first = 0;
    int32_t first_value = 0;
    for (uint64_t i = 0; i < count; i++) {
        int32_t v = i32_at(data, i);
        if (v < 1 || v > 6) {
            if (bad++ == 0) {
                first = i;
                first_value = v;
            }
        }
    }
    if (bad > 0) {
        cert_add(&r->findings, "meta.token_type_range", 0, types->kv.value_offset + 4 * first,
                 CERT_SUBJECT_KEY, types->key, strlen(types->key),
                 "%llu token types outside 1..6; the first: token %llu has type %d",
                 (unsigned long long)bad, (unsigned long long)first, (int)first_value);
    }
    /* BYTE tokens (type 6) become byte values through a hex parse of the spelling. */
    if (!tokens->usable) {
        return;
    }
    uint64_t n = count < tokens->kv.count ? count : tokens->kv.count;
    uint64_t bad_bytes = 0;
    gs_str first_tok = {NULL, 0};
    uint64_t first_byte = 0;
    for (uint64_t i = 0; i < n; i++) {
        gs_str s;
        if (i32_at(data, i) != 6 || gs_kv_get_array_string(f, tokens->index, i, &s) != GS_OK) {
            continue;
        }
        bool ok = s.len == 6 && memcmp(s.ptr, "<0x", 3) == 0 && s.ptr[5] == '>';
        for (int k = 3; k < 5 && ok; k++) {
            char c = s.ptr[k];
            ok = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
        }
        if (!ok && bad_bytes++ == 0) {
            first_tok = s;
            first_byte = i;
        }
    }
    if (bad_bytes > 0) {
        bad_strings(r, "meta.byte_token", tokens, bad_bytes, "BYTE tokens not spelled <0xHH>",
                    "token", first_byte, first_tok, "");
    }
}

static void special_ids(cert_run *r, const gs_file *f, const arr *tokens)
{
    if (!tokens->usable) {
        return;
    }
    for (size_t k = 0; k < cert_special_token_key_count; k++) {
        const char *key = cert_special_token_keys[k];
        size_t i;
        uint64_t id;
        bool negative;
        if (!cert_find_key(f, key, &i) || !cert_get_integer(f, i, &id, &negative) || negative) {
            continue; /* absent, or meta.key_type */
        }
        if (id >= tokens->kv.count) {
            gs_kv_info kv;
            gs_kv_info_at(f, i, &kv);
            cert_add(&r->findings, "meta.special_token_range", 0, kv.value_offset,
                     CERT_SUBJECT_KEY, key, strlen(key), "id %llu, but there are %llu tokens",
                     (unsigned long long)id, (unsigned long long)tokens->kv.count);
        }
    }
}

typedef struct tok_ctx {
    const gs_file *f;
    size_t index;
} tok_ctx;

static const uint8_t *token_name(const void *ctx, uint32_t i, uint64_t *len)
{
    const tok_ctx *t = ctx;
    gs_str s = {NULL, 0};
    gs_kv_get_array_string(t->f, t->index, i, &s);
    *len = s.len;
    return (const uint8_t *)s.ptr;
}

static void duplicates(cert_run *r, const gs_file *f, const arr *tokens)
{
    if (!tokens->usable || tokens->kv.count > UINT32_MAX - 1) {
        return;
    }
    tok_ctx ctx = {f, tokens->index};
    cert_nameset set;
    cert_nameset_init(&set, (gsi_name_source){&ctx, token_name});
    uint64_t dups = 0, first = 0;
    uint32_t first_earlier = 0;
    gs_str first_s = {NULL, 0};
    for (uint64_t i = 0; i < tokens->kv.count; i++) {
        gs_str s;
        uint32_t earlier;
        if (gs_kv_get_array_string(f, tokens->index, i, &s) == GS_OK &&
            cert_nameset_insert(&set, s.ptr, s.len, (uint32_t)i, &earlier) && dups++ == 0) {
            first = i;
            first_earlier = earlier;
            first_s = s;
        }
    }
    if (set.failed) {
        cert_findings_fail(&r->findings, GS_E_NO_MEMORY);
    }
    cert_nameset_free(&set);
    if (dups > 0) {
        char earlier[32];
        snprintf(earlier, sizeof earlier, " repeats token %u", first_earlier);
        bad_strings(r, "meta.token_duplicate", tokens, dups, "tokens repeat an earlier one",
                    "token", first, first_s, earlier);
    }
}

/* llama.cpp splits a merge at the first space after its first byte; both halves must be
 * non-empty. */
static void merges(cert_run *r, const gs_file *f, const arr *m)
{
    if (!m->usable) {
        return;
    }
    uint64_t bad = 0, first = 0;
    gs_str first_s = {NULL, 0};
    for (uint64_t i = 0; i < m->kv.count; i++) {
        gs_str s;
        if (gs_kv_get_array_string(f, m->index, i, &s) != GS_OK) {
            continue;
        }
        const char *sp = s.len > 1 ? memchr(s.ptr + 1, ' ', s.len - 1) : NULL;
        if ((sp == NULL || sp + 1 == s.ptr + s.len) && bad++ == 0) {
            first = i;
            first_s = s;
        }
    }
    if (bad > 0) {
        bad_strings(r, "meta.merges_malformed", m, bad,
                    "merges are not two tokens separated by a space", "merge", first, first_s, "");
    }
}

void cert_check_tokenizer(cert_run *r)
{
    const gs_file *f = cert_meta_file(r);
    if (f == NULL) {
        return;
    }
    arr tokens = {.key = "tokenizer.ggml.tokens", .elem = GS_VALUE_STRING};
    arr scores = {.key = "tokenizer.ggml.scores", .elem = GS_VALUE_F32};
    arr types = {.key = "tokenizer.ggml.token_type", .elem = GS_VALUE_I32};
    arr merge = {.key = "tokenizer.ggml.merges", .elem = GS_VALUE_STRING};
    lookup(r, f, &tokens);
    lookup(r, f, &scores);
    lookup(r, f, &types);
    lookup(r, f, &merge);
    length(r, &scores, &tokens);
    length(r, &types, &tokens);
    token_types(r, f, &types, &tokens);
    special_ids(r, f, &tokens);
    duplicates(r, f, &tokens);
    merges(r, f, &merge);
}
