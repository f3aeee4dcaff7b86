/* `ggufsafe certify`: one crafted file per finding code, each asserting its code, severity,
 * location (part, byte offset taken from the writer's field map, key or tensor) and the exit
 * status; every report is validated against certify.schema.json; and a check that every code of
 * the table has its crafted file here (reader.<STATUS> codes are covered by the corpus, one file
 * per status: corpus/tests/corpus_certify.c). */
#define _DEFAULT_SOURCE /* symlink */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cert_codes.h"
#include "cli_test.h"
#include "gsw_foreign.h"
#include "gsw_write.h"

CLI_SCRATCH_SUITE(certify_codes);

/* What a builder leaves: the file to certify and where the finding must point. */
typedef struct built {
    char path[512];
    char where[512];
} built;

typedef struct crafted {
    const char *code;
    const char *severity; /* under the strict profile */
    const char *flag;     /* what certify needs besides the file: "--deep", "--metadata-only" */
    int exit_code;
    void (*build)(built *out);
} crafted;

/* ---- helpers ---------------------------------------------------------------------------- */

typedef struct out_file {
    gsw_bytes b;
    gsw_map map;
} out_file;

static void write_model(const gsw_model *m, unsigned flags, out_file *o)
{
    char why[256] = "";
    gsw_bytes_init(&o->b);
    gsw_map_init(&o->map);
    cr_assert_eq(gsw_write(m, flags, &o->b, &o->map, why, sizeof why), 0, "%s", why);
}

static void save(out_file *o, built *out, const char *name)
{
    snprintf(out->path, sizeof out->path, "%s/%s", dir, name);
    cr_assert_eq(gsw_bytes_save(&o->b, out->path), 0);
    gsw_bytes_free(&o->b);
    gsw_map_free(&o->map);
}

static uint64_t at(const out_file *o, gsw_kind kind, uint32_t record, uint64_t index)
{
    return gsw_at(&o->map, kind, record, index);
}

static void arch(gsw_model *m)
{
    gsw_set_cstr(gsw_add(m, "general.architecture"), "llama");
}

static gsw_tensor *f32_tensor(gsw_model *m, const char *name, uint64_t n)
{
    gsw_tensor *t = gsw_add_tensor(m, name, 1, &n, GS_TYPE_F32);
    cr_assert(gsw_tensor_fill(t, 7, 1u << 24));
    /* finite values: filled bytes may spell NaN */
    for (uint64_t i = 0; i < n; i++) {
        float v = (float)i + 0.5f;
        memcpy(t->data.ptr + 4 * i, &v, 4);
    }
    return t;
}

/* general.architecture = llama and an 8-element f32 tensor "w": certifies cleanly. */
static void base(gsw_model *m)
{
    gsw_model_init(m, 3);
    arch(m);
    f32_tensor(m, "w", 8);
}

static void where_tensor(built *out, uint64_t offset, const char *name)
{
    snprintf(out->where, sizeof out->where, "byte %llu, tensor '%s'", (unsigned long long)offset,
             name);
}

static void where_key(built *out, uint64_t offset, const char *key)
{
    snprintf(out->where, sizeof out->where, "byte %llu, key '%s'", (unsigned long long)offset,
             key);
}

/* A model with one quantized tensor of `blocks` blocks of `type`, quantization_version set. */
static void quantized(gsw_model *m, int32_t type, uint64_t elems)
{
    gsw_model_init(m, 3);
    arch(m);
    gsw_set_u32(gsw_add(m, "general.quantization_version"), 2);
    gsw_tensor *t = gsw_add_tensor(m, "q", 1, &elems, type);
    cr_assert(gsw_tensor_fill(t, 3, 1u << 24));
}

/* ---- reader and layout ------------------------------------------------------------------ */

static void b_reader(built *out)
{
    gsw_model m;
    base(&m);
    out_file o;
    write_model(&m, 0, &o);
    uint64_t off = at(&o, GSW_OFFSET, 0, 0);
    gsw_truncate(&o.b, (size_t)at(&o, GSW_DATA, 0, 0) + 8);
    where_tensor(out, off, "w");
    save(&o, out, "reader.gguf");
    gsw_model_free(&m);
}

static void b_truncated(built *out)
{
    gsw_model m;
    base(&m);
    out_file o;
    write_model(&m, 0, &o);
    uint64_t cut = at(&o, GSW_DATA, 0, 0) + 8;
    gsw_truncate(&o.b, (size_t)cut);
    where_tensor(out, cut, "w");
    save(&o, out, "truncated.gguf");
    gsw_model_free(&m);
}

static void b_trailing(built *out)
{
    gsw_model m;
    base(&m);
    out_file o;
    write_model(&m, 0, &o);
    snprintf(out->where, sizeof out->where, "byte %zu", o.b.len);
    gsw_put_fill(&o.b, 0x5a, 100);
    save(&o, out, "trailing.gguf");
    gsw_model_free(&m);
}

