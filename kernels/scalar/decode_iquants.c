/* The grid I-quants: IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ1_S and IQ1_M. Each 256-element
 * block has 8 sub-blocks of 32 elements (ib) made of 4 groups of 8 (l); a group's magnitudes are
 * one or two lattice points looked up in a grid (kernels/grids/), its signs a bit mask.
 * Values are (sub-block scale * grid byte) * (+1 or -1), in that order, as in ggml. */
#include <stdbool.h>

#include "block_layout.h"
#include "decode_scalar.h"
#include "grids/grids.h"
#include "le_load.h"

static float sign_of(uint8_t mask, int j)
{
    return ((mask >> j) & 1) ? -1.0f : 1.0f;
}

/* IQ2 sub-block scale from a 4-bit field s: d * (0.5 + s) / 4, as (d * (0.5 + s)) * 0.25. */
static float iq2_scale(float d, uint32_t s)
{
    return d * (0.5f + (float)s) * 0.25f;
}

/* One group of 8 elements from a u64 grid entry and a sign mask. */
static void grid8(float *y, float db, uint64_t entry, uint8_t signs)
{
    for (int j = 0; j < 8; j++) {
        y[j] = db * (float)gsi_byte_of(entry, (unsigned)j) * sign_of(signs, j);
    }
}

/* d, then 8 sub-block records {4 grid indices, u32 a}: a holds four 7-bit ksigns indices and,
 * in its top nibble, the sub-block scale. */
static void iq2_xxs_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ2_XXS_D);
    for (int ib = 0; ib < 8; ib++) {
        const uint8_t *sub = b + GSI_IQ2_XXS_QS + GSI_IQ2_XXS_SUB_BYTES * ib;
        const uint32_t a = gsi_load_u32le(sub + GSI_IQ2_XXS_SUB_AUX);
        const float db = iq2_scale(d, a >> 28);
        for (int l = 0; l < 4; l++) {
            const uint8_t signs = gsi_ksigns_iq2xs[(a >> (7 * l)) & 127u];
            grid8(y + 32 * ib + 8 * l, db, gsi_iq2xxs_grid[sub[GSI_IQ2_XXS_SUB_GRID + l]], signs);
        }
    }
}

/* d, qs u16[32] (9-bit grid index, 7-bit ksigns index), scales[8] (a nibble per pair of
 * groups). */
static void iq2_xs_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ2_XS_D);
    const uint8_t *scales = b + GSI_IQ2_XS_SCALES;
    for (int ib = 0; ib < 8; ib++) {
        for (int l = 0; l < 4; l++) {
            const uint16_t v = gsi_load_u16le(b + GSI_IQ2_XS_QS + 2 * (4 * ib + l));
            const float db = iq2_scale(d, (uint32_t)(scales[ib] >> (4 * (l / 2))) & 15u);
            grid8(y + 32 * ib + 8 * l, db, gsi_iq2xs_grid[v & 511u], gsi_ksigns_iq2xs[v >> 9]);
        }
    }
}

/* d, qs[32], signs[32] (direct 8-bit masks), qh[8] (2 high index bits per group),
 * scales[8]. */
static void iq2_s_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ2_S_D);
    const uint8_t *qs = b + GSI_IQ2_S_QS;
    const uint8_t *signs = b + GSI_IQ2_S_SIGNS;
    const uint8_t *qh = b + GSI_IQ2_S_QH;
    const uint8_t *scales = b + GSI_IQ2_S_SCALES;
    for (int ib = 0; ib < 8; ib++) {
        for (int l = 0; l < 4; l++) {
            const int g = 4 * ib + l;
            const unsigned idx = qs[g] | ((qh[ib] >> (2 * l)) & 3u) << 8;
            const float db = iq2_scale(d, (uint32_t)(scales[ib] >> (4 * (l / 2))) & 15u);
            grid8(y + 8 * g, db, gsi_iq2s_grid[idx], signs[g]);
        }
    }
}

/* Four elements from a u32 grid entry, taking sign bits j0..j0+3 of the mask. */
static void grid4(float *y, float db, uint32_t entry, uint8_t signs, int j0)
{
    for (int j = 0; j < 4; j++) {
        y[j] = db * (float)gsi_byte_of(entry, (unsigned)j) * sign_of(signs, j0 + j);
    }
}

/* d, qs[64] (two u32 grid indices per group), scales_and_signs u32[8]: four 7-bit ksigns
 * indices and a 4-bit scale per sub-block; db = d * (0.5 + s) / 2. */
