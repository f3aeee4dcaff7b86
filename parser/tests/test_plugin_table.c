/* A decoder plugin's table (parser/plugin_table.c): the encoder's refusals of the struct a plugin
 * returns, the bytes it writes, and every refusal of the parser with its exact offset and
 * message, one table row each, the bytes built field by field here. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "plugin_table.h"

static int decode_ok(int32_t type, const void *src, size_t src_bytes, float *dst, size_t n)
{
    (void)type, (void)src, (void)src_bytes, (void)dst, (void)n;
    return 0;
}

/* (uint32_t)ZERO == 0: a field written as 0 where 0 in a row means "its natural value". */
#define ZERO (INT64_C(1) << 32)

typedef struct entry_spec {
    int64_t id; /* 0: 200 + the entry's index */
    uint32_t elems, bytes; /* 0: 32, 34 */
    int64_t name_len;      /* 0: strlen(name) */
    const char *name;      /* NULL: "t<index>" */
    size_t name_bytes;     /* bytes of name written, when it holds a NUL (0: name_len) */
} entry_spec;

typedef struct table_spec {
    const char *magic;   /* NULL: "GSPT" */
    uint32_t version;    /* 0: GGUFSAFE_PLUGIN_ABI_VERSION */
    int64_t n;           /* 0: n_entries */
    int64_t title_len;   /* 0: strlen(title) */
    const char *title;   /* NULL: "test plugin" */
    size_t n_entries;    /* 0: 1 */
    entry_spec e[3];
    size_t extra;        /* bytes appended after the last entry */
    size_t cut;          /* 0: whole; else the first cut bytes only */
    bool builtin_ok;     /* parsed as the ggml kernel host's table: registry ids may be served */
} table_spec;

static void put32(uint8_t *b, size_t *at, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++) {
        b[(*at)++] = (uint8_t)(v >> (8 * i));
    }
}

static void put_bytes(uint8_t *b, size_t *at, const void *p, size_t n)
{
    memcpy(b + *at, p, n);
    *at += n;
}

/* The bytes t describes, into b (GSI_PLUGIN_TABLE_MAX_BYTES); returns their length. */
static size_t build(const table_spec *t, uint8_t *b)
{
    size_t at = 0;
    put_bytes(b, &at, t->magic != NULL ? t->magic : "GSPT", 4);
    put32(b, &at, t->version != 0 ? t->version : GGUFSAFE_PLUGIN_ABI_VERSION);
    size_t ne = t->n_entries != 0 ? t->n_entries : 1;
    put32(b, &at, (uint32_t)(t->n != 0 ? t->n : (int64_t)ne));
    const char *title = t->title != NULL ? t->title : "test plugin";
    put32(b, &at, (uint32_t)(t->title_len != 0 ? t->title_len : (int64_t)strlen(title)));
    put_bytes(b, &at, title, strlen(title));
    for (size_t i = 0; i < ne; i++) {
        const entry_spec *e = &t->e[i];
        char dflt[8];
        snprintf(dflt, sizeof dflt, "t%zu", i);
        const char *name = e->name != NULL ? e->name : dflt;
        size_t name_bytes = e->name_bytes != 0 ? e->name_bytes : strlen(name);
        put32(b, &at, (uint32_t)(e->id != 0 ? e->id : 200 + (int64_t)i));
        put32(b, &at, e->elems != 0 ? e->elems : 32);
        put32(b, &at, e->bytes != 0 ? e->bytes : 34);
        put32(b, &at, (uint32_t)(e->name_len != 0 ? e->name_len : (int64_t)name_bytes));
        put_bytes(b, &at, name, name_bytes);
    }
    for (size_t i = 0; i < t->extra; i++) {
        b[at++] = 0;
    }
    return t->cut != 0 ? t->cut : at;
}

typedef struct refusal {
    table_spec t;
    uint64_t at;
    const char *detail;
    const char *context; /* "" unless a type's name */
} refusal;