/* Two 32-byte tensors, the second placed 32 bytes later than packing puts it. */
static void b_gap(built *out)
{
    gsw_model m;
    base(&m);
    f32_tensor(&m, "v", 8);
    out_file o;
    write_model(&m, 0, &o);
    uint64_t gap_at = at(&o, GSW_DATA, 1, 0);
    gsw_override(&o.b, &o.map, GSW_OFFSET, 1, 0, 64);
    gsw_put_fill(&o.b, 0, 32); /* the moved data's last bytes */
    snprintf(out->where, sizeof out->where, "byte %llu, tensor 'v'", (unsigned long long)gap_at);
    save(&o, out, "gap.gguf");
    gsw_model_free(&m);
}

static void b_padding(built *out)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    arch(&m);
    f32_tensor(&m, "w", 5); /* 20 bytes: 12 bytes of padding follow */
    out_file o;
    write_model(&m, 0, &o);
    uint64_t p = at(&o, GSW_DATA_PAD, 0, 0) + 3;
    gsw_patch_u8(&o.b, (size_t)p, 0xaa);
    where_tensor(out, p, "w");
    save(&o, out, "padding.gguf");
    gsw_model_free(&m);
}

/* ---- compat ----------------------------------------------------------------------------- */

static void alignment(built *out, uint32_t a, const char *name)
{
    gsw_model m;
    base(&m);
    gsw_set_u32(gsw_add(&m, "general.alignment"), a);
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_VALUE, 1, 0), "general.alignment");
    save(&o, out, name);
    gsw_model_free(&m);
}

static void b_align_pow2(built *out)
{
    alignment(out, 24, "align24.gguf");
}

static void b_align_small(built *out)
{
    alignment(out, 4, "align4.gguf");
}

static void b_name64(built *out)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    arch(&m);
    char name[65];
    memset(name, 'n', 64);
    name[64] = '\0';
    f32_tensor(&m, name, 8);
    out_file o;
    write_model(&m, 0, &o);
    where_tensor(out, at(&o, GSW_NAME_LEN, 0, 0), name);
    save(&o, out, "name64.gguf");
    gsw_model_free(&m);
}

static void b_nested(built *out)
{
    gsw_model m;
    base(&m);
    gsw_value *items = gsw_set_nested_array(gsw_add(&m, "x.nested"), 2);
    gsw_set_array(&items[0], GS_VALUE_U8, 1, NULL);
    gsw_set_array(&items[1], GS_VALUE_U8, 1, NULL);
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_ARR_TYPE, 1, 0), "x.nested");
    save(&o, out, "nested.gguf");
    gsw_model_free(&m);
}

static void b_bool(built *out)
{
    gsw_model m;
    base(&m);
    gsw_set_bool(gsw_add(&m, "x.flag"), 2);
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_VALUE, 1, 0), "x.flag");
    save(&o, out, "bool.gguf");
    gsw_model_free(&m);
}

static void b_key_grammar(built *out)
{
    gsw_model m;
    base(&m);
    gsw_set_cstr(gsw_add(&m, "General.Name"), "x");
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_KEY_LEN, 1, 0), "General.Name");
    save(&o, out, "key_grammar.gguf");
    gsw_model_free(&m);
}

/* "w" and "v" swapped in the data section: aligned, inside, disjoint, not in order. */
static void b_not_packed(built *out)
{
    gsw_model m;
    base(&m);
    f32_tensor(&m, "v", 8);
    out_file o;
    write_model(&m, 0, &o);
    gsw_override(&o.b, &o.map, GSW_OFFSET, 0, 0, 32);
    gsw_override(&o.b, &o.map, GSW_OFFSET, 1, 0, 0);
    where_tensor(out, at(&o, GSW_NAME_LEN, 0, 0), "w");
    save(&o, out, "not_packed.gguf");
    gsw_model_free(&m);
}

static void b_tail_padding(built *out)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    arch(&m);
    f32_tensor(&m, "w", 5);
    out_file o;
    write_model(&m, 0, &o);
    uint64_t end = at(&o, GSW_DATA_PAD, 0, 0);
    gsw_truncate(&o.b, (size_t)end);
    snprintf(out->where, sizeof out->where, "byte %llu", (unsigned long long)end);
    save(&o, out, "tail_padding.gguf");
    gsw_model_free(&m);
}

static void b_int_key(built *out)
{
    gsw_model m;
    base(&m);
    gsw_set_u64(gsw_add(&m, "llama.context_length"), 4096);
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_KEY_LEN, 1, 0), "llama.context_length");
    save(&o, out, "int_key.gguf");
    gsw_model_free(&m);
}

static void one_typed_tensor(built *out, int32_t type, uint64_t elems, const char *name)
{
    gsw_model m;
    quantized(&m, type, elems);
    out_file o;
    write_model(&m, 0, &o);
    where_tensor(out, at(&o, GSW_NAME_LEN, 0, 0), "q");
    save(&o, out, name);
    gsw_model_free(&m);
}

