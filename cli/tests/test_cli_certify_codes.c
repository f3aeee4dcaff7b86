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

/* ---- how a case is built: a recipe the interpreter below follows ------------------------- */

typedef enum start {
    START_BASE,      /* base(): general.architecture and the 8-element f32 tensor "w" */
    START_ARCH,      /* general.architecture alone */
    START_EMPTY,     /* no key at all */
    START_QUANT,     /* quantized(type, elems) */
    START_TOKENIZER, /* tokenizer() of 8 tokens */
    START_FOREIGN,   /* no model: a Git LFS pointer where the model should be */
} start;

/* A place in the written file: the writer's field (kind, record, index), `add` bytes on. */
typedef struct place {
    gsw_kind kind;
    uint32_t record;
    uint64_t index;
    uint64_t add;
} place;

typedef enum where_form {
    W_NONE,   /* no location */
    W_TENSOR, /* "byte N, tensor 'name'" */
    W_KEY,    /* "byte N, key 'name'" */
    W_BYTE,   /* "byte N" */
    W_END,    /* "byte N", N the length the writer wrote */
    W_TEXT,   /* name, as it stands */
} where_form;

/* What the case does to tensor 0's data before writing. */
typedef enum data_op {
    D_BYTES = 1, /* every byte 0x11 (each f16 scale finite), then bytes[0..n) at `at` */
    D_F32,       /* f32 at `at` */
    D_ZERO,      /* every byte 0 */
} data_op;

/* What the case does to the written bytes, after the location is taken. */
typedef enum edit_op {
    E_TRUNCATE = 1, /* cut at `at` */
    E_PATCH,        /* the byte `value` at `at` */
    E_OVERRIDE,     /* the field `at` (add 0) set to `value` */
    E_APPEND,       /* `count` bytes `value` at the end */
} edit_op;

typedef struct edit {
    edit_op op;
    place at;
    uint64_t value;
    size_t count;
} edit;

typedef struct recipe {
    const char *file;
    start start;
    int32_t type;   /* START_QUANT: the tensor "q"'s type and elements */
    uint64_t elems;
    /* START_TOKENIZER: scores' length (0: 8), token bad_at's type bad_type (0: every type 1),
     * the token strings (NULL: "tN") */
    uint64_t scores;
    int32_t bad_at, bad_type;
    const char *names[8];
    uint32_t version; /* 0: 3 */
    /* one key added after the start, when key is not NULL: of gs_value_type value, a scalar's
     * wire bits num, a string str, an array two arrays of one u8 (nested) */
    const char *key;
    uint32_t value;
    uint64_t num;
    const char *str;
    const char *tensors[2]; /* f32 tensors added after the key, of tensor_elems (0: 8) */
    uint64_t tensor_elems;
    void (*model)(gsw_model *m); /* what else the model needs, or NULL */
    unsigned flags;              /* gsw_write's */
    struct {
        data_op op;
        uint64_t at;
        uint8_t bytes[2];
        size_t n;
        float f32;
    } data;
    /* the location: form, place and name; fragment: the place moves on to where it starts in
     * the key's string */
    where_form where;
    place at;
    const char *name;
    const char *fragment;
    edit edits[2];
} recipe;

/* A two-part split set: part 1 {0, 2, 2, "a"}, part 2 `two`; the path is part 1's. */
typedef enum split_field { AT_NO = 1, AT_COUNT, AT_TENSORS, AT_TENSOR_INFO } split_field;
typedef enum split_post { POST_REMOVE = 1, POST_SYMLINK } split_post;

typedef struct part_spec {
    int no;             /* split.no, or -1 for none */
    int count;          /* split.count, or -1 for none; -2: a string */
    int tensors;        /* split.tensors.count, or -1 for none */
    const char *tensor; /* its one tensor */
} part_spec;

typedef struct split_recipe {
    const char *prefix;
    part_spec two;
    split_post post;    /* part 2 removed, or made a link to part 1 */
    split_field field;  /* the location: "part 2[, byte <part 2's field>][, subject]" */
    const char *subject;
} split_recipe;