/* Header: 16 bytes + "test plugin" (11): the first entry starts at 27, its name at 43. */
static const refusal refusals[] = {
    {{.magic = "GSPX"}, 0, "plugin table: no GSPT magic", ""},
    {{.cut = 3}, 0, "plugin table: no GSPT magic", ""},
    {{.cut = 6}, 4, "plugin table: 6 bytes end inside the ABI version", ""},
    {{.version = 2}, 4, "plugin ABI version 2; this ggufsafe reads version 1", ""},
    {{.cut = 10}, 8, "plugin table: 10 bytes end inside the type count", ""},
    {{.n = ZERO}, 8, "plugin table: 0 types, 1 to 256", ""},
    {{.n = 257}, 8, "plugin table: 257 types, 1 to 256", ""},
    {{.cut = 15}, 12, "plugin table: 15 bytes end inside the name length", ""},
    {{.title_len = ZERO}, 12, "plugin table: a name of 0 bytes, 1 to 127", ""},
    {{.title_len = 128}, 12, "plugin table: a name of 128 bytes, 1 to 127", ""},
    {{.cut = 20}, 16, "plugin table: 20 bytes end inside the name", ""},
    {{.title = "ok\x7f"}, 18, "plugin table: the name holds byte 0x7f (printable ASCII only)", ""},
    {{.title = "ok\tno"}, 18, "plugin table: the name holds byte 0x09 (printable ASCII only)", ""},
    /* the entry's four fields: each one cut */
    {{.cut = 29}, 27, "plugin table: 29 bytes end inside a type entry", ""},
    {{.cut = 33}, 31, "plugin table: 33 bytes end inside a type entry", ""},
    {{.cut = 37}, 35, "plugin table: 37 bytes end inside a type entry", ""},
    {{.cut = 41}, 39, "plugin table: 41 bytes end inside a type entry", ""},
    {{.e = {{.name_len = ZERO}}},
     39, "plugin table: type 0 has a name of 0 bytes (1 to 63, within the table)", ""},
    {{.e = {{.name_len = 64}}},
     39, "plugin table: type 0 has a name of 64 bytes (1 to 63, within the table)", ""},
    {{.cut = 44}, 39, "plugin table: type 0 has a name of 2 bytes (1 to 63, within the table)", ""},
    {{.e = {{.name = "a\0b", .name_bytes = 3}}}, 43, "plugin table: type 0's name holds a NUL", ""},
    {{.extra = 2}, 45, "plugin table: 2 bytes after the last type", ""},
    /* the types as one gs_type_defs_check set: offset = the type's index, context its name */
    {{.n_entries = 2, .e = {{.id = 8, .name = "q8"}}},
     0, "type id 8 is built in (q8_0): redefining it needs the override flag", "q8"},
    {{.n_entries = 2, .e = {{0}, {.id = 200, .name = "dup"}}},
     1, "type id 200 is defined twice (definitions 0 and 1)", "dup"},
    {{.e = {{.id = ZERO - 1}}}, 0, "type id -1: negative", "t0"},
    {{.e = {{.name = "a b"}}},
     0, "type id 200: the name must be 1 to 63 bytes of A-Z a-z 0-9 _ . -", "a b"},
    {{.e = {{.elems = 4097}}}, 0, "type id 200: 4097 elements per block, at most 4096", "t0"},
    /* a registry id where the table may serve one: only with exactly the registry's name and
     * geometry, and a type that is live and decodable */
    {{.e = {{.id = 8, .name = "q8"}}, .builtin_ok = true}, 27,
     "plugin table: type 0 (id 8) is not the registry's q8_0 (32 elements in 34 bytes)", "q8"},
    {{.e = {{.id = 8, .name = "q8_0", .bytes = 36}}, .builtin_ok = true}, 27,
     "plugin table: type 0 (id 8) is not the registry's q8_0 (32 elements in 34 bytes)", "q8_0"},
    {{.e = {{.id = 8, .name = "q8_0", .elems = 64}}, .builtin_ok = true}, 27,
     "plugin table: type 0 (id 8) is not the registry's q8_0 (32 elements in 34 bytes)", "q8_0"},
    {{.e = {{.id = GS_TYPE_I8, .name = "i8", .elems = 1, .bytes = 1}}, .builtin_ok = true}, 27,
     "plugin table: type 0 (id 24) is not the registry's i8 (1 elements in 1 bytes)", "i8"},
};