static void b_activation(built *out)
{
    one_typed_tensor(out, GS_TYPE_Q8_1, 32, "q8_1.gguf");
}

static void b_newer_type(built *out)
{
    one_typed_tensor(out, GS_TYPE_NVFP4, 64, "nvfp4.gguf");
}

/* A Q8_0 tensor relabelled with an id nobody defined: the finding is at its type field. */
static void b_unknown_type(built *out)
{
    gsw_model m;
    quantized(&m, GS_TYPE_Q8_0, 64);
    m.tensors[0].type = 200;
    out_file o;
    write_model(&m, GSW_LAX, &o);
    where_tensor(out, at(&o, GSW_TENSOR_TYPE, 0, 0), "q");
    save(&o, out, "unknown_type.gguf");
    gsw_model_free(&m);
}

static void b_version2(built *out)
{
    gsw_model m;
    base(&m);
    m.version = 2;
    out_file o;
    write_model(&m, 0, &o);
    snprintf(out->where, sizeof out->where, "byte 4");
    save(&o, out, "v2.gguf");
    gsw_model_free(&m);
}

/* ---- meta ------------------------------------------------------------------------------- */

static void b_arch_missing(built *out)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    f32_tensor(&m, "w", 8);
    out_file o;
    write_model(&m, 0, &o);
    out->where[0] = '\0';
    save(&o, out, "no_arch.gguf");
    gsw_model_free(&m);
}

/* A Git LFS pointer where the model should be. */
static void b_not_gguf(built *out)
{
    out_file o;
    gsw_bytes_init(&o.b);
    gsw_map_init(&o.map);
    gsw_foreign_samples[0].build(&o.b);
    snprintf(out->where, sizeof out->where, "byte 0");
    save(&o, out, "pointer.gguf");
}

/* Cut inside the key of the second key-value. */
static void b_metadata_truncated(built *out)
{
    gsw_model m;
    base(&m);
    gsw_set_cstr(gsw_add(&m, "general.name"), "cut");
    out_file o;
    write_model(&m, 0, &o);
    uint64_t cut = at(&o, GSW_KEY, 1, 0) + 3;
    gsw_truncate(&o.b, (size_t)cut);
    snprintf(out->where, sizeof out->where, "byte %llu", (unsigned long long)cut);
    save(&o, out, "metadata_cut.gguf");
    gsw_model_free(&m);
}

/* The file ends where its data would begin; certified with --metadata-only. */
static void b_data_absent(built *out)
{
    gsw_model m;
    base(&m);
    out_file o;
    write_model(&m, 0, &o);
    uint64_t cut = at(&o, GSW_DATA, 0, 0);
    gsw_truncate(&o.b, (size_t)cut);
    where_tensor(out, cut, "w");
    save(&o, out, "header_only.gguf");
    gsw_model_free(&m);
}

/* A template that walks from a string to Python's classes (the published escape). */
static void b_chat_template(built *out)
{
    gsw_model m;
    base(&m);
    static const char tmpl[] = "{% for m in messages %}{{ m.content }}{% endfor %}"
                               "{{ ''.__class__.__mro__[1].__subclasses__() }}";
    gsw_set_cstr(gsw_add(&m, "tokenizer.chat_template"), tmpl);
    out_file o;
    write_model(&m, 0, &o);
    uint64_t at_fragment = at(&o, GSW_STR, 1, 0) + (uint64_t)(strstr(tmpl, "__class__") - tmpl);
    where_key(out, at_fragment, "tokenizer.chat_template");
    save(&o, out, "template.gguf");
    gsw_model_free(&m);
}

static void b_type_unknown(built *out)
{
    gsw_model m;
    base(&m);
    gsw_set_cstr(gsw_add(&m, "general.type"), "diffusion");
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_STR_LEN, 1, 0), "general.type");
    save(&o, out, "type_unknown.gguf");
    gsw_model_free(&m);
}

static void b_key_type(built *out)
{
    gsw_model m;
    base(&m);
    gsw_set_cstr(gsw_add(&m, "llama.context_length"), "4096");
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_KEY_LEN, 1, 0), "llama.context_length");
    save(&o, out, "key_type.gguf");
    gsw_model_free(&m);
}

static void b_qver(built *out)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    arch(&m);
    uint64_t n = 32;
    cr_assert(gsw_tensor_fill(gsw_add_tensor(&m, "q", 1, &n, GS_TYPE_Q4_0), 1, 1u << 20));
    out_file o;
    write_model(&m, 0, &o);
    snprintf(out->where, sizeof out->where, "tensor 'q'");
    save(&o, out, "qver.gguf");
    gsw_model_free(&m);
}

/* A tokenizer of n tokens (record numbers: arch 0, tokens 1, scores 2, token_type 3, then the
 * extras the caller adds). tok_type sets token i's type; names[i] its string (NULL: "tN"). */
