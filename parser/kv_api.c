/* Key-value getters. Each checks index, kind (scalar or array), exact type and element index, and
 * returns a status: none aborts. */
#include <string.h>

#include "abi_compat.h"
#include "cursor.h"
#include "file_internal.h"

const char *gs_value_type_name(gs_value_type type)
{
    switch (type) {
    case GS_VALUE_U8: return "u8";
    case GS_VALUE_I8: return "i8";
    case GS_VALUE_U16: return "u16";
    case GS_VALUE_I16: return "i16";
    case GS_VALUE_U32: return "u32";
    case GS_VALUE_I32: return "i32";
    case GS_VALUE_F32: return "f32";
    case GS_VALUE_BOOL: return "bool";
    case GS_VALUE_STRING: return "string";
    case GS_VALUE_ARRAY: return "array";
    case GS_VALUE_U64: return "u64";
    case GS_VALUE_I64: return "i64";
    case GS_VALUE_F64: return "f64";
    }
    return "unknown";
}

static const gsi_kv *kv_at(const gs_file *f, size_t index)
{
    if (f == NULL || index >= f->n_kv) {
        return NULL;
    }
    return &f->kvs[index];
}

/* Fills *info, written field by field: the caller's struct itself when it is this library's
 * size, so that no stack copy is read back in wider loads than it was stored with (that stalls
 * on store forwarding: it was a fifth of `info`'s time on 160,000 keys). */
static void fill_kv_info(const gs_file *file, const gsi_kv *kv, gs_kv_info *info)
{
    memset(info, 0, sizeof *info);
    info->key = (gs_str){(const char *)file->base + gsi_kv_key_off(kv),
                         (size_t)gsi_kv_key_len(kv)};
    info->type = (gs_value_type)kv->type;
    info->elem_type = (gs_value_type)kv->elem_type;
    info->count = gsi_kv_count(file, kv);
    info->offset = kv->offset;
    info->value_offset = kv->value_off;
    info->size = gsi_kv_end(file, kv) - kv->offset;
}

gs_status gs_kv_info_at_sized(const gs_file *file, size_t index, gs_kv_info *out,
                              size_t out_size)
{
    if (out == NULL || out_size < GSI_KV_INFO_SIZE_0_1_0) {
        return GS_E_INVALID_ARGUMENT;
    }
    const gsi_kv *kv = kv_at(file, index);
    if (kv == NULL) {
        return file == NULL ? GS_E_INVALID_ARGUMENT : GS_E_OUT_OF_RANGE;
    }
    GSI_FILL_SIZED(gs_kv_info, fill_kv_info, file, kv, out, out_size);
    return GS_OK;
}

/* The 0.1.0 symbol, for programs built against 0.1.0: their gs_kv_info is 0.1.0's. */
#undef gs_kv_info_at
gs_status gs_kv_info_at(const gs_file *file, size_t index, gs_kv_info *out)
{
    return gs_kv_info_at_sized(file, index, out, GSI_KV_INFO_SIZE_0_1_0);
}

gs_status gs_kv_find_n(const gs_file *file, const char *key, size_t key_len, size_t *index)
{
    return gsi_file_find(file, false, key, key_len, index);
}

gs_status gs_kv_find(const gs_file *file, const char *key, size_t *index)
{
    return gsi_file_find_str(file, false, key, index);
}

/* The position of a scalar of exactly `type`. */
static gs_status scalar_pos(const gs_file *f, size_t index, gs_value_type type, uint64_t *pos)
{
    const gsi_kv *kv = kv_at(f, index);
    if (kv == NULL) {
        return f == NULL ? GS_E_INVALID_ARGUMENT : GS_E_OUT_OF_RANGE;
    }
    if (kv->type != type) {
        return GS_E_WRONG_TYPE;
    }
    *pos = kv->value_off;
    return GS_OK;
}

/* The record of an array of exactly `elem` that has an element i. */
static gs_status array_kv(const gs_file *f, size_t index, gs_value_type elem, uint64_t i,
                          const gsi_kv **out)
{
    const gsi_kv *kv = kv_at(f, index);
    if (kv == NULL) {
        return f == NULL ? GS_E_INVALID_ARGUMENT : GS_E_OUT_OF_RANGE;
    }
    if (kv->type != GS_VALUE_ARRAY || kv->elem_type != elem) {
        return GS_E_WRONG_TYPE;
    }
    if (i >= gsi_kv_count(f, kv)) {
        return GS_E_OUT_OF_RANGE;
    }
    *out = kv;
    return GS_OK;
}

/* The position of element i of an array of exactly `elem` (not string). */
static gs_status element_pos(const gs_file *f, size_t index, gs_value_type elem, uint64_t i,
                             unsigned size, uint64_t *pos)
{
    const gsi_kv *kv = NULL;
    gs_status st = array_kv(f, index, elem, i, &kv);
    if (st == GS_OK) {
        *pos = kv->value_off + i * size; /* i < count and count*size fit in the file */
    }
    return st;
}

