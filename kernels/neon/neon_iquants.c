/* The grid I-quants on NEON: IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ1_S, IQ1_M. The grid
 * entries are gathered with scalar table loads (AArch64 NEON has no gather), two groups of 8
 * elements at a time into one byte vector; the sign masks are spread over byte lanes, and
 * everything from there to the stores is vector code. The reference order is kept:
 * (sub-block scale * grid byte) * (+1 or -1), and IQ1's dl * (g + delta), never distributed. */
#include "neon_common.h"

#if GSI_NEON_ENABLED

#include "iquant_fields.h"

/* y[0..15] = (db * g) * (neg ? -1 : +1): the sign as the scalar path applies it, a multiply by
 * -1.0f or +1.0f. */
static inline void store_signed_grid(float *y, uint8x16_t g, uint8x16_t neg, float32x4_t db)
{
    float32x4_t f[4];
    uint32x4_t m[4];
    gsn_u8_to_f32(g, f);
    gsn_mask_to_u32(neg, m);
    const float32x4_t plus = vdupq_n_f32(1.0f), minus = vdupq_n_f32(-1.0f);
    for (int i = 0; i < 4; i++) {
        vst1q_f32(y + 4 * i, vmulq_f32(vmulq_f32(db, f[i]), vbslq_f32(m[i], minus, plus)));
    }
}

/* d, then 8 sub-block records {4 grid indices, u32 a}: a holds the groups' ksigns indices
 * and, in its top nibble, the sub-block scale. */
static void iq2_xxs_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ2_XXS_D);
    for (int ib = 0; ib < 8; ib++) {
        const uint32_t a = gsi_iq2_xxs_aux(b, ib);
        const float32x4_t db = vdupq_n_f32(gsi_iq2_scale(d, a >> 28));
        for (int l = 0; l < 4; l += 2) {
            const uint8x16_t g = gsn_grid_pair(gsi_iq2xxs_grid[gsi_iq2_xxs_index(b, ib, l)],
                                               gsi_iq2xxs_grid[gsi_iq2_xxs_index(b, ib, l + 1)]);
            const uint8x16_t neg = gsn_bit_mask16(gsi_iq_ksigns(a, l), gsi_iq_ksigns(a, l + 1));
            store_signed_grid(y + 32 * ib + 8 * l, g, neg, db);
        }
    }
}

/* d, qs u16[32] (9-bit grid index, 7-bit ksigns index), scales[8] (a nibble per pair of
 * groups). */
static void iq2_xs_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ2_XS_D);
    for (int ib = 0; ib < 8; ib++) {
        for (int l = 0; l < 4; l += 2) {
            const unsigned v0 = gsi_iq2_xs_entry(b, ib, l), v1 = gsi_iq2_xs_entry(b, ib, l + 1);
            const float db = gsi_iq2_group_scale(d, b[GSI_IQ2_XS_SCALES + ib], l);
            const uint8x16_t g =
                gsn_grid_pair(gsi_iq2xs_grid[v0 & 511u], gsi_iq2xs_grid[v1 & 511u]);
            const uint8x16_t neg =
                gsn_bit_mask16(gsi_ksigns_iq2xs[v0 >> 9], gsi_ksigns_iq2xs[v1 >> 9]);
            store_signed_grid(y + 32 * ib + 8 * l, g, neg, vdupq_n_f32(db));
        }
    }
}

/* d, qs[32], signs[32] (direct masks), qh[8] (2 high index bits per group), scales[8]. */
static void iq2_s_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ2_S_D);
    const uint8_t *signs = b + GSI_IQ2_S_SIGNS;
    for (int ib = 0; ib < 8; ib++) {
        const unsigned qh = b[GSI_IQ2_S_QH + ib];
        for (int l = 0; l < 4; l += 2) {
            const int g0 = 4 * ib + l;
            const float db = gsi_iq2_group_scale(d, b[GSI_IQ2_S_SCALES + ib], l);
            const uint8x16_t g = gsn_grid_pair(gsi_iq2s_grid[gsi_iq2_s_index(b, ib, qh, l)],
                                               gsi_iq2s_grid[gsi_iq2_s_index(b, ib, qh, l + 1)]);
            store_signed_grid(y + 8 * g0, g, gsn_bit_mask16(signs[g0], signs[g0 + 1]),
                              vdupq_n_f32(db));
        }
    }
}

/* Two u32 grid entries (4 byte-elements each) as one 8-element group. */
static inline uint64_t grid4_pair(uint32_t first, uint32_t second)
{
    return (uint64_t)first | (uint64_t)second << 32;
}

/* d, qs[64] (two u32 grid indices per group), scales_and_signs u32[8]: four 7-bit ksigns
 * indices and a 4-bit scale per sub-block; db = (d * (0.5 + s)) * 0.5. */