static void tokenizer(gsw_model *m, uint64_t n, uint64_t n_scores, int32_t bad_type_at,
                      int32_t bad_type, const char *const *names)
{
    gsw_model_init(m, 3);
    arch(m);
    gsw_value *tok = gsw_add(m, "tokenizer.ggml.tokens");
    gsw_set_string_array(tok, n);
    for (uint64_t i = 0; i < n; i++) {
        char t[16];
        int len = snprintf(t, sizeof t, "t%llu", (unsigned long long)i);
        const char *s = names != NULL && names[i] != NULL ? names[i] : t;
        gsw_array_string(tok, i, s, names != NULL && names[i] != NULL ? strlen(s) : (size_t)len);
    }
    gsw_set_array(gsw_add(m, "tokenizer.ggml.scores"), GS_VALUE_F32, n_scores, NULL);
    gsw_value *types = gsw_add(m, "tokenizer.ggml.token_type");
    gsw_set_array(types, GS_VALUE_I32, n, NULL);
    for (uint64_t i = 0; i < n; i++) {
        int32_t v = (int32_t)i == bad_type_at ? bad_type : 1;
        memcpy(types->raw.ptr + 4 * i, &v, 4);
    }
    f32_tensor(m, "w", 8);
}

static void b_tok_type(built *out)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    arch(&m);
    gsw_value *tok = gsw_add(&m, "tokenizer.ggml.tokens");
    gsw_set_string_array(tok, 2);
    gsw_array_string(tok, 0, "a", 1);
    gsw_array_string(tok, 1, "b", 1);
    gsw_set_array(gsw_add(&m, "tokenizer.ggml.scores"), GS_VALUE_I8, 2, NULL);
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_KEY_LEN, 2, 0), "tokenizer.ggml.scores");
    save(&o, out, "tok_type.gguf");
    gsw_model_free(&m);
}

static void b_tok_length(built *out)
{
    gsw_model m;
    tokenizer(&m, 8, 7, -1, 0, NULL);
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_KEY_LEN, 2, 0), "tokenizer.ggml.scores");
    save(&o, out, "tok_length.gguf");
    gsw_model_free(&m);
}

static void b_type_range(built *out)
{
    gsw_model m;
    tokenizer(&m, 8, 8, 5, 7, NULL);
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_ARR_ELEM, 3, 5), "tokenizer.ggml.token_type");
    save(&o, out, "type_range.gguf");
    gsw_model_free(&m);
}

static void b_special(built *out)
{
    gsw_model m;
    tokenizer(&m, 8, 8, -1, 0, NULL);
    gsw_set_u32(gsw_add(&m, "tokenizer.ggml.eos_token_id"), 8);
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_VALUE, 4, 0), "tokenizer.ggml.eos_token_id");
    save(&o, out, "special.gguf");
    gsw_model_free(&m);
}

static void b_byte_token(built *out)
{
    const char *names[8] = {NULL, NULL, NULL, "<0x-1>", NULL, NULL, NULL, NULL};
    gsw_model m;
    tokenizer(&m, 8, 8, 3, 6, names);
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_ARR_STR_LEN, 1, 3), "tokenizer.ggml.tokens");
    save(&o, out, "byte_token.gguf");
    gsw_model_free(&m);
}

static void b_duplicate(built *out)
{
    const char *names[8] = {"a", "b", "c", "d", "b", NULL, NULL, NULL};
    gsw_model m;
    tokenizer(&m, 8, 8, -1, 0, names);
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_ARR_STR_LEN, 1, 4), "tokenizer.ggml.tokens");
    save(&o, out, "duplicate.gguf");
    gsw_model_free(&m);
}

static void b_merges(built *out)
{
    gsw_model m;
    tokenizer(&m, 8, 8, -1, 0, NULL);
    gsw_value *mg = gsw_add(&m, "tokenizer.ggml.merges");
    gsw_set_string_array(mg, 3);
    gsw_array_string(mg, 0, "t1 t2", 5);
    gsw_array_string(mg, 1, " t1t2", 5); /* the space at 0 is not a separator */
    gsw_array_string(mg, 2, "t3 ", 3);
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_ARR_STR_LEN, 4, 1), "tokenizer.ggml.merges");
    save(&o, out, "merges.gguf");
    gsw_model_free(&m);
}

static void b_blocks_missing(built *out)
{
    gsw_model m;
    base(&m);
    f32_tensor(&m, "blk.0.attn_norm.weight", 8);
    out_file o;
    write_model(&m, 0, &o);
    snprintf(out->where, sizeof out->where, "key 'llama.block_count'");
    save(&o, out, "blocks_missing.gguf");
    gsw_model_free(&m);
}

static void blocks(built *out, uint32_t count, const char *name)
{
    gsw_model m;
    base(&m);
    gsw_set_u32(gsw_add(&m, "llama.block_count"), count);
    f32_tensor(&m, "blk.0.attn_norm.weight", 8);
    f32_tensor(&m, "blk.2.attn_norm.weight", 8);
    out_file o;
    write_model(&m, 0, &o);
    where_key(out, at(&o, GSW_VALUE, 1, 0), "llama.block_count");
    save(&o, out, name);
    gsw_model_free(&m);
}

