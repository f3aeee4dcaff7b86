/* Caller-defined types (gs_options.type_defs, .decoders): the checks of a definition set, a
 * tensor of a defined id sized, laid out and decoded like a built-in one, an undefined id failing
 * the open at its type field (and, in diagnostic mode, a finding that leaves the rest of the file
 * checked), and a decoder table called in bounded chunks. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gsw_write.h"
#include "test_util.h"

#define ID 200
static const uint64_t W_NE[2] = {64, 4}; /* 8 blocks of 32 */
#define W_BYTES (8u * 34u)

/* "w": 64 x 4 of type `type` carrying the bytes of a Q8_0 tensor; "b": 8 f32. */
static void write_file(gsw_bytes *out, int32_t type)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    gsw_set_cstr(gsw_add(&m, "general.architecture"), "test");
    gsw_tensor *q = gsw_add_tensor(&m, "w", 2, W_NE, GS_TYPE_Q8_0);
    cr_assert(gsw_tensor_fill(q, 7, 1u << 20));
    cr_assert_eq(q->data.len, W_BYTES);
    q->type = type; /* relabelled: the same bytes */
    gsw_tensor *b = gsw_add_tensor(&m, "b", 1, (const uint64_t[]){8}, GS_TYPE_F32);
    cr_assert(gsw_tensor_fill(b, 9, 1024));
    char why[128];
    gsw_bytes_init(out);
    cr_assert_eq(gsw_write(&m, GSW_LAX, out, NULL, why, sizeof why), 0, "%s", why);
    gsw_model_free(&m);
}

/* Where the type field of tensor 0 ("w", 2 dims) is: after its name and dimensions. */
static uint64_t w_type_field(const gs_file *f)
{
    gs_tensor_info t;
    cr_assert_eq(gs_tensor_info_at(f, 0, &t), GS_OK);
    return t.info_offset + 8 + 1 + 4 + 2 * 8;
}

static const gs_type_def q8_like = {ID, "q8_0_example", 32, 34, false};

static gs_status check1(gs_type_def d, gs_error *e)
{
    return gs_type_defs_check(&d, 1, e);
}

