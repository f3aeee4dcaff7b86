/* Arrays: every element type (with elements and empty), nesting, bad element types, counts that
 * cannot fit or whose byte size wraps, bool and string elements. */
#include <stdio.h>

#include "gsc_cases.h"

static const struct { uint32_t type; const char *name; } elem_types[] = {
    {GS_VALUE_U8, "u8"},     {GS_VALUE_I8, "i8"},         {GS_VALUE_U16, "u16"},
    {GS_VALUE_I16, "i16"},   {GS_VALUE_U32, "u32"},       {GS_VALUE_I32, "i32"},
    {GS_VALUE_F32, "f32"},   {GS_VALUE_BOOL, "bool"},     {GS_VALUE_STRING, "string"},
    {GS_VALUE_U64, "u64"},   {GS_VALUE_I64, "i64"},       {GS_VALUE_F64, "f64"},
};

/* Architecture key, then the array under test as record 1. */
static gsw_value *with_array(gsc_case *c)
{
    gsc_begin(c, 3);
    gsc_add_arch(&c->m);
    return gsw_add(&c->m, "x.array");
}

static void fill(gsw_value *v, uint32_t type, uint64_t count)
{
    if (type == GS_VALUE_STRING) {
        gsw_set_string_array(v, count);
        for (uint64_t i = 0; i < count; i++) {
            char s[16];
            int n = snprintf(s, sizeof s, "s%llu", (unsigned long long)i);
            gsw_array_string(v, i, s, (size_t)n);
        }
        return;
    }
    gsw_set_array(v, type, count, NULL);
    for (size_t i = 0; i < v->raw.len; i++) {
        v->raw.ptr[i] = type == GS_VALUE_BOOL ? (uint8_t)(i & 1) : (uint8_t)(i * 37 + 11);
    }
}

static void every_type(gsc_sink *s)
{
    for (size_t i = 0; i < sizeof elem_types / sizeof elem_types[0]; i++) {
        for (int empty = 0; empty < 2; empty++) {
            gsc_case c;
            fill(with_array(&c), elem_types[i].type, empty ? 0 : 5);
            gsc_write(&c, 0);
            char file[64], desc[96];
            snprintf(file, sizeof file, "arrays/%s_%s.gguf", empty ? "empty" : "five",
                     elem_types[i].name);
            snprintf(desc, sizeof desc, "%s array of %s", empty ? "empty" : "5-element",
                     elem_types[i].name);
            gsc_certify(&c, GSC_CERTIFIED);
            gsc_ok(s, &c, file, desc);
        }
    }
}