static void b_blocks_mismatch(built *out)
{
    blocks(out, 3, "blocks_mismatch.gguf"); /* blk.1 is missing */
}

static void b_blocks_range(built *out)
{
    blocks(out, 600, "blocks_range.gguf");
}

/* ---- payload (--deep) ------------------------------------------------------------------- */

static void payload(built *out, int32_t type, uint64_t elems, size_t block_bytes,
                    uint64_t block, size_t field, const uint8_t *bytes, size_t n,
                    const char *name)
{
    gsw_model m;
    quantized(&m, type, elems);
    /* every scale finite first: the filled bytes may spell Inf/NaN f16 scales by chance */
    gsw_tensor *t = &m.tensors[0];
    memset(t->data.ptr, 0x11, t->data.len);
    memcpy(t->data.ptr + block * block_bytes + field, bytes, n);
    out_file o;
    write_model(&m, 0, &o);
    where_tensor(out, at(&o, GSW_DATA, 0, 0) + block * block_bytes, "q");
    save(&o, out, name);
    gsw_model_free(&m);
}

static void b_scale(built *out)
{
    static const uint8_t inf[2] = {0x00, 0x7c};
    payload(out, GS_TYPE_Q4_0, 4 * 32, 18, 2, 0, inf, 2, "scale.gguf");
}

static void b_mxfp4(built *out)
{
    static const uint8_t e[1] = {0xff};
    payload(out, GS_TYPE_MXFP4, 4 * 32, 17, 1, 0, e, 1, "mxfp4.gguf");
}

static void b_nvfp4(built *out)
{
    static const uint8_t s[1] = {0x80};
    payload(out, GS_TYPE_NVFP4, 3 * 64, 36, 2, 2, s, 1, "nvfp4_scale.gguf");
}

static void b_float(built *out)
{
    gsw_model m;
    base(&m);
    float nan = NAN;
    memcpy(m.tensors[0].data.ptr + 4 * 5, &nan, 4);
    out_file o;
    write_model(&m, 0, &o);
    where_tensor(out, at(&o, GSW_DATA, 0, 0) + 4 * 5, "w");
    save(&o, out, "float_nan.gguf");
    gsw_model_free(&m);
}

/* An infinity alone, no NaN: the finding counts both */
static void b_float_inf(built *out)
{
    gsw_model m;
    base(&m);
    float inf = -INFINITY;
    memcpy(m.tensors[0].data.ptr + 4 * 3, &inf, 4);
    out_file o;
    write_model(&m, 0, &o);
    where_tensor(out, at(&o, GSW_DATA, 0, 0) + 4 * 3, "w");
    save(&o, out, "float_inf.gguf");
    gsw_model_free(&m);
}

static void b_all_zero(built *out)
{
    gsw_model m;
    base(&m);
    memset(m.tensors[0].data.ptr, 0, m.tensors[0].data.len);
    out_file o;
    write_model(&m, 0, &o);
    where_tensor(out, at(&o, GSW_DATA, 0, 0), "w");
    save(&o, out, "zero.gguf");
    gsw_model_free(&m);
}

/* ---- split sets ------------------------------------------------------------------------- */

typedef struct part_spec {
    int no;              /* split.no, or -1 for none */
    int count;           /* split.count, or -1 for none; -2: a string */
    int tensors;         /* split.tensors.count, or -1 for none */
    const char *tensor;  /* its one tensor */
} part_spec;

/* Writes <dir>/<prefix>-0000N-of-0000T.gguf; returns the offsets of its split values in at_no,
 * at_count, at_tensors (records 1, 2, 3) and of its tensor info. */
static void split_part(const char *prefix, int index, int total, const part_spec *s,
                       uint64_t offs[4])
{
    gsw_model m;
    gsw_model_init(&m, 3);
    arch(&m);
    if (s->no >= 0) {
        gsw_set_u16(gsw_add(&m, "split.no"), (uint16_t)s->no);
    }
    if (s->count >= 0) {
        gsw_set_u16(gsw_add(&m, "split.count"), (uint16_t)s->count);
    } else if (s->count == -2) {
        gsw_set_cstr(gsw_add(&m, "split.count"), "2");
    }
    if (s->tensors >= 0) {
        gsw_set_i32(gsw_add(&m, "split.tensors.count"), s->tensors);
    }
    f32_tensor(&m, s->tensor, 8);
    out_file o;
    write_model(&m, 0, &o);
    uint32_t rec = 1;
    offs[0] = s->no >= 0 ? at(&o, GSW_VALUE, rec++, 0) : 0;
    offs[1] = s->count >= 0 ? at(&o, GSW_VALUE, rec++, 0)
              : s->count == -2 ? at(&o, GSW_STR_LEN, rec++, 0) : 0;
    offs[2] = s->tensors >= 0 ? at(&o, GSW_VALUE, rec, 0) : 0;
    offs[3] = at(&o, GSW_NAME_LEN, 0, 0);
    built b;
    char name[128];
    snprintf(name, sizeof name, "%s-%05d-of-%05d.gguf", prefix, index, total);
    save(&o, &b, name);
    gsw_model_free(&m);
}