typedef struct crafted {
    const char *code;
    const char *severity; /* under the strict profile */
    const char *flag;     /* what certify needs besides the file: "--deep", "--metadata-only" */
    int exit_code;
    recipe r;             /* a file built from a model, when r.file is not NULL */
    split_recipe s;       /* a split set, when s.prefix is not NULL */
    void (*build)(built *out); /* otherwise */
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

/* A model with one quantized tensor of `blocks` blocks of `type`, quantization_version set. */
static void quantized(gsw_model *m, int32_t type, uint64_t elems)
{
    gsw_model_init(m, 3);
    arch(m);
    gsw_set_u32(gsw_add(m, "general.quantization_version"), 2);
    gsw_tensor *t = gsw_add_tensor(m, "q", 1, &elems, type);
    cr_assert(gsw_tensor_fill(t, 3, 1u << 24));
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

/* ---- the interpreter -------------------------------------------------------------------- */

static void add_key(gsw_model *m, const recipe *r)
{
    gsw_value *v = gsw_add(m, r->key);
    if (r->value == GS_VALUE_STRING) {
        gsw_set_cstr(v, r->str);
    } else if (r->value == GS_VALUE_ARRAY) {
        gsw_value *items = gsw_set_nested_array(v, 2);
        gsw_set_array(&items[0], GS_VALUE_U8, 1, NULL);
        gsw_set_array(&items[1], GS_VALUE_U8, 1, NULL);
    } else {
        gsw_set_scalar(v, r->value, r->num);
    }
}

static void build_model(gsw_model *m, const recipe *r)
{
    if (r->start == START_QUANT) {
        quantized(m, r->type, r->elems);
    } else if (r->start == START_TOKENIZER) {
        tokenizer(m, 8, r->scores != 0 ? r->scores : 8, r->bad_type != 0 ? r->bad_at : -1,
                  r->bad_type, r->names);
    } else if (r->start == START_BASE) {
        base(m);
    } else {
        gsw_model_init(m, 3);
        if (r->start == START_ARCH) {
            arch(m);
        }
    }
    if (r->version != 0) {
        m->version = r->version;
    }
    if (r->key != NULL) {
        add_key(m, r);
    }
    for (size_t i = 0; i < 2 && r->tensors[i] != NULL; i++) {
        f32_tensor(m, r->tensors[i], r->tensor_elems != 0 ? r->tensor_elems : 8);
    }
    if (r->model != NULL) {
        r->model(m);
    }
    if (r->data.op == 0) {
        return;
    }
    gsw_blob *data = &m->tensors[0].data;
    if (r->data.op == D_BYTES) {
        memset(data->ptr, 0x11, data->len);
        memcpy(data->ptr + r->data.at, r->data.bytes, r->data.n);
    } else if (r->data.op == D_F32) {
        memcpy(data->ptr + r->data.at, &r->data.f32, 4);
    } else if (r->data.op == D_ZERO) {
        memset(data->ptr, 0, data->len);
    }
}

static uint64_t place_at(const out_file *o, place p)
{
    return at(o, p.kind, p.record, p.index) + p.add;
}

static void locate(const recipe *r, const out_file *o, built *out)
{
    bool placed = r->where == W_TENSOR || r->where == W_KEY || r->where == W_BYTE;
    uint64_t byte = placed ? place_at(o, r->at) : 0;
    if (r->fragment != NULL) {
        byte += (uint64_t)(strstr(r->str, r->fragment) - r->str);
    }
    unsigned long long b = (unsigned long long)byte;
    switch (r->where) {
    case W_NONE:
        out->where[0] = '\0';
        break;
    case W_TENSOR:
        snprintf(out->where, sizeof out->where, "byte %llu, tensor '%s'", b, r->name);
        break;
    case W_KEY:
        snprintf(out->where, sizeof out->where, "byte %llu, key '%s'", b, r->name);
        break;
    case W_BYTE:
        snprintf(out->where, sizeof out->where, "byte %llu", b);
        break;
    case W_END:
        snprintf(out->where, sizeof out->where, "byte %zu", o->b.len);
        break;
    case W_TEXT:
        snprintf(out->where, sizeof out->where, "%s", r->name);
        break;
    }
}

static void apply(const edit *e, out_file *o)
{
    switch (e->op) {
    case E_TRUNCATE:
        gsw_truncate(&o->b, (size_t)place_at(o, e->at));
        break;
    case E_PATCH:
        gsw_patch_u8(&o->b, (size_t)place_at(o, e->at), (uint8_t)e->value);
        break;
    case E_OVERRIDE:
        gsw_override(&o->b, &o->map, e->at.kind, e->at.record, e->at.index, e->value);
        break;
    case E_APPEND:
        gsw_put_fill(&o->b, (uint8_t)e->value, e->count);
        break;
    }
}

/* The file of recipe r in dir, and where its finding must point. */
static void build_file(const recipe *r, built *out)
{
    out_file o;
    gsw_model m;
    bool model = r->start != START_FOREIGN;
    if (model) {
        build_model(&m, r);
        write_model(&m, r->flags, &o);
    } else {
        gsw_bytes_init(&o.b);
        gsw_map_init(&o.map);
        gsw_foreign_samples[0].build(&o.b);
    }
    locate(r, &o, out);
    for (size_t i = 0; i < 2 && r->edits[i].op != 0; i++) {
        apply(&r->edits[i], &o);
    }
    save(&o, out, r->file);
    if (model) {
        gsw_model_free(&m);
    }
}

/* The set of recipe s; the finding points at part 2. */
static void build_split(const split_recipe *s, built *out)
{
    uint64_t offs[4];
    two_parts(out, s->prefix, &s->two, offs);
    char p2[600];
    snprintf(p2, sizeof p2, "%s/%s-00002-of-00002.gguf", dir, s->prefix);
    if (s->post != 0) {
        cr_assert_eq(remove(p2), 0);
    }
    if (s->post == POST_SYMLINK) {
        char target[128];
        snprintf(target, sizeof target, "%s-00001-of-00002.gguf", s->prefix);
        cr_assert_eq(symlink(target, p2), 0);
    }
    int n = snprintf(out->where, sizeof out->where, "part 2");
    if (s->field != 0) {
        n += snprintf(out->where + n, sizeof out->where - (size_t)n, ", byte %llu",
                      (unsigned long long)offs[s->field - 1]);
    }
    if (s->subject != NULL) {
        snprintf(out->where + n, sizeof out->where - (size_t)n, ", %s", s->subject);
    }
}

/* ---- what the recipes cannot say -------------------------------------------------------- */

/* A Q4_0 tensor "q" without general.quantization_version. */
static void q4_0_unversioned(gsw_model *m)
{
    uint64_t n = 32;
    cr_assert(gsw_tensor_fill(gsw_add_tensor(m, "q", 1, &n, GS_TYPE_Q4_0), 1, 1u << 20));
}

/* The Q8_0 tensor relabelled with an id nobody defined. */
static void type_200(gsw_model *m)
{
    m->tensors[0].type = 200;
}

/* Two tokens with i8 scores. */
static void i8_scores(gsw_model *m)
{
    gsw_value *tok = gsw_add(m, "tokenizer.ggml.tokens");
    gsw_set_string_array(tok, 2);
    gsw_array_string(tok, 0, "a", 1);
    gsw_array_string(tok, 1, "b", 1);
    gsw_set_array(gsw_add(m, "tokenizer.ggml.scores"), GS_VALUE_I8, 2, NULL);
}

static void malformed_merges(gsw_model *m)
{
    gsw_value *mg = gsw_add(m, "tokenizer.ggml.merges");
    gsw_set_string_array(mg, 3);
    gsw_array_string(mg, 0, "t1 t2", 5);
    gsw_array_string(mg, 1, " t1t2", 5); /* the space at 0 is not a separator */
    gsw_array_string(mg, 2, "t3 ", 3);
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

#define NAME64 "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
_Static_assert(sizeof NAME64 == 65, "a 64-byte tensor name");

/* A template that walks from a string to Python's classes (the published escape). */
#define RISKY_TEMPLATE                                                                         \
    "{% for m in messages %}{{ m.content }}{% endfor %}"                                       \
    "{{ ''.__class__.__mro__[1].__subclasses__() }}"

#define BLK0 "blk.0.attn_norm.weight"
#define BLK2 "blk.2.attn_norm.weight"

static const crafted cases[] = {
    {"reader.not_gguf", "error", NULL, 1,
     .r = {.file = "pointer.gguf", .start = START_FOREIGN, .where = W_TEXT, .name = "byte 0"}},
    {"reader.GS_E_DATA_OUTSIDE_FILE", "error", NULL, 1,
     .r = {.file = "reader.gguf", .where = W_TENSOR, .at = {GSW_OFFSET, 0, 0, 0}, .name = "w",
           .edits = {{E_TRUNCATE, {GSW_DATA, 0, 0, 8}, 0, 0}}}},
    /* cut inside the key of the second key-value */
    {"layout.metadata_truncated", "error", NULL, 1,
     .r = {.file = "metadata_cut.gguf", .key = "general.name", .value = GS_VALUE_STRING,
           .str = "cut", .where = W_BYTE, .at = {GSW_KEY, 1, 0, 3},
           .edits = {{E_TRUNCATE, {GSW_KEY, 1, 0, 3}, 0, 0}}}},
    /* the file ends where its data would begin */
    {"layout.data_absent", "info", "--metadata-only", 0,
     .r = {.file = "header_only.gguf", .where = W_TENSOR, .at = {GSW_DATA, 0, 0, 0}, .name = "w",
           .edits = {{E_TRUNCATE, {GSW_DATA, 0, 0, 0}, 0, 0}}}},
    {"layout.truncated", "error", NULL, 1,
     .r = {.file = "truncated.gguf", .where = W_TENSOR, .at = {GSW_DATA, 0, 0, 8}, .name = "w",
           .edits = {{E_TRUNCATE, {GSW_DATA, 0, 0, 8}, 0, 0}}}},
    {"layout.trailing_bytes", "error", NULL, 1,
     .r = {.file = "trailing.gguf", .where = W_END, .edits = {{E_APPEND, {0}, 0x5a, 100}}}},
    /* two 32-byte tensors, the second placed 32 bytes later than packing puts it */
    {"layout.gap", "warning", NULL, 1,
     .r = {.file = "gap.gguf", .tensors = {"v"}, .where = W_TENSOR, .at = {GSW_DATA, 1, 0, 0},
           .name = "v",
           .edits = {{E_OVERRIDE, {GSW_OFFSET, 1, 0, 0}, 64, 0},
                     {E_APPEND, {0}, 0, 32}}}}, /* the moved data's last bytes */
    /* 20 bytes of "w": 12 bytes of padding follow */
    {"layout.padding_nonzero", "warning", NULL, 0,
     .r = {.file = "padding.gguf", .start = START_ARCH, .tensors = {"w"}, .tensor_elems = 5,
           .where = W_TENSOR, .at = {GSW_DATA_PAD, 0, 0, 3}, .name = "w",
           .edits = {{E_PATCH, {GSW_DATA_PAD, 0, 0, 3}, 0xaa, 0}}}},
    {"compat.alignment_not_pow2", "error", NULL, 1,
     .r = {.file = "align24.gguf", .key = "general.alignment", .value = GS_VALUE_U32, .num = 24,
           .where = W_KEY, .at = {GSW_VALUE, 1, 0, 0}, .name = "general.alignment"}},
    {"compat.alignment_below_8", "warning", NULL, 1,
     .r = {.file = "align4.gguf", .key = "general.alignment", .value = GS_VALUE_U32, .num = 4,
           .where = W_KEY, .at = {GSW_VALUE, 1, 0, 0}, .name = "general.alignment"}},
    {"compat.tensor_name_64", "error", NULL, 1,
     .r = {.file = "name64.gguf", .start = START_ARCH, .tensors = {NAME64}, .where = W_TENSOR,
           .at = {GSW_NAME_LEN, 0, 0, 0}, .name = NAME64}},
    {"compat.nested_array", "error", NULL, 1,
     .r = {.file = "nested.gguf", .key = "x.nested", .value = GS_VALUE_ARRAY, .where = W_KEY,
           .at = {GSW_ARR_TYPE, 1, 0, 0}, .name = "x.nested"}},
    {"compat.bool_value", "warning", NULL, 1,
     .r = {.file = "bool.gguf", .key = "x.flag", .value = GS_VALUE_BOOL, .num = 2, .where = W_KEY,
           .at = {GSW_VALUE, 1, 0, 0}, .name = "x.flag"}},
    {"compat.key_grammar", "warning", NULL, 1,
     .r = {.file = "key_grammar.gguf", .key = "General.Name", .value = GS_VALUE_STRING, .str = "x",
           .where = W_KEY, .at = {GSW_KEY_LEN, 1, 0, 0}, .name = "General.Name"}},
    /* "w" and "v" swapped in the data section: aligned, inside, disjoint, not in order */
    {"compat.offsets_not_packed", "error", NULL, 1,
     .r = {.file = "not_packed.gguf", .tensors = {"v"}, .where = W_TENSOR,
           .at = {GSW_NAME_LEN, 0, 0, 0}, .name = "w",
           .edits = {{E_OVERRIDE, {GSW_OFFSET, 0, 0, 0}, 32, 0},
                     {E_OVERRIDE, {GSW_OFFSET, 1, 0, 0}, 0, 0}}}},
    {"compat.tail_padding_missing", "warning", NULL, 0,
     .r = {.file = "tail_padding.gguf", .start = START_ARCH, .tensors = {"w"},
           .tensor_elems = 5, .where = W_BYTE, .at = {GSW_DATA_PAD, 0, 0, 0},
           .edits = {{E_TRUNCATE, {GSW_DATA_PAD, 0, 0, 0}, 0, 0}}}},
    {"compat.int_key_type", "error", NULL, 1,
     .r = {.file = "int_key.gguf", .key = "llama.context_length", .value = GS_VALUE_U64,
           .num = 4096, .where = W_KEY, .at = {GSW_KEY_LEN, 1, 0, 0},
           .name = "llama.context_length"}},
    {"compat.activation_type", "warning", NULL, 0,
     .r = {.file = "q8_1.gguf", .start = START_QUANT, .type = GS_TYPE_Q8_1, .elems = 32,
           .where = W_TENSOR, .at = {GSW_NAME_LEN, 0, 0, 0}, .name = "q"}},
    /* the finding is at the type field */
    {"compat.unknown_type", "error", NULL, 1,
     .r = {.file = "unknown_type.gguf", .start = START_QUANT, .type = GS_TYPE_Q8_0, .elems = 64,
           .model = type_200, .flags = GSW_LAX, .where = W_TENSOR,
           .at = {GSW_TENSOR_TYPE, 0, 0, 0}, .name = "q"}},
    {"compat.version_2", "info", NULL, 0,
     .r = {.file = "v2.gguf", .version = 2, .where = W_TEXT, .name = "byte 4"}},
    {"compat.type_not_in_spec", "info", NULL, 0,
     .r = {.file = "nvfp4.gguf", .start = START_QUANT, .type = GS_TYPE_NVFP4, .elems = 64,
           .where = W_TENSOR, .at = {GSW_NAME_LEN, 0, 0, 0}, .name = "q"}},
    {"meta.architecture_missing", "error", NULL, 1,
     .r = {.file = "no_arch.gguf", .start = START_EMPTY, .tensors = {"w"}, .where = W_NONE}},
    {"meta.type_unknown", "warning", NULL, 0,
     .r = {.file = "type_unknown.gguf", .key = "general.type", .value = GS_VALUE_STRING,
           .str = "diffusion", .where = W_KEY, .at = {GSW_STR_LEN, 1, 0, 0},
           .name = "general.type"}},
    {"meta.chat_template_risk", "warning", NULL, 0,
     .r = {.file = "template.gguf", .key = "tokenizer.chat_template", .value = GS_VALUE_STRING,
           .str = RISKY_TEMPLATE, .where = W_KEY, .at = {GSW_STR, 1, 0, 0},
           .fragment = "__class__", .name = "tokenizer.chat_template"}},
    {"meta.key_type", "error", NULL, 1,
     .r = {.file = "key_type.gguf", .key = "llama.context_length", .value = GS_VALUE_STRING,
           .str = "4096", .where = W_KEY, .at = {GSW_KEY_LEN, 1, 0, 0},
           .name = "llama.context_length"}},
    {"meta.quantization_version_missing", "error", NULL, 1,
     .r = {.file = "qver.gguf", .start = START_ARCH, .model = q4_0_unversioned, .where = W_TEXT,
           .name = "tensor 'q'"}},
    {"meta.tokenizer_type", "error", NULL, 1,
     .r = {.file = "tok_type.gguf", .start = START_ARCH, .model = i8_scores, .where = W_KEY,
           .at = {GSW_KEY_LEN, 2, 0, 0}, .name = "tokenizer.ggml.scores"}},
    {"meta.tokenizer_length", "error", NULL, 1,
     .r = {.file = "tok_length.gguf", .start = START_TOKENIZER, .scores = 7, .where = W_KEY,
           .at = {GSW_KEY_LEN, 2, 0, 0}, .name = "tokenizer.ggml.scores"}},
    {"meta.token_type_range", "error", NULL, 1,
     .r = {.file = "type_range.gguf", .start = START_TOKENIZER, .bad_at = 5, .bad_type = 7,
           .where = W_KEY, .at = {GSW_ARR_ELEM, 3, 5, 0}, .name = "tokenizer.ggml.token_type"}},
    {"meta.special_token_range", "error", NULL, 1,
     .r = {.file = "special.gguf", .start = START_TOKENIZER, .key = "tokenizer.ggml.eos_token_id",
           .value = GS_VALUE_U32, .num = 8, .where = W_KEY, .at = {GSW_VALUE, 4, 0, 0},
           .name = "tokenizer.ggml.eos_token_id"}},
    {"meta.byte_token", "error", NULL, 1,
     .r = {.file = "byte_token.gguf", .start = START_TOKENIZER, .bad_at = 3, .bad_type = 6,
           .names = {[3] = "<0x-1>"}, .where = W_KEY, .at = {GSW_ARR_STR_LEN, 1, 3, 0},
           .name = "tokenizer.ggml.tokens"}},
    {"meta.token_duplicate", "error", NULL, 1,
     .r = {.file = "duplicate.gguf", .start = START_TOKENIZER, .names = {"a", "b", "c", "d", "b"},
           .where = W_KEY, .at = {GSW_ARR_STR_LEN, 1, 4, 0}, .name = "tokenizer.ggml.tokens"}},
    {"meta.merges_malformed", "error", NULL, 1,
     .r = {.file = "merges.gguf", .start = START_TOKENIZER, .model = malformed_merges,
           .where = W_KEY, .at = {GSW_ARR_STR_LEN, 4, 1, 0}, .name = "tokenizer.ggml.merges"}},
    {"meta.block_count_missing", "error", NULL, 1,
     .r = {.file = "blocks_missing.gguf", .tensors = {BLK0}, .where = W_TEXT,
           .name = "key 'llama.block_count'"}},
    /* blk.1 is missing */
    {"meta.block_count_mismatch", "error", NULL, 1,
     .r = {.file = "blocks_mismatch.gguf", .key = "llama.block_count", .value = GS_VALUE_U32,
           .num = 3, .tensors = {BLK0, BLK2}, .where = W_KEY, .at = {GSW_VALUE, 1, 0, 0},
           .name = "llama.block_count"}},
    {"meta.block_count_range", "error", NULL, 1,
     .r = {.file = "blocks_range.gguf", .key = "llama.block_count", .value = GS_VALUE_U32,
           .num = 600, .tensors = {BLK0, BLK2}, .where = W_KEY, .at = {GSW_VALUE, 1, 0, 0},
           .name = "llama.block_count"}},
    /* payload: block 2 of 18-byte Q4_0 blocks, its f16 scale +Inf */
    {"payload.scale_nonfinite", "error", "--deep", 1,
     .r = {.file = "scale.gguf", .start = START_QUANT, .type = GS_TYPE_Q4_0, .elems = 4 * 32,
           .data = {D_BYTES, 2 * 18 + 0, {0x00, 0x7c}, 2, 0}, .where = W_TENSOR,
           .at = {GSW_DATA, 0, 0, 2 * 18}, .name = "q"}},
    /* block 1 of 17-byte MXFP4 blocks, its E8M0 exponent 0xff */
    {"payload.mxfp4_scale", "error", "--deep", 1,
     .r = {.file = "mxfp4.gguf", .start = START_QUANT, .type = GS_TYPE_MXFP4, .elems = 4 * 32,
           .data = {D_BYTES, 1 * 17 + 0, {0xff}, 1, 0}, .where = W_TENSOR,
           .at = {GSW_DATA, 0, 0, 1 * 17}, .name = "q"}},
    /* block 2 of 36-byte NVFP4 blocks, its sub-block scale at byte 2 negative */
    {"payload.nvfp4_scale", "warning", "--deep", 0,
     .r = {.file = "nvfp4_scale.gguf", .start = START_QUANT, .type = GS_TYPE_NVFP4,
           .elems = 3 * 64, .data = {D_BYTES, 2 * 36 + 2, {0x80}, 1, 0}, .where = W_TENSOR,
           .at = {GSW_DATA, 0, 0, 2 * 36}, .name = "q"}},
    {"payload.float_nonfinite", "error", "--deep", 1,
     .r = {.file = "float_nan.gguf", .data = {D_F32, 4 * 5, {0}, 0, NAN}, .where = W_TENSOR,
           .at = {GSW_DATA, 0, 0, 4 * 5}, .name = "w"}},
    /* an infinity alone, no NaN: the finding counts both */
    {"payload.float_nonfinite", "error", "--deep", 1,
     .r = {.file = "float_inf.gguf", .data = {D_F32, 4 * 3, {0}, 0, -INFINITY},
           .where = W_TENSOR, .at = {GSW_DATA, 0, 0, 4 * 3}, .name = "w"}},
    {"payload.all_zero", "info", "--deep", 0,
     .r = {.file = "zero.gguf", .data = {D_ZERO, 0, {0}, 0, 0}, .where = W_TENSOR,
           .at = {GSW_DATA, 0, 0, 0}, .name = "w"}},
    {"split.part_missing", "error", NULL, 1, .s = {"pm", {1, 2, 2, "b"}, POST_REMOVE, 0, NULL}},
    /* part 2 is a symbolic link to part 1 */
    {"split.same_file", "error", NULL, 1, .s = {"sf", {1, 2, 2, "b"}, POST_SYMLINK, 0, NULL}},
    {"split.key_missing", "error", NULL, 1,
     .s = {"km", {1, 2, -1, "b"}, 0, 0, "key 'split.tensors.count'"}},
    {"split.key_type", "error", NULL, 1,
     .s = {"kt", {1, -2, 2, "b"}, 0, AT_COUNT, "key 'split.count'"}},
    {"split.number_mismatch", "error", NULL, 1,
     .s = {"nm", {0, 2, 2, "b"}, 0, AT_NO, "key 'split.no'"}},
    {"split.count_mismatch", "error", NULL, 1,
     .s = {"cm", {1, 3, 2, "b"}, 0, AT_COUNT, "key 'split.count'"}},
    {"split.tensor_count_mismatch", "error", NULL, 1,
     .s = {"tc", {1, 2, 3, "b"}, 0, AT_TENSORS, "key 'split.tensors.count'"}},
    {"split.duplicate_tensor", "error", NULL, 1,
     .s = {"dt", {1, 2, 2, "a"}, 0, AT_TENSOR_INFO, "tensor 'a'"}},
    {"split.bad_name", "error", NULL, 1, .build = b_bad_name},
    {"split.part_one_absent", "error", NULL, 1, .build = b_part_one_absent},
    {"split.part_alone", "info", NULL, 0, .build = b_part_alone},
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
    if (c->r.file != NULL) {
        build_file(&c->r, &b);
    } else if (c->s.prefix != NULL) {
        build_split(&c->s, &b);
    } else {
        c->build(&b);
    }
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
