/* The only place the reader allocates. Every allocation goes through the caller's hooks and is
 * counted against gs_limits.max_metadata_memory (and, for the parts of a split set, against the
 * set's budget), so peak heap is bounded and failure can be injected (tests fail the N-th
 * allocation). */
#ifndef GGUFSAFE_MEM_H
#define GGUFSAFE_MEM_H

#include "ggufsafe.h"

/* A limit shared by several arenas: the parts of a split set (max_split_metadata_memory). */
typedef struct gsi_budget {
    uint64_t in_use;
    uint64_t limit;
    bool exceeded; /* an allocation was refused for this budget's sake */
} gsi_budget;

typedef struct gsi_mem {
    gs_allocator hooks;
    uint64_t in_use;  /* bytes currently allocated through this arena */
    uint64_t limit;   /* max_metadata_memory */
    gsi_budget *shared; /* charged too when not NULL; must outlive the arena's allocations */
} gsi_mem;

void gsi_mem_init(gsi_mem *mem, const gs_allocator *hooks, uint64_t limit);

/* Returns GS_OK, GS_E_LIMIT_MEMORY or GS_E_NO_MEMORY; *out is NULL on failure. n > 0. */
gs_status gsi_mem_alloc(gsi_mem *mem, size_t n, void **out);
/* Zero-filled. */
gs_status gsi_mem_calloc(gsi_mem *mem, size_t count, size_t elem, void **out);
/* Grows or shrinks *ptr from old_n to new_n bytes; *ptr is untouched on failure. */
gs_status gsi_mem_realloc(gsi_mem *mem, void **ptr, size_t old_n, size_t new_n);
/* Bytes that may still be allocated before a limit (the arena's or the shared one) is hit. */
uint64_t gsi_mem_room(const gsi_mem *mem);
/* ptr may be NULL. n must be the size it was allocated with. */
void gsi_mem_free(gsi_mem *mem, void *ptr, size_t n);

/* Growth policy for tables filled record by record: never pre-allocate from a count read from the
 * file beyond what has been parsed, so memory follows the bytes actually present. Ensures room for
 * `need` elements of `elem` bytes, doubling from 16. */
gs_status gsi_mem_reserve(gsi_mem *mem, void **ptr, size_t *cap, size_t need, size_t elem);

#endif
