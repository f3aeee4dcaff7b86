#include "mem.h"

#include <stdlib.h>
#include <string.h>

#include "checked_math.h"

static void *libc_malloc(void *opaque, size_t n)
{
    (void)opaque;
    return malloc(n);
}

static void *libc_realloc(void *opaque, void *p, size_t n)
{
    (void)opaque;
    return realloc(p, n);
}

static void libc_free(void *opaque, void *p)
{
    (void)opaque;
    free(p);
}

void gsi_mem_init(gsi_mem *mem, const gs_allocator *hooks, uint64_t limit)
{
    if (hooks != NULL && hooks->malloc_fn != NULL) {
        mem->hooks = *hooks;
    } else {
        mem->hooks = (gs_allocator){libc_malloc, libc_realloc, libc_free, NULL};
    }
    mem->in_use = 0;
    mem->limit = limit;
    mem->shared = NULL;
}

static bool over(uint64_t in_use, uint64_t limit, uint64_t extra)
{
    uint64_t total;
    /* Detect and prevent integer overflow */
    return gsi_checked_add_u64(in_use, extra, &total) || total > limit;
}

static bool over_limit(gsi_mem *mem, uint64_t extra)
{
    if (over(mem->in_use, mem->limit, extra)) {
        return true;
    }
    if (mem->shared != NULL && over(mem->shared->in_use, mem->shared->limit, extra)) {
        mem->shared->exceeded = true;
        return true;
    }
    return false;
}

static uint64_t room(uint64_t in_use, uint64_t limit)
{
    return in_use < limit ? limit - in_use : 0;
}

uint64_t gsi_mem_room(const gsi_mem *mem)
{
    uint64_t r = room(mem->in_use, mem->limit);
    if (mem->shared != NULL) {
        uint64_t s = room(mem->shared->in_use, mem->shared->limit);
        r = s < r ? s : r;
    }
    return r;
}

/* Counts a change of n bytes (grown or shrunk) in the arena and its shared budget. */
static void charge(gsi_mem *mem, uint64_t n, bool grow)
{
    if (grow) {
        mem->in_use += n;
    } else {
        mem->in_use -= n;
    }
    if (mem->shared != NULL) {
        if (grow) {
            mem->shared->in_use += n;
        } else {
            mem->shared->in_use -= n;
        }
    }
}

gs_status gsi_mem_alloc(gsi_mem *mem, size_t n, void **out)
{
    *out = NULL;
    if (over_limit(mem, n)) {
        return GS_E_LIMIT_MEMORY;
    }
    void *p = mem->hooks.malloc_fn(mem->hooks.opaque, n);
    if (p == NULL) {
        return GS_E_NO_MEMORY;
    }
    charge(mem, n, true);
    *out = p;
    return GS_OK;
}

gs_status gsi_mem_calloc(gsi_mem *mem, size_t count, size_t elem, void **out)
{
    size_t n;
    /* Detect and prevent integer overflow */
    if (gsi_checked_mul_size(count, elem, &n)) {
        *out = NULL;
        return GS_E_LIMIT_MEMORY;
    }
    gs_status st = gsi_mem_alloc(mem, n, out);
    if (st == GS_OK) {
        memset(*out, 0, n);
    }
    return st;
}

gs_status gsi_mem_realloc(gsi_mem *mem, void **ptr, size_t old_n, size_t new_n)
{
    if (new_n > old_n && over_limit(mem, new_n - old_n)) {
        return GS_E_LIMIT_MEMORY;
    }
    void *p = mem->hooks.realloc_fn(mem->hooks.opaque, *ptr, new_n);
    if (p == NULL) {
        return GS_E_NO_MEMORY;
    }
    charge(mem, new_n > old_n ? new_n - old_n : old_n - new_n, new_n > old_n);
    *ptr = p;
    return GS_OK;
}

void gsi_mem_free(gsi_mem *mem, void *ptr, size_t n)
{
    if (ptr == NULL) {
        return;
    }
    mem->hooks.free_fn(mem->hooks.opaque, ptr);
    charge(mem, n, false);
}

gs_status gsi_mem_reserve(gsi_mem *mem, void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) {
        return GS_OK;
    }
    size_t new_cap = *cap < 16 ? 16 : *cap;
    while (new_cap < need) {
        /* Detect and prevent integer overflow */
        if (gsi_checked_mul_size(new_cap, 2, &new_cap)) {
            return GS_E_LIMIT_MEMORY;
        }
    }
    size_t old_bytes = *cap * elem;
    size_t new_bytes;
    /* Detect and prevent integer overflow */
    if (gsi_checked_mul_size(new_cap, elem, &new_bytes)) {
        return GS_E_LIMIT_MEMORY;
    }
    gs_status st;
    if (*ptr == NULL) {
        st = gsi_mem_alloc(mem, new_bytes, ptr);
    } else {
        st = gsi_mem_realloc(mem, ptr, old_bytes, new_bytes);
    }
    if (st == GS_OK) {
        *cap = new_cap;
    }
    return st;
}
