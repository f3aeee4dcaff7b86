#define _GNU_SOURCE /* MAP_ANONYMOUS, madvise, mremap */
#include "mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "checked_math.h"

/* The default allocator (no hooks given). The metadata copy and the large tables are written
 * once, front to back, as they grow: in 4 KiB pages every page faults (a 19 MB vocabulary:
 * about 6,000 faults, most of an open's time on a virtual machine), and glibc's realloc copies
 * each doubling into fresh pages again. Blocks of LARGE_BLOCK and more are therefore their own
 * mappings, aligned to 2 MiB and advised to use transparent huge pages (one fault per 2 MiB
 * where the kernel has them); they grow in place up to the 2 MiB boundary and otherwise into a
 * mapping twice as large (address space, not memory: pages cost only once touched). A header
 * before every block says which kind it is. A caller's allocator is used as it is. */
#define LARGE_BLOCK ((size_t)1 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

typedef union block_head {
    max_align_t align;
    struct {
        size_t size; /* bytes the caller asked for */
        size_t span; /* 0: from malloc; else the bytes mapped (a multiple of HUGE_PAGE) */
    } h;
} block_head;

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to; /* n is far below SIZE_MAX: checked by the callers */
}

/* span bytes of zeroed memory at a 2 MiB boundary, or NULL. */
static void *map_aligned(size_t span)
{
    uint8_t *m = mmap(NULL, span + HUGE_PAGE, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        return NULL;
    }
    uintptr_t at = ((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uint8_t *a = (uint8_t *)at;
    if (a > m) {
        munmap(m, (size_t)(a - m));
    }
    if (m + span + HUGE_PAGE > a + span) {
        munmap(a + span, (size_t)(m + span + HUGE_PAGE - (a + span)));
    }
    (void)madvise(a, span, MADV_HUGEPAGE);
    return a;
}

static void *head_to_user(block_head *b, size_t n, size_t span)
{
    b->h.size = n;
    b->h.span = span;
    return b + 1;
}

/* A mapped block of at least n bytes with room to grow to span. */
static void *map_block(size_t n, size_t span)
{
    void *m = map_aligned(span);
    return m != NULL ? head_to_user(m, n, span) : NULL;
}

static void *libc_malloc(void *opaque, size_t n)
{
    (void)opaque;
    if (n > SIZE_MAX / 4) {
        return NULL;
    }
    if (n < LARGE_BLOCK) {
        block_head *b = malloc(sizeof *b + n);
        return b != NULL ? head_to_user(b, n, 0) : NULL;
    }
    return map_block(n, round_up(sizeof(block_head) + n, HUGE_PAGE));
}

static void libc_free(void *opaque, void *p)
{
    (void)opaque;
    if (p == NULL) {
        return;
    }
    block_head *b = (block_head *)p - 1;
    if (b->h.span != 0) {
        munmap(b, b->h.span);
    } else {
        free(b);
    }
}

static void *libc_realloc(void *opaque, void *p, size_t n)
{
    if (p == NULL) {
        return libc_malloc(opaque, n);
    }
    if (n > SIZE_MAX / 4) {
        return NULL;
    }
    block_head *b = (block_head *)p - 1;
    const size_t old = b->h.size;
    if (b->h.span != 0 && sizeof *b + n <= b->h.span) {
        b->h.size = n; /* in place: the mapping has room (or more than enough) */
        return p;
    }
    if (b->h.span == 0 && n < LARGE_BLOCK) {
        block_head *q = realloc(b, sizeof *b + n);
        return q != NULL ? head_to_user(q, n, 0) : NULL;
    }
    const size_t span = round_up(sizeof *b + 2 * n, HUGE_PAGE); /* twice the room it needs */
#if defined(__linux__)
    /* grown past its mapping: its pages move to a larger aligned place, page tables and not
     * bytes (huge pages stay huge: both ends are 2 MiB-aligned), and the rest is fresh */
    if (b->h.span != 0 && n >= LARGE_BLOCK) {
        void *dest = map_aligned(span);
        if (dest != NULL) {
            void *m = mremap(b, b->h.span, span, MREMAP_MAYMOVE | MREMAP_FIXED, dest);
            if (m != MAP_FAILED) {
                return head_to_user(m, n, span);
            }
            munmap(dest, span);
        }
    }
#endif
    /* elsewhere, or from the heap into a mapping */
    void *q = n < LARGE_BLOCK ? libc_malloc(opaque, n) : map_block(n, span);
    if (q != NULL) {
        memcpy(q, p, old < n ? old : n);
        libc_free(opaque, p);
    }
    return q;
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
    /* the default allocator's large blocks are fresh mappings, zero already: writing zeros
     * would only fault in every page of a table that is filled sparsely (the key index) */
    bool fresh = mem->hooks.malloc_fn == libc_malloc && n >= LARGE_BLOCK;
    if (st == GS_OK && !fresh) {
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
