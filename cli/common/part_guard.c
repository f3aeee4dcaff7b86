#include "part_guard.h"

#include <stdlib.h>
#include <string.h>

/* Each block is prefixed with its size, so that free and realloc can count it back. */
typedef union block_head {
    max_align_t align;
    size_t size;
} block_head;

static void *counted_malloc(void *opaque, size_t n)
{
    cli_part_pool *pool = opaque;
    if (n > SIZE_MAX - sizeof(block_head)) {
        return NULL;
    }
    block_head *h = malloc(sizeof *h + n);
    if (h == NULL) {
        return NULL;
    }
    h->size = n;
    pool->in_use += n;
    return h + 1;
}

static void counted_free(void *opaque, void *p)
{
    if (p == NULL) {
        return;
    }
    cli_part_pool *pool = opaque;
    block_head *h = (block_head *)p - 1;
    pool->in_use -= h->size;
    free(h);
}

static void *counted_realloc(void *opaque, void *p, size_t n)
{
    if (p == NULL) {
        return counted_malloc(opaque, n);
    }
    if (n > SIZE_MAX - sizeof(block_head)) {
        return NULL;
    }
    cli_part_pool *pool = opaque;
    block_head *h = (block_head *)p - 1;
    size_t old = h->size;
    block_head *moved = realloc(h, sizeof *h + n);
    if (moved == NULL) {
        return NULL;
    }
    moved->size = n;
    pool->in_use = pool->in_use - old + n;
    return moved + 1;
}

gs_status cli_part_guard_init(cli_part_guard *g, size_t n_parts)
{
    memset(g, 0, sizeof *g);
    gs_options defaults;
    gs_options_init(&defaults);
    for (unsigned i = 0; i < CLI_PART_POOLS; i++) {
        g->pools[i].limit = defaults.limits.max_metadata_memory;
    }
    gsi_index_init(&g->index);
    /* bounded by the number of parts, at most GS_SPLIT_MAX_PARTS */
    gsi_mem_init(&g->mem, NULL, UINT64_MAX);
    g->keys = calloc(n_parts > 0 ? n_parts : 1, sizeof *g->keys);
    if (g->keys == NULL) {
        return GS_E_NO_MEMORY;
    }
    g->n_parts = n_parts;
    return GS_OK;
}

void cli_part_guard_free(cli_part_guard *g)
{
    gsi_index_free(&g->index, &g->mem);
    free(g->keys);
    g->keys = NULL;
}

void cli_part_guard_options(cli_part_guard *g, unsigned pool, gs_options *opts)
{
    cli_part_pool *p = &g->pools[pool];
    opts->allocator = (gs_allocator){counted_malloc, counted_realloc, counted_free, p};
    uint64_t left = p->in_use < p->limit ? p->limit - p->in_use : 0;
    if (left < opts->limits.max_metadata_memory) {
        opts->limits.max_metadata_memory = left;
    }
}

static const uint8_t *key_at(const void *ctx, uint32_t i, uint64_t *len)
{
    const cli_part_guard *g = ctx;
    *len = GSI_FILE_KEY_BYTES;
    return g->keys[i];
}

uint32_t cli_part_guard_same_as(cli_part_guard *g, size_t part, const gs_file *f,
                                gs_status *st)
{
    *st = GS_OK;
    gs_identity id;
    if (part >= g->n_parts || gs_file_identity(f, &id) != GS_OK) {
        return 0; /* a buffer: no file to compare */
    }
    gsi_file_key(&id, g->keys[part]);
    gsi_name_source src = {g, key_at};
    bool dup = false;
    uint32_t earlier = 0;
    *st = gsi_index_insert(&g->index, &g->mem, &src, g->keys[part], GSI_FILE_KEY_BYTES,
                           (uint32_t)part, &dup, &earlier);
    return *st == GS_OK && dup ? earlier + 1 : 0;
}