Test(plugin_table, parse_refuses_each_malformed_field)
{
    static uint8_t b[GSI_PLUGIN_TABLE_MAX_BYTES];
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        const refusal *r = &refusals[i];
        size_t len = build(&r->t, b);
        gsi_plugin_desc d;
        gs_error e;
        cr_assert_eq(gsi_plugin_table_parse(b, len, r->t.builtin_ok, &d, &e), GS_E_INVALID_ARGUMENT,
                     "row %zu (%s)", i, r->detail);
        cr_assert_str_eq(e.detail, r->detail, "row %zu", i);
        cr_assert_eq(e.offset, r->at, "row %zu: offset %llu", i, (unsigned long long)e.offset);
        cr_assert_str_eq(e.context, r->context, "row %zu", i);
        cr_assert_eq(d.n, 0, "row %zu", i);
    }
    gsi_plugin_desc d;
    gs_error e;
    cr_assert_eq(gsi_plugin_table_parse(NULL, 5, false, &d, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "no bytes");
    cr_assert_eq(gsi_plugin_table_parse(NULL, 0, false, &d, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "plugin table: no GSPT magic");
}

/* The ggml kernel host's table may serve a registry type as the registry gives it: accepted, as
 * an override; a new id beside it as usual. Without builtin_ok the same table is refused. */
Test(plugin_table, registry_types_where_the_table_may_serve_them)
{
    static uint8_t b[GSI_PLUGIN_TABLE_MAX_BYTES];
    const table_spec t = {.n_entries = 2, .e = {{.id = 8, .name = "q8_0"}, {.id = 300}}};
    size_t len = build(&t, b);
    gsi_plugin_desc d;
    gs_error e;
    cr_assert_eq(gsi_plugin_table_parse(b, len, true, &d, &e), GS_OK, "%s", e.detail);
    cr_assert_eq(d.n, 2);
    cr_assert_eq(d.entries[0].def.id, 8);
    cr_assert(d.entries[0].def.override_builtin);
    cr_assert(!d.entries[1].def.override_builtin);
    cr_assert_eq(gsi_plugin_table_parse(b, len, false, &d, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "type id 8 is built in (q8_0): redefining it needs the override "
                               "flag");
}

Test(plugin_table, parse_accepts_a_full_table)
{
    static uint8_t b[GSI_PLUGIN_TABLE_MAX_BYTES];
    const table_spec t = {.title = "three ~ types", .n_entries = 3,
                          .e = {{.name = "a.b-c_1"}, {.elems = 4096, .bytes = 1}, {.id = 7000}}};
    size_t len = build(&t, b);
    gsi_plugin_desc d;
    gs_error e;
    cr_assert_eq(gsi_plugin_table_parse(b, len, false, &d, &e), GS_OK, "%s", e.detail);
    cr_assert_str_eq(d.title, "three ~ types");
    cr_assert_eq(d.abi_version, GGUFSAFE_PLUGIN_ABI_VERSION);
    cr_assert_eq(d.n, 3);
    const gs_type_def want[3] = {{200, "a.b-c_1", 32, 34, false},
                                 {201, "t1", 4096, 1, false},
                                 {7000, "t2", 32, 34, false}};
    for (size_t i = 0; i < 3; i++) {
        const gs_type_def *g = &d.entries[i].def;
        cr_assert_eq(g->id, want[i].id);
        cr_assert_str_eq(g->name, want[i].name);
        cr_assert_eq((const void *)g->name, (const void *)d.entries[i].name);
        cr_assert_eq(g->block_elems, want[i].block_elems);
        cr_assert_eq(g->block_bytes, want[i].block_bytes);
        cr_assert(!g->override_builtin);
    }
}


typedef struct enc_refusal {
    gs_plugin_table t;
    size_t offset;
    const char *detail;
    const char *context;
} enc_refusal;

/* One byte over each bound: a 128-byte title, a 64-byte type name. */
static char long_title[GGUFSAFE_PLUGIN_TITLE_MAX + 2], long_name[GGUFSAFE_PLUGIN_NAME_MAX + 2];

Test(plugin_table, encode_refuses_a_bad_struct)
{
    memset(long_title, 'T', GGUFSAFE_PLUGIN_TITLE_MAX + 1);
    memset(long_name, 'n', GGUFSAFE_PLUGIN_NAME_MAX + 1);
    static const gs_plugin_type one[] = {{200, "a", 32, 34, decode_ok}};
    static const gs_plugin_type no_name[] = {{200, "a", 32, 34, decode_ok},
                                             {201, NULL, 32, 34, decode_ok}};
    const gs_plugin_type too_long[] = {{200, long_name, 32, 34, decode_ok}};
    static const gs_plugin_type no_decode[] = {{200, "a", 32, 34, decode_ok},
                                               {201, "b", 32, 34, NULL}};
    const uint32_t v = GGUFSAFE_PLUGIN_ABI_VERSION, sz = sizeof(gs_plugin_table);
    char small[64];
    snprintf(small, sizeof small, "table struct_size 8, at least %zu", sizeof(gs_plugin_table));
    const enc_refusal rows[] = {
        {{2, sz, "p", 1, one}, 0, "plugin ABI version 2; this ggufsafe reads version 1", ""},
        {{v, 8, "p", 1, one}, 0, small, ""},
        {{v, sz, "p", 0, one}, 0, "0 types, 1 to 256", ""},
        {{v, sz, "p", 257, one}, 0, "257 types, 1 to 256", ""},
        {{v, sz, "p", 1, NULL}, 0, "1 types, 1 to 256", ""},
        {{v, sz, NULL, 1, one}, 0, "the plugin's name is NULL or longer than 127 bytes", ""},
        {{v, sz, long_title, 1, one}, 0, "the plugin's name is NULL or longer than 127 bytes", ""},
        {{v, sz, "p", 2, no_name}, 1, "type 1 (id 201): its name is NULL or longer than 63 bytes",
         ""},
        {{v, sz, "p", 1, too_long}, 0,
         "type 0 (id 200): its name is NULL or longer than 63 bytes", ""},
        {{v, sz, "p", 2, no_decode}, 1, "type 1 (id 201) has no decode function", "b"},
    };
    static uint8_t b[GSI_PLUGIN_TABLE_MAX_BYTES];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        size_t len = 12345;
        gs_error e;
        cr_assert_eq(gsi_plugin_table_encode(&rows[i].t, b, &len, &e), GS_E_INVALID_ARGUMENT,
                     "row %zu", i);
        cr_assert_str_eq(e.detail, rows[i].detail, "row %zu", i);
        cr_assert_eq(e.offset, rows[i].offset, "row %zu", i);
        cr_assert_str_eq(e.context, rows[i].context, "row %zu", i);
        cr_assert_eq(len, 12345, "row %zu", i);
    }
    gs_error e;
    size_t len;
    cr_assert_eq(gsi_plugin_table_encode(NULL, b, &len, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "the entry point returned no table");
}

/* The encoder writes the parser's format: the same bytes as build() for the same table, and a
 * struct larger than this library's (a newer plugin header) is read by its first fields. */
Test(plugin_table, encode_writes_the_parsed_format)
{
    static const gs_plugin_type types[] = {{200, "t0", 32, 34, decode_ok},
                                           {201, "t1", 32, 34, decode_ok}};
    const gs_plugin_table t = {GGUFSAFE_PLUGIN_ABI_VERSION, sizeof t + 16, "test plugin", 2,
                               types};
    static uint8_t got[GSI_PLUGIN_TABLE_MAX_BYTES], want[GSI_PLUGIN_TABLE_MAX_BYTES];
    size_t len;
    gs_error e;
    cr_assert_eq(gsi_plugin_table_encode(&t, got, &len, &e), GS_OK, "%s", e.detail);
    const table_spec spec = {.n_entries = 2};
    size_t want_len = build(&spec, want);
    cr_assert_eq(len, want_len);
    cr_assert(memcmp(got, want, len) == 0);
    gsi_plugin_desc d;
    cr_assert_eq(gsi_plugin_table_parse(got, len, false, &d, &e), GS_OK, "%s", e.detail);
    cr_assert_eq(d.n, 2);
    cr_assert_str_eq(d.entries[1].name, "t1");
}

/* The largest table: 256 types with 63-byte names and a 127-byte title fill
 * GSI_PLUGIN_TABLE_MAX_BYTES exactly, and parse. */
Test(plugin_table, largest_table_fills_the_bound)
{
    static char names[GGUFSAFE_PLUGIN_MAX_TYPES][GGUFSAFE_PLUGIN_NAME_MAX + 1];
    static gs_plugin_type types[GGUFSAFE_PLUGIN_MAX_TYPES];
    static char title[GGUFSAFE_PLUGIN_TITLE_MAX + 1];
    memset(title, '~', GGUFSAFE_PLUGIN_TITLE_MAX);
    for (size_t i = 0; i < GGUFSAFE_PLUGIN_MAX_TYPES; i++) {
        memset(names[i], 'n', GGUFSAFE_PLUGIN_NAME_MAX);
        names[i][0] = (char)('a' + i / 26 % 26);
        names[i][1] = (char)('a' + i % 26);
        types[i] = (gs_plugin_type){(int32_t)(1000 + i), names[i], 4096, 4096, decode_ok};
    }
    const gs_plugin_table t = {GGUFSAFE_PLUGIN_ABI_VERSION, sizeof t, title,
                               GGUFSAFE_PLUGIN_MAX_TYPES, types};
    static uint8_t b[GSI_PLUGIN_TABLE_MAX_BYTES];
    size_t len;
    gs_error e;
    cr_assert_eq(gsi_plugin_table_encode(&t, b, &len, &e), GS_OK, "%s", e.detail);
    cr_assert_eq(len, GSI_PLUGIN_TABLE_MAX_BYTES);
    static gsi_plugin_desc d;
    cr_assert_eq(gsi_plugin_table_parse(b, len, false, &d, &e), GS_OK, "%s", e.detail);
    cr_assert_eq(d.n, GGUFSAFE_PLUGIN_MAX_TYPES);
    cr_assert_str_eq(d.title, title);
    cr_assert_eq(d.entries[255].def.id, 1255);
    cr_assert_str_eq(d.entries[255].name, names[255]);
}
