/* The grid I-quants on NEON: IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ1_S, IQ1_M. The grid
 * entries are gathered with scalar table loads (AArch64 NEON has no gather), two groups of 8
 * elements at a time into one byte vector; the sign masks are spread over byte lanes, and
 * everything from there to the stores is vector code. The reference order is kept:
 * (sub-block scale * grid byte) * (+1 or -1), and IQ1's dl * (g + delta), never distributed. */
#include "neon_common.h"

#if GSI_NEON_ENABLED

#include "grids/grids.h"

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

/* IQ2 sub-block scale from a 4-bit field s, computed as in the scalar path:
 * (d * (0.5 + s)) * 0.25. */
static inline float iq2_scale(float d, uint32_t s)
{
    return d * (0.5f + (float)s) * 0.25f;
}

/* The 7-bit ksigns index of group l in a u32 of four such indices. */
static inline uint8_t ksigns_of(uint32_t a, int l)
{
    return gsi_ksigns_iq2xs[(a >> (7 * l)) & 127u];
}

/* d, then 8 sub-block records {4 grid indices, u32 a}: a holds the groups' ksigns indices
 * and, in its top nibble, the sub-block scale. */
static void iq2_xxs_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ2_XXS_D);
    for (int ib = 0; ib < 8; ib++) {
        const uint8_t *sub = b + GSI_IQ2_XXS_QS + GSI_IQ2_XXS_SUB_BYTES * ib;
        const uint8_t *grid = sub + GSI_IQ2_XXS_SUB_GRID;
        const uint32_t a = gsi_load_u32le(sub + GSI_IQ2_XXS_SUB_AUX);
        const float32x4_t db = vdupq_n_f32(iq2_scale(d, a >> 28));
        for (int l = 0; l < 4; l += 2) {
            const uint8x16_t g =
                gsn_grid_pair(gsi_iq2xxs_grid[grid[l]], gsi_iq2xxs_grid[grid[l + 1]]);
            const uint8x16_t neg = gsn_bit_mask16(ksigns_of(a, l), ksigns_of(a, l + 1));
            store_signed_grid(y + 32 * ib + 8 * l, g, neg, db);
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
        for (int l = 0; l < 4; l += 2) {
            /* u16 entries 4ib + l and 4ib + l + 1 of qs */
            const uint16_t v0 = gsi_load_u16le(b + GSI_IQ2_XS_QS + 2 * (4 * ib + l));
            const uint16_t v1 = gsi_load_u16le(b + GSI_IQ2_XS_QS + 2 + 2 * (4 * ib + l));
            const float db = iq2_scale(d, (uint32_t)(scales[ib] >> (4 * (l / 2))) & 15u);
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
    const uint8_t *qs = b + GSI_IQ2_S_QS;
    const uint8_t *signs = b + GSI_IQ2_S_SIGNS;
    const uint8_t *qh = b + GSI_IQ2_S_QH;
    const uint8_t *scales = b + GSI_IQ2_S_SCALES;
    for (int ib = 0; ib < 8; ib++) {
        for (int l = 0; l < 4; l += 2) {
            const int g0 = 4 * ib + l;
            const unsigned idx0 = qs[g0] | ((qh[ib] >> (2 * l)) & 3u) << 8;
            const unsigned idx1 = qs[g0 + 1] | ((qh[ib] >> (2 * l + 2)) & 3u) << 8;
            const float db = iq2_scale(d, (uint32_t)(scales[ib] >> (4 * (l / 2))) & 15u);
            const uint8x16_t g = gsn_grid_pair(gsi_iq2s_grid[idx0], gsi_iq2s_grid[idx1]);
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
        const uint32_t a = gsi_load_u32le(b + GSI_IQ3_XXS_SCALES_AND_SIGNS + 4 * ib);
        const float32x4_t db = vdupq_n_f32(d * (0.5f + (float)(a >> 28)) * 0.5f);
        const uint8_t *q = qs + 8 * ib;
        for (int l = 0; l < 4; l += 2) {
            const uint64_t first =
                grid4_pair(gsi_iq3xxs_grid[q[2 * l]], gsi_iq3xxs_grid[q[2 * l + 1]]);
            const uint64_t second =
                grid4_pair(gsi_iq3xxs_grid[q[2 * l + 2]], gsi_iq3xxs_grid[q[2 * l + 3]]);
            const uint8x16_t neg = gsn_bit_mask16(ksigns_of(a, l), ksigns_of(a, l + 1));
            store_signed_grid(y + 32 * ib + 8 * l, gsn_grid_pair(first, second), neg, db);
        }
    }
}

/* d, qs[64], qh[8] (9th index bit of each of a sub-block's 8 indices), signs[32] (direct
 * masks, one per group of 8), scales[4] (a nibble per sub-block); db = d * (1 + 2s). */
static void iq3_s_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ3_S_D);
    const uint8_t *qs = b + GSI_IQ3_S_QS;
    const uint8_t *qh = b + GSI_IQ3_S_QH;
    const uint8_t *signs = b + GSI_IQ3_S_SIGNS;
    const uint8_t *scales = b + GSI_IQ3_S_SCALES;
    for (int ib = 0; ib < 8; ib++) {
        const int s = (scales[ib / 2] >> (4 * (ib % 2))) & 15;
        const float32x4_t db = vdupq_n_f32(d * (float)(1 + 2 * s));
        uint32_t entry[8];
        for (int k = 0; k < 8; k++) {
            entry[k] = gsi_iq3s_grid[qs[8 * ib + k] | ((qh[ib] >> k) & 1u) << 8];
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
static inline void store_iq1_pair(float *y, uint64_t first, uint64_t second, float32x4_t dl,
                                  float delta0, float delta1)
{
    float32x4_t f[4];
    gsn_s8_to_f32(vreinterpretq_s8_u8(gsn_grid_pair(first, second)), f);
    for (int i = 0; i < 4; i++) {
        const float32x4_t delta = vdupq_n_f32(i < 2 ? delta0 : delta1);
        vst1q_f32(y + 4 * i, vmulq_f32(dl, vaddq_f32(f[i], delta)));
    }
}

static inline float iq1_delta(unsigned negative)
{
    return negative ? -0.125f : 0.125f;
}

/* d, qs[32], qh u16[8]: per sub-block, 3 high index bits per group (bits 0..11), a 3-bit
 * scale (12..14) and the delta sign (15). */
static void iq1_s_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ1_S_D);
    const uint8_t *qs = b + GSI_IQ1_S_QS;
    for (int ib = 0; ib < 8; ib++) {
        const uint16_t h = gsi_load_u16le(b + GSI_IQ1_S_QH + 2 * ib);
        const float32x4_t dl = vdupq_n_f32(d * (float)(2 * ((h >> 12) & 7) + 1));
        const float delta = iq1_delta(h & 0x8000u);
        for (int l = 0; l < 4; l += 2) {
            const unsigned idx0 = qs[4 * ib + l] | ((h >> (3 * l)) & 7u) << 8;
            const unsigned idx1 = qs[4 * ib + l + 1] | ((h >> (3 * l + 3)) & 7u) << 8;
            store_iq1_pair(y + 32 * ib + 8 * l, gsi_iq1s_grid[idx0], gsi_iq1s_grid[idx1], dl,
                           delta, delta);
        }
    }
}

/* qs[32], qh[16] (a nibble per group: 3 high index bits, delta sign), scales u16[4]: 3-bit
 * scales per pair of groups in bits 0..11, and in bits 12..15 the four nibbles of the block's
 * f16 scale d. A pair of groups (l, l+1) shares its 3-bit scale and its qh byte. */
static void iq1_m_block(const uint8_t *b, float *y)
{
    const uint8_t *qs = b + GSI_IQ1_M_QS;
    const uint8_t *qh = b + GSI_IQ1_M_QH;
    uint16_t sc[4];
    const float d = gsi_iq1_m_scales(b, sc);
    for (int ib = 0; ib < 8; ib++) {
        for (int l = 0; l < 4; l += 2) {
            const int s = (sc[ib / 2] >> (6 * (ib % 2) + 3 * (l / 2))) & 7;
            const float32x4_t dl = vdupq_n_f32(d * (float)(2 * s + 1));
            const unsigned pair = qh[2 * ib + l / 2];
            const unsigned idx0 = qs[4 * ib + l] | (pair & 7u) << 8;
            const unsigned idx1 = qs[4 * ib + l + 1] | ((pair >> 4) & 7u) << 8;
            store_iq1_pair(y + 32 * ib + 8 * l, gsi_iq1s_grid[idx0], gsi_iq1s_grid[idx1], dl,
                           iq1_delta(pair & 0x08u), iq1_delta(pair & 0x80u));
        }
    }
}

GSI_IQUANT_TYPES(GSI_NEON_ROW)

#endif
