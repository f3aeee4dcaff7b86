/* The grid I-quants: IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ1_S and IQ1_M. Each 256-element
 * block has 8 sub-blocks of 32 elements (ib) made of 4 groups of 8 (l); a group's magnitudes are
 * one or two lattice points looked up in a grid (kernels/grids/), its signs a bit mask.
 * Values are (sub-block scale * grid byte) * (+1 or -1), in that order, as in ggml. */
#include <stdbool.h>

#include "decode_scalar.h"
#include "iquant_fields.h"

static float sign_of(uint8_t mask, int j)
{
    return ((mask >> j) & 1) ? -1.0f : 1.0f;
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
        const uint32_t a = gsi_iq2_xxs_aux(b, ib);
        const float db = gsi_iq2_scale(d, a >> 28);
        for (int l = 0; l < 4; l++) {
            grid8(y + 32 * ib + 8 * l, db, gsi_iq2xxs_grid[gsi_iq2_xxs_index(b, ib, l)],
                  gsi_iq_ksigns(a, l));
        }
    }
}

/* d, qs u16[32] (9-bit grid index, 7-bit ksigns index), scales[8] (a nibble per pair of
 * groups). */
static void iq2_xs_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ2_XS_D);
    for (int ib = 0; ib < 8; ib++) {
        for (int l = 0; l < 4; l++) {
            const unsigned v = gsi_iq2_xs_entry(b, ib, l);
            const float db = gsi_iq2_group_scale(d, b[GSI_IQ2_XS_SCALES + ib], l);
            grid8(y + 32 * ib + 8 * l, db, gsi_iq2xs_grid[v & 511u], gsi_ksigns_iq2xs[v >> 9]);
        }
    }
}

/* d, qs[32], signs[32] (direct 8-bit masks), qh[8] (2 high index bits per group),
 * scales[8]. */
static void iq2_s_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ2_S_D);
    const uint8_t *signs = b + GSI_IQ2_S_SIGNS;
    for (int ib = 0; ib < 8; ib++) {
        const unsigned qh = b[GSI_IQ2_S_QH + ib];
        for (int l = 0; l < 4; l++) {
            const float db = gsi_iq2_group_scale(d, b[GSI_IQ2_S_SCALES + ib], l);
            grid8(y + 32 * ib + 8 * l, db, gsi_iq2s_grid[gsi_iq2_s_index(b, ib, qh, l)],
                  signs[4 * ib + l]);
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
        const uint32_t a = gsi_iq3_xxs_aux(b, ib);
        const float db = gsi_iq3_xxs_scale(d, a);
        for (int l = 0; l < 4; l++) {
            const uint8_t signs = gsi_iq_ksigns(a, l);
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
    const uint8_t *signs = b + GSI_IQ3_S_SIGNS;
    for (int ib = 0; ib < 8; ib++) {
        const float db = gsi_iq3_s_scale(b, d, ib);
        for (int k = 0; k < 8; k++) {
            grid4(y + 32 * ib + 4 * k, db, gsi_iq3s_grid[gsi_iq3_s_index(b, ib, k)],
                  signs[4 * ib + k / 2], 4 * (k % 2));
        }
    }
}

/* One group of IQ1: dl * (g + delta) with g in {-1, 0, 1} and delta = +-1/8. Never distributed
 * as dl*g + dl*delta, which changes the sign of zero. */
static void iq1_group(float *y, float dl, unsigned idx, bool negative_delta)
{
    const float delta = gsi_iq1_delta(negative_delta);
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
    for (int ib = 0; ib < 8; ib++) {
        const unsigned h = gsi_iq1_s_qh(b, ib);
        const float dl = gsi_iq1_s_scale(d, h);
        for (int l = 0; l < 4; l++) {
            iq1_group(y + 32 * ib + 8 * l, dl, gsi_iq1_s_index(b, ib, h, l), (h & 0x8000u) != 0);
        }
    }
}

/* qs[32], qh[16] (a nibble per group: 3 high index bits, delta sign), scales u16[4]: 3-bit
 * scales per half sub-block in bits 0..11, and in bits 12..15 the four nibbles of the block's
 * f16 scale d (there is no d field). */
static void iq1_m_block(const uint8_t *b, float *y)
{
    uint16_t sc[4];
    const float d = gsi_iq1_m_scales(b, sc);
    for (int ib = 0; ib < 8; ib++) {
        for (int l = 0; l < 4; l++) {
            const float dl = gsi_iq1_m_scale(d, sc, ib, l / 2);
            const unsigned nib = gsi_iq1_m_nibble(b, ib, l);
            iq1_group(y + 32 * ib + 8 * l, dl, gsi_iq1_m_index(b, ib, l, nib), (nib & 8u) != 0);
        }
    }
}

GSI_IQUANT_TYPES(GSI_SCALAR_ROW)
