/* The one bounded reader. Nothing else in ggufsafe reads file bytes by pointer arithmetic of its
 * own: every read states how many bytes it needs and fails, without moving, when they are not
 * there. Values are assembled from little-endian bytes; no unaligned or aliasing loads. */
#ifndef GGUFSAFE_CURSOR_H
#define GGUFSAFE_CURSOR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct gsi_cursor {
    const uint8_t *base;
    uint64_t size;
    uint64_t pos;
} gsi_cursor;

static inline uint64_t gsi_cur_remaining(const gsi_cursor *c)
{
    return c->size - c->pos;
}

static inline bool gsi_cur_has(const gsi_cursor *c, uint64_t n)
{
    return n <= c->size - c->pos;
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

static inline bool gsi_cur_skip(gsi_cursor *c, uint64_t n)
{
    if (!gsi_cur_has(c, n)) {
        return false;
    }
    c->pos += n;
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
