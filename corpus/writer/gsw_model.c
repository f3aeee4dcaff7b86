#include "gsw_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsw_alloc.h"
#include "gsw_bytes.h"

/* An array of n items of `size` bytes (cap of them allocated) with room for one more, that
 * one zeroed: the array, moved when it had to grow (doubling, from 16). */
static void *grow_zeroed(void *items, size_t n, size_t *cap, size_t size)
{
    items = gsw_grow(items, cap, n + 1, size, 16, "gsw_model");
    memset((char *)items + n * size, 0, size);
    return items;
}

static gsw_blob blob_copy(const void *src, size_t n)
{
    gsw_blob b = {NULL, n};
    b.ptr = gsw_xrealloc(NULL, n, "gsw_model");
    if (n > 0 && src != NULL) {
        memcpy(b.ptr, src, n);
    } else if (n > 0) {
        memset(b.ptr, 0, n);
    }
    return b;
}

static void blob_free(gsw_blob *b)
{
    free(b->ptr);
    b->ptr = NULL;
    b->len = 0;
}

static void value_free(gsw_value *v)
{
    blob_free(&v->str);
    blob_free(&v->raw);
    if (v->strs != NULL) {
        for (uint64_t i = 0; i < v->count; i++) {
            blob_free(&v->strs[i]);
        }
        free(v->strs);
    }
    if (v->items != NULL) {
        for (uint64_t i = 0; i < v->count; i++) {
            value_free(&v->items[i]);
        }
        free(v->items);
    }
    memset(v, 0, sizeof *v);
}

void gsw_model_init(gsw_model *m, uint32_t version)
{
    memset(m, 0, sizeof *m);
    m->version = version;
}

void gsw_model_free(gsw_model *m)
{
    for (size_t i = 0; i < m->n_kv; i++) {
        blob_free(&m->kvs[i].key);
        value_free(&m->kvs[i].value);
    }
    free(m->kvs);
    for (size_t i = 0; i < m->n_tensors; i++) {
        blob_free(&m->tensors[i].name);
        blob_free(&m->tensors[i].data);
    }
    free(m->tensors);
    gsw_model_init(m, m->version);
}

unsigned gsw_value_size(uint32_t type)
{
    /* The spec's element sizes, kept apart from the reader's (gsi_value_size) on purpose: a
     * wrong size in one of them cannot then hide in a round trip through the other. */
    static const unsigned char size[] = {
        [GS_VALUE_U8] = 1,  [GS_VALUE_I8] = 1,  [GS_VALUE_BOOL] = 1, [GS_VALUE_U16] = 2,
        [GS_VALUE_I16] = 2, [GS_VALUE_U32] = 4, [GS_VALUE_I32] = 4,  [GS_VALUE_F32] = 4,
        [GS_VALUE_U64] = 8, [GS_VALUE_I64] = 8, [GS_VALUE_F64] = 8,
    };
    return type < sizeof size ? size[type] : 0;
}

gsw_value *gsw_add_n(gsw_model *m, const void *key, size_t key_len)
{
    m->kvs = grow_zeroed(m->kvs, m->n_kv, &m->cap_kv, sizeof *m->kvs);
    gsw_kv *kv = &m->kvs[m->n_kv++];
    kv->key = blob_copy(key, key_len);
    kv->value.type = GS_VALUE_U8;
    return &kv->value;
}

gsw_value *gsw_add(gsw_model *m, const char *key)
{
    return gsw_add_n(m, key, strlen(key));
}

void gsw_set_scalar(gsw_value *v, uint32_t type, uint64_t bits)
{
    value_free(v);
    v->type = type;
    v->bits = bits;
}

