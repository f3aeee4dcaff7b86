#include "random_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "type_registry.h"

unsigned usable_types(int32_t ids[GS_TYPE_COUNT])
{
    unsigned n = 0;
    for (int32_t id = 0; id < GS_TYPE_COUNT; id++) {
        if (gsi_type_is_usable(gsi_type_lookup(id))) {
            ids[n++] = id;
        }
    }
    return n;
}

/* Appends the UTF-8 encoding of code point cp (a scalar value) to buf at *n. */
static void put_utf8(uint8_t *buf, size_t *n, uint32_t cp)
{
    if (cp < 0x80) {
        buf[(*n)++] = (uint8_t)cp;
    } else if (cp < 0x800) {
        buf[(*n)++] = (uint8_t)(0xC0 | (cp >> 6));
        buf[(*n)++] = (uint8_t)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        buf[(*n)++] = (uint8_t)(0xE0 | (cp >> 12));
        buf[(*n)++] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        buf[(*n)++] = (uint8_t)(0x80 | (cp & 0x3F));
    } else {
        buf[(*n)++] = (uint8_t)(0xF0 | (cp >> 18));
        buf[(*n)++] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
        buf[(*n)++] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        buf[(*n)++] = (uint8_t)(0x80 | (cp & 0x3F));
    }
}

/* A random Unicode scalar value: mostly ASCII, then every encoded length; surrogates excluded.
 * NUL only when allow_nul (string values may hold it, names may not). */
static uint32_t random_code_point(rng *r, int allow_nul)
{
    uint32_t cp;
    switch (rng_below(r, 8)) {
    case 0: cp = 0x80 + (uint32_t)rng_below(r, 0x800 - 0x80); break;
    case 1:
        cp = 0x800 + (uint32_t)rng_below(r, 0x10000 - 0x800);
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD;
        }
        break;
    case 2: cp = 0x10000 + (uint32_t)rng_below(r, 0x110000 - 0x10000); break;
    default: cp = (uint32_t)rng_below(r, 0x80); break;
    }
    if (cp == 0 && !allow_nul) {
        cp = 'z';
    }
    return cp;
}

/* Random valid UTF-8 of at most max bytes into buf; returns its length. */
static size_t random_utf8(rng *r, uint8_t *buf, size_t max, int allow_nul)
{
    size_t want = rng_one_in(r, 5) ? 0 : (size_t)rng_below(r, max + 1);
    size_t n = 0;
    while (n + 4 <= want) {
        put_utf8(buf, &n, random_code_point(r, allow_nul));
    }
    while (n < want) {
        buf[n++] = (uint8_t)('a' + rng_below(r, 26));
    }
    return n;
}

/* A key in the GGUF grammar, unique through its last segment "k<index>". */
static size_t random_key(rng *r, size_t index, char *buf, size_t cap)
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
    size_t n = 0;
    unsigned segments = (unsigned)rng_below(r, 4);
    size_t seg_max = rng_one_in(r, 20) ? 60 : 8;
    for (unsigned s = 0; s < segments; s++) {
        size_t len = 1 + (size_t)rng_below(r, seg_max);
        for (size_t i = 0; i < len; i++) {
            buf[n++] = chars[rng_below(r, sizeof chars - 1)];
        }
        buf[n++] = '.';
    }
    n += (size_t)snprintf(buf + n, cap - n, "k%zu", index);
    return n;
}

static void random_array(rng *r, gsw_value *v)
{
    static const uint32_t elems[] = {
        GS_VALUE_U8,  GS_VALUE_I8,   GS_VALUE_U16, GS_VALUE_I16, GS_VALUE_U32, GS_VALUE_I32,
        GS_VALUE_F32, GS_VALUE_BOOL, GS_VALUE_STRING, GS_VALUE_U64, GS_VALUE_I64, GS_VALUE_F64,
    };
    uint32_t elem = elems[rng_below(r, sizeof elems / sizeof elems[0])];
    uint64_t count = rng_one_in(r, 6) ? 0 : rng_one_in(r, 20) ? 500 + rng_below(r, 1500)
                                                               : 1 + rng_below(r, 40);
    if (elem == GS_VALUE_STRING) {
        gsw_set_string_array(v, count);
        uint8_t buf[64];
        for (uint64_t i = 0; i < count; i++) {
            size_t n = random_utf8(r, buf, sizeof buf - 4, 1);
            gsw_array_string(v, i, buf, n);
        }
        return;
    }
    gsw_set_array(v, elem, count, NULL);
    for (size_t i = 0; i < v->raw.len; i++) {
        v->raw.ptr[i] = elem == GS_VALUE_BOOL ? (uint8_t)rng_below(r, 2) : (uint8_t)rng_next(r);
    }
}

