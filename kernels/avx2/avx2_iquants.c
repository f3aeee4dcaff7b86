/* The grid I-quants on AVX2 (IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ1_S, IQ1_M). Each group
 * of 8 elements is one u64 grid entry (or two u32 ones), widened to 8 lanes, converted and
 * multiplied by the sub-block scale; its 8 signs are XOR-ed into the float sign bits from a
 * 256-row table of lane masks. Grid entries are fetched by ordinary loads at their index, except
 * in IQ3_S, where one vpgatherdd per sub-block measured faster (its 9-bit indices are computed
 * in a vector; see there). Sub-block scales are a few scalar float operations, in the
 * reference's order. */
#include "avx2_util.h"
#include "decode_avx2.h"
#include "iquant_fields.h"

/* Lane j of row m holds the float sign bit when bit j of the 8-bit sign mask m is set: one
 * aligned load turns a group's mask into the XOR operand for its 8 products (8 KiB, in L1
 * beside the grids; cheaper than shifting the bits into place lane by lane). */
#define SIGN_BIT(m, j) ((((m) >> (j)) & 1) ? 0x80000000u : 0u)
#define SIGN_ROW(m)                                                                        \
    {SIGN_BIT(m, 0), SIGN_BIT(m, 1), SIGN_BIT(m, 2), SIGN_BIT(m, 3), SIGN_BIT(m, 4),       \
     SIGN_BIT(m, 5), SIGN_BIT(m, 6), SIGN_BIT(m, 7)}
#define SIGN_ROWS4(m) SIGN_ROW(m), SIGN_ROW((m) + 1), SIGN_ROW((m) + 2), SIGN_ROW((m) + 3)
#define SIGN_ROWS16(m) SIGN_ROWS4(m), SIGN_ROWS4((m) + 4), SIGN_ROWS4((m) + 8), SIGN_ROWS4((m) + 12)
#define SIGN_ROWS64(m) \
    SIGN_ROWS16(m), SIGN_ROWS16((m) + 16), SIGN_ROWS16((m) + 32), SIGN_ROWS16((m) + 48)
static _Alignas(32) const uint32_t lane_signs[256][8] = {
    SIGN_ROWS64(0), SIGN_ROWS64(64), SIGN_ROWS64(128), SIGN_ROWS64(192)};

static inline __m256 signs_of(unsigned mask)
{
    return _mm256_castsi256_ps(_mm256_load_si256((const __m256i *)(const void *)lane_signs[mask]));
}

/* The low 8 bytes of v (unsigned grid magnitudes) as floats. */
static inline __m256 u8x8_ps(__m128i v)
{
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(v));
}

/* y[0..7] = (db * grid byte j) with the sign of lane j flipped per `sign`: the reference's
 * (db * g) * (+-1), bit for bit. */
static inline void store_group(float *y, __m128i grid_bytes, __m256 db, __m256 sign)
{
    _mm256_storeu_ps(y, _mm256_xor_ps(_mm256_mul_ps(db, u8x8_ps(grid_bytes)), sign));
}

/* A u64 grid entry at index idx into the low half of a vector, loaded straight from the table. */
static inline __m128i entry64(const uint64_t *grid, unsigned idx)
{
    return _mm_loadl_epi64((const __m128i *)(const void *)&grid[idx]);
}

/* Two u32 grid entries as 8 bytes (IQ3: each group is two lattice points of 4). */
static inline __m128i entries32x2(const uint32_t *grid, unsigned i0, unsigned i1)
{
    return _mm_cvtsi64_si128((long long)((uint64_t)grid[i1] << 32 | grid[i0]));
}

/* An f16 field converted by F16C (the same bits as gsi_load_f16). */
static inline float f16_at(const uint8_t *p)
{
    return _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(gsi_load_u16le(p))));
}

/* IQ2 sub-block scale from a 4-bit field s, in every lane. */
static inline __m256 iq2_scale(float d, uint32_t s)
{
    return _mm256_set1_ps(gsi_iq2_scale(d, s));
}

/* d, then 8 sub-block records {4 grid indices, u32 a}: a holds four 7-bit ksigns indices and,
 * in its top nibble, the sub-block scale. */
static inline void iq2_xxs_block(const uint8_t *b, float *y)
{
    const float d = f16_at(b + GSI_IQ2_XXS_D);
    for (int ib = 0; ib < 8; ib++) {
        const uint32_t a = gsi_iq2_xxs_aux(b, ib);
        const __m256 db = iq2_scale(d, a >> 28);
        for (int l = 0; l < 4; l++) {
            store_group(y + 32 * ib + 8 * l, entry64(gsi_iq2xxs_grid, gsi_iq2_xxs_index(b, ib, l)),
                        db, signs_of(gsi_iq_ksigns(a, l)));
        }
    }
}

