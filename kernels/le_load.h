/* Little-endian loads: the one helper of the whole tree for reading a multi-byte little-endian
 * field from bytes at any address (the decoders, the reader's cursor and getters, the
 * certification checks, the tests and the fuzzers). kernels/ is the lowest layer, so every other
 * part may include it; it depends on nothing but fp_convert.h.
 *
 * A load copies the bytes into an integer with memcpy (one unaligned load on x86-64 and AArch64,
 * never a cast through a wider pointer: blocks and records sit at any address, MXFP4 blocks are
 * 17 bytes) and swaps them on a big-endian host. A compiler that does not say which byte order
 * it targets gets the value assembled from bytes. Every form gives the same value on every host;
 * nothing is read outside the n bytes at p. */
#ifndef GGUFSAFE_LE_LOAD_H
#define GGUFSAFE_LE_LOAD_H

#include <stdint.h>
#include <string.h>

#include "fp_convert.h"

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define GSI_LE_LOAD_NATIVE 1 /* host order is little-endian: the copy is the value */
#elif defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define GSI_LE_LOAD_NATIVE 2 /* big-endian: the copy, byte-swapped */
#else
#define GSI_LE_LOAD_NATIVE 0 /* unknown: from bytes */
#endif

/* The n bytes at p (n = 0..8) as a little-endian unsigned value: for widths known only at run
 * time (KV values, record fields, a hash's tail), and the fixed widths' form on a host of
 * unknown byte order. */
static inline uint64_t gsi_load_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;) {
        v = v << 8 | p[i];
    }
    return v;
}

/* gsi_load_u16le, gsi_load_u32le and gsi_load_u64le: the field of that width at p. */
#if GSI_LE_LOAD_NATIVE == 2
#define GSI_LE_FROM_COPY(bits, v) __builtin_bswap##bits(v)
#else
#define GSI_LE_FROM_COPY(bits, v) (v)
#endif
#if GSI_LE_LOAD_NATIVE != 0
#define GSI_LE_LOAD_FIXED(bits)                                                                \
    static inline uint##bits##_t gsi_load_u##bits##le(const uint8_t *p)                        \
    {                                                                                          \
        uint##bits##_t v;                                                                      \
        memcpy(&v, p, sizeof v);                                                               \
        return GSI_LE_FROM_COPY(bits, v);                                                      \
    }
#else
#define GSI_LE_LOAD_FIXED(bits)                                                                \
    static inline uint##bits##_t gsi_load_u##bits##le(const uint8_t *p)                        \
    {                                                                                          \
        return (uint##bits##_t)gsi_load_le(p, bits / 8);                                       \
    }
#endif
GSI_LE_LOAD_FIXED(16)
GSI_LE_LOAD_FIXED(32)
GSI_LE_LOAD_FIXED(64)
#undef GSI_LE_LOAD_FIXED
#undef GSI_LE_FROM_COPY

/* A byte read as int8 without an implementation-defined conversion. */
static inline int gsi_s8(uint8_t b)
{
    return (int)b - ((b & 0x80u) ? 256 : 0);
}

/* An f16 field converted to f32 (fp_convert.h: ggml's bits). */
static inline float gsi_load_f16(const uint8_t *p)
{
    return gsi_f16_to_f32(gsi_load_u16le(p));
}

/* An f32 field, every payload kept. */
static inline float gsi_load_f32le(const uint8_t *p)
{
    return gsi_f32_from_bits(gsi_load_u32le(p));
}

#endif