/* A two-part set whose part 2 is spec2; out->path is part 1. */
static void two_parts(built *out, const char *prefix, const part_spec *spec2, uint64_t offs2[4])
{
    uint64_t offs1[4];
    part_spec one = {0, 2, 2, "a"};
    split_part(prefix, 1, 2, &one, offs1);
    split_part(prefix, 2, 2, spec2, offs2);
    snprintf(out->path, sizeof out->path, "%s/%s-00001-of-00002.gguf", dir, prefix);
}

static void b_part_missing(built *out)
{
    uint64_t offs[4];
    part_spec two = {1, 2, 2, "b"};
    two_parts(out, "pm", &two, offs);
    char p2[600];
    snprintf(p2, sizeof p2, "%s/pm-00002-of-00002.gguf", dir);
    cr_assert_eq(remove(p2), 0);
    snprintf(out->where, sizeof out->where, "part 2");
}

/* Part 2 is a symbolic link to part 1. */
static void b_same_file(built *out)
{
    uint64_t offs[4];
    part_spec two = {1, 2, 2, "b"};
    two_parts(out, "sf", &two, offs);
    char p2[600];
    snprintf(p2, sizeof p2, "%s/sf-00002-of-00002.gguf", dir);
    cr_assert_eq(remove(p2), 0);
    cr_assert_eq(symlink("sf-00001-of-00002.gguf", p2), 0);
    snprintf(out->where, sizeof out->where, "part 2");
}

static void b_key_missing(built *out)
{
    uint64_t offs[4];
    part_spec two = {1, 2, -1, "b"};
    two_parts(out, "km", &two, offs);
    snprintf(out->where, sizeof out->where, "part 2, key 'split.tensors.count'");
}

/* A two-part set whose part 2 is `two`, its finding pointing at part 2's value of record rec
 * (0 split.no, 1 split.count, 2 split.tensors.count, 3 the tensor info), named `subject`. */
static void two_parts_at(built *out, const char *prefix, part_spec two, int rec,
                         const char *subject)
{
    uint64_t offs[4];
    two_parts(out, prefix, &two, offs);
    snprintf(out->where, sizeof out->where, "part 2, byte %llu, %s",
             (unsigned long long)offs[rec], subject);
}

static void b_split_key_type(built *out)
{
    two_parts_at(out, "kt", (part_spec){1, -2, 2, "b"}, 1, "key 'split.count'");
}

static void b_number(built *out)
{
    two_parts_at(out, "nm", (part_spec){0, 2, 2, "b"}, 0, "key 'split.no'");
}

static void b_count(built *out)
{
    two_parts_at(out, "cm", (part_spec){1, 3, 2, "b"}, 1, "key 'split.count'");
}

static void b_tensor_count(built *out)
{
    two_parts_at(out, "tc", (part_spec){1, 2, 3, "b"}, 2, "key 'split.tensors.count'");
}

static void b_duplicate_tensor(built *out)
{
    two_parts_at(out, "dt", (part_spec){1, 2, 2, "a"}, 3, "tensor 'a'");
}

static void b_bad_name(built *out)
{
    uint64_t offs[4];
    part_spec one = {0, 2, 2, "a"};
    split_part("bn", 1, 2, &one, offs);
    char from[600];
    snprintf(from, sizeof from, "%s/bn-00001-of-00002.gguf", dir);
    snprintf(out->path, sizeof out->path, "%s/bn-part1.gguf", dir);
    cr_assert_eq(rename(from, out->path), 0);
    out->where[0] = '\0';
}

static void b_part_alone(built *out)
{
    uint64_t offs[4];
    part_spec two = {1, 2, 2, "b"};
    split_part("pa", 2, 2, &two, offs);
    snprintf(out->path, sizeof out->path, "%s/pa-00002-of-00002.gguf", dir);
    out->where[0] = '\0';
}

/* A directory holding part 2 of a set without its part 1: certified as a directory (a run over
 * many files), whose report of the part has the finding. */
static void b_part_one_absent(built *out)
{
    uint64_t offs[4];
    part_spec two = {1, 2, 2, "b"};
    snprintf(out->path, sizeof out->path, "%s/orphan", dir);
    cr_assert_eq(mkdir(out->path, 0755), 0);
    split_part("orphan/po", 2, 2, &two, offs);
    out->where[0] = '\0';
}

/* ---- the table -------------------------------------------------------------------------- */

