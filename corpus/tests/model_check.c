#include "model_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "le_load.h"

typedef struct checker {
    const gs_file *f;
    char *why;
    size_t cap;
} checker;

__attribute__((format(printf, 2, 3))) static int differ(checker *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(c->why, c->cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* Reads element i (UINT64_MAX: the scalar) of a fixed-size value through the getter of its
 * exact type and returns its wire bits in *bits. */
static gs_status read_bits(const gs_file *f, size_t k, uint32_t type, uint64_t i, uint64_t *bits)
{
    const int scalar = i == UINT64_MAX;
    gs_status st;
    switch ((gs_value_type)type) {
#define CASE(T, ctype, get, to_bits)                                                             \
    case T: {                                                                                    \
        ctype x = 0;                                                                             \
        st = scalar ? gs_kv_get_##get(f, k, &x) : gs_kv_get_array_##get(f, k, i, &x);           \
        to_bits;                                                                                 \
        break;                                                                                   \
    }
        CASE(GS_VALUE_U8, uint8_t, u8, *bits = x)
        CASE(GS_VALUE_I8, int8_t, i8, *bits = (uint8_t)x)
        CASE(GS_VALUE_U16, uint16_t, u16, *bits = x)
        CASE(GS_VALUE_I16, int16_t, i16, *bits = (uint16_t)x)
        CASE(GS_VALUE_U32, uint32_t, u32, *bits = x)
        CASE(GS_VALUE_I32, int32_t, i32, *bits = (uint32_t)x)
        CASE(GS_VALUE_U64, uint64_t, u64, *bits = x)
        CASE(GS_VALUE_I64, int64_t, i64, *bits = (uint64_t)x)
        CASE(GS_VALUE_BOOL, bool, bool, *bits = x ? 1 : 0)
    case GS_VALUE_F32: {
        float x = 0;
        st = scalar ? gs_kv_get_f32(f, k, &x) : gs_kv_get_array_f32(f, k, i, &x);
        uint32_t b;
        memcpy(&b, &x, 4);
        *bits = b;
        break;
    }
    case GS_VALUE_F64: {
        double x = 0;
        st = scalar ? gs_kv_get_f64(f, k, &x) : gs_kv_get_array_f64(f, k, i, &x);
        memcpy(bits, &x, 8);
        break;
    }
    case GS_VALUE_STRING:
    case GS_VALUE_ARRAY:
    default:
        st = GS_E_WRONG_TYPE;
        break;
#undef CASE
    }
    return st;
}

static int check_array(checker *c, size_t k, const gsw_kv *kv)
{
    const gsw_value *v = &kv->value;
    uint64_t junk;
    if (v->elem_type == GS_VALUE_STRING) {
        for (uint64_t i = 0; i < v->count; i++) {
            gs_str s;
            gs_status st = gs_kv_get_array_string(c->f, k, i, &s);
            if (st != GS_OK || s.len != v->strs[i].len ||
                (s.len > 0 && memcmp(s.ptr, v->strs[i].ptr, s.len) != 0)) {
                return differ(c, "kv %zu string element %llu (%s)", k, (unsigned long long)i,
                              gs_status_name(st));
            }
        }
        gs_str s;
        if (gs_kv_get_array_string(c->f, k, v->count, &s) != GS_E_OUT_OF_RANGE) {
            return differ(c, "kv %zu: element %llu past the end is readable", k,
                          (unsigned long long)v->count);
        }
        return 0;
    }
    unsigned size = gsw_value_size(v->elem_type);
    for (uint64_t i = 0; i < v->count; i++) {
        uint64_t bits = 0;
        gs_status st = read_bits(c->f, k, v->elem_type, i, &bits);
        uint64_t want = gsi_load_le(v->raw.ptr + i * size, size);
        if (st != GS_OK || bits != want) {
            return differ(c, "kv %zu element %llu: %s, 0x%llx, want 0x%llx", k,
                          (unsigned long long)i, gs_status_name(st), (unsigned long long)bits,
                          (unsigned long long)want);
        }
    }
    const void *data;
    uint64_t count;
    gs_status st = gs_kv_get_array_data(c->f, k, &data, &count);
    if (st != GS_OK || count != v->count ||
        (v->raw.len > 0 && memcmp(data, v->raw.ptr, v->raw.len) != 0)) {
        return differ(c, "kv %zu: raw array data (%s)", k, gs_status_name(st));
    }
    if (read_bits(c->f, k, v->elem_type, v->count, &junk) != GS_E_OUT_OF_RANGE) {
        return differ(c, "kv %zu: element %llu past the end is readable", k,
                      (unsigned long long)v->count);
    }
    return 0;
}

/* Record k (a "kv" or a "tensor") has the model's `field` (its key or name) and is found by it. */
static int check_name(checker *c, const char *record, size_t k, const char *field, gs_str got,
                      const gsw_blob *want,
                      gs_status (*find)(const gs_file *, const char *, size_t, size_t *))
{
    if (got.len != want->len || memcmp(got.ptr, want->ptr, want->len) != 0) {
        return differ(c, "%s %zu: %s differs", record, k, field);
    }
    size_t found;
    if (find(c->f, (const char *)want->ptr, want->len, &found) != GS_OK || found != k) {
        return differ(c, "%s %zu: not found by its %s", record, k, field);
    }
    return 0;
}

/* 0 when record k's info was read (st), else the difference. */
static int read_ok(checker *c, const char *record, size_t k, gs_status st)
{
    return st == GS_OK ? 0 : differ(c, "%s %zu: %s", record, k, gs_status_name(st));
}

static int check_kv(checker *c, size_t k, const gsw_kv *kv, const gsw_map *map)
{
    const gsw_value *v = &kv->value;
    gs_kv_info info;
    if (read_ok(c, "kv", k, gs_kv_info_at(c->f, k, &info)) != 0 ||
        check_name(c, "kv", k, "key", info.key, &kv->key, gs_kv_find_n) != 0) {
        return -1;
    }
    uint32_t elem = v->type == GS_VALUE_ARRAY ? v->elem_type : v->type;
    uint64_t count = v->type == GS_VALUE_ARRAY ? v->count : 1;
    if (info.type != v->type || info.elem_type != elem || info.count != count) {
        return differ(c, "kv %zu: type %u/%u count %llu, want %u/%u count %llu", k, info.type,
                      info.elem_type, (unsigned long long)info.count, v->type, elem,
                      (unsigned long long)count);
    }
    if (map != NULL) {
        uint32_t r = (uint32_t)k;
        uint64_t value_at = v->type == GS_VALUE_ARRAY    ? gsw_end(map, GSW_ARR_COUNT, r, 0)
                            : v->type == GS_VALUE_STRING ? gsw_at(map, GSW_STR_LEN, r, 0)
                                                         : gsw_at(map, GSW_VALUE, r, 0);
        if (info.offset != gsw_at(map, GSW_KEY_LEN, r, 0) || info.value_offset != value_at) {
            return differ(c, "kv %zu: reader offsets %llu/%llu, writer %llu/%llu", k,
                          (unsigned long long)info.offset, (unsigned long long)info.value_offset,
                          (unsigned long long)gsw_at(map, GSW_KEY_LEN, r, 0),
                          (unsigned long long)value_at);
        }
    }
    if (v->type == GS_VALUE_ARRAY) {
        return check_array(c, k, kv);
    }
    if (v->type == GS_VALUE_STRING) {
        gs_str s;
        gs_status st = gs_kv_get_string(c->f, k, &s);
        if (st != GS_OK || s.len != v->str.len ||
            (s.len > 0 && memcmp(s.ptr, v->str.ptr, s.len) != 0)) {
            return differ(c, "kv %zu: string differs (%s)", k, gs_status_name(st));
        }
        return 0;
    }
    uint64_t bits = 0;
    gs_status st = read_bits(c->f, k, v->type, UINT64_MAX, &bits);
    if (st != GS_OK || bits != v->bits) {
        return differ(c, "kv %zu: %s 0x%llx, want 0x%llx", k, gs_status_name(st),
                      (unsigned long long)bits, (unsigned long long)v->bits);
    }
    /* A getter of another type must refuse it. */
    uint32_t other = v->type == GS_VALUE_U8 ? GS_VALUE_I8 : GS_VALUE_U8;
    if (read_bits(c->f, k, other, UINT64_MAX, &bits) != GS_E_WRONG_TYPE) {
        return differ(c, "kv %zu: read as type %u", k, other);
    }
    return 0;
}

/* general.alignment when it is a u32 key, else 32: the rule both writer and reader follow. */
static uint32_t expected_alignment(const gsw_model *m)
{
    for (size_t i = 0; i < m->n_kv; i++) {
        const gsw_kv *kv = &m->kvs[i];
        if (kv->key.len == 17 && memcmp(kv->key.ptr, "general.alignment", 17) == 0 &&
            kv->value.type == GS_VALUE_U32) {
            return (uint32_t)kv->value.bits;
        }
    }
    return 32;
}

static int check_tensor(checker *c, size_t k, const gsw_tensor *t, uint64_t offset,
                        const gsw_map *map)
{
    gs_tensor_info info;
    if (read_ok(c, "tensor", k, gs_tensor_info_at(c->f, k, &info)) != 0 ||
        check_name(c, "tensor", k, "name", info.name, &t->name, gs_tensor_find_n) != 0) {
        return -1;
    }
    if (info.n_dims != t->n_dims || (int32_t)info.type != t->type) {
        return differ(c, "tensor %zu: n_dims %u type %d, want %u %d", k, info.n_dims, info.type,
                      t->n_dims, t->type);
    }
    for (uint32_t j = 0; j < GS_MAX_DIMS; j++) {
        uint64_t want = j < t->n_dims ? t->ne[j] : 1;
        if (info.ne[j] != want) {
            return differ(c, "tensor %zu: ne[%u] = %llu, want %llu", k, j,
                          (unsigned long long)info.ne[j], (unsigned long long)want);
        }
    }
    if (info.offset != offset || info.size != t->data.len) {
        return differ(c, "tensor %zu: offset %llu size %llu, want %llu %zu", k,
                      (unsigned long long)info.offset, (unsigned long long)info.size,
                      (unsigned long long)offset, t->data.len);
    }
    if (t->data.len > 0 && (info.data == NULL || memcmp(info.data, t->data.ptr, t->data.len))) {
        return differ(c, "tensor %zu: data bytes differ", k);
    }
    if (map != NULL && (info.info_offset != gsw_at(map, GSW_NAME_LEN, (uint32_t)k, 0) ||
                        info.data_offset != gsw_at(map, GSW_DATA, (uint32_t)k, 0))) {
        return differ(c, "tensor %zu: reader offsets differ from the writer's", k);
    }
    return 0;
}

int model_check(const gs_file *f, const gsw_model *m, const gsw_map *map, size_t file_size,
                char *why, size_t why_cap)
{
    checker c = {f, why, why_cap};
    if (gs_file_version(f) != m->version || gs_kv_count(f) != m->n_kv ||
        gs_tensor_count(f) != m->n_tensors) {
        return differ(&c, "version %u, %zu kv, %zu tensors; want %u, %zu, %zu",
                      gs_file_version(f), gs_kv_count(f), gs_tensor_count(f), m->version,
                      m->n_kv, m->n_tensors);
    }
    for (size_t k = 0; k < m->n_kv; k++) {
        if (check_kv(&c, k, &m->kvs[k], map) != 0) {
            return -1;
        }
    }
    uint32_t align = expected_alignment(m);
    uint64_t offset = 0;
    for (size_t k = 0; k < m->n_tensors; k++) {
        if (check_tensor(&c, k, &m->tensors[k], offset, map) != 0) {
            return -1;
        }
        offset += (m->tensors[k].data.len + align - 1) / align * align;
    }
    gs_layout l;
    gs_file_layout(f, &l);
    uint64_t data_offset = (l.tensor_info_end + align - 1) / align * align;
    if (l.alignment != align || l.file_size != file_size || l.data_offset != data_offset ||
        l.predicted_size != file_size || l.trailing_bytes != 0 || l.missing_tail_padding != 0 ||
        l.header_padding_nonzero != 0 || data_offset + offset != file_size) {
        return differ(&c, "layout: alignment %u size %llu data %llu predicted %llu; want %u %zu "
                      "%llu %zu", l.alignment, (unsigned long long)l.file_size,
                      (unsigned long long)l.data_offset, (unsigned long long)l.predicted_size,
                      align, file_size, (unsigned long long)data_offset, file_size);
    }
    if (map != NULL && (l.tensor_info_end != gsw_at(map, GSW_PADDING, 0, 0) ||
                        l.data_offset != gsw_end(map, GSW_PADDING, 0, 0))) {
        return differ(&c, "layout: reader section offsets differ from the writer's");
    }
    return 0;
}

size_t bytes_first_difference(const gsw_bytes *a, const gsw_bytes *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    size_t i = 0;
    while (i < n && a->data[i] == b->data[i]) {
        i++;
    }
    return i;
}