/* d, qs u16[32] (9-bit grid index, 7-bit ksigns index), scales[8] (a nibble per pair of
 * groups). */
static inline void iq2_xs_block(const uint8_t *b, float *y)
{
    const float d = f16_at(b + GSI_IQ2_XS_D);
    const uint8_t *scales = b + GSI_IQ2_XS_SCALES;
    for (int ib = 0; ib < 8; ib++) {
        const uint8_t *qs = b + GSI_IQ2_XS_QS + 8 * ib;
        const __m256 db_lo = iq2_scale(d, scales[ib] & 15u);
        const __m256 db_hi = iq2_scale(d, (uint32_t)scales[ib] >> 4);
        for (int l = 0; l < 4; l++) {
            const unsigned v = gsi_load_u16le(qs + 2 * l);
            store_group(y + 32 * ib + 8 * l, entry64(gsi_iq2xs_grid, v & 511u),
                        l < 2 ? db_lo : db_hi, signs_of(gsi_ksigns_iq2xs[v >> 9]));
        }
    }
}

/* d, qs[32], signs[32] (direct 8-bit masks), qh[8] (2 high index bits per group),
 * scales[8]. */
static inline void iq2_s_block(const uint8_t *b, float *y)
{
    const float d = f16_at(b + GSI_IQ2_S_D);
    const uint8_t *signs = b + GSI_IQ2_S_SIGNS;
    for (int ib = 0; ib < 8; ib++) {
        const __m256 db_lo = iq2_scale(d, b[GSI_IQ2_S_SCALES + ib] & 15u);
        const __m256 db_hi = iq2_scale(d, (uint32_t)b[GSI_IQ2_S_SCALES + ib] >> 4);
        const unsigned qh = b[GSI_IQ2_S_QH + ib];
        for (int l = 0; l < 4; l++) {
            store_group(y + 32 * ib + 8 * l, entry64(gsi_iq2s_grid, gsi_iq2_s_index(b, ib, qh, l)),
                        l < 2 ? db_lo : db_hi, signs_of(signs[4 * ib + l]));
        }
    }
}

/* d, qs[64] (two u32 grid indices per group), scales_and_signs u32[8]: four 7-bit ksigns
 * indices and a 4-bit scale per sub-block; db = (d * (0.5 + s)) * 0.5. */
static inline void iq3_xxs_block(const uint8_t *b, float *y)
{
    const float d = f16_at(b + GSI_IQ3_XXS_D);
    for (int ib = 0; ib < 8; ib++) {
        const uint8_t *qs = b + GSI_IQ3_XXS_QS + 8 * ib;
        const uint32_t a = gsi_iq3_xxs_aux(b, ib);
        const __m256 db = _mm256_set1_ps(gsi_iq3_xxs_scale(d, a));
        for (int l = 0; l < 4; l++) {
            store_group(y + 32 * ib + 8 * l,
                        entries32x2(gsi_iq3xxs_grid, qs[2 * l], qs[2 * l + 1]), db,
                        signs_of(gsi_iq_ksigns(a, l)));
        }
    }
}

/* d, qs[64], qh[8] (9th index bit of each of a sub-block's 8 indices), signs[32] (direct
 * masks), scales[4] (a nibble per sub-block); db = d * (1 + 2s). */
