#include "gsw_map.h"

#include <stdio.h>
#include <stdlib.h>

void gsw_map_init(gsw_map *m)
{
    m->fields = NULL;
    m->n = 0;
    m->cap = 0;
}

void gsw_map_free(gsw_map *m)
{
    free(m->fields);
    gsw_map_init(m);
}

void gsw_map_add(gsw_map *m, gsw_kind kind, uint32_t record, uint64_t index, uint64_t offset,
                 uint64_t size)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        gsw_field *f = realloc(m->fields, cap * sizeof *f);
        if (f == NULL) {
            fprintf(stderr, "gsw_map: out of memory (%zu fields)\n", cap);
            abort();
        }
        m->fields = f;
        m->cap = cap;
    }
    m->fields[m->n++] = (gsw_field){offset, size, index, record, (uint32_t)kind};
}

const gsw_field *gsw_map_find(const gsw_map *m, gsw_kind kind, uint32_t record, uint64_t index)
{
    for (size_t i = 0; i < m->n; i++) {
        const gsw_field *f = &m->fields[i];
        if (f->kind == (uint32_t)kind && f->record == record && f->index == index) {
            return f;
        }
    }
    return NULL;
}

static const gsw_field *must_find(const gsw_map *m, gsw_kind kind, uint32_t record,
                                  uint64_t index)
{
    const gsw_field *f = gsw_map_find(m, kind, record, index);
    if (f == NULL) {
        fprintf(stderr, "gsw_map: no field %s record %u index %llu\n", gsw_kind_name(kind),
                record, (unsigned long long)index);
        abort();
    }
    return f;
}

uint64_t gsw_at(const gsw_map *m, gsw_kind kind, uint32_t record, uint64_t index)
{
    return must_find(m, kind, record, index)->offset;
}

uint64_t gsw_end(const gsw_map *m, gsw_kind kind, uint32_t record, uint64_t index)
{
    const gsw_field *f = must_find(m, kind, record, index);
    return f->offset + f->size;
}

void gsw_override(gsw_bytes *b, const gsw_map *m, gsw_kind kind, uint32_t record, uint64_t index,
                  uint64_t value)
{
    const gsw_field *f = must_find(m, kind, record, index);
    if (f->size == 0 || f->size > 8 || (f->size < 8 && value >> (8 * f->size) != 0)) {
        fprintf(stderr, "gsw_override: %s is %llu bytes, cannot hold 0x%llx\n",
                gsw_kind_name(kind), (unsigned long long)f->size, (unsigned long long)value);
        abort();
    }
    gsw_patch_le(b, (size_t)f->offset, value, (unsigned)f->size);
}

const char *gsw_kind_name(gsw_kind kind)
{
    static const char *const names[GSW_KIND_COUNT] = {
        [GSW_MAGIC] = "magic",         [GSW_VERSION] = "version",
        [GSW_N_TENSORS] = "n_tensors", [GSW_N_KV] = "n_kv",
        [GSW_KEY_LEN] = "key_len",     [GSW_KEY] = "key",
        [GSW_VALUE_TYPE] = "value_type", [GSW_VALUE] = "value",
        [GSW_STR_LEN] = "str_len",     [GSW_STR] = "str",
        [GSW_ARR_TYPE] = "arr_type",   [GSW_ARR_COUNT] = "arr_count",
        [GSW_ARR_ELEM] = "arr_elem",   [GSW_ARR_STR_LEN] = "arr_str_len",
        [GSW_ARR_STR] = "arr_str",     [GSW_NAME_LEN] = "name_len",
        [GSW_NAME] = "name",           [GSW_N_DIMS] = "n_dims",
        [GSW_DIM] = "dim",             [GSW_TENSOR_TYPE] = "tensor_type",
        [GSW_OFFSET] = "offset",       [GSW_PADDING] = "padding",
        [GSW_DATA] = "data",           [GSW_DATA_PAD] = "data_pad",
    };
    if ((unsigned)kind >= GSW_KIND_COUNT) {
        return "unknown";
    }
    return names[kind];
}