Test(type_defs, checks_refuse_zero_overflow_and_clashes)
{
    gs_error e;
    cr_assert_eq(check1(q8_like, &e), GS_OK);
    gs_type_def d = q8_like;
    d.block_elems = 0;
    cr_assert_eq(check1(d, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "type id 200: 0 elements in 34 bytes per block; both must be "
                               "nonzero");
    cr_assert_str_eq(e.context, "q8_0_example");
    d = q8_like;
    d.block_bytes = GS_TYPE_DEF_MAX_BLOCK_BYTES + 1;
    cr_assert_eq(check1(d, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "type id 200: 4097 bytes per block, at most 4096");
    d = q8_like;
    d.block_elems = UINT32_MAX; /* elements * 4 bytes of f32 would not fit 32 bits */
    cr_assert_eq(check1(d, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "type id 200: 4294967295 elements per block, at most 4096");
    d = q8_like;
    d.id = GS_TYPE_Q8_0;
    cr_assert_eq(check1(d, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "type id 8 is built in (q8_0): redefining it needs the override "
                               "flag");
    d.override_builtin = true;
    cr_assert_eq(check1(d, &e), GS_OK);
    d.id = 4; /* a removed id is a registry id too */
    d.override_builtin = false;
    cr_assert_eq(check1(d, &e), GS_E_INVALID_ARGUMENT);
    d = q8_like;
    d.id = -1;
    cr_assert_eq(check1(d, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "type id -1: negative");
    d = q8_like;
    d.name = "bad name";
    cr_assert_eq(check1(d, &e), GS_E_INVALID_ARGUMENT);
    d.name = "";
    cr_assert_eq(check1(d, &e), GS_E_INVALID_ARGUMENT);
    d.name = NULL;
    cr_assert_eq(check1(d, &e), GS_E_INVALID_ARGUMENT);
    gs_type_def two[2] = {q8_like, q8_like};
    cr_assert_eq(gs_type_defs_check(two, 2, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(e.offset, 1);
    cr_assert_str_eq(e.detail, "type id 200 is defined twice (definitions 0 and 1)");
    cr_assert_eq(gs_type_defs_check(NULL, 1, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_type_defs_check(NULL, 0, &e), GS_OK);
    cr_assert_eq(gs_type_defs_check(two, GS_TYPE_DEF_MAX + 1, &e), GS_E_INVALID_ARGUMENT);
}

Test(type_defs, undefined_id_fails_at_its_type_field)
{
    gsw_bytes b;
    write_file(&b, ID);
    gsw_bytes q;
    write_file(&q, GS_TYPE_Q8_0);
    gs_file *f;
    cr_assert_eq(gs_open_memory(q.data, q.len, NULL, &f, NULL), GS_OK);
    uint64_t at = w_type_field(f);
    gs_close(f);
    gs_error e;
    cr_assert_eq(gs_open_memory(b.data, b.len, NULL, &f, &e), GS_E_UNKNOWN_TENSOR_TYPE);
    cr_assert_eq(e.offset, at);
    cr_assert_str_eq(e.context, "w");
    cr_assert_str_eq(e.detail, "type id 200, neither built in nor defined by the caller");
    gsw_bytes_free(&b);
    gsw_bytes_free(&q);
}

Test(type_defs, defined_id_is_laid_out_like_a_builtin)
{
    gsw_bytes b, q;
    write_file(&b, ID);
    write_file(&q, GS_TYPE_Q8_0);
    gs_options o;
    gs_options_init(&o);
    gs_type_def def = q8_like;
    o.type_defs = &def;
    o.n_type_defs = 1;
    gs_file *f, *fq;
    gs_error e;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_OK, "%s", e.detail);
    def.name = "changed"; /* copied at open */
    cr_assert_eq(gs_open_memory(q.data, q.len, NULL, &fq, &e), GS_OK);
    gs_tensor_info t, tq;
    cr_assert_eq(gs_tensor_info_at(f, 0, &t), GS_OK);
    cr_assert_eq(gs_tensor_info_at(fq, 0, &tq), GS_OK);
    cr_assert_eq((int)t.type, ID);
    cr_assert_eq(t.size, W_BYTES);
    cr_assert_eq(memcmp(t.nb, tq.nb, sizeof t.nb), 0);
    cr_assert_eq(t.data_offset, tq.data_offset);
    gs_layout l, lq;
    cr_assert_eq(gs_file_layout(f, &l), GS_OK);
    cr_assert_eq(gs_file_layout(fq, &lq), GS_OK);
    cr_assert_eq(l.predicted_size, lq.predicted_size);
    cr_assert_eq(l.trailing_bytes, 0);
    gs_type_info ti;
    cr_assert_eq(gs_file_type_info(f, ID, &ti), GS_OK);
    cr_assert_str_eq(ti.name, "q8_0_example");
    cr_assert_eq(ti.block_elems, 32);
    cr_assert_eq(ti.block_bytes, 34);
    cr_assert(!ti.decodable);
    cr_assert(ti.quantized);
    cr_assert_str_eq(gs_file_type_name(f, ID), "q8_0_example");
    cr_assert_str_eq(gs_file_type_name(fq, ID), "unknown");
    cr_assert_eq(gs_file_type_info(NULL, ID, &ti), GS_E_UNKNOWN_TENSOR_TYPE);
    float out[256];
    cr_assert_eq(gs_tensor_dequantize(f, 0, out, 256), GS_E_NOT_DECODABLE);
    gs_close(f);
    gs_close(fq);

    /* a wrong geometry for the file: ne[0] = 64 is no whole number of 48-element blocks */
    def = (gs_type_def){ID, "wide", 48, 34, false};
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_E_ROW_NOT_BLOCK_MULTIPLE);
    /* a refused definition fails the open as an argument */
    def = (gs_type_def){GS_TYPE_Q8_0, "q8_0", 32, 34, false};
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "type id 8 is built in (q8_0): redefining it needs the override "
                               "flag");
    gsw_bytes_free(&b);
    gsw_bytes_free(&q);
}

Test(type_defs, diagnostic_mode_lists_the_tensor_and_checks_the_rest)
{
    gsw_bytes b;
    write_file(&b, ID);
    b.len -= 8; /* and "b" loses its last two floats: a layout finding after the unknown type */
    gs_options o;
    gs_options_init(&o);
    o.diagnostic = true;
    gs_file *f;
    gs_error e;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_OK, "%s", e.detail);
    cr_assert_eq(gs_file_finding_count(f), 2);
    gs_error e0, e1;
    cr_assert_eq(gs_file_finding(f, 0, &e0), GS_OK);
    cr_assert_eq(gs_file_finding(f, 1, &e1), GS_OK);
    cr_assert_eq(e0.status, GS_E_UNKNOWN_TENSOR_TYPE);
    cr_assert_eq(e0.offset, w_type_field(f));
    cr_assert_str_eq(e0.context, "w");
    cr_assert_eq(e1.status, GS_E_DATA_OUTSIDE_FILE);
    cr_assert_str_eq(e1.context, "b");
    gs_tensor_info t;
    cr_assert_eq(gs_tensor_info_at(f, 0, &t), GS_OK);
    cr_assert_eq(t.size, 0);
    cr_assert_eq(t.nb[0], 0);
    cr_assert_eq(t.n_elements, 256);
    float out[256];
    cr_assert_eq(gs_tensor_dequantize(f, 0, out, 256), GS_E_UNKNOWN_TENSOR_TYPE);
    gs_close(f);
    gsw_bytes_free(&b);
}

/* A decoder of the Q8_0 layout, written here (not ours) and counting its calls. */
typedef struct counting {
    size_t calls, max_src;
} counting;

static gs_status q8_decode(void *ctx, int32_t type, const void *src, size_t src_bytes,
                           float *dst, size_t n_elems)
{
    counting *c = ctx;
    c->calls++;
    c->max_src = src_bytes > c->max_src ? src_bytes : c->max_src;
    cr_assert_eq(type, ID);
    cr_assert_eq(src_bytes / 34 * 32, n_elems);
    cr_assert_eq(src_bytes % 34, 0);
    return gs_dequantize(GS_TYPE_Q8_0, src, src_bytes, dst, n_elems);
}

static gs_status failing_decode(void *ctx, int32_t type, const void *src, size_t src_bytes,
                                float *dst, size_t n_elems)
{
    (void)ctx, (void)type, (void)src, (void)src_bytes, (void)dst, (void)n_elems;
    return GS_E_DECODER_FAILED;
}

Test(type_defs, decoder_table_decodes_like_the_builtin)
{
    gsw_bytes b, q;
    write_file(&b, ID);
    write_file(&q, GS_TYPE_Q8_0);
    counting c = {0};
    gs_decoder dec = {q8_like, q8_decode, &c, "test"};
    gs_options o;
    gs_options_init(&o);
    o.decoders = &dec;
    o.n_decoders = 1;
    gs_file *f, *fq;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, NULL), GS_OK);
    cr_assert_eq(gs_open_memory(q.data, q.len, NULL, &fq, NULL), GS_OK);
    float got[256], want[256];
    cr_assert_eq(gs_tensor_dequantize(f, 0, got, 256), GS_OK);
    cr_assert_eq(gs_tensor_dequantize(fq, 0, want, 256), GS_OK);
    cr_assert_eq(memcmp(got, want, sizeof got), 0);
    cr_assert_eq(c.calls, 1);
    cr_assert_eq(gs_tensor_dequantize_rows(f, 0, 1, 2, got, 128), GS_OK);
    cr_assert_eq(memcmp(got, want + 64, 128 * sizeof(float)), 0);
    gs_type_info ti;
    cr_assert_eq(gs_file_type_info(f, ID, &ti), GS_OK);
    cr_assert(ti.decodable);
    gs_close(f);

    /* the same definition given twice (type_defs and the decoder) is one type */
    gs_type_def def = q8_like;
    o.type_defs = &def;
    o.n_type_defs = 1;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, NULL), GS_OK);
    cr_assert_eq(gs_tensor_dequantize(f, 0, got, 256), GS_OK);
    cr_assert_eq(memcmp(got, want, sizeof got), 0);
    gs_close(f);
    /* but not with another geometry */
    def.block_bytes = 36;
    gs_error e;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "type id 200: the decoder's block (32 elements, 34 bytes) "
                               "differs from its definition's (32, 36)");
    o.n_type_defs = 0;
    dec.decode = failing_decode;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, NULL), GS_OK);
    cr_assert_eq(gs_tensor_dequantize(f, 0, got, 256), GS_E_DECODER_FAILED);
    gs_close(f);
    dec.decode = NULL;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_E_INVALID_ARGUMENT);
    gs_close(fq);
    gsw_bytes_free(&b);
    gsw_bytes_free(&q);
}

