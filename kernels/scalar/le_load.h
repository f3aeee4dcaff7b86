/* Little-endian field loads from unaligned block bytes, the same on every host. Blocks sit at
 * any address (MXFP4 blocks are 17 bytes), so fields are assembled from bytes, never cast. */
#ifndef GGUFSAFE_LE_LOAD_H
#define GGUFSAFE_LE_LOAD_H

#include <stdint.h>

#include "fp_convert.h"

static inline uint16_t gsi_load_u16le(const uint8_t *p)
{
    return (uint16_t)((uint32_t)p[0] | (uint32_t)p[1] << 8);
}

static inline uint32_t gsi_load_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* An f16 field converted to f32. */
static inline float gsi_load_f16(const uint8_t *p)
{
    return gsi_f16_to_f32(gsi_load_u16le(p));
}

/* A byte read as int8 without an implementation-defined conversion. */
static inline int gsi_s8(uint8_t b)
{
    return (int)b - ((b & 0x80u) ? 256 : 0);
}

/* Byte j (0..7) of a grid entry, little-endian. */
static inline uint8_t gsi_byte_of(uint64_t entry, unsigned j)
{
    return (uint8_t)(entry >> (8u * j));
}

#endif