#define DEFINE_GETTERS(suffix, ctype, vtype, width, convert)                                     \
    gs_status gs_kv_get_##suffix(const gs_file *file, size_t index, ctype *out)                  \
    {                                                                                             \
        uint64_t pos;                                                                             \
        if (out == NULL) {                                                                        \
            return GS_E_INVALID_ARGUMENT;                                                         \
        }                                                                                         \
        gs_status st = scalar_pos(file, index, vtype, &pos);                                      \
        if (st == GS_OK) {                                                                        \
            uint64_t raw = gsi_read_at_le(file->base, pos, width);                                \
            convert;                                                                              \
        }                                                                                         \
        return st;                                                                                \
    }                                                                                             \
    gs_status gs_kv_get_array_##suffix(const gs_file *file, size_t index, uint64_t i,            \
                                       ctype *out)                                                \
    {                                                                                             \
        uint64_t pos;                                                                             \
        if (out == NULL) {                                                                        \
            return GS_E_INVALID_ARGUMENT;                                                         \
        }                                                                                         \
        gs_status st = element_pos(file, index, vtype, i, width, &pos);                           \
        if (st == GS_OK) {                                                                        \
            uint64_t raw = gsi_read_at_le(file->base, pos, width);                                \
            convert;                                                                              \
        }                                                                                         \
        return st;                                                                                \
    }

#define AS_INT(ctype, utype) *out = (ctype)(utype)raw
#define AS_F32                                                                                    \
    do {                                                                                          \
        uint32_t bits = (uint32_t)raw;                                                            \
        memcpy(out, &bits, 4);                                                                    \
    } while (0)
#define AS_F64 memcpy(out, &raw, 8)
#define AS_BOOL *out = raw != 0

DEFINE_GETTERS(u8, uint8_t, GS_VALUE_U8, 1, AS_INT(uint8_t, uint8_t))
DEFINE_GETTERS(i8, int8_t, GS_VALUE_I8, 1, AS_INT(int8_t, uint8_t))
DEFINE_GETTERS(u16, uint16_t, GS_VALUE_U16, 2, AS_INT(uint16_t, uint16_t))
DEFINE_GETTERS(i16, int16_t, GS_VALUE_I16, 2, AS_INT(int16_t, uint16_t))
DEFINE_GETTERS(u32, uint32_t, GS_VALUE_U32, 4, AS_INT(uint32_t, uint32_t))
DEFINE_GETTERS(i32, int32_t, GS_VALUE_I32, 4, AS_INT(int32_t, uint32_t))
DEFINE_GETTERS(u64, uint64_t, GS_VALUE_U64, 8, AS_INT(uint64_t, uint64_t))
DEFINE_GETTERS(i64, int64_t, GS_VALUE_I64, 8, AS_INT(int64_t, uint64_t))
DEFINE_GETTERS(f32, float, GS_VALUE_F32, 4, AS_F32)
DEFINE_GETTERS(f64, double, GS_VALUE_F64, 8, AS_F64)
DEFINE_GETTERS(bool, bool, GS_VALUE_BOOL, 1, AS_BOOL)

static gs_str string_at(const gs_file *f, uint64_t len_pos)
{
    uint64_t len = gsi_load_u64le(f->base + len_pos);
    return (gs_str){(const char *)f->base + len_pos + 8, (size_t)len};
}

gs_status gs_kv_get_string(const gs_file *file, size_t index, gs_str *out)
{
    uint64_t pos;
    if (out == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    gs_status st = scalar_pos(file, index, GS_VALUE_STRING, &pos);
    if (st == GS_OK) {
        *out = string_at(file, pos);
    }
    return st;
}

gs_status gs_kv_get_array_string(const gs_file *file, size_t index, uint64_t i, gs_str *out)
{
    if (out == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    const gsi_kv *kv = NULL;
    gs_status st = array_kv(file, index, GS_VALUE_STRING, i, &kv);
    if (st == GS_OK) {
        *out = string_at(file, gsi_kv_string_at(file, kv, i));
    }
    return st;
}

gs_status gs_kv_get_array_data(const gs_file *file, size_t index, const void **data,
                               uint64_t *count)
{
    if (data == NULL || count == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    const gsi_kv *kv = kv_at(file, index);
    if (kv == NULL) {
        return file == NULL ? GS_E_INVALID_ARGUMENT : GS_E_OUT_OF_RANGE;
    }
    if (kv->type != GS_VALUE_ARRAY || kv->elem_type == GS_VALUE_STRING) {
        return GS_E_WRONG_TYPE;
    }
    *data = file->base + kv->value_off;
    *count = gsi_kv_count(file, kv);
    return GS_OK;
}

gs_status gs_kv_get_unsigned(const gs_file *file, size_t index, uint64_t *out)
{
    if (out == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    const gsi_kv *kv = kv_at(file, index);
    if (kv == NULL) {
        return file == NULL ? GS_E_INVALID_ARGUMENT : GS_E_OUT_OF_RANGE;
    }
    unsigned width;
    bool is_signed;
    switch ((gs_value_type)kv->type) {
    case GS_VALUE_U8: width = 1; is_signed = false; break;
    case GS_VALUE_I8: width = 1; is_signed = true; break;
    case GS_VALUE_U16: width = 2; is_signed = false; break;
    case GS_VALUE_I16: width = 2; is_signed = true; break;
    case GS_VALUE_U32: width = 4; is_signed = false; break;
    case GS_VALUE_I32: width = 4; is_signed = true; break;
    case GS_VALUE_U64: width = 8; is_signed = false; break;
    case GS_VALUE_I64: width = 8; is_signed = true; break;
    case GS_VALUE_F32:
    case GS_VALUE_BOOL:
    case GS_VALUE_STRING:
    case GS_VALUE_ARRAY:
    case GS_VALUE_F64:
    default:
        return GS_E_WRONG_TYPE;
    }
    uint64_t raw = gsi_read_at_le(file->base, kv->value_off, width);
    if (is_signed && (raw >> (8 * width - 1)) & 1) {
        return GS_E_OUT_OF_RANGE;
    }
    *out = raw;
    return GS_OK;
}