/* A large tensor: the decoder sees at most GS_DECODE_CHUNK_BYTES at a time, whole blocks. */
Test(type_defs, decoder_calls_are_bounded_chunks)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    const uint64_t ne[2] = {4096, 64}; /* 8192 blocks, 278,528 bytes */
    gsw_tensor *t = gsw_add_tensor(&m, "big", 2, ne, GS_TYPE_Q8_0);
    cr_assert(gsw_tensor_fill(t, 3, 1u << 20));
    t->type = ID;
    gsw_bytes b;
    gsw_bytes_init(&b);
    char why[128];
    cr_assert_eq(gsw_write(&m, GSW_LAX, &b, NULL, why, sizeof why), 0, "%s", why);
    gsw_model_free(&m);
    counting c = {0};
    gs_decoder dec = {q8_like, q8_decode, &c, NULL};
    gs_options o;
    gs_options_init(&o);
    o.decoders = &dec;
    o.n_decoders = 1;
    gs_file *f;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, NULL), GS_OK);
    size_t n = 4096 * 64;
    float *out = malloc(n * sizeof *out);
    cr_assert_not_null(out);
    cr_assert_eq(gs_tensor_dequantize(f, 0, out, n), GS_OK);
    cr_assert_leq(c.max_src, GS_DECODE_CHUNK_BYTES);
    cr_assert_eq(c.max_src, GS_DECODE_CHUNK_BYTES / 34 * 34);
    cr_assert_eq(c.calls, (8192 * 34 + c.max_src - 1) / c.max_src);
    free(out);
    gs_close(f);
    gsw_bytes_free(&b);
}