static void iq3_xxs_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ3_XXS_D);
    const uint8_t *qs = b + GSI_IQ3_XXS_QS;
    for (int ib = 0; ib < 8; ib++) {
        const uint32_t a = gsi_iq3_xxs_aux(b, ib);
        const float32x4_t db = vdupq_n_f32(gsi_iq3_xxs_scale(d, a));
        const uint8_t *q = qs + 8 * ib;
        for (int l = 0; l < 4; l += 2) {
            const uint64_t first =
                grid4_pair(gsi_iq3xxs_grid[q[2 * l]], gsi_iq3xxs_grid[q[2 * l + 1]]);
            const uint64_t second =
                grid4_pair(gsi_iq3xxs_grid[q[2 * l + 2]], gsi_iq3xxs_grid[q[2 * l + 3]]);
            const uint8x16_t neg = gsn_bit_mask16(gsi_iq_ksigns(a, l), gsi_iq_ksigns(a, l + 1));
            store_signed_grid(y + 32 * ib + 8 * l, gsn_grid_pair(first, second), neg, db);
        }
    }
}

/* d, qs[64], qh[8] (9th index bit of each of a sub-block's 8 indices), signs[32] (direct
 * masks, one per group of 8), scales[4] (a nibble per sub-block); db = d * (1 + 2s). */
static void iq3_s_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ3_S_D);
    const uint8_t *signs = b + GSI_IQ3_S_SIGNS;
    for (int ib = 0; ib < 8; ib++) {
        const float32x4_t db = vdupq_n_f32(gsi_iq3_s_scale(b, d, ib));
        uint32_t entry[8];
        for (int k = 0; k < 8; k++) {
            entry[k] = gsi_iq3s_grid[gsi_iq3_s_index(b, ib, k)];
        }
        for (int l = 0; l < 4; l += 2) {
            const uint8x16_t g = gsn_grid_pair(grid4_pair(entry[2 * l], entry[2 * l + 1]),
                                               grid4_pair(entry[2 * l + 2], entry[2 * l + 3]));
            const uint8x16_t neg = gsn_bit_mask16(signs[4 * ib + l], signs[4 * ib + l + 1]);
            store_signed_grid(y + 32 * ib + 8 * l, g, neg, db);
        }
    }
}

/* Two IQ1 groups (16 elements): y = dl * (g + delta) with grid bytes g in {-1, 0, 1} and the
 * first 8 elements taking delta0, the next 8 delta1. g + delta is exact. */
static inline void store_iq1_pair(float *y, unsigned idx0, unsigned idx1, float32x4_t dl,
                                  float delta0, float delta1)
{
    float32x4_t f[4];
    gsn_s8_to_f32(vreinterpretq_s8_u8(gsn_grid_pair(gsi_iq1s_grid[idx0], gsi_iq1s_grid[idx1])),
                  f);
    for (int i = 0; i < 4; i++) {
        const float32x4_t delta = vdupq_n_f32(i < 2 ? delta0 : delta1);
        vst1q_f32(y + 4 * i, vmulq_f32(dl, vaddq_f32(f[i], delta)));
    }
}

/* d, qs[32], qh u16[8]: per sub-block, 3 high index bits per group (bits 0..11), a 3-bit
 * scale (12..14) and the delta sign (15). */
static void iq1_s_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ1_S_D);
    for (int ib = 0; ib < 8; ib++) {
        const unsigned h = gsi_iq1_s_qh(b, ib);
        const float32x4_t dl = vdupq_n_f32(gsi_iq1_s_scale(d, h));
        const float delta = gsi_iq1_delta(h & 0x8000u);
        for (int l = 0; l < 4; l += 2) {
            store_iq1_pair(y + 32 * ib + 8 * l, gsi_iq1_s_index(b, ib, h, l),
                           gsi_iq1_s_index(b, ib, h, l + 1), dl, delta, delta);
        }
    }
}

/* qs[32], qh[16] (a nibble per group: 3 high index bits, delta sign), scales u16[4]: 3-bit
 * scales per pair of groups in bits 0..11, and in bits 12..15 the four nibbles of the block's
 * f16 scale d. A pair of groups (l, l+1) shares its 3-bit scale and its qh byte. */
static void iq1_m_block(const uint8_t *b, float *y)
{
    uint16_t sc[4];
    const float d = gsi_iq1_m_scales(b, sc);
    for (int ib = 0; ib < 8; ib++) {
        for (int l = 0; l < 4; l += 2) {
            const float32x4_t dl = vdupq_n_f32(gsi_iq1_m_scale(d, sc, ib, l / 2));
            const unsigned nib0 = gsi_iq1_m_nibble(b, ib, l), nib1 = gsi_iq1_m_nibble(b, ib, l + 1);
            store_iq1_pair(y + 32 * ib + 8 * l, gsi_iq1_m_index(b, ib, l, nib0),
                           gsi_iq1_m_index(b, ib, l + 1, nib1), dl, gsi_iq1_delta(nib0 & 8u),
                           gsi_iq1_delta(nib1 & 8u));
        }
    }
}

GSI_IQUANT_TYPES(GSI_NEON_ROW)

#endif
