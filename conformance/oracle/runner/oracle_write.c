/* A random GGUF through ggml's writer (oracle_write.h). */
#include "oracle_write.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- random numbers: splitmix64 ---------------------------------------------------------- */
uint64_t gsx_rng_next(gsx_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t gsx_rng_below(gsx_rng *r, uint64_t n)
{
    return n == 0 ? 0 : gsx_rng_next(r) % n;
}

float gsx_rng_gauss(gsx_rng *r)
{
    const double u1 = ((double)(gsx_rng_next(r) >> 11) + 0.5) * 0x1p-53;
    const double u2 = (double)(gsx_rng_next(r) >> 11) * 0x1p-53;
    return (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

static void fill_bytes(gsx_rng *r, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t)gsx_rng_next(r);
    }
}

/* Random valid UTF-8 without NUL: ASCII, 2-, 3- and 4-byte sequences. cap >= 4*40+1. */
static void random_utf8(gsx_rng *r, char *out, size_t max_chars)
{
    size_t n = 0;
    const size_t chars = (size_t)gsx_rng_below(r, max_chars + 1);
    for (size_t c = 0; c < chars; c++) {
        switch (gsx_rng_below(r, 6)) {
        case 0: { /* U+0080..U+07FF */
            const uint32_t cp = 0x80 + (uint32_t)gsx_rng_below(r, 0x780);
            out[n++] = (char)(0xC0 | (cp >> 6));
            out[n++] = (char)(0x80 | (cp & 0x3F));
            break;
        }
        case 1: { /* U+0800..U+FFFF without surrogates */
            uint32_t cp = 0x800 + (uint32_t)gsx_rng_below(r, 0xF800);
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                cp -= 0x800;
            }
            out[n++] = (char)(0xE0 | (cp >> 12));
            out[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            out[n++] = (char)(0x80 | (cp & 0x3F));
            break;
        }
        case 2: { /* U+10000..U+10FFFF */
            const uint32_t cp = 0x10000 + (uint32_t)gsx_rng_below(r, 0x100000);
            out[n++] = (char)(0xF0 | (cp >> 18));
            out[n++] = (char)(0x80 | ((cp >> 12) & 0x3F));
            out[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            out[n++] = (char)(0x80 | (cp & 0x3F));
            break;
        }
        default: /* printable and control ASCII, never NUL */
            out[n++] = (char)(1 + gsx_rng_below(r, 127));
            break;
        }
    }
    out[n] = '\0';
}

#define MAX_STR 40
#define STR_CAP (4 * MAX_STR + 1)

/* ---- key-value pairs ---------------------------------------------------------------------- */
static const char *const type_names[13] = {"u8", "i8", "u16", "i16", "u32", "i32", "f32",
                                           "bool", "string", "array", "u64", "i64", "f64"};

static size_t elem_size(int t)
{
    static const size_t sizes[13] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
    return sizes[t];
}

static void set_scalar(const gsx_ggml *g, struct gguf_context *ctx, gsx_rng *r, int t,
                       const char *key)
{
    uint64_t v = gsx_rng_next(r);
    double d;
    float f;
    char s[STR_CAP];
    switch (t) {
    case GSX_GGUF_U8: g->gguf_set_val_u8(ctx, key, (uint8_t)v); break;
    case GSX_GGUF_I8: g->gguf_set_val_i8(ctx, key, (int8_t)(uint8_t)v); break;
    case GSX_GGUF_U16: g->gguf_set_val_u16(ctx, key, (uint16_t)v); break;
    case GSX_GGUF_I16: g->gguf_set_val_i16(ctx, key, (int16_t)(uint16_t)v); break;
    case GSX_GGUF_U32: g->gguf_set_val_u32(ctx, key, (uint32_t)v); break;
    case GSX_GGUF_I32: g->gguf_set_val_i32(ctx, key, (int32_t)(uint32_t)v); break;
    case GSX_GGUF_F32: {
        const uint32_t bits = (uint32_t)v;
        memcpy(&f, &bits, sizeof f); /* any bit pattern, NaN and Inf included */
        g->gguf_set_val_f32(ctx, key, f);
        break;
    }
    case GSX_GGUF_BOOL: g->gguf_set_val_bool(ctx, key, (v & 1) != 0); break;
    case GSX_GGUF_STRING:
        random_utf8(r, s, MAX_STR);
        g->gguf_set_val_str(ctx, key, s);
        break;
    case GSX_GGUF_U64: g->gguf_set_val_u64(ctx, key, v); break;
    case GSX_GGUF_I64: g->gguf_set_val_i64(ctx, key, (int64_t)v); break;
    case GSX_GGUF_F64:
        memcpy(&d, &v, sizeof d);
        g->gguf_set_val_f64(ctx, key, d);
        break;
    default: break;
    }
}

static int set_array(const gsx_ggml *g, struct gguf_context *ctx, gsx_rng *r, int t,
                     const char *key)
{
    /* a quarter empty, some long (a tokenizer's shape), the rest short */
    const uint64_t pick = gsx_rng_below(r, 8);
    const size_t n = pick < 2    ? 0
                     : pick == 7 ? (size_t)gsx_rng_below(r, 3000)
                                 : (size_t)gsx_rng_below(r, 64);
    if (t == GSX_GGUF_STRING) {
        char *store = malloc(n * STR_CAP + 1);
        const char **strs = malloc((n + 1) * sizeof *strs);
        if (store == NULL || strs == NULL) {
            free(store);
            free(strs);
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            random_utf8(r, store + i * STR_CAP, gsx_rng_below(r, 4) == 0 ? 0 : MAX_STR);
            strs[i] = store + i * STR_CAP;
        }
        g->gguf_set_arr_str(ctx, key, strs, n);
        free(store);
        free(strs);
        return 0;
    }
    uint8_t *data = malloc(n * 8 + 1);
    if (data == NULL) {
        return -1;
    }
    fill_bytes(r, data, n * elem_size(t));
    if (t == GSX_GGUF_BOOL) {
        for (size_t i = 0; i < n; i++) {
            data[i] &= 1; /* the writer copies bool arrays byte for byte */
        }
    }
    g->gguf_set_arr_data(ctx, key, t, data, n);
    free(data);
    return 0;
}

/* ---- tensors ------------------------------------------------------------------------------ */
typedef struct tensor_plan {
    char name[64];
    int type;
    int n_dims;
    int64_t ne[4];
    uint8_t *data;
} tensor_plan;

static size_t plan_bytes(const gsx_ggml *g, const tensor_plan *p)
{
    const gsx_type_traits *tr = g->lib.ggml_get_type_traits(p->type);
    int64_t rows = 1;
    for (int d = 1; d < 4; d++) {
        rows *= p->ne[d];
    }
    return (size_t)(p->ne[0] / tr->blck_size) * tr->type_size * (size_t)rows;
}

static void random_shape(const gsx_ggml *g, gsx_rng *r, tensor_plan *p)
{
    const int64_t blck = g->lib.ggml_get_type_traits(p->type)->blck_size;
    p->n_dims = 1 + (int)gsx_rng_below(r, 4);
    p->ne[0] = blck == 1 ? 1 + (int64_t)gsx_rng_below(r, 96)
                         : blck * (1 + (int64_t)gsx_rng_below(r, 4));
    for (int d = 1; d < 4; d++) {
        p->ne[d] = d < p->n_dims ? 1 + (int64_t)gsx_rng_below(r, 3) : 1;
    }
}

/* Gaussian rows quantized by ggml itself (with an importance matrix where the type needs one). */
static int quantize_plan(const gsx_ggml *g, gsx_rng *r, tensor_plan *p)
{
    const int64_t n_per_row = p->ne[0];
    const int64_t rows = p->ne[1] * p->ne[2] * p->ne[3];
    const size_t n = (size_t)(n_per_row * rows);
    float *src = malloc(n * sizeof *src);
    float *imatrix = malloc((size_t)n_per_row * sizeof *imatrix);
    p->data = malloc(plan_bytes(g, p) + 1);
    if (src == NULL || imatrix == NULL || p->data == NULL) {
        free(src);
        free(imatrix);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        src[i] = gsx_rng_gauss(r);
    }
    for (int64_t i = 0; i < n_per_row; i++) {
        imatrix[i] = 0.5f + (float)gsx_rng_below(r, 1000) / 1000.0f;
    }
    const bool needs = g->ggml_quantize_requires_imatrix(p->type);
    g->ggml_quantize_chunk(p->type, src, p->data, 0, rows, n_per_row, needs ? imatrix : NULL);
    free(src);
    free(imatrix);
    return 0;
}

static void shuffle(gsx_rng *r, tensor_plan *p, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        const size_t j = (size_t)gsx_rng_below(r, i);
        const tensor_plan t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
}

/* The IQ1/IQ2 quantizers build lookup tables at first use (5-12 s each): their tensors hold
 * random bytes only here; test_oracle_blocks quantizes them. */
static bool slow_quantizer(int t)
{
    /* iq2_xxs, iq2_xs, iq1_s, iq2_s, iq1_m */
    return t == 16 || t == 17 || t == 19 || t == 22 || t == 29;
}

/* Up to two tensors per type: random bytes for every live type, quantized for the types ggml
 * converts to f32 (and F32). */
static size_t plan_tensors(const gsx_ggml *g, gsx_rng *r, tensor_plan *plans)
{
    size_t n = 0;
    for (int t = 0; t < GSX_GGML_TYPE_COUNT; t++) {
        const gsx_type_traits *tr = g->lib.ggml_get_type_traits(t);
        if (tr->blck_size == 0) {
            continue; /* removed id */
        }
        tensor_plan *raw = &plans[n++];
        memset(raw, 0, sizeof *raw);
        raw->type = t;
        snprintf(raw->name, sizeof raw->name, "blk.%d.raw_%s.weight", t, tr->type_name);
        random_shape(g, r, raw);
        const size_t bytes = plan_bytes(g, raw);
        raw->data = malloc(bytes + 1);
        if (raw->data != NULL) {
            fill_bytes(r, raw->data, bytes);
        }
        if ((tr->to_float != NULL || t == 0) && !slow_quantizer(t)) {
            tensor_plan *q = &plans[n++];
            memset(q, 0, sizeof *q);
            q->type = t;
            snprintf(q->name, sizeof q->name, "blk.%d.%s.weight", t, tr->type_name);
            random_shape(g, r, q);
            if (quantize_plan(g, r, q) != 0) {
                q->data = NULL;
            }
        }
    }
    shuffle(r, plans, n);
    return n;
}

/* KVs in a random order: every scalar type and every array element type, plus the usual
 * general.* keys and sometimes an explicit alignment. */
static int set_kvs(const gsx_ggml *g, struct gguf_context *ctx, gsx_rng *rng,
                   uint32_t alignment)
{
    int order[2 + 2 * 13];
    int n_order = 0;
    for (int t = 0; t < 13; t++) {
        if (t != GSX_GGUF_ARRAY) {
            order[n_order++] = t;      /* scalar */
            order[n_order++] = 16 + t; /* array of t */
        }
    }
    order[n_order++] = 100; /* general.alignment */
    order[n_order++] = 101; /* general.architecture */
    for (int i = n_order; i > 1; i--) {
        const int j = (int)gsx_rng_below(rng, (uint64_t)i);
        const int t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    char key[64];
    for (int i = 0; i < n_order; i++) {
        const int o = order[i];
        if (o == 100) {
            if (gsx_rng_below(rng, 3) != 0) {
                g->gguf_set_val_u32(ctx, "general.alignment", alignment);
            }
        } else if (o == 101) {
            g->gguf_set_val_str(ctx, "general.architecture", "gsx");
        } else if (o < 16) {
            snprintf(key, sizeof key, "oracle.scalar.%s", type_names[o]);
            set_scalar(g, ctx, rng, o, key);
        } else {
            snprintf(key, sizeof key, "oracle.array_of.%s", type_names[o - 16]);
            if (set_array(g, ctx, rng, o - 16, key) != 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* The tensors: their data stays ours until gguf_write_to_file has copied it. */
static int write_tensors(const gsx_ggml *g, struct gguf_context *ctx, gsx_rng *rng,
                         const char *path)
{
    tensor_plan plans[2 * GSX_GGML_TYPE_COUNT];
    const size_t n = plan_tensors(g, rng, plans);
    const gsx_ggml_init_params ip = {(n + 1) * g->ggml_tensor_overhead(), NULL, true};
    struct ggml_context *mctx = g->ggml_init(ip);
    int rc = mctx != NULL ? 0 : -1;
    for (size_t i = 0; i < n; i++) {
        if (plans[i].data == NULL) {
            rc = -1;
        }
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        struct ggml_tensor *t = g->ggml_new_tensor(mctx, plans[i].type, plans[i].n_dims,
                                                   plans[i].ne);
        g->ggml_set_name(t, plans[i].name);
        g->gguf_add_tensor(ctx, t);
        g->gguf_set_tensor_data(ctx, plans[i].name, plans[i].data);
    }
    if (rc != 0) {
        fprintf(stderr, "write: out of memory\n");
    } else if (!g->gguf_write_to_file(ctx, path, false)) {
        fprintf(stderr, "write: gguf_write_to_file(%s) failed\n", path);
        rc = -1;
    }
    for (size_t i = 0; i < n; i++) {
        free(plans[i].data);
    }
    if (mctx != NULL) {
        g->ggml_free(mctx);
    }
    return rc;
}

/* A context whose writer lays tensors out at `alignment`. gguf_set_val_u32 of
 * general.alignment on an empty context does not do it: the writer keeps the default 32 and
 * the file then declares one alignment and is laid out with another (ggml's own reader rejects
 * it). A context read from a file takes the file's alignment, so a file holding only that key
 * is written and read back first, as tools that rewrite a GGUF (gguf-split) start from one. */
static struct gguf_context *context_with_alignment(const gsx_ggml *g, uint32_t alignment,
                                                   const char *path)
{
    if (alignment == 32) {
        return g->gguf_init_empty();
    }
    char seed_path[4200];
    snprintf(seed_path, sizeof seed_path, "%s.alignment", path);
    struct gguf_context *tmp = g->gguf_init_empty();
    g->gguf_set_val_u32(tmp, "general.alignment", alignment);
    const bool ok = g->gguf_write_to_file(tmp, seed_path, true);
    g->gguf_free(tmp);
    const gsx_gguf_init_params params = {true, NULL};
    struct gguf_context *ctx = ok ? g->gguf_init_from_file(seed_path, params) : NULL;
    remove(seed_path);
    if (ctx != NULL && g->gguf_get_alignment(ctx) != alignment) {
        g->gguf_free(ctx);
        ctx = NULL;
    }
    return ctx;
}

int gsx_write_random(const gsx_ggml *g, uint64_t seed, const char *path)
{
    static const uint32_t alignments[] = {8, 16, 32, 32, 64, 128, 256, 4096};
    gsx_rng rng = {seed};
    const uint32_t alignment = alignments[gsx_rng_below(&rng, sizeof alignments / 4)];
    struct gguf_context *ctx = context_with_alignment(g, alignment, path);
    if (ctx == NULL) {
        fprintf(stderr, "write: cannot make a context with alignment %u\n", alignment);
        return -1;
    }
    int rc = set_kvs(g, ctx, &rng, alignment);
    if (rc == 0) {
        rc = write_tensors(g, ctx, &rng, path);
    } else {
        fprintf(stderr, "write: out of memory\n");
    }
    g->gguf_free(ctx);
    return rc;
}