/* Overriding a built-in id replaces its geometry for that open. */
Test(type_defs, override_replaces_a_builtin_geometry)
{
    gsw_bytes b;
    write_file(&b, GS_TYPE_Q8_0);
    gs_type_def def = {GS_TYPE_Q8_0, "q8_0_twice", 64, 68, true};
    gs_options o;
    gs_options_init(&o);
    o.type_defs = &def;
    o.n_type_defs = 1;
    gs_file *f;
    gs_error e;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_OK, "%s", e.detail);
    gs_tensor_info t;
    cr_assert_eq(gs_tensor_info_at(f, 0, &t), GS_OK);
    cr_assert_eq(t.size, W_BYTES); /* 4 rows of one 68-byte block... */
    cr_assert_eq(t.nb[0], 68);
    cr_assert_str_eq(gs_file_type_name(f, GS_TYPE_Q8_0), "q8_0_twice");
    float out[256];
    cr_assert_eq(gs_tensor_dequantize(f, 0, out, 256), GS_E_NOT_DECODABLE);
    gs_type_info ti;
    cr_assert_eq(gs_file_type_info(f, GS_TYPE_Q8_0, &ti), GS_OK);
    cr_assert(ti.quantized);
    gs_close(f);
    /* an override with the registry's own geometry (ggml's decoder for a built-in type, the
     * ggml kernel child) keeps the registry's quantized flag: F16 stays unquantized */
    gs_type_def defs[2] = {{GS_TYPE_F16, "f16", 1, 2, true}, {GS_TYPE_F32, "f32_wide", 2, 8, true}};
    o.type_defs = defs;
    o.n_type_defs = 2;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_OK, "%s", e.detail);
    cr_assert_eq(gs_file_type_info(f, GS_TYPE_F16, &ti), GS_OK);
    cr_assert(!ti.quantized);
    cr_assert_eq(gs_file_type_info(f, GS_TYPE_F32, &ti), GS_OK);
    cr_assert(ti.quantized); /* another geometry: a caller's type, as any definition */
    gs_close(f);
    gsw_bytes_free(&b);
}