static void iq3_xxs_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ3_XXS_D);
    const uint8_t *qs = b + GSI_IQ3_XXS_QS;
    for (int ib = 0; ib < 8; ib++) {
        const uint32_t a = gsi_load_u32le(b + GSI_IQ3_XXS_SCALES_AND_SIGNS + 4 * ib);
        const float db = d * (0.5f + (float)(a >> 28)) * 0.5f;
        for (int l = 0; l < 4; l++) {
            const uint8_t signs = gsi_ksigns_iq2xs[(a >> (7 * l)) & 127u];
            float *out = y + 32 * ib + 8 * l;
            grid4(out, db, gsi_iq3xxs_grid[qs[8 * ib + 2 * l]], signs, 0);
            grid4(out + 4, db, gsi_iq3xxs_grid[qs[8 * ib + 2 * l + 1]], signs, 4);
        }
    }
}

/* d, qs[64], qh[8] (9th index bit of each of a sub-block's 8 indices), signs[32] (direct
 * masks), scales[4] (a nibble per sub-block); db = d * (1 + 2s). */
static void iq3_s_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ3_S_D);
    const uint8_t *qs = b + GSI_IQ3_S_QS;
    const uint8_t *qh = b + GSI_IQ3_S_QH;
    const uint8_t *signs = b + GSI_IQ3_S_SIGNS;
    const uint8_t *scales = b + GSI_IQ3_S_SCALES;
    for (int ib = 0; ib < 8; ib++) {
        const int s = (scales[ib / 2] >> (4 * (ib % 2))) & 15;
        const float db = d * (float)(1 + 2 * s);
        for (int k = 0; k < 8; k++) {
            const unsigned idx = qs[8 * ib + k] | ((qh[ib] >> k) & 1u) << 8;
            grid4(y + 32 * ib + 4 * k, db, gsi_iq3s_grid[idx], signs[4 * ib + k / 2],
                  4 * (k % 2));
        }
    }
}

/* One group of IQ1: dl * (g + delta) with g in {-1, 0, 1} and delta = +-1/8. Never distributed
 * as dl*g + dl*delta, which changes the sign of zero. */
static void iq1_group(float *y, float dl, unsigned idx, bool negative_delta)
{
    const float delta = negative_delta ? -0.125f : 0.125f;
    const uint64_t entry = gsi_iq1s_grid[idx];
    for (int j = 0; j < 8; j++) {
        y[j] = dl * ((float)gsi_s8(gsi_byte_of(entry, (unsigned)j)) + delta);
    }
}

/* d, qs[32], qh u16[8]: per sub-block, 3 high index bits per group (bits 0..11), a 3-bit
 * scale (12..14) and the delta sign (15). */
static void iq1_s_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ1_S_D);
    const uint8_t *qs = b + GSI_IQ1_S_QS;
    for (int ib = 0; ib < 8; ib++) {
        const uint16_t h = gsi_load_u16le(b + GSI_IQ1_S_QH + 2 * ib);
        const float dl = d * (float)(2 * ((h >> 12) & 7) + 1);
        for (int l = 0; l < 4; l++) {
            const unsigned idx = qs[4 * ib + l] | ((h >> (3 * l)) & 7u) << 8;
            iq1_group(y + 32 * ib + 8 * l, dl, idx, (h & 0x8000u) != 0);
        }
    }
}

/* qs[32], qh[16] (a nibble per group: 3 high index bits, delta sign), scales u16[4]: 3-bit
 * scales per half sub-block in bits 0..11, and in bits 12..15 the four nibbles of the block's
 * f16 scale d (there is no d field). */
static void iq1_m_block(const uint8_t *b, float *y)
{
    const uint8_t *qs = b + GSI_IQ1_M_QS;
    const uint8_t *qh = b + GSI_IQ1_M_QH;
    uint16_t sc[4];
    const float d = gsi_iq1_m_scales(b, sc);
    for (int ib = 0; ib < 8; ib++) {
        for (int l = 0; l < 4; l++) {
            const int s = (sc[ib / 2] >> (6 * (ib % 2) + 3 * (l / 2))) & 7;
            const float dl = d * (float)(2 * s + 1);
            const unsigned nib = ((unsigned)qh[2 * ib + l / 2] >> (4 * (l % 2))) & 15u;
            const unsigned idx = qs[4 * ib + l] | (nib & 7u) << 8;
            iq1_group(y + 32 * ib + 8 * l, dl, idx, (nib & 8u) != 0);
        }
    }
}

GSI_IQUANT_TYPES(GSI_SCALAR_ROW)
