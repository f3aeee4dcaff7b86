/* Values: every scalar type at its extremes, bad value type ids, bool bytes, float specials. */
#include <stdio.h>

#include "gsc_cases.h"

/* Architecture key, then the value under test as record 1. */
static gsw_value *with_value(gsc_case *c)
{
    gsc_begin(c, 3);
    gsc_add_arch(&c->m);
    return gsw_add(&c->m, "x.value");
}

static void scalars(gsc_sink *s)
{
    static const gsc_typed v[] = {
        {"u8_max", GS_VALUE_U8, 0xFF, "u8 255"},
        {"i8_min", GS_VALUE_I8, 0x80, "i8 -128"},
        {"u16_max", GS_VALUE_U16, 0xFFFF, "u16 65535"},
        {"i16_min", GS_VALUE_I16, 0x8000, "i16 -32768"},
        {"u32_max", GS_VALUE_U32, 0xFFFFFFFF, "u32 2^32-1"},
        {"i32_min", GS_VALUE_I32, 0x80000000, "i32 -2^31"},
        {"f32_neg_zero", GS_VALUE_F32, 0x80000000, "f32 -0.0"},
        {"f32_nan_payload", GS_VALUE_F32, 0x7FC00001, "f32 NaN with a payload (ggml accepts NaN)"},
        {"f32_snan", GS_VALUE_F32, 0x7F800001, "f32 signalling NaN"},
        {"f32_inf", GS_VALUE_F32, 0xFF800000, "f32 -inf"},
        {"f32_subnormal", GS_VALUE_F32, 0x00000001, "f32 smallest subnormal"},
        {"bool_false", GS_VALUE_BOOL, 0, "bool 0"},
        {"bool_true", GS_VALUE_BOOL, 1, "bool 1"},
        {"u64_max", GS_VALUE_U64, UINT64_MAX, "u64 2^64-1"},
        {"i64_min", GS_VALUE_I64, 1ull << 63, "i64 -2^63"},
        {"f64_max", GS_VALUE_F64, 0x7FEFFFFFFFFFFFFFull, "f64 DBL_MAX"},
        {"f64_nan", GS_VALUE_F64, 0x7FF8000000000001ull, "f64 NaN with a payload"},
        {"f64_subnormal", GS_VALUE_F64, 1, "f64 smallest subnormal"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        gsc_case c;
        gsw_set_scalar(with_value(&c), v[i].type, v[i].value);
        gsc_write(&c, 0);
        char file[96];
        snprintf(file, sizeof file, "values/%s.gguf", v[i].name);
        gsc_certify(&c, GSC_CERTIFIED); /* x.value is no key certification knows */
        gsc_ok(s, &c, file, v[i].desc);
    }
    gsc_case c;
    gsw_set_string(with_value(&c), "", 0);
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "values/string_empty.gguf", "empty string value");
}

static void bad_types(gsc_sink *s)
{
    static const struct { const char *file; uint32_t type; const char *desc; } t[] = {
        {"values/type_13.gguf", 13, "value type 13 (GGUF_TYPE_COUNT)"},
        {"values/type_255.gguf", 255, "value type 255"},
        {"values/type_2p31.gguf", 0x80000000u, "value type 0x80000000 (negative as int32)"},
        {"values/type_2p32m1.gguf", 0xFFFFFFFFu, "value type -1"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        gsc_case c;
        gsw_set_u32(with_value(&c), 7);
        gsc_write(&c, 0);
        gsw_override(&c.b, &c.map, GSW_VALUE_TYPE, 1, 0, t[i].type);
        gsc_both(s, &c, t[i].file, GS_E_BAD_VALUE_TYPE, gsc_at(&c, GSW_VALUE_TYPE, 1, 0),
                 t[i].desc);
    }
}

static void bools(gsc_sink *s)
{
    static const uint8_t bytes[] = {2, 0x80, 0xFF};
    for (size_t i = 0; i < sizeof bytes; i++) {
        gsc_case c;
        gsw_set_bool(with_value(&c), bytes[i]);
        gsc_write(&c, 0);
        char file[64], desc[96];
        snprintf(file, sizeof file, "values/bool_%u.gguf", bytes[i]);
        snprintf(desc, sizeof desc, "bool byte %u: invalid by the spec, true for ggml", bytes[i]);
        gsc_strict(s, &c, file, GS_E_BAD_BOOL, gsc_at(&c, GSW_VALUE, 1, 0), desc);
    }
}

void gsc_cases_values(gsc_sink *s)
{
    scalars(s);
    bad_types(s);
    bools(s);
}
