/* Where the grid I-quants keep each group's grid index, sign mask and scale, read once for every
 * decoder path (kernels/scalar, kernels/avx2, kernels/neon): the paths differ only in how they
 * expand a group of 8 elements, never in which bits they read or in the float operations of a
 * scale, which follow the reference's order (docs/quant-types.md, "Bit-exact arithmetic").
 *
 * b is the block's first byte, ib a sub-block of 32 elements (0..7), l one of its groups of 8
 * (0..3); the layouts are block_layout.h's. */
#ifndef GGUFSAFE_IQUANT_FIELDS_H
#define GGUFSAFE_IQUANT_FIELDS_H

#include <stdint.h>

#include "block_layout.h"
#include "grids/grids.h"
#include "le_load.h"

/* IQ2 sub-block scale from a 4-bit field s: d * (0.5 + s) / 4, as (d * (0.5 + s)) * 0.25. */
static inline float gsi_iq2_scale(float d, uint32_t s)
{
    return d * (0.5f + (float)s) * 0.25f;
}

/* IQ2_XS and IQ2_S: the scale of group l from the sub-block's scales byte (a nibble per pair of
 * groups, the low one first). */
static inline float gsi_iq2_group_scale(float d, uint8_t scales, int l)
{
    return gsi_iq2_scale(d, (uint32_t)(scales >> (4 * (l / 2))) & 15u);
}

/* The sign mask of group l from a u32 of four 7-bit ksigns indices (IQ2_XXS, IQ3_XXS). */
static inline uint8_t gsi_iq_ksigns(uint32_t a, int l)
{
    return gsi_ksigns_iq2xs[(a >> (7 * l)) & 127u];
}

/* IQ2_XXS: d, then 8 sub-block records {4 grid indices, u32 a}; a holds the groups' ksigns
 * indices and, in its top nibble, the sub-block scale. */
static inline uint32_t gsi_iq2_xxs_aux(const uint8_t *b, int ib)
{
    return gsi_load_u32le(b + GSI_IQ2_XXS_QS + GSI_IQ2_XXS_SUB_BYTES * ib + GSI_IQ2_XXS_SUB_AUX);
}

static inline unsigned gsi_iq2_xxs_index(const uint8_t *b, int ib, int l)
{
    return b[GSI_IQ2_XXS_QS + GSI_IQ2_XXS_SUB_BYTES * ib + GSI_IQ2_XXS_SUB_GRID + l];
}

/* IQ2_XS: u16 entry 4ib + l of qs, a 9-bit grid index under a 7-bit ksigns index. */
static inline unsigned gsi_iq2_xs_entry(const uint8_t *b, int ib, int l)
{
    return gsi_load_u16le(b + GSI_IQ2_XS_QS + 2 * (4 * ib + l));
}

/* IQ2_S: the 10-bit grid index of group l, qs[4ib + l] under 2 bits of qh = qh[ib] (read once
 * a sub-block by the caller, as IQ1_S's h is: a store of the output between two groups would
 * otherwise make the compiler read it again). */
static inline unsigned gsi_iq2_s_index(const uint8_t *b, int ib, unsigned qh, int l)
{
    return b[GSI_IQ2_S_QS + 4 * ib + l] | ((qh >> (2 * l)) & 3u) << 8;
}

/* IQ3_XXS: sub-block ib's u32 of four ksigns indices and a 4-bit scale, and that scale,
 * (d * (0.5 + s)) * 0.5. */
static inline uint32_t gsi_iq3_xxs_aux(const uint8_t *b, int ib)
{
    return gsi_load_u32le(b + GSI_IQ3_XXS_SCALES_AND_SIGNS + 4 * ib);
}

static inline float gsi_iq3_xxs_scale(float d, uint32_t a)
{
    return d * (0.5f + (float)(a >> 28)) * 0.5f;
}

/* IQ3_S: sub-block ib's scale d * (1 + 2s) (a nibble per sub-block), and the 9-bit index of its
 * entry k (0..7), qs[8ib + k] under bit k of qh[ib]. */
static inline float gsi_iq3_s_scale(const uint8_t *b, float d, int ib)
{
    const int s = (b[GSI_IQ3_S_SCALES + ib / 2] >> (4 * (ib % 2))) & 15;
    return d * (float)(1 + 2 * s);
}

static inline unsigned gsi_iq3_s_index(const uint8_t *b, int ib, int k)
{
    return b[GSI_IQ3_S_QS + 8 * ib + k] | ((b[GSI_IQ3_S_QH + ib] >> k) & 1u) << 8;
}

/* IQ1's delta, -1/8 or +1/8. */
static inline float gsi_iq1_delta(unsigned negative)
{
    return negative ? -0.125f : 0.125f;
}

/* IQ1_S: sub-block ib's u16 h (3 high index bits per group in bits 0..11, a 3-bit scale in
 * 12..14, the delta sign in 15), its scale d * (2s + 1), and group l's 11-bit index. */
static inline unsigned gsi_iq1_s_qh(const uint8_t *b, int ib)
{
    return gsi_load_u16le(b + GSI_IQ1_S_QH + 2 * ib);
}

static inline float gsi_iq1_s_scale(float d, unsigned h)
{
    return d * (float)(2 * ((h >> 12) & 7u) + 1);
}

static inline unsigned gsi_iq1_s_index(const uint8_t *b, int ib, unsigned h, int l)
{
    return b[GSI_IQ1_S_QS + 4 * ib + l] | ((h >> (3 * l)) & 7u) << 8;
}

/* IQ1_M: the scale of groups 2*half and 2*half + 1 of sub-block ib, d * (2s + 1) with s 3 bits
 * of the u16 scales (gsi_iq1_m_scales), and group l's 11-bit index from its qh nibble (3 high
 * index bits under the delta sign). */
static inline float gsi_iq1_m_scale(float d, const uint16_t sc[4], int ib, int half)
{
    const unsigned s = ((unsigned)sc[ib / 2] >> (6 * (ib % 2) + 3 * half)) & 7u;
    return d * (float)(2 * s + 1);
}

static inline unsigned gsi_iq1_m_nibble(const uint8_t *b, int ib, int l)
{
    return ((unsigned)b[GSI_IQ1_M_QH + 2 * ib + l / 2] >> (4 * (l % 2))) & 15u;
}

static inline unsigned gsi_iq1_m_index(const uint8_t *b, int ib, int l, unsigned nibble)
{
    return b[GSI_IQ1_M_QS + 4 * ib + l] | (nibble & 7u) << 8;
}

#endif
