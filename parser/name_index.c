#include "name_index.h"

#include <string.h>

#ifdef GGUFSAFE_TESTING
static uint64_t probes; /* atomically: threaded commands share one index */
#define COUNT_PROBE() __atomic_fetch_add(&probes, 1, __ATOMIC_RELAXED)

uint64_t gsi_index_probes(void)
{
    return __atomic_load_n(&probes, __ATOMIC_RELAXED);
}

void gsi_index_probes_reset(void)
{
    __atomic_store_n(&probes, 0, __ATOMIC_RELAXED);
}
#else
#define COUNT_PROBE() ((void)0)
#endif

void gsi_index_init(gsi_name_index *ix)
{
    memset(ix, 0, sizeof *ix);
    ix->key = gsi_sipkey_random();
}

void gsi_index_free(gsi_name_index *ix, gsi_mem *mem)
{
    gsi_mem_free(mem, ix->slots, ix->cap * sizeof(gsi_slot));
    ix->slots = NULL;
    ix->cap = 0;
    ix->used = 0;
}

static bool same_name(const gsi_name_source *src, uint32_t record, const uint8_t *name,
                      uint64_t len)
{
    uint64_t other_len;
    const uint8_t *other = src->name_at(src->ctx, record, &other_len);
    return other_len == len && (len == 0 || memcmp(other, name, (size_t)len) == 0);
}

static uint32_t hash_name(const gsi_name_index *ix, const uint8_t *name, uint64_t len)
{
    return (uint32_t)gsi_siphash13(&ix->key, name, (size_t)len);
}

/* Finds the slot holding name, or the empty slot where it would go. */
static size_t probe(const gsi_name_index *ix, const gsi_name_source *src, uint32_t h,
                    const uint8_t *name, uint64_t len)
{
    size_t mask = ix->cap - 1;
    size_t i = h & mask;
    for (;;) {
        COUNT_PROBE();
        const gsi_slot *s = &ix->slots[i];
        if (s->record_plus_one == 0) {
            return i;
        }
        if (s->hash == h && same_name(src, s->record_plus_one - 1, name, len)) {
            return i;
        }
        i = (i + 1) & mask;
    }
}

/* Moves the index into a table of new_cap slots (a power of two, above the used ones * 2). */
static gs_status resize(gsi_name_index *ix, gsi_mem *mem, size_t new_cap)
{
    gsi_slot *slots;
    gs_status st = gsi_mem_calloc(mem, new_cap, sizeof(gsi_slot), (void **)&slots);
    if (st != GS_OK) {
        return st;
    }
    size_t mask = new_cap - 1;
    for (size_t j = 0; j < ix->cap; j++) {
        if (j + 16 < ix->cap) { /* the destination of a slot a few ahead: the moves overlap */
            __builtin_prefetch(&slots[ix->slots[j + 16].hash & mask], 1);
        }
        gsi_slot s = ix->slots[j];
        if (s.record_plus_one == 0) {
            continue;
        }
        size_t i = s.hash & mask;
        COUNT_PROBE();
        while (slots[i].record_plus_one != 0) {
            COUNT_PROBE();
            i = (i + 1) & mask;
        }
        slots[i] = s;
    }
    gsi_mem_free(mem, ix->slots, ix->cap * sizeof(gsi_slot));
    ix->slots = slots;
    ix->cap = new_cap;
    return GS_OK;
}

static gs_status grow(gsi_name_index *ix, gsi_mem *mem)
{
    return resize(ix, mem, ix->cap == 0 ? 64 : ix->cap * 2);
}

gs_status gsi_index_reserve(gsi_name_index *ix, gsi_mem *mem, size_t n)
{
    if (n == 0) {
        return GS_OK; /* nothing to hold: allocate nothing, as growing would not */
    }
    /* the capacity growing by doubling would reach: the load factor stays at or below 1/2 */
    size_t cap = ix->cap == 0 ? 64 : ix->cap;
    while (n > cap / 2) {
        if (cap > SIZE_MAX / 2 / sizeof(gsi_slot)) {
            return GS_E_LIMIT_MEMORY;
        }
        cap *= 2;
    }
    return cap > ix->cap ? resize(ix, mem, cap) : GS_OK;
}

uint32_t gsi_index_hash_prefetch(const gsi_name_index *ix, const uint8_t *name, uint64_t len)
{
    uint32_t h = hash_name(ix, name, len);
    if (ix->cap > 0) {
        __builtin_prefetch(&ix->slots[h & (ix->cap - 1)], 1);
    }
    return h;
}

gs_status gsi_index_insert(gsi_name_index *ix, gsi_mem *mem, const gsi_name_source *src,
                           const uint8_t *name, uint64_t len, uint32_t record, bool *dup,
                           uint32_t *dup_record)
{
    return gsi_index_insert_hashed(ix, mem, src, name, len, hash_name(ix, name, len), record, dup,
                                   dup_record);
}

gs_status gsi_index_insert_hashed(gsi_name_index *ix, gsi_mem *mem, const gsi_name_source *src,
                                  const uint8_t *name, uint64_t len, uint32_t h, uint32_t record,
                                  bool *dup, uint32_t *dup_record)
{
    *dup = false;
    /* Keep the load factor at or below 1/2 so probe sequences stay short. */
    if ((ix->used + 1) * 2 > ix->cap) {
        gs_status st = grow(ix, mem);
        if (st != GS_OK) {
            return st;
        }
    }
    size_t i = probe(ix, src, h, name, len);
    if (ix->slots[i].record_plus_one != 0) {
        *dup = true;
        *dup_record = ix->slots[i].record_plus_one - 1;
        return GS_OK;
    }
    ix->slots[i].record_plus_one = record + 1;
    ix->slots[i].hash = h;
    ix->used++;
    return GS_OK;
}

bool gsi_index_find(const gsi_name_index *ix, const gsi_name_source *src, const uint8_t *name,
                    uint64_t len, uint32_t *record)
{
    if (ix->cap == 0) {
        return false;
    }
    uint32_t h = hash_name(ix, name, len);
    size_t i = probe(ix, src, h, name, len);
    if (ix->slots[i].record_plus_one == 0) {
        return false;
    }
    *record = ix->slots[i].record_plus_one - 1;
    return true;
}

void gsi_file_key(const gs_identity *id, uint8_t key[GSI_FILE_KEY_BYTES])
{
    memcpy(key, &id->device, 8);
    memcpy(key + 8, &id->inode, 8);
}
