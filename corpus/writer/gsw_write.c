#include "gsw_write.h"

#include <stdarg.h>
#include <stdio.h>

static const uint8_t gguf_magic[4] = {'G', 'G', 'U', 'F'};

typedef struct writer {
    gsw_bytes *out;
    gsw_map *map; /* may be NULL */
    char *why;
    size_t why_cap;
} writer;

__attribute__((format(printf, 2, 3))) static int fail(writer *w, const char *fmt, ...)
{
    if (w->why != NULL && w->why_cap > 0) {
        va_list ap;
        va_start(ap, fmt);
        (void)vsnprintf(w->why, w->why_cap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Notes the field that starts at `start` and ends at the current end of the output. */
static void mark(writer *w, gsw_kind kind, uint32_t record, uint64_t index, size_t start)
{
    if (w->map != NULL) {
        gsw_map_add(w->map, kind, record, index, start, w->out->len - start);
    }
}

static void put_le_field(writer *w, gsw_kind kind, uint32_t record, uint64_t index, uint64_t v,
                         unsigned width)
{
    size_t at = w->out->len;
    for (unsigned i = 0; i < width; i++) {
        gsw_put_u8(w->out, (uint8_t)(v >> (8 * i)));
    }
    mark(w, kind, record, index, at);
}

static void put_bytes_field(writer *w, gsw_kind kind, uint32_t record, uint64_t index,
                            const gsw_blob *b)
{
    size_t at = w->out->len;
    gsw_put(w->out, b->ptr, b->len);
    mark(w, kind, record, index, at);
}

/* Element type, count and elements of an array (the part after the value type). */
static int put_array_body(writer *w, uint32_t record, const gsw_value *v)
{
    put_le_field(w, GSW_ARR_TYPE, record, 0, v->elem_type, 4);
    put_le_field(w, GSW_ARR_COUNT, record, 0, v->count, 8);
    if (v->elem_type == GS_VALUE_STRING) {
        for (uint64_t i = 0; i < v->count; i++) {
            put_le_field(w, GSW_ARR_STR_LEN, record, i, v->strs[i].len, 8);
            put_bytes_field(w, GSW_ARR_STR, record, i, &v->strs[i]);
        }
        return 0;
    }
    if (v->elem_type == GS_VALUE_ARRAY) {
        for (uint64_t i = 0; i < v->count; i++) {
            if (put_array_body(w, record, &v->items[i]) != 0) {
                return -1;
            }
        }
        return 0;
    }
    unsigned size = gsw_value_size(v->elem_type);
    if (size == 0) {
        return fail(w, "key-value %u: array element type %u has no encoding", record,
                    v->elem_type);
    }
    for (uint64_t i = 0; i < v->count; i++) {
        size_t at = w->out->len;
        gsw_put(w->out, v->raw.ptr + i * size, size);
        mark(w, GSW_ARR_ELEM, record, i, at);
    }
    return 0;
}

static int put_kv(writer *w, uint32_t record, const gsw_kv *kv)
{
    put_le_field(w, GSW_KEY_LEN, record, 0, kv->key.len, 8);
    put_bytes_field(w, GSW_KEY, record, 0, &kv->key);
    const gsw_value *v = &kv->value;
    put_le_field(w, GSW_VALUE_TYPE, record, 0, v->type, 4);
    if (v->type == GS_VALUE_STRING) {
        put_le_field(w, GSW_STR_LEN, record, 0, v->str.len, 8);
        put_bytes_field(w, GSW_STR, record, 0, &v->str);
        return 0;
    }
    if (v->type == GS_VALUE_ARRAY) {
        return put_array_body(w, record, v);
    }
    unsigned size = gsw_value_size(v->type);
    if (size == 0) {
        return fail(w, "key-value %u: value type %u has no encoding (write a valid value and "
                    "override its type)", record, v->type);
    }
    put_le_field(w, GSW_VALUE, record, 0, v->bits, size);
    return 0;
}

/* Rounds x up to a multiple of align (align >= 1). */
static uint64_t pad(uint64_t x, uint64_t align)
{
    uint64_t rem = x % align;
    return rem == 0 ? x : x + (align - rem);
}

static int check_data_size(writer *w, uint32_t record, const gsw_tensor *t)
{
    uint64_t nbytes;
    if (!gsw_tensor_nbytes(t->type, t->n_dims, t->ne, &nbytes)) {
        return fail(w, "tensor %u: no size for type %d and this shape (use GSW_LAX)", record,
                    t->type);
    }
    if (nbytes != t->data.len) {
        return fail(w, "tensor %u: %zu data bytes, its shape needs %llu (use GSW_LAX)", record,
                    t->data.len, (unsigned long long)nbytes);
    }
    return 0;
}

static void put_tensor_info(writer *w, uint32_t record, const gsw_tensor *t, uint64_t offset)
{
    put_le_field(w, GSW_NAME_LEN, record, 0, t->name.len, 8);
    put_bytes_field(w, GSW_NAME, record, 0, &t->name);
    put_le_field(w, GSW_N_DIMS, record, 0, t->n_dims, 4);
    for (uint32_t j = 0; j < t->n_dims; j++) {
        put_le_field(w, GSW_DIM, record, j, t->ne[j], 8);
    }
    put_le_field(w, GSW_TENSOR_TYPE, record, 0, (uint32_t)t->type, 4);
    put_le_field(w, GSW_OFFSET, record, 0, offset, 8);
}

int gsw_write(const gsw_model *m, unsigned flags, gsw_bytes *out, gsw_map *map, char *why,
              size_t why_cap)
{
    writer w = {out, map, why, why_cap};
    uint32_t align = gsw_model_alignment(m);
    if (align == 0) {
        return fail(&w, "general.alignment is 0: set alignment_override to place the data");
    }
    if (m->n_kv > UINT32_MAX || m->n_tensors > UINT32_MAX) {
        return fail(&w, "more than 2^32 records");
    }

    size_t at = out->len;
    gsw_put(out, gguf_magic, sizeof gguf_magic);
    mark(&w, GSW_MAGIC, 0, 0, at);
    put_le_field(&w, GSW_VERSION, 0, 0, m->version, 4);
    put_le_field(&w, GSW_N_TENSORS, 0, 0, m->n_tensors, 8);
    put_le_field(&w, GSW_N_KV, 0, 0, m->n_kv, 8);

    for (size_t i = 0; i < m->n_kv; i++) {
        if (put_kv(&w, (uint32_t)i, &m->kvs[i]) != 0) {
            return -1;
        }
    }

    uint64_t offset = 0;
    for (size_t i = 0; i < m->n_tensors; i++) {
        const gsw_tensor *t = &m->tensors[i];
        if (!(flags & GSW_LAX) && check_data_size(&w, (uint32_t)i, t) != 0) {
            return -1;
        }
        put_tensor_info(&w, (uint32_t)i, t, offset);
        offset += pad(t->data.len, align);
    }

    /* ggml pads before the data section even when there are no tensors. */
    at = out->len;
    gsw_pad_to(out, align);
    mark(&w, GSW_PADDING, 0, 0, at);

    for (size_t i = 0; i < m->n_tensors; i++) {
        put_bytes_field(&w, GSW_DATA, (uint32_t)i, 0, &m->tensors[i].data);
        at = out->len;
        gsw_pad_to(out, align);
        mark(&w, GSW_DATA_PAD, (uint32_t)i, 0, at);
    }
    return 0;
}

int gsw_write_file(const gsw_model *m, unsigned flags, const char *path, char *why,
                   size_t why_cap)
{
    gsw_bytes b;
    gsw_bytes_init(&b);
    int rc = gsw_write(m, flags, &b, NULL, why, why_cap);
    if (rc == 0 && gsw_bytes_save(&b, path) != 0) {
        rc = -1;
        if (why != NULL && why_cap > 0) {
            (void)snprintf(why, why_cap, "cannot write %s", path);
        }
    }
    gsw_bytes_free(&b);
    return rc;
}