static void nesting(gsc_sink *s)
{
    gsc_case c;
    gsw_value *items = gsw_set_nested_array(with_array(&c), 2);
    fill(&items[0], GS_VALUE_U32, 3);
    fill(&items[1], GS_VALUE_STRING, 2);
    gsc_write(&c, 0);
    gsc_both(s, &c, "arrays/nested.gguf", GS_E_NESTED_ARRAY, gsc_at(&c, GSW_ARR_TYPE, 1, 0),
             "array of arrays (allowed by the spec, not loadable by ggml)");

    gsw_set_nested_array(with_array(&c), 0);
    gsc_write(&c, 0);
    gsc_both(s, &c, "arrays/nested_empty.gguf", GS_E_NESTED_ARRAY,
             gsc_at(&c, GSW_ARR_TYPE, 1, 0), "empty array of arrays");

    items = gsw_set_nested_array(with_array(&c), 1);
    gsw_value *inner = gsw_set_nested_array(&items[0], 1);
    inner = gsw_set_nested_array(&inner[0], 1);
    fill(&inner[0], GS_VALUE_U8, 1);
    gsc_write(&c, 0);
    gsc_both(s, &c, "arrays/nested_deep.gguf", GS_E_NESTED_ARRAY,
             gsc_at(&c, GSW_ARR_TYPE, 1, 0),
             "arrays nested four deep (recursion in other readers)");

    static const struct { const char *file; uint32_t type; const char *desc; } bad[] = {
        {"arrays/elem_type_13.gguf", 13, "element type 13"},
        {"arrays/elem_type_2p32m1.gguf", 0xFFFFFFFFu, "element type -1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fill(with_array(&c), GS_VALUE_U8, 4);
        gsc_write(&c, 0);
        gsw_override(&c.b, &c.map, GSW_ARR_TYPE, 1, 0, bad[i].type);
        gsc_both(s, &c, bad[i].file, GS_E_BAD_VALUE_TYPE, gsc_at(&c, GSW_ARR_TYPE, 1, 0),
                 bad[i].desc);
    }
}

static void counts(gsc_sink *s)
{
    static const gsc_typed big[] = {
        {"arrays/count_2p64m1_u8.gguf", GS_VALUE_U8, UINT64_MAX, "u8 array of 2^64-1 elements"},
        {"arrays/count_2p63_u8.gguf", GS_VALUE_U8, 1ull << 63, "u8 array of 2^63 elements"},
        {"arrays/count_wraps_u16.gguf", GS_VALUE_U16, (1ull << 63) + 1,
         "u16 array: count times 2 wraps to 2"},
        {"arrays/count_wraps_u32.gguf", GS_VALUE_U32, (1ull << 62) + 1,
         "u32 array: count times 4 wraps to 4"},
        {"arrays/count_wraps_f64.gguf", GS_VALUE_F64, (1ull << 61) + 1,
         "f64 array: count times 8 wraps to 8"},
        {"arrays/count_wraps_string.gguf", GS_VALUE_STRING, (1ull << 61) + 1,
         "string array: count times 8 (length fields) wraps to 8"},
        {"arrays/count_over_limit_u8.gguf", GS_VALUE_U8, (1ull << 26) + 1,
         "u8 array one past the 2^26-element limit in a small file: the file bound comes first"},
    };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        gsc_case c;
        fill(with_array(&c), big[i].type, 3);
        gsc_write(&c, 0);
        gsw_override(&c.b, &c.map, GSW_ARR_COUNT, 1, 0, big[i].value);
        gsc_both(s, &c, big[i].name, GS_E_COUNT_EXCEEDS_FILE, gsc_at(&c, GSW_ARR_COUNT, 1, 0),
                 big[i].desc);
    }
    /* One element more than the rest of the file holds (no tensors: the array ends the file). */
    for (int str = 0; str < 2; str++) {
        gsc_case c;
        uint32_t type = str ? GS_VALUE_STRING : GS_VALUE_U32;
        fill(with_array(&c), type, 4);
        gsc_write(&c, 0);
        gsw_truncate(&c.b, gsc_at(&c, GSW_PADDING, 0, 0));
        uint64_t count_at = gsc_at(&c, GSW_ARR_COUNT, 1, 0);
        uint64_t left = c.b.len - (count_at + 8);
        gsw_override(&c.b, &c.map, GSW_ARR_COUNT, 1, 0, left / (str ? 8 : 4) + 1);
        gsc_both(s, &c, str ? "arrays/count_one_past_eof_string.gguf"
                            : "arrays/count_one_past_eof_u32.gguf",
                 GS_E_COUNT_EXCEEDS_FILE, count_at,
                 str ? "string array: one more 8-byte length than the bytes left hold"
                     : "u32 array: one more element than the bytes left hold");
    }
}

static void elements(gsc_sink *s)
{
    gsc_case c;
    fill(with_array(&c), GS_VALUE_BOOL, 5);
    gsc_write(&c, 0);
    gsw_override(&c.b, &c.map, GSW_ARR_ELEM, 1, 2, 2);
    gsc_strict(s, &c, "arrays/bool_element_2.gguf", GS_E_BAD_BOOL,
               gsc_at(&c, GSW_ARR_ELEM, 1, 2), "bool array whose element 2 is the byte 2");

    fill(with_array(&c), GS_VALUE_STRING, 4);
    gsc_write(&c, 0);
    gsw_override(&c.b, &c.map, GSW_ARR_STR_LEN, 1, 1, UINT64_MAX);
    gsc_both(s, &c, "arrays/string_element_len_2p64m1.gguf", GS_E_STRING_EXCEEDS_FILE,
             gsc_at(&c, GSW_ARR_STR_LEN, 1, 1), "string array whose element 1 is 2^64-1 bytes");

    fill(with_array(&c), GS_VALUE_STRING, 4);
    gsc_write(&c, 0);
    gsw_patch_u8(&c.b, (size_t)gsc_at(&c, GSW_ARR_STR, 1, 2), 0xC0);
    gsc_strict(s, &c, "arrays/string_element_invalid_utf8.gguf", GS_E_INVALID_UTF8,
               gsc_at(&c, GSW_ARR_STR_LEN, 1, 2), "string array whose element 2 is not UTF-8");

    gsw_value *v = with_array(&c);
    gsw_set_string_array(v, 3);
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "arrays/strings_all_empty.gguf", "string array of three empty strings");
}

void gsc_cases_arrays(gsc_sink *s)
{
    every_type(s);
    nesting(s);
    counts(s);
    elements(s);
}
