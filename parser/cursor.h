/* The one bounded reader. Nothing else in ggufsafe reads file bytes by pointer arithmetic of its
 * own: every read states how many bytes it needs and fails, without moving, when they are not
 * there. Values are read with the little-endian loads of kernels/le_load.h (from bytes at any
 * address: no alignment or aliasing assumptions).
 *
 * `size` is the length of the file; `avail` how much of it is in memory at `base`: all of it for
 * buffers and mappings, a growing prefix when the metadata is read with pread (copy_metadata,
 * reopen_for_data). Then a read past `avail` but inside the file refills: `refill` reads more
 * into the heap copy, in one pass (refill.c), and `base` may move. Lengths and counts are
 * checked against `size`; bytes are read only below `avail`. A pointer into `base` is therefore
 * good only until the next read: records keep offsets. */
#ifndef GGUFSAFE_CURSOR_H
#define GGUFSAFE_CURSOR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "le_load.h"

typedef struct gsi_refill gsi_refill;

typedef struct gsi_cursor {
    const uint8_t *base;
    uint64_t size;
    uint64_t pos;
    uint64_t avail;
    gsi_refill *refill; /* NULL: avail == size */
} gsi_cursor;

/* Brings [0, end) into memory, end <= size and end > avail (refill.c). False when the read or
 * the allocation failed: the parse then fails, and the open reports the refill's own error. */
bool gsi_cur_refill(gsi_cursor *c, uint64_t end);

/* Bytes of the file after the cursor: what lengths and counts are checked against. */
static inline uint64_t gsi_cur_remaining(const gsi_cursor *c)
{
    return c->size - c->pos;
}

/* Whether n bytes at the cursor can be read now (refilling when they are in the file). */
static inline bool gsi_cur_has(gsi_cursor *c, uint64_t n)
{
    if (c->pos <= c->avail && n <= c->avail - c->pos) {
        return true;
    }
    return c->refill != NULL && n <= c->size - c->pos && gsi_cur_refill(c, c->pos + n);
}

/* Whether bytes [0, end) of the file can be read now; end <= size. */
static inline bool gsi_cur_reach(gsi_cursor *c, uint64_t end)
{
    return end <= c->avail || (c->refill != NULL && gsi_cur_refill(c, end));
}

static inline const uint8_t *gsi_cur_ptr(const gsi_cursor *c)
{
    return c->base + c->pos;
}

static inline bool gsi_cur_u32(gsi_cursor *c, uint32_t *v)
{
    if (!gsi_cur_has(c, 4)) {
        return false;
    }
    *v = gsi_load_u32le(c->base + c->pos);
    c->pos += 4;
    return true;
}

static inline bool gsi_cur_u64(gsi_cursor *c, uint64_t *v)
{
    if (!gsi_cur_has(c, 8)) {
        return false;
    }
    *v = gsi_load_u64le(c->base + c->pos);
    c->pos += 8;
    return true;
}

/* Reads a little-endian value at an absolute position already known to be in bounds (validated
 * at open time); used by getters on an open file. */
static inline uint64_t gsi_read_at_le(const uint8_t *base, uint64_t pos, unsigned width)
{
    const uint8_t *p = base + pos;
    switch (width) {
    case 1: return p[0];
    case 2: return gsi_load_u16le(p);
    case 4: return gsi_load_u32le(p);
    default: return gsi_load_u64le(p);
    }
}

#endif
