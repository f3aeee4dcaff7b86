/* The one bounded reader. Nothing else in ggufsafe reads file bytes by pointer arithmetic of its
 * own: every read states how many bytes it needs and fails, without moving, when they are not
 * there. Values are assembled from little-endian bytes; no unaligned or aliasing loads.
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

static inline uint16_t gsi_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (uint16_t)(p[1] << 8));
}

static inline uint32_t gsi_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t gsi_le64(const uint8_t *p)
{
    return (uint64_t)gsi_le32(p) | (uint64_t)gsi_le32(p + 4) << 32;
}

static inline bool gsi_cur_u32(gsi_cursor *c, uint32_t *v)
{
    if (!gsi_cur_has(c, 4)) {
        return false;
    }
    *v = gsi_le32(c->base + c->pos);
    c->pos += 4;
    return true;
}

static inline bool gsi_cur_u64(gsi_cursor *c, uint64_t *v)
{
    if (!gsi_cur_has(c, 8)) {
        return false;
    }
    *v = gsi_le64(c->base + c->pos);
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
    case 2: return gsi_le16(p);
    case 4: return gsi_le32(p);
    default: return gsi_le64(p);
    }
}

#endif
