#include "gsw_map.h"

#include <stdio.h>
#include <stdlib.h>

#include "gsw_alloc.h"

void gsw_map_init(gsw_map *m) { *m = (gsw_map){NULL, 0, 0}; }
void gsw_map_free(gsw_map *m) { free(m->fields); gsw_map_init(m); }

void gsw_map_add(gsw_map *m, gsw_kind kind, uint32_t record, uint64_t index, uint64_t offset,
                 uint64_t size)
{
    m->fields = gsw_grow(m->fields, &m->cap, m->n + 1, sizeof *m->fields, 64, "gsw_map");
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
#define KIND_NAME(suffix, name) [GSW_##suffix] = #name,
    static const char *const names[GSW_KIND_COUNT] = {GSW_KINDS(KIND_NAME)};
#undef KIND_NAME
    if ((unsigned)kind >= GSW_KIND_COUNT) {
        return "unknown";
    }
    return names[kind];
}
