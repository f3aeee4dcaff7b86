/* K-quants: 256-element super-blocks with packed sub-block scales (Q2_K..Q6_K), and Q8_K.
 * Factors meet in ggml's order, (d * sub_scale) first and then * q, because merging the integer
 * factors first flips the sign of zero results (docs/quant-types.md, "Bit-exact arithmetic").
 * Q2_K, Q4_K and Q5_K round once, in the final - (dmin * min). */
#include "block_layout.h"
#include "decode_scalar.h"
#include "le_load.h"

static int nibble(uint8_t byte, int high)
{
    return high ? byte >> 4 : byte & 15;
}

/* scales[16] (low nibble scale, high nibble min), qs[64], d, dmin. Each 32-byte group of qs
 * feeds 128 elements through four 2-bit planes (shift 2r for the r-th 32 elements); every 16
 * elements have their own scale byte. */
static void q2_K_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_Q2_K_D);
    const float dmin = gsi_load_f16(b + GSI_Q2_K_DMIN);
    for (int j = 0; j < 16; j++) { /* 16-element sub-block j: elements 16j.. */
        const uint8_t sc = b[GSI_Q2_K_SCALES + j];
        const float dl = d * (float)(sc & 15);
        const float ml = dmin * (float)(sc >> 4);
        const uint8_t *qs = b + GSI_Q2_K_QS + 32 * (j / 8) + 16 * (j % 2);
        const int shift = 2 * ((j / 2) % 4);
        for (int l = 0; l < 16; l++) {
            y[16 * j + l] = dl * (float)((qs[l] >> shift) & 3) - ml;
        }
    }
}

/* Q3_K's 6-bit scale j (0..15), biased by 32: low 4 bits from the first 8 bytes (low nibbles
 * for j < 8, high nibbles after), high 2 bits from bytes 8..11. */
static int q3_K_scale(const uint8_t *sc, int j)
{
    const int lo = j < 8 ? sc[j] & 15 : sc[j - 8] >> 4;
    const int hi = (sc[8 + j % 4] >> (2 * (j / 4))) & 3;
    return (lo | hi << 4) - 32;
}

/* hmask[32], qs[64], scales[12], d. Element e: 2-bit plane as in Q2_K, and bit e/32 of
 * hmask[e%32]; a clear high bit subtracts 4. */
static void q3_K_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_Q3_K_D);
    for (int j = 0; j < 16; j++) {
        const float dl = d * (float)q3_K_scale(b + GSI_Q3_K_SCALES, j);
        const uint8_t *hmask = b + GSI_Q3_K_HMASK + 16 * (j % 2);
        const uint8_t *qs = b + GSI_Q3_K_QS + 32 * (j / 8) + 16 * (j % 2);
        const int plane = (j / 2) % 4, bit = j / 2;
        for (int l = 0; l < 16; l++) {
            const int q = (qs[l] >> (2 * plane)) & 3;
            const int high = (hmask[l] >> bit) & 1;
            y[16 * j + l] = dl * (float)(q - (high ? 0 : 4));
        }
    }
}

/* The 6-bit scale and min of sub-block j (0..7) packed into Q4_K/Q5_K's 12 scale bytes:
 * j < 4 in the low 6 bits of bytes j and j+4; j >= 4 split between a nibble of byte j+4 and the
 * top 2 bits of bytes j-4 (scale) and j (min). */
static void k4_scale_min(const uint8_t *s, int j, int *scale, int *min)
{
    if (j < 4) {
        *scale = s[j] & 63;
        *min = s[j + 4] & 63;
    } else {
        *scale = (s[j + 4] & 15) | (s[j - 4] >> 6) << 4;
        *min = (s[j + 4] >> 4) | (s[j] >> 6) << 4;
    }
}

/* Q4_K and Q5_K after d and dmin: scales[12] (k4_scale_min), qs[128] and, for Q5_K, qh[32]
 * (NULL for Q4_K). Each 32-byte chunk of qs gives its low nibbles to one 32-element sub-block
 * and its high nibbles to the next; bit j of qh[l] is the 5th bit of element 32j+l. */
static void k4_k5_block(float d, float dmin, const uint8_t *scales, const uint8_t *qs,
                        const uint8_t *qh, float *y)
{
    for (int j = 0; j < 8; j++) {
        int sc, m;
        k4_scale_min(scales, j, &sc, &m);
        const float dl = d * (float)sc;
        const float ml = dmin * (float)m;
        for (int l = 0; l < 32; l++) {
            int q = nibble(qs[32 * (j / 2) + l], j % 2);
            if (qh != NULL) {
                q |= ((qh[l] >> j) & 1) << 4;
            }
            y[32 * j + l] = dl * (float)q - ml;
        }
    }
}

/* d, dmin, scales[12], qs[128]. */
static void q4_K_block(const uint8_t *b, float *y)
{
    k4_k5_block(gsi_load_f16(b + GSI_Q4_K_D), gsi_load_f16(b + GSI_Q4_K_DMIN),
                b + GSI_Q4_K_SCALES, b + GSI_Q4_K_QS, NULL, y);
}

/* d, dmin, scales[12], qh[32], qs[128]. */
static void q5_K_block(const uint8_t *b, float *y)
{
    k4_k5_block(gsi_load_f16(b + GSI_Q5_K_D), gsi_load_f16(b + GSI_Q5_K_DMIN),
                b + GSI_Q5_K_SCALES, b + GSI_Q5_K_QS, b + GSI_Q5_K_QH, y);
}

/* ql[128], qh[64], scales int8[16], d. In each 128-element half n, the 32 elements of
 * quarter r take nibble r/2 of ql[64n + 32(r%2) + l] and bits 2r..2r+1 of qh[32n + l]; every
 * 16 elements have their own scale. */
static void q6_K_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_Q6_K_D);
    for (int j = 0; j < 16; j++) {
        const int n = j / 8, r = (j / 2) % 4, half = j % 2;
        const float dl = d * (float)gsi_s8(b[GSI_Q6_K_SCALES + j]);
        const uint8_t *ql = b + GSI_Q6_K_QL + 64 * n + 32 * (r % 2) + 16 * half;
        const uint8_t *qh = b + GSI_Q6_K_QH + 32 * n + 16 * half;
        for (int l = 0; l < 16; l++) {
            const int lo = nibble(ql[l], r / 2);
            const int hi = (qh[l] >> (2 * r)) & 3;
            y[16 * j + l] = dl * (float)((lo | hi << 4) - 32);
        }
    }
}

/* d f32, qs int8[256], bsums int16[16] (unused here). One rounding: d * q. */
static void q8_K_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f32le(b + GSI_Q8_K_D);
    const uint8_t *qs = b + GSI_Q8_K_QS;
    for (int e = 0; e < 256; e++) {
        y[e] = d * (float)gsi_s8(qs[e]);
    }
}

GSI_KQUANT_TYPES(GSI_SCALAR_ROW)