static const crafted cases[] = {
    {"reader.not_gguf", "error", NULL, 1, b_not_gguf},
    {"reader.GS_E_DATA_OUTSIDE_FILE", "error", NULL, 1, b_reader},
    {"layout.metadata_truncated", "error", NULL, 1, b_metadata_truncated},
    {"layout.data_absent", "info", "--metadata-only", 0, b_data_absent},
    {"layout.truncated", "error", NULL, 1, b_truncated},
    {"layout.trailing_bytes", "error", NULL, 1, b_trailing},
    {"layout.gap", "warning", NULL, 1, b_gap},
    {"layout.padding_nonzero", "warning", NULL, 0, b_padding},
    {"compat.alignment_not_pow2", "error", NULL, 1, b_align_pow2},
    {"compat.alignment_below_8", "warning", NULL, 1, b_align_small},
    {"compat.tensor_name_64", "error", NULL, 1, b_name64},
    {"compat.nested_array", "error", NULL, 1, b_nested},
    {"compat.bool_value", "warning", NULL, 1, b_bool},
    {"compat.key_grammar", "warning", NULL, 1, b_key_grammar},
    {"compat.offsets_not_packed", "error", NULL, 1, b_not_packed},
    {"compat.tail_padding_missing", "warning", NULL, 0, b_tail_padding},
    {"compat.int_key_type", "error", NULL, 1, b_int_key},
    {"compat.activation_type", "warning", NULL, 0, b_activation},
    {"compat.unknown_type", "error", NULL, 1, b_unknown_type},
    {"compat.version_2", "info", NULL, 0, b_version2},
    {"compat.type_not_in_spec", "info", NULL, 0, b_newer_type},
    {"meta.architecture_missing", "error", NULL, 1, b_arch_missing},
    {"meta.type_unknown", "warning", NULL, 0, b_type_unknown},
    {"meta.chat_template_risk", "warning", NULL, 0, b_chat_template},
    {"meta.key_type", "error", NULL, 1, b_key_type},
    {"meta.quantization_version_missing", "error", NULL, 1, b_qver},
    {"meta.tokenizer_type", "error", NULL, 1, b_tok_type},
    {"meta.tokenizer_length", "error", NULL, 1, b_tok_length},
    {"meta.token_type_range", "error", NULL, 1, b_type_range},
    {"meta.special_token_range", "error", NULL, 1, b_special},
    {"meta.byte_token", "error", NULL, 1, b_byte_token},
    {"meta.token_duplicate", "error", NULL, 1, b_duplicate},
    {"meta.merges_malformed", "error", NULL, 1, b_merges},
    {"meta.block_count_missing", "error", NULL, 1, b_blocks_missing},
    {"meta.block_count_mismatch", "error", NULL, 1, b_blocks_mismatch},
    {"meta.block_count_range", "error", NULL, 1, b_blocks_range},
    {"payload.scale_nonfinite", "error", "--deep", 1, b_scale},
    {"payload.mxfp4_scale", "error", "--deep", 1, b_mxfp4},
    {"payload.nvfp4_scale", "warning", "--deep", 0, b_nvfp4},
    {"payload.float_nonfinite", "error", "--deep", 1, b_float},
    {"payload.float_nonfinite", "error", "--deep", 1, b_float_inf},
    {"payload.all_zero", "info", "--deep", 0, b_all_zero},
    {"split.part_missing", "error", NULL, 1, b_part_missing},
    {"split.same_file", "error", NULL, 1, b_same_file},
    {"split.key_missing", "error", NULL, 1, b_key_missing},
    {"split.key_type", "error", NULL, 1, b_split_key_type},
    {"split.number_mismatch", "error", NULL, 1, b_number},
    {"split.count_mismatch", "error", NULL, 1, b_count},
    {"split.tensor_count_mismatch", "error", NULL, 1, b_tensor_count},
    {"split.duplicate_tensor", "error", NULL, 1, b_duplicate_tensor},
    {"split.bad_name", "error", NULL, 1, b_bad_name},
    {"split.part_one_absent", "error", NULL, 1, b_part_one_absent},
    {"split.part_alone", "info", NULL, 0, b_part_alone},
};

#define N_CASES (sizeof cases / sizeof cases[0])

/* The codes that break the lenient profile too, written out here rather than read from the
 * table, so that a table that drops lenient from one of them fails (the README's table is
 * generated from it and cannot catch that). */
static const char *const breaks_lenient[] = {
    "layout.truncated",       "meta.tokenizer_type",         "meta.tokenizer_length",
    "meta.token_type_range",  "meta.special_token_range",    "meta.byte_token",
    "meta.block_count_range", "split.part_missing",          "split.key_missing",
    "split.key_type",         "split.number_mismatch",       "split.count_mismatch",
    "split.tensor_count_mismatch", "split.duplicate_tensor", "split.same_file",
    "reader.not_gguf",        "layout.metadata_truncated",   "meta.chat_template_risk",
    "split.part_one_absent",  "compat.unknown_type",
};

static bool in_breaks_lenient(const char *code)
{
    for (size_t i = 0; i < sizeof breaks_lenient / sizeof breaks_lenient[0]; i++) {
        if (strcmp(breaks_lenient[i], code) == 0) {
            return true;
        }
    }
    return false;
}

/* The same file certified for lenient: a code that breaks lenient keeps its severity and the
 * exit status; one that breaks only strict is a note. (The reader's codes break the profiles
 * each finding says: the corpus checks those.) */