/* A decoder set refused at open, each with its reason, offset (the decoder's index) and context
 * (its type's name). */
Test(type_defs, decoder_sets_refused_with_their_reason)
{
    gsw_bytes b;
    write_file(&b, ID);
    const gs_decoder good = {q8_like, failing_decode, NULL, "test"};
    gs_decoder no_fn = good, neg = good, geom = good;
    no_fn.decode = NULL;
    neg.type.id = -5;
    geom.type.block_bytes = 36;
    static gs_decoder many[GS_TYPE_DEF_MAX + 1];
    const gs_decoder two_fn[2] = {good, no_fn}, twice[2] = {good, good};
    const gs_type_def def_twice[2] = {q8_like, q8_like};
    const struct {
        const gs_type_def *defs;
        size_t n_defs;
        const gs_decoder *decs;
        size_t n_decs;
        uint64_t at;
        const char *detail, *context;
    } rows[] = {
        {NULL, 0, NULL, 1, 0, "decoders are NULL", ""},
        {NULL, 0, many, GS_TYPE_DEF_MAX + 1, 0, "257 decoders, at most 256", ""},
        {NULL, 0, two_fn, 2, 1, "decoder 1 has no decode function", "q8_0_example"},
        {NULL, 0, &neg, 1, 0, "decoder for type id -5: negative", "q8_0_example"},
        {NULL, 0, twice, 2, 1, "type id 200 has two decoders (0 and 1)", "q8_0_example"},
        {&q8_like, 1, &geom, 1, 0,
         "type id 200: the decoder's block (32 elements, 36 bytes) differs from its definition's "
         "(32, 34)",
         "q8_0_example"},
        {def_twice, 2, &good, 1, 1, "type id 200 is defined twice (definitions 0 and 1)",
         "q8_0_example"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gs_options o;
        gs_options_init(&o);
        o.type_defs = rows[i].defs;
        o.n_type_defs = rows[i].n_defs;
        o.decoders = rows[i].decs;
        o.n_decoders = rows[i].n_decs;
        gs_file *f;
        gs_error e;
        cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_E_INVALID_ARGUMENT, "row %zu",
                     i);
        cr_assert_str_eq(e.detail, rows[i].detail, "row %zu", i);
        cr_assert_eq(e.offset, rows[i].at, "row %zu", i);
        cr_assert_str_eq(e.context, rows[i].context, "row %zu", i);
    }
    gsw_bytes_free(&b);
}

/* Several types given out of id order: each found by its id (the file keeps them sorted), the
 * decoder of a defined id attached to that definition; type info needs the 0.1.0 size at least. */
