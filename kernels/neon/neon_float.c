/* Plain float element types on NEON: F32 (a copy), F16 (FCVTL, the hardware conversion) and
 * BF16 (a widening shift). Eight elements per step; the last n % 8 go through a small buffer so
 * that no byte outside the input is read and no float outside the output is written. */
#include "neon_common.h"

#if GSI_NEON_ENABLED

#include <string.h>

/* The identity: the bits are copied, signalling NaNs included, as the scalar path does. */
GSI_NEON_DECODER(f32)
{
    memcpy(dst, src, n_blocks * sizeof(float));
}

/* F16 -> F32 with FCVTL: exact for every finite value and infinity, a NaN stays a NaN (quieted,
 * which the NaN rule ignores). Subnormal halves become normal floats; with FPCR.FZ = 0 (Linux,
 * AArch64) nothing is flushed. Same values as gsi_f16_to_f32 on all 65536 inputs. */
static void f16x8(const uint8_t *p, float *y)
{
    const float16x8_t h = vreinterpretq_f16_u8(vld1q_u8(p));
    vst1q_f32(y, vcvt_f32_f16(vget_low_f16(h)));
    vst1q_f32(y + 4, vcvt_high_f32_f16(h));
}

/* BF16 is the top half of an F32: widen each lane with a shift by 16. */
static void bf16x8(const uint8_t *p, float *y)
{
    const uint16x8_t h = vreinterpretq_u16_u8(vld1q_u8(p));
    vst1q_f32(y, vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h), 16)));
    vst1q_f32(y + 4, vreinterpretq_f32_u32(vshll_high_n_u16(h, 16)));
}

/* n 16-bit elements through `step` (8 at a time), the tail via a zero-padded copy. */
static void convert16(const uint8_t *src, float *dst, size_t n,
                      void (*step)(const uint8_t *, float *))
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        step(src + 2 * i, dst + i);
    }
    if (i < n) {
        uint8_t in[16] = {0};
        float out[8];
        memcpy(in, src + 2 * i, 2 * (n - i));
        step(in, out);
        memcpy(dst + i, out, (n - i) * sizeof(float));
    }
}

GSI_NEON_DECODER(f16)
{
    convert16(src, dst, n_blocks, f16x8);
}

GSI_NEON_DECODER(bf16)
{
    convert16(src, dst, n_blocks, bf16x8);
}

#endif
