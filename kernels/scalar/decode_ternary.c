/* Ternary types: every element is (t - 1) * d with a trit t in {0, 1, 2}. */
#include "block_layout.h"
#include "decode_scalar.h"
#include "le_load.h"

/* Trit n of a byte holding up to 5 trits as a base-3 fixed-point fraction: multiply by 3^n
 * modulo 256 (the wrap is intended: it drops the leading trits), then take the integer part of
 * three times the fraction. Bytes >= 243 are not valid packings but decode all the same. */
static int trit(uint8_t byte, int n)
{
    static const uint8_t pow3[5] = {1, 3, 9, 27, 81};
    const uint32_t shifted = (uint32_t)(byte * pow3[n]) & 0xffu;
    return (int)((shifted * 3u) >> 8);
}

/* Decodes `count` trit planes of `width` consecutive bytes: trit n of byte m is element
 * width*n + m. */
static void trit_planes(const uint8_t *bytes, int width, int count, float d, float *y)
{
    for (int n = 0; n < count; n++) {
        for (int m = 0; m < width; m++) {
            y[width * n + m] = (float)(trit(bytes[m], n) - 1) * d;
        }
    }
}

/* qs[48], qh[4], d. Bytes 0..31 of qs hold 5 trits each (elements 0..159), bytes 32..47 5
 * each (160..239) and the 4 qh bytes 4 each (240..255); within each group of bytes the trit
 * number varies slowest. */
static void tq1_0_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_TQ1_0_D);
    trit_planes(b + GSI_TQ1_0_QS, 32, 5, d, y);
    trit_planes(b + GSI_TQ1_0_QS + 32, 16, 5, d, y + 160);
    trit_planes(b + GSI_TQ1_0_QH, 4, 4, d, y + 240);
}

/* qs[64], d. 2-bit planes: each 32 bytes feed 128 elements at shifts 0, 2, 4, 6. */
static void tq2_0_block(const uint8_t *b, float *y)
{
    const float d = gsi_load_f16(b + GSI_TQ2_0_D);
    const uint8_t *qs = b + GSI_TQ2_0_QS;
    for (int n = 0; n < 2; n++) {
        for (int r = 0; r < 4; r++) {
            for (int l = 0; l < 32; l++) {
                const int q = (qs[32 * n + l] >> (2 * r)) & 3;
                y[128 * n + 32 * r + l] = (float)(q - 1) * d;
            }
        }
    }
}

GSI_TERNARY_TYPES(GSI_SCALAR_ROW)
