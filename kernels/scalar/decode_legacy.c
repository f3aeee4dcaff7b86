/* The 32-element legacy blocks (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q8_1) and the newer low-bit blocks
 * Q1_0 and Q2_0: one f16 scale (plus an f16 minimum for the _1 variants) per block.
 * Every value is (float)q * d, exact; the _1 variants round once, in the final + m.
 * Legacy nibble order: byte j holds element j in its low nibble and element j+16 in its high. */
#include "decode_scalar.h"
#include "le_load.h"

/* [0] d f16, [2] qs[16]. */
static void q4_0_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b);
    const uint8_t *qs = b + 2;
    for (int j = 0; j < 16; j++) {
        y[j] = (float)((qs[j] & 15) - 8) * d;
        y[j + 16] = (float)((qs[j] >> 4) - 8) * d;
    }
}

/* [0] d f16, [2] m f16, [4] qs[16]. */
static void q4_1_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b);
    const float m = gsi_load_f16(b + 2);
    const uint8_t *qs = b + 4;
    for (int j = 0; j < 16; j++) {
        y[j] = (float)(qs[j] & 15) * d + m;
        y[j + 16] = (float)(qs[j] >> 4) * d + m;
    }
}

/* The 5th bit of element e is bit e of the little-endian u32 qh. */
static int fifth_bit(uint32_t qh, int e)
{
    return (int)((qh >> e) & 1u) << 4;
}

/* [0] d f16, [2] qh u32, [6] qs[16]. */
static void q5_0_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b);
    const uint32_t qh = gsi_load_u32le(b + 2);
    const uint8_t *qs = b + 6;
    for (int j = 0; j < 16; j++) {
        y[j] = (float)(((qs[j] & 15) | fifth_bit(qh, j)) - 16) * d;
        y[j + 16] = (float)(((qs[j] >> 4) | fifth_bit(qh, j + 16)) - 16) * d;
    }
}

/* [0] d f16, [2] m f16, [4] qh u32, [8] qs[16]. */
static void q5_1_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b);
    const float m = gsi_load_f16(b + 2);
    const uint32_t qh = gsi_load_u32le(b + 4);
    const uint8_t *qs = b + 8;
    for (int j = 0; j < 16; j++) {
        y[j] = (float)((qs[j] & 15) | fifth_bit(qh, j)) * d + m;
        y[j + 16] = (float)((qs[j] >> 4) | fifth_bit(qh, j + 16)) * d + m;
    }
}

/* [0] d f16, [2] qs int8[32]. */
static void q8_0_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b);
    for (int j = 0; j < 32; j++) {
        y[j] = (float)gsi_s8(b[2 + j]) * d;
    }
}

/* [0] d f16, [2] s f16, [4] qs int8[32]. ggml has no decoder for this activation type; ours is
 * defined as qs * d, like Q8_0. The s field (d times the sum of qs, kept for dot products)
 * carries no extra information and is ignored. */
static void q8_1_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b);
    for (int j = 0; j < 32; j++) {
        y[j] = (float)gsi_s8(b[4 + j]) * d;
    }
}

/* [0] d f16, [2] qs[16], 128 elements: bit e%8 (LSB first) of qs[e/8]; 1 is +d, 0 is -d. */
static void q1_0_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b);
    const float neg_d = -d;
    for (int i = 0; i < 16; i++) {
        for (int bit = 0; bit < 8; bit++) {
            y[8 * i + bit] = ((b[2 + i] >> bit) & 1) ? d : neg_d;
        }
    }
}

/* [0] d f16, [2] qs[16], 64 elements in linear LSB-first 2-bit fields; value (q - 1) * d. */
static void q2_0_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b);
    for (int i = 0; i < 16; i++) {
        for (int k = 0; k < 4; k++) {
            y[4 * i + k] = (float)(((b[2 + i] >> (2 * k)) & 3) - 1) * d;
        }
    }
}

GSI_SCALAR_ROW(q4_0, 18, 32)
GSI_SCALAR_ROW(q4_1, 20, 32)
GSI_SCALAR_ROW(q5_0, 22, 32)
GSI_SCALAR_ROW(q5_1, 24, 32)
GSI_SCALAR_ROW(q8_0, 34, 32)
GSI_SCALAR_ROW(q8_1, 36, 32)
GSI_SCALAR_ROW(q1_0, 18, 128)
GSI_SCALAR_ROW(q2_0, 18, 64)
