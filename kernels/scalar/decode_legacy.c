/* The 32-element legacy blocks (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q8_1) and the newer low-bit blocks
 * Q1_0 and Q2_0: one f16 scale (plus an f16 minimum for the _1 variants) per block.
 * Every value is (float)q * d, exact; the _1 variants round once, in the final + m.
 * Legacy nibble order: byte j holds element j in its low nibble and element j+16 in its high. */
#include "block_layout.h"
#include "decode_scalar.h"
#include "le_load.h"

/* d, qs[16]. */
static void q4_0_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_Q4_0_D);
    const uint8_t *qs = b + GSI_Q4_0_QS;
    for (int j = 0; j < 16; j++) {
        y[j] = (float)((qs[j] & 15) - 8) * d;
        y[j + 16] = (float)((qs[j] >> 4) - 8) * d;
    }
}

/* d, m, qs[16]. */
static void q4_1_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_Q4_1_D);
    const float m = gsi_load_f16(b + GSI_Q4_1_M);
    const uint8_t *qs = b + GSI_Q4_1_QS;
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

/* d, qh u32, qs[16]. */
static void q5_0_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_Q5_0_D);
    const uint32_t qh = gsi_load_u32le(b + GSI_Q5_0_QH);
    const uint8_t *qs = b + GSI_Q5_0_QS;
    for (int j = 0; j < 16; j++) {
        y[j] = (float)(((qs[j] & 15) | fifth_bit(qh, j)) - 16) * d;
        y[j + 16] = (float)(((qs[j] >> 4) | fifth_bit(qh, j + 16)) - 16) * d;
    }
}

/* d, m, qh u32, qs[16]. */
static void q5_1_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_Q5_1_D);
    const float m = gsi_load_f16(b + GSI_Q5_1_M);
    const uint32_t qh = gsi_load_u32le(b + GSI_Q5_1_QH);
    const uint8_t *qs = b + GSI_Q5_1_QS;
    for (int j = 0; j < 16; j++) {
        y[j] = (float)((qs[j] & 15) | fifth_bit(qh, j)) * d + m;
        y[j + 16] = (float)((qs[j] >> 4) | fifth_bit(qh, j + 16)) * d + m;
    }
}

/* d, qs int8[32]. */
static void q8_0_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_Q8_0_D);
    const uint8_t *qs = b + GSI_Q8_0_QS;
    for (int j = 0; j < 32; j++) {
        y[j] = (float)gsi_s8(qs[j]) * d;
    }
}

/* d, s, qs int8[32]. ggml has no decoder for this activation type; ours is defined as
 * qs * d, like Q8_0. The s field (d times the sum of qs, kept for dot products) carries no
 * extra information and is ignored. */
static void q8_1_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_Q8_1_D);
    const uint8_t *qs = b + GSI_Q8_1_QS;
    for (int j = 0; j < 32; j++) {
        y[j] = (float)gsi_s8(qs[j]) * d;
    }
}

/* d, qs[16], 128 elements: bit e%8 (LSB first) of qs[e/8]; 1 is +d, 0 is -d. */
static void q1_0_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_Q1_0_D);
    const float neg_d = -d;
    const uint8_t *qs = b + GSI_Q1_0_QS;
    for (int i = 0; i < 16; i++) {
        for (int bit = 0; bit < 8; bit++) {
            y[8 * i + bit] = ((qs[i] >> bit) & 1) ? d : neg_d;
        }
    }
}

/* d, qs[16], 64 elements in linear LSB-first 2-bit fields; value (q - 1) * d. */
static void q2_0_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_Q2_0_D);
    const uint8_t *qs = b + GSI_Q2_0_QS;
    for (int i = 0; i < 16; i++) {
        for (int k = 0; k < 4; k++) {
            y[4 * i + k] = (float)(((qs[i] >> (2 * k)) & 3) - 1) * d;
        }
    }
}

GSI_LEGACY_TYPES(GSI_SCALAR_ROW)