static void check_lenient(const crafted *c, const built *b)
{
    const cert_code *row = cert_code_find(c->code);
    cr_assert_not_null(row, "%s", c->code);
    if (row->profiles == CERT_PROFILES_PER_FINDING) {
        return;
    }
    bool breaks = in_breaks_lenient(c->code);
    char want[1200];
    snprintf(want, sizeof want, "\n%-7s %s%s%s\n", breaks ? c->severity : "info",
             c->code, b->where[0] ? " at " : "", b->where);
    run_result r;
    cr_assert(run_cli(&r, "certify", "--profile", "lenient", c->flag != NULL ? c->flag : b->path,
                      c->flag != NULL ? b->path : NULL, NULL));
    cr_expect(contains(r.out, want), "%s under lenient: no line starting\n%s\nin\n%s", c->code,
              want + 1, r.out);
    if (breaks) {
        cr_expect_eq(r.status, c->exit_code, "%s under lenient: exit %d, wanted %d\n%s", c->code,
                     r.status, c->exit_code, r.out);
    }
    run_result_free(&r);
}

static void check_case(const crafted *c)
{
    built b;
    memset(&b, 0, sizeof b);
    c->build(&b);
    /* a finding of its own (its line, then the message), or one listed under its cause */
    char want[1200], under[1200];
    snprintf(want, sizeof want, "\n%-7s %s%s%s\n        ", c->severity, c->code,
             b.where[0] ? " at " : "", b.where);
    snprintf(under, sizeof under, "\n          - %s %s%s%s: ", c->severity, c->code,
             b.where[0] ? " at " : "", b.where);
    run_result r;
    cr_assert(run_cli(&r, "certify", c->flag != NULL ? c->flag : b.path,
                      c->flag != NULL ? b.path : NULL, NULL));
    cr_expect_eq(r.status, c->exit_code, "%s: exit %d, wanted %d\n%s%s", c->code, r.status,
                 c->exit_code, r.out, r.err);
    cr_expect(contains(r.out, want) || contains(r.out, under), "%s: no line starting\n%s\nin\n%s",
              c->code, want + 1, r.out);
    cr_expect(starts_with(r.out, "verdict: "), "%s: %s", c->code, r.out);
    cr_expect(no_control_bytes(r.out, r.out_len), "%s", c->code);
    run_result_free(&r);
    /* the same finding in the JSON report, which validates */
    cr_assert(run_cli(&r, "certify", "--json", c->flag != NULL ? c->flag : b.path,
                      c->flag != NULL ? b.path : NULL, NULL));
    char code_member[128];
    snprintf(code_member, sizeof code_member, "\"code\": \"%s\"", c->code);
    cr_expect(contains(r.out, code_member), "%s: not in the JSON report", c->code);
    struct stat st;
    bool many = stat(b.path, &st) == 0 && S_ISDIR(st.st_mode); /* a directory: many files */
    cr_expect_eq(check_json(dir, many ? "certify-multi.schema.json" : "certify.schema.json", r.out,
                            NULL, NULL),
                 0, "%s", c->code);
    run_result_free(&r);
    check_lenient(c, &b);
}

/* A hang guard, not a timing: fifty files, three runs of the command each, which under a
 * sanitizer on a loaded machine takes minutes. */
Test(certify_codes, every_crafted_file_reports_its_code, .timeout = 600)
{
    for (size_t i = 0; i < N_CASES; i++) {
        check_case(&cases[i]);
    }
}

/* The table's profiles agree with the list above, code by code. */
Test(certify_codes, lenient_codes_match_the_table)
{
    for (size_t i = 0; i < cert_code_count; i++) {
        const cert_code *row = &cert_codes[i];
        if (row->profiles == CERT_PROFILES_PER_FINDING) {
            continue;
        }
        cr_expect_eq((row->profiles & CERT_LENIENT) != 0, in_breaks_lenient(row->code),
                     "%s: the table and breaks_lenient disagree", row->code);
    }
}

/* Each code of the table has its crafted file above (the reader's are the corpus's). */
Test(certify_codes, every_code_has_a_crafted_file)
{
    for (size_t i = 0; i < cert_code_count; i++) {
        const char *code = cert_codes[i].code;
        if (strcmp(code, CERT_READER_ROW) == 0) {
            continue;
        }
        bool found = false;
        for (size_t k = 0; k < N_CASES && !found; k++) {
            found = strcmp(cases[k].code, code) == 0;
        }
        cr_expect(found, "no crafted file for %s", code);
    }
    for (size_t k = 0; k < N_CASES; k++) {
        const cert_code *row = cert_code_find(cases[k].code);
        cr_expect_not_null(row, "%s is not in the table", cases[k].code);
        if (row != NULL && row->profiles != CERT_PROFILES_PER_FINDING) {
            cr_expect_str_eq(cases[k].severity, cert_severity_name(row->severity), "%s",
                             cases[k].code);
        }
    }
}