Test(type_defs, several_types_sorted_and_found)
{
    gsw_bytes b;
    write_file(&b, ID);
    const gs_type_def defs[4] = {{900, "t900", 1, 2, false},
                                 {ID, "q8_0_example", 32, 34, false},
                                 {300, "t300", 4, 8, false},
                                 {250, "t250", 2, 4, false}};
    gs_decoder decs[2] = {{{950, "d950", 16, 16, false}, failing_decode, NULL, NULL},
                          {{300, "t300", 4, 8, false}, failing_decode, NULL, "from test"}};
    gs_options o;
    gs_options_init(&o);
    o.type_defs = defs;
    o.n_type_defs = 4;
    o.decoders = decs;
    o.n_decoders = 2;
    gs_file *f;
    gs_error e;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_OK, "%s", e.detail);
    const struct {
        int32_t id;
        const char *name;
        uint32_t elems;
        bool decodable;
    } want[] = {{ID, "q8_0_example", 32, false}, {250, "t250", 2, false},
                {300, "t300", 4, true},          {900, "t900", 1, false},
                {950, "d950", 16, true}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        gs_type_info ti;
        cr_assert_eq(gs_file_type_info(f, want[i].id, &ti), GS_OK, "id %d", (int)want[i].id);
        cr_assert_str_eq(ti.name, want[i].name);
        cr_assert_str_eq(gs_file_type_name(f, want[i].id), want[i].name);
        cr_assert_eq(ti.block_elems, want[i].elems);
        cr_assert_eq(ti.decodable, want[i].decodable, "id %d", (int)want[i].id);
    }
    /* ids between and beyond the defined ones fall back to the registry */
    cr_assert_str_eq(gs_file_type_name(f, 260), "unknown");
    cr_assert_str_eq(gs_file_type_name(f, 1000), "unknown");
    cr_assert_str_eq(gs_file_type_name(f, GS_TYPE_F32), "f32");
    gs_type_info ti;
    cr_assert_eq(gs_file_type_info_sized(f, 250, &ti, 4), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_file_type_info_sized(f, 250, NULL, sizeof ti), GS_E_INVALID_ARGUMENT);
    /* raw blocks through the file's types: geometry only is not decodable; a decoder's type
     * takes whole blocks only, and no block at all is nothing to do */
    uint8_t src[16] = {0};
    float dst[8];
    cr_assert_eq(gs_file_dequantize(f, 250, src, 4, dst, 2), GS_E_NOT_DECODABLE);
    cr_assert_eq(gs_file_dequantize(f, 300, src, 7, dst, 4), GS_E_SIZE_MISMATCH);
    cr_assert_eq(gs_file_dequantize(f, 300, src, 0, dst, 0), GS_OK);
    cr_assert_eq(gs_file_dequantize(f, 300, src, 8, dst, 4), GS_E_DECODER_FAILED);
    gs_close(f);
    gsw_bytes_free(&b);
}

/* Every allocation of an open with caller-defined types may fail: GS_E_NO_MEMORY, nothing
 * leaked, and the copy of the types says so when it is the one. */
Test(type_defs, allocation_failures_while_copying_the_types)
{
    gsw_bytes b;
    write_file(&b, ID);
    const gs_type_def def = q8_like;
    bool types_failed = false;
    for (long fail_at = 0;; fail_at++) {
        tu_counter c;
        gs_options o;
        tu_counting_options(&o, &c, fail_at);
        o.type_defs = &def;
        o.n_type_defs = 1;
        gs_file *f = NULL;
        gs_error e;
        gs_status st = gs_open_memory(b.data, b.len, &o, &f, &e);
        if (st == GS_OK) {
            gs_close(f);
            cr_assert_eq(c.live, 0);
            break;
        }
        cr_assert_eq(st, GS_E_NO_MEMORY, "allocation %ld: %s", fail_at, gs_status_name(st));
        cr_assert_null(f);
        cr_assert_eq(c.live, 0, "allocation %ld: %ld leaked", fail_at, c.live);
        types_failed |= strcmp(e.detail, "caller-defined types") == 0;
    }
    cr_assert(types_failed);
    gsw_bytes_free(&b);
}
