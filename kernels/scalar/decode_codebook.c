/* 4-bit code-book types: each nibble indexes a 16-entry table of small integers, scaled once.
 * IQ4_NL and IQ4_XS use the non-linear kvalues_iq4nl with f16 scales; MXFP4 and NVFP4 use the
 * doubled E2M1 values kvalues_fp4 with an E8M0 (per 32) or UE4M3 (per 16) scale, halved. */
#include "block_layout.h"
#include "decode_scalar.h"
#include "grids/grids.h"
#include "le_load.h"

/* d, qs[16]; legacy nibble order (byte j: elements j and j+16). */
static void iq4_nl_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ4_NL_D);
    const uint8_t *qs = b + GSI_IQ4_NL_QS;
    for (int j = 0; j < 16; j++) {
        y[j] = d * (float)gsi_kvalues_iq4nl[qs[j] & 15];
        y[j + 16] = d * (float)gsi_kvalues_iq4nl[qs[j] >> 4];
    }
}

/* d, scales_h u16, scales_l[4], qs[128]. Sub-block ib has the 6-bit scale (nibble ib%2 of
 * scales_l[ib/2]) | (bits 2ib..2ib+1 of scales_h) << 4, biased by 32, and its 16 bytes of qs
 * in legacy nibble order. (d * (ls - 32)) is formed first: signed zeros. */
static void iq4_xs_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_IQ4_XS_D);
    const uint16_t scales_h = gsi_load_u16le(b + GSI_IQ4_XS_SCALES_H);
    const uint8_t *scales_l = b + GSI_IQ4_XS_SCALES_L;
    for (int ib = 0; ib < 8; ib++) {
        const int lo = (scales_l[ib / 2] >> (4 * (ib % 2))) & 15;
        const int hi = (scales_h >> (2 * ib)) & 3;
        const float dl = d * (float)((lo | hi << 4) - 32);
        const uint8_t *qs = b + GSI_IQ4_XS_QS + 16 * ib;
        for (int j = 0; j < 16; j++) {
            y[32 * ib + j] = dl * (float)gsi_kvalues_iq4nl[qs[j] & 15];
            y[32 * ib + j + 16] = dl * (float)gsi_kvalues_iq4nl[qs[j] >> 4];
        }
    }
}

/* e E8M0, qs[16]; legacy nibble order. The blocks are 17 bytes: odd addresses. */
static void mxfp4_block(const uint8_t *b, float *y)
{
    const float d = gsi_e8m0_half_to_f32(b[GSI_MXFP4_E]);
    const uint8_t *qs = b + GSI_MXFP4_QS;
    for (int j = 0; j < 16; j++) {
        y[j] = (float)gsi_kvalues_fp4[qs[j] & 15] * d;
        y[j + 16] = (float)gsi_kvalues_fp4[qs[j] >> 4] * d;
    }
}

/* d UE4M3[4], qs[32]; four 16-element sub-blocks of 8 bytes each. Inside a sub-block the low
 * nibbles hold elements 0..7 and the high nibbles 8..15. No per-tensor f32 scale. */
static void nvfp4_block(const uint8_t *b, float *y)
{
    for (int s = 0; s < 4; s++) {
        const float d = gsi_ue4m3_half_to_f32(b[GSI_NVFP4_D + s]);
        const uint8_t *qs = b + GSI_NVFP4_QS + 8 * s;
        for (int j = 0; j < 8; j++) {
            y[16 * s + j] = (float)gsi_kvalues_fp4[qs[j] & 15] * d;
            y[16 * s + j + 8] = (float)gsi_kvalues_fp4[qs[j] >> 4] * d;
        }
    }
}

GSI_CODEBOOK_TYPES(GSI_SCALAR_ROW)
