/* The one bounded reader. Nothing else in ggufsafe reads file bytes by pointer arithmetic of its
 * own: every read states how many bytes it needs and fails, without moving, when they are not
 * there. Values are read with the little-endian loads of kernels/le_load.h (from bytes at any
 * address: no alignment or aliasing assumptions).
 *
 * `size` is the length of the file; `avail` how much of it is in memory at `base` (all of it,
 * except when the metadata is read piecewise with pread: then a read past `avail` but inside
 * the file sets `need_more`, and the parse is repeated over a longer prefix). Lengths and
 * counts are checked against `size`; bytes are read only below `avail`. */
#ifndef GGUFSAFE_CURSOR_H
#define GGUFSAFE_CURSOR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "le_load.h"

typedef struct gsi_cursor {
    const uint8_t *base;
    uint64_t size;
    uint64_t pos;
    uint64_t avail;
    bool need_more;
} gsi_cursor;

/* Bytes of the file after the cursor: what lengths and counts are checked against. */
static inline uint64_t gsi_cur_remaining(const gsi_cursor *c)
{
    return c->size - c->pos;
}

/* Whether n bytes at the cursor can be read now. */
static inline bool gsi_cur_has(gsi_cursor *c, uint64_t n)
{
    if (c->pos <= c->avail && n <= c->avail - c->pos) {
        return true;
    }
    if (n <= c->size - c->pos) {
        c->need_more = true; /* in the file, not yet in memory */
    }
    return false;
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