#define SET_INT(suffix, ctype, bits, type)                                                      \
    void gsw_set_##suffix(gsw_value *v, ctype x)                                                 \
    {                                                                                            \
        gsw_set_scalar(v, GS_VALUE_##type, (uint##bits##_t)x);                                   \
    }
GSW_INT_VALUES(SET_INT)
#undef SET_INT

void gsw_set_bool(gsw_value *v, uint8_t byte) { gsw_set_scalar(v, GS_VALUE_BOOL, byte); }
void gsw_set_f32(gsw_value *v, float x) { gsw_set_scalar(v, GS_VALUE_F32, gsw_f32_bits(x)); }

void gsw_set_f64(gsw_value *v, double x) { gsw_set_scalar(v, GS_VALUE_F64, gsw_f64_bits(x)); }

void gsw_set_string(gsw_value *v, const void *s, size_t n)
{
    value_free(v);
    v->type = GS_VALUE_STRING;
    v->str = blob_copy(s, n);
}

void gsw_set_cstr(gsw_value *v, const char *s)
{
    gsw_set_string(v, s, strlen(s));
}

/* Element counts of in-memory arrays must fit a size_t product; tests never come close. */
static size_t array_bytes(uint64_t count, unsigned size)
{
    size_t n;
    if (count > SIZE_MAX || __builtin_mul_overflow((size_t)count, (size_t)size, &n)) {
        fprintf(stderr, "gsw_model: array of %llu elements does not fit in memory\n",
                (unsigned long long)count);
        abort();
    }
    return n;
}

void gsw_set_array(gsw_value *v, uint32_t elem_type, uint64_t count, const void *wire)
{
    unsigned size = gsw_value_size(elem_type);
    if (size == 0) {
        fprintf(stderr, "gsw_set_array: element type %u is not fixed-size\n", elem_type);
        abort();
    }
    value_free(v);
    v->type = GS_VALUE_ARRAY;
    v->elem_type = elem_type;
    v->count = count;
    v->raw = blob_copy(wire, array_bytes(count, size));
}

void gsw_set_string_array(gsw_value *v, uint64_t count)
{
    value_free(v);
    v->type = GS_VALUE_ARRAY;
    v->elem_type = GS_VALUE_STRING;
    v->count = count;
    v->strs = gsw_xcalloc(array_bytes(count, 1), sizeof *v->strs, "gsw_model");
}

void gsw_array_string(gsw_value *v, uint64_t i, const void *s, size_t n)
{
    if (v->type != GS_VALUE_ARRAY || v->elem_type != GS_VALUE_STRING || i >= v->count) {
        fprintf(stderr, "gsw_array_string: not a string array, or index %llu out of range\n",
                (unsigned long long)i);
        abort();
    }
    blob_free(&v->strs[i]);
    v->strs[i] = blob_copy(s, n);
}

gsw_value *gsw_set_nested_array(gsw_value *v, uint64_t count)
{
    value_free(v);
    v->type = GS_VALUE_ARRAY;
    v->elem_type = GS_VALUE_ARRAY;
    v->count = count;
    v->items = gsw_xcalloc(array_bytes(count, 1), sizeof *v->items, "gsw_model");
    for (uint64_t i = 0; i < count; i++) {
        gsw_set_array(&v->items[i], GS_VALUE_U8, 0, NULL);
    }
    return v->items;
}

gsw_tensor *gsw_add_tensor_n(gsw_model *m, const void *name, size_t name_len, uint32_t n_dims,
                             const uint64_t *ne, int32_t type)
{
    if (n_dims > GSW_MAX_DIMS) {
        fprintf(stderr, "gsw_add_tensor: %u dimensions, the model holds %d\n", n_dims,
                GSW_MAX_DIMS);
        abort();
    }
    m->tensors = grow_zeroed(m->tensors, m->n_tensors, &m->cap_tensors, sizeof *m->tensors);
    gsw_tensor *t = &m->tensors[m->n_tensors++];
    t->name = blob_copy(name, name_len);
    t->n_dims = n_dims;
    for (uint32_t j = 0; j < n_dims; j++) {
        t->ne[j] = ne[j];
    }
    t->type = type;
    return t;
}

gsw_tensor *gsw_add_tensor(gsw_model *m, const char *name, uint32_t n_dims, const uint64_t *ne,
                           int32_t type)
{
    return gsw_add_tensor_n(m, name, strlen(name), n_dims, ne, type);
}

void gsw_tensor_set_data(gsw_tensor *t, const void *data, size_t len)
{
    blob_free(&t->data);
    t->data = blob_copy(data, len);
}

bool gsw_tensor_nbytes(int32_t type, uint32_t n_dims, const uint64_t *ne, uint64_t *out)
{
    gs_type_info info; /* GS_OK: a live or activation type */
    if (gs_type_get_info(type, &info) != GS_OK || info.block_elems == 0 || n_dims > GS_MAX_DIMS) {
        return false;
    }
    uint64_t ne0 = n_dims > 0 ? ne[0] : 1;
    if (ne0 % info.block_elems != 0) {
        return false;
    }
    uint64_t n = ne0 / info.block_elems;
    if (__builtin_mul_overflow(n, info.block_bytes, &n)) {
        return false;
    }
    for (uint32_t j = 1; j < n_dims; j++) {
        if (__builtin_mul_overflow(n, ne[j], &n)) {
            return false;
        }
    }
    *out = n;
    return true;
}

/* splitmix64: a tiny, well-mixed sequence so that filled data is reproducible. */
static uint64_t mix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

bool gsw_tensor_fill(gsw_tensor *t, uint64_t seed, uint64_t max_bytes)
{
    uint64_t n;
    blob_free(&t->data);
    if (!gsw_tensor_nbytes(t->type, t->n_dims, t->ne, &n) || n > max_bytes || n > SIZE_MAX) {
        return false;
    }
    t->data = blob_copy(NULL, (size_t)n);
    uint64_t state = seed;
    for (size_t i = 0; i < t->data.len; i += 8) {
        uint64_t r = mix(&state);
        for (size_t b = 0; b < 8 && i + b < t->data.len; b++) {
            t->data.ptr[i + b] = (uint8_t)(r >> (8 * b)); /* little-endian: same on every host */
        }
    }
    return true;
}

uint32_t gsw_model_alignment(const gsw_model *m)
{
    static const char key[] = "general.alignment";
    if (m->alignment_override != 0) {
        return m->alignment_override;
    }
    for (size_t i = 0; i < m->n_kv; i++) {
        const gsw_kv *kv = &m->kvs[i];
        if (kv->key.len == sizeof key - 1 && memcmp(kv->key.ptr, key, sizeof key - 1) == 0) {
            if (kv->value.type != GS_VALUE_U32) {
                return GSW_DEFAULT_ALIGNMENT;
            }
            return (uint32_t)kv->value.bits;
        }
    }
    return GSW_DEFAULT_ALIGNMENT;
}
