#include "kv_value.h"

#include <inttypes.h>
#include <stdio.h>

#include "num_format.h"

static void set_unsigned(cli_value *out, uint64_t v)
{
    out->kind = CLI_VALUE_UNSIGNED;
    out->as.u = v;
}

static void set_signed(cli_value *out, int64_t v)
{
    out->kind = CLI_VALUE_SIGNED;
    out->as.i = v;
}

gs_status cli_read_scalar(const gs_file *f, size_t index, gs_value_type type, cli_value *out)
{
    gs_status st = GS_E_WRONG_TYPE;
    set_unsigned(out, 0);
    switch (type) {
    case GS_VALUE_U8: {
        uint8_t v = 0;
        st = gs_kv_get_u8(f, index, &v);
        set_unsigned(out, v);
        break;
    }
    case GS_VALUE_U16: {
        uint16_t v = 0;
        st = gs_kv_get_u16(f, index, &v);
        set_unsigned(out, v);
        break;
    }
    case GS_VALUE_U32: {
        uint32_t v = 0;
        st = gs_kv_get_u32(f, index, &v);
        set_unsigned(out, v);
        break;
    }
    case GS_VALUE_U64: {
        uint64_t v = 0;
        st = gs_kv_get_u64(f, index, &v);
        set_unsigned(out, v);
        break;
    }
    case GS_VALUE_I8: {
        int8_t v = 0;
        st = gs_kv_get_i8(f, index, &v);
        set_signed(out, v);
        break;
    }
    case GS_VALUE_I16: {
        int16_t v = 0;
        st = gs_kv_get_i16(f, index, &v);
        set_signed(out, v);
        break;
    }
    case GS_VALUE_I32: {
        int32_t v = 0;
        st = gs_kv_get_i32(f, index, &v);
        set_signed(out, v);
        break;
    }
    case GS_VALUE_I64: {
        int64_t v = 0;
        st = gs_kv_get_i64(f, index, &v);
        set_signed(out, v);
        break;
    }
    case GS_VALUE_F32:
        out->kind = CLI_VALUE_F32;
        out->as.f32 = 0;
        st = gs_kv_get_f32(f, index, &out->as.f32);
        break;
    case GS_VALUE_F64:
        out->kind = CLI_VALUE_F64;
        out->as.f64 = 0;
        st = gs_kv_get_f64(f, index, &out->as.f64);
        break;
    case GS_VALUE_BOOL:
        out->kind = CLI_VALUE_BOOL;
        out->as.b = false;
        st = gs_kv_get_bool(f, index, &out->as.b);
        break;
    case GS_VALUE_STRING:
        out->kind = CLI_VALUE_STRING;
        out->as.s = (gs_str){"", 0};
        st = gs_kv_get_string(f, index, &out->as.s);
        break;
    case GS_VALUE_ARRAY:
        break;
    }
    return st;
}

gs_status cli_read_element(const gs_file *f, size_t index, gs_value_type elem, uint64_t i,
                           cli_value *out)
{
    gs_status st = GS_E_WRONG_TYPE;
    set_unsigned(out, 0);
    switch (elem) {
    case GS_VALUE_U8: {
        uint8_t v = 0;
        st = gs_kv_get_array_u8(f, index, i, &v);
        set_unsigned(out, v);
        break;
    }
    case GS_VALUE_U16: {
        uint16_t v = 0;
        st = gs_kv_get_array_u16(f, index, i, &v);
        set_unsigned(out, v);
        break;
    }
    case GS_VALUE_U32: {
        uint32_t v = 0;
        st = gs_kv_get_array_u32(f, index, i, &v);
        set_unsigned(out, v);
        break;
    }
    case GS_VALUE_U64: {
        uint64_t v = 0;
        st = gs_kv_get_array_u64(f, index, i, &v);
        set_unsigned(out, v);
        break;
    }
    case GS_VALUE_I8: {
        int8_t v = 0;
        st = gs_kv_get_array_i8(f, index, i, &v);
        set_signed(out, v);
        break;
    }
    case GS_VALUE_I16: {
        int16_t v = 0;
        st = gs_kv_get_array_i16(f, index, i, &v);
        set_signed(out, v);
        break;
    }
    case GS_VALUE_I32: {
        int32_t v = 0;
        st = gs_kv_get_array_i32(f, index, i, &v);
        set_signed(out, v);
        break;
    }
    case GS_VALUE_I64: {
        int64_t v = 0;
        st = gs_kv_get_array_i64(f, index, i, &v);
        set_signed(out, v);
        break;
    }
    case GS_VALUE_F32:
        out->kind = CLI_VALUE_F32;
        out->as.f32 = 0;
        st = gs_kv_get_array_f32(f, index, i, &out->as.f32);
        break;
    case GS_VALUE_F64:
        out->kind = CLI_VALUE_F64;
        out->as.f64 = 0;
        st = gs_kv_get_array_f64(f, index, i, &out->as.f64);
        break;
    case GS_VALUE_BOOL:
        out->kind = CLI_VALUE_BOOL;
        out->as.b = false;
        st = gs_kv_get_array_bool(f, index, i, &out->as.b);
        break;
    case GS_VALUE_STRING:
        out->kind = CLI_VALUE_STRING;
        out->as.s = (gs_str){"", 0};
        st = gs_kv_get_array_string(f, index, i, &out->as.s);
        break;
    case GS_VALUE_ARRAY:
        break;
    }
    return st;
}

/* "%" PRIu64 with a sign in front when negative, without printf's machinery (an info of 160,000
 * integer keys spent a fifth of its time in it). */
static void decimal(char num[CLI_NUM_BUF], bool negative, uint64_t magnitude)
{
    char digits[24];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0);
    size_t k = 0;
    if (negative) {
        num[k++] = '-';
    }
    while (n > 0) {
        num[k++] = digits[--n];
    }
    num[k] = '\0';
}

void cli_value_text(const cli_value *v, cli_text *out, size_t max_src)
{
    char num[CLI_NUM_BUF];
    switch (v->kind) {
    case CLI_VALUE_UNSIGNED:
        decimal(num, false, v->as.u);
        break;
    case CLI_VALUE_SIGNED:
        decimal(num, v->as.i < 0,
                v->as.i < 0 ? 0u - (uint64_t)v->as.i : (uint64_t)v->as.i);
        break;
    case CLI_VALUE_F32:
        cli_format_f32(num, v->as.f32);
        break;
    case CLI_VALUE_F64:
        cli_format_f64(num, v->as.f64);
        break;
    case CLI_VALUE_BOOL:
        snprintf(num, sizeof num, "%s", v->as.b ? "true" : "false");
        break;
    case CLI_VALUE_STRING:
        cli_text_escape(out, v->as.s.ptr, v->as.s.len, max_src);
        return;
    }
    cli_text_escape_cstr(out, num);
}

void cli_value_json(const cli_value *v, cli_json *j)
{
    switch (v->kind) {
    case CLI_VALUE_UNSIGNED:
        cli_json_u64(j, v->as.u);
        break;
    case CLI_VALUE_SIGNED:
        cli_json_i64(j, v->as.i);
        break;
    case CLI_VALUE_F32:
        cli_json_f32(j, v->as.f32);
        break;
    case CLI_VALUE_F64:
        cli_json_f64(j, v->as.f64);
        break;
    case CLI_VALUE_BOOL:
        cli_json_bool(j, v->as.b);
        break;
    case CLI_VALUE_STRING:
        cli_json_string(j, v->as.s.ptr, v->as.s.len);
        break;
    }
}