static void random_value(rng *r, gsw_value *v)
{
    uint32_t type = (uint32_t)rng_below(r, GS_VALUE_F64 + 1);
    if (type == GS_VALUE_STRING) {
        uint8_t buf[300];
        size_t n = random_utf8(r, buf, rng_one_in(r, 10) ? sizeof buf - 4 : 40, 1);
        gsw_set_string(v, buf, n);
    } else if (type == GS_VALUE_ARRAY) {
        random_array(r, v);
    } else if (type == GS_VALUE_BOOL) {
        gsw_set_bool(v, (uint8_t)rng_below(r, 2));
    } else {
        gsw_set_scalar(v, type, rng_next(r) >> (64 - 8 * gsw_value_size(type)));
    }
}

/* One tensor of a random usable type and shape, at most about 8 KiB of data. */
static void random_tensor(rng *r, gsw_model *m, size_t index)
{
    int32_t ids[GS_TYPE_COUNT];
    unsigned n_types = usable_types(ids);
    int32_t type = ids[rng_below(r, n_types)];
    const gsi_type_row *row = gsi_type_lookup(type);

    uint8_t name[GS_MAX_DIMS * 16 + 64];
    int head = snprintf((char *)name, sizeof name, "t%zu.", index);
    size_t name_len = (size_t)head;
    if (rng_one_in(r, 8)) {
        while (name_len < 63) { /* ggml's longest name */
            name[name_len++] = (uint8_t)('a' + rng_below(r, 26));
        }
    } else {
        name_len += random_utf8(r, name + name_len, 63 - name_len, 0);
    }

    uint32_t n_dims = (uint32_t)rng_below(r, GS_MAX_DIMS + 1);
    uint64_t ne[GS_MAX_DIMS];
    uint64_t budget = 8192; /* elements */
    for (uint32_t j = 0; j < n_dims; j++) {
        uint64_t unit = j == 0 ? row->block_elems : 1;
        uint64_t most = budget / unit;
        if (most > 6 && j > 0) {
            most = 6;
        }
        ne[j] = rng_one_in(r, 12) ? 0 : unit * (1 + rng_below(r, most > 0 ? most : 1));
        if (ne[j] > 0) {
            budget /= ne[j];
            if (budget == 0) {
                budget = 1;
            }
        }
    }
    if (n_dims == 0 && row->block_elems != 1) {
        n_dims = 1; /* a scalar is one element: only types with 1-element blocks have one */
        ne[0] = row->block_elems;
    }
    gsw_tensor *t = gsw_add_tensor_n(m, name, name_len, n_dims, ne, type);
    if (!gsw_tensor_fill(t, rng_next(r), 1u << 20)) {
        fprintf(stderr, "random_tensor: shape without a size (bug in the generator)\n");
        abort();
    }
}

void random_model(gsw_model *m, uint64_t seed)
{
    rng r = {seed};
    gsw_model_init(m, rng_one_in(&r, 3) ? 2 : 3);
    size_t n_kv = rng_one_in(&r, 8) ? 0 : (size_t)rng_below(&r, 25);
    /* general.alignment at a random place, or absent (the default 32 applies). */
    size_t align_at = rng_one_in(&r, 3) ? SIZE_MAX : (size_t)rng_below(&r, n_kv + 1);
    for (size_t i = 0; i <= n_kv; i++) {
        if (i == align_at) {
            gsw_set_u32(gsw_add(m, "general.alignment"), 1u << (3 + rng_below(&r, 14)));
        }
        if (i == n_kv) {
            break;
        }
        char key[400];
        size_t key_len = random_key(&r, i, key, sizeof key);
        random_value(&r, gsw_add_n(m, key, key_len));
    }
    size_t n_tensors = rng_one_in(&r, 6) ? 0 : (size_t)rng_below(&r, 13);
    for (size_t i = 0; i < n_tensors; i++) {
        random_tensor(&r, m, i);
    }
}