static inline void iq3_s_block(const uint8_t *b, float *y)
{
    const float d = f16_at(b + GSI_IQ3_S_D);
    for (int ib = 0; ib < 8; ib++) {
        const uint8_t *qs = b + GSI_IQ3_S_QS + 8 * ib;
        const unsigned qh = b[GSI_IQ3_S_QH + ib];
        const __m256 db = _mm256_set1_ps(gsi_iq3_s_scale(b, d, ib));
        /* index k: qs[k] with bit k of qh as bit 8 */
        const __m256i to_bit8 = _mm256_setr_epi32(8, 7, 6, 5, 4, 3, 2, 1);
        const __m256i high = _mm256_and_si256(
            _mm256_sllv_epi32(_mm256_set1_epi32((int)qh), to_bit8), _mm256_set1_epi32(0x100));
        const __m256i idx = _mm256_or_si256(_mm256_cvtepu8_epi32(gsa_load64(qs)), high);
        /* All 8 entries in one gather: measured faster here than 8 loads, because the
         * indices come out of vector arithmetic (for the u64 grids and IQ3_XXS, whose indices
         * are plain bytes, separate loads measured faster). */
        const __m256i g = _mm256_i32gather_epi32((const int *)(const void *)gsi_iq3s_grid, idx, 4);
        const __m128i g0 = _mm256_castsi256_si128(g), g1 = _mm256_extracti128_si256(g, 1);
        const uint8_t *sg = b + GSI_IQ3_S_SIGNS + 4 * ib;
        store_group(y + 32 * ib, g0, db, signs_of(sg[0]));
        store_group(y + 32 * ib + 8, _mm_srli_si128(g0, 8), db, signs_of(sg[1]));
        store_group(y + 32 * ib + 16, g1, db, signs_of(sg[2]));
        store_group(y + 32 * ib + 24, _mm_srli_si128(g1, 8), db, signs_of(sg[3]));
    }
}

/* IQ1: y = dl * (g + delta), g in {-1, 0, 1} (the grid's only values: test_grids checks it),
 * delta = +-1/8. The three possible values are computed per group with the reference's
 * operations (the sums g + delta are exact constants) and each lane picks its own: the grid
 * byte sign-extended to 32 bits has low 3 bits 7, 0 or 1 for -1, 0, 1, which is the lane
 * vpermps reads. Never dl*g + dl*delta, which changes the sign of zero. */
static inline __m256 iq1_values(float dl, int negative_delta)
{
    const __m256 g_plus_delta =
        negative_delta ? _mm256_setr_ps(-0.125f, 0.875f, 0, 0, 0, 0, 0, -1.125f)
                       : _mm256_setr_ps(0.125f, 1.125f, 0, 0, 0, 0, 0, -0.875f);
    return _mm256_mul_ps(_mm256_set1_ps(dl), g_plus_delta);
}

static inline void iq1_group(float *y, __m256 values, unsigned idx)
{
    const __m256i g = _mm256_cvtepi8_epi32(entry64(gsi_iq1s_grid, idx));
    _mm256_storeu_ps(y, _mm256_permutevar8x32_ps(values, g));
}

/* d, qs[32], qh u16[8]: per sub-block, 3 high index bits per group (bits 0..11), a 3-bit
 * scale (12..14) and the delta sign (15). */
static inline void iq1_s_block(const uint8_t *b, float *y)
{
    const float d = f16_at(b + GSI_IQ1_S_D);
    for (int ib = 0; ib < 8; ib++) {
        const unsigned h = gsi_iq1_s_qh(b, ib);
        const __m256 values = iq1_values(gsi_iq1_s_scale(d, h), (h & 0x8000u) != 0);
        for (int l = 0; l < 4; l++) {
            iq1_group(y + 32 * ib + 8 * l, values, gsi_iq1_s_index(b, ib, h, l));
        }
    }
}

/* qs[32], qh[16] (a nibble per group: 3 high index bits, delta sign), scales u16[4]: 3-bit
 * scales per half sub-block in bits 0..11, and in bits 12..15 the four nibbles of the block's
 * f16 scale d. */
static inline void iq1_m_block(const uint8_t *b, float *y)
{
    const uint64_t sc = gsi_load_u64le(b + GSI_IQ1_M_SCALES);
    const uint16_t d_bits = (uint16_t)(((sc >> 12) & 0x000fu) | ((sc >> 24) & 0x00f0u) |
                                       ((sc >> 36) & 0x0f00u) | ((sc >> 48) & 0xf000u));
    const float d = _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(d_bits)));
    for (int ib = 0; ib < 8; ib++) {
        const unsigned word = (unsigned)(sc >> (16 * (ib / 2))) & 0xffffu;
        for (int half = 0; half < 2; half++) {
            const unsigned s = (word >> (6 * (ib % 2) + 3 * half)) & 7u;
            const float dl = d * (float)(2 * s + 1);
            const unsigned nibs = b[GSI_IQ1_M_QH + 2 * ib + half];
            for (int k = 0; k < 2; k++) {
                const unsigned nib = (nibs >> (4 * k)) & 15u;
                const int l = 2 * half + k;
                iq1_group(y + 32 * ib + 8 * l, iq1_values(dl, (nib & 8u) != 0),
                          gsi_iq1_m_index(b, ib, l, nib));
            }
        }
    }
}

GSI_IQUANT_TYPES(GSI_AVX2_ROW)
