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

/* Reads the scalar KV at index (element false) or element i of the array KV at index (element
 * true): one switch for both, so a scalar and an array element of a type always convert alike.
 * The getters' names are pasted in the case macros themselves (a helper macro would receive
 * `bool` already expanded to _Bool). */
#define READ_INTEGER(id, suffix, ctype, set)                     \
    case GS_VALUE_##id: {                                        \
        ctype v = 0;                                             \
        st = element ? gs_kv_get_array_##suffix(f, index, i, &v) \
                     : gs_kv_get_##suffix(f, index, &v);         \
        set(out, v);                                             \
        break;                                                   \
    }
#define READ_DIRECT(id, suffix, field, zero)                                 \
    case GS_VALUE_##id:                                                      \
        out->kind = CLI_VALUE_##id;                                          \
        out->as.field = zero;                                                \
        st = element ? gs_kv_get_array_##suffix(f, index, i, &out->as.field) \
                     : gs_kv_get_##suffix(f, index, &out->as.field);         \
        break;

static gs_status read_value(const gs_file *f, size_t index, gs_value_type type, bool element,
                            uint64_t i, cli_value *out)
{
    gs_status st = GS_E_WRONG_TYPE;
    set_unsigned(out, 0);
    switch (type) {
    READ_INTEGER(U8, u8, uint8_t, set_unsigned)
    READ_INTEGER(U16, u16, uint16_t, set_unsigned)
    READ_INTEGER(U32, u32, uint32_t, set_unsigned)
    READ_INTEGER(U64, u64, uint64_t, set_unsigned)
    READ_INTEGER(I8, i8, int8_t, set_signed)
    READ_INTEGER(I16, i16, int16_t, set_signed)
    READ_INTEGER(I32, i32, int32_t, set_signed)
    READ_INTEGER(I64, i64, int64_t, set_signed)
    READ_DIRECT(F32, f32, f32, 0)
    READ_DIRECT(F64, f64, f64, 0)
    READ_DIRECT(BOOL, bool, b, false)
    READ_DIRECT(STRING, string, s, ((gs_str){"", 0}))
    case GS_VALUE_ARRAY:
        break;
    }
    return st;
}

#undef READ_DIRECT
#undef READ_INTEGER

gs_status cli_read_scalar(const gs_file *f, size_t index, gs_value_type type, cli_value *out)
{
    return read_value(f, index, type, false, 0, out);
}

gs_status cli_read_element(const gs_file *f, size_t index, gs_value_type elem, uint64_t i,
                           cli_value *out)
{
    return read_value(f, index, elem, true, i, out);
}

/* "%" PRIu64 with a sign in front when negative, without printf's machinery (an info of 160,000
 * integer keys spent a fifth of its time in it); returns its length. */
static size_t decimal(char num[CLI_NUM_BUF], bool negative, uint64_t magnitude)
{
    char digits[20]; /* UINT64_MAX has 20 */
    size_t at = sizeof digits;
    do {
        digits[--at] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0);
    size_t k = 0;
    if (negative) {
        num[k++] = '-';
    }
    for (; at < sizeof digits; at++) {
        num[k++] = digits[at];
    }
    num[k] = '\0';
    return k;
}

/* An integer's digits into out, as cli_text_escape_cstr would put them: at most 21 bytes of
 * printable ASCII, which escape to themselves and are never cut. */
static void integer_text(cli_text *out, bool negative, uint64_t magnitude)
{
    _Static_assert(CLI_NUM_BUF <= CLI_TEXT_MAX_SRC, "a number is never cut");
    out->len = decimal(out->s, negative, magnitude);
    out->width = out->len;
}

void cli_value_text(const cli_value *v, cli_text *out, size_t max_src)
{
    char num[CLI_NUM_BUF];
    switch (v->kind) {
    case CLI_VALUE_UNSIGNED:
        integer_text(out, false, v->as.u);
        return;
    case CLI_VALUE_SIGNED:
        integer_text(out, v->as.i < 0,
                     v->as.i < 0 ? 0u - (uint64_t)v->as.i : (uint64_t)v->as.i);
        return;
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
