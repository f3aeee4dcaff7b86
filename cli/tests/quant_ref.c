#include "quant_ref.h"

#include <math.h>
#include <string.h>

#include "block_layout.h"

uint16_t qr_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t e = (x >> 23) & 0xffu;
    uint32_t mant = x & 0x7fffffu;
    if (e == 0xffu) {
        return (uint16_t)(sign | (mant != 0 ? 0x7e00u : 0x7c00u));
    }
    int exp = (int)e - 127 + 15; /* the half's biased exponent */
    if (exp >= 31) {
        return (uint16_t)(sign | 0x7c00u);
    }
    uint32_t half, rem, halfway;
    if (exp <= 0) {
        /* A half subnormal counts units of 2^-24: shift the full significand accordingly.
         * Below exp -10 the value is under half the smallest subnormal and rounds to zero. */
        if (exp < -10) {
            return (uint16_t)sign;
        }
        uint32_t shift = (uint32_t)(14 - exp);
        mant |= 0x800000u;
        half = mant >> shift;
        rem = mant & ((1u << shift) - 1u);
        halfway = 1u << (shift - 1u);
    } else {
        half = ((uint32_t)exp << 10) | (mant >> 13);
        rem = mant & 0x1fffu;
        halfway = 0x1000u;
    }
    /* A carry out of the significand moves to the next binade, or to infinity: both right. */
    if (rem > halfway || (rem == halfway && (half & 1u) != 0)) {
        half++;
    }
    return (uint16_t)(sign | half);
}

static void put_f16(uint8_t *p, float f)
{
    uint16_t h = qr_f32_to_f16(f);
    p[0] = (uint8_t)h;
    p[1] = (uint8_t)(h >> 8);
}

void qr_quantize_q8_0(const float *src, size_t n, uint8_t *dst)
{
    for (size_t b = 0; b < n / 32; b++, src += 32, dst += GSI_Q8_0_BYTES) {
        float amax = 0.0f;
        for (int j = 0; j < 32; j++) {
            amax = fmaxf(amax, fabsf(src[j]));
        }
        /* the scale maps the largest magnitude to 127 */
        const float d = amax / 127.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        put_f16(dst + GSI_Q8_0_D, d);
        for (int j = 0; j < 32; j++) {
            dst[GSI_Q8_0_QS + j] = (uint8_t)(int8_t)roundf(src[j] * id);
        }
    }
}

void qr_quantize_q4_0(const float *src, size_t n, uint8_t *dst)
{
    for (size_t b = 0; b < n / 32; b++, src += 32, dst += GSI_Q4_0_BYTES) {
        /* the signed value of largest magnitude maps to -8, the end of the range with more room */
        float amax = 0.0f, max = 0.0f;
        for (int j = 0; j < 32; j++) {
            if (amax < fabsf(src[j])) {
                amax = fabsf(src[j]);
                max = src[j];
            }
        }
        const float d = max / -8.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        put_f16(dst + GSI_Q4_0_D, d);
        for (int j = 0; j < 16; j++) {
            /* +8.5 then truncation: round half up into 0..16, clamped to 15 */
            int lo = (int8_t)(src[j] * id + 8.5f);
            int hi = (int8_t)(src[16 + j] * id + 8.5f);
            lo = lo < 15 ? lo : 15;
            hi = hi < 15 ? hi : 15;
            dst[GSI_Q4_0_QS + j] = (uint8_t)(lo | (hi << 4));
        }
    }
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* uniform in (0, 1]: never 0, so the logarithm is finite */
static double uniform(uint64_t *state)
{
    return ((double)(splitmix64(state) >> 11) + 1.0) / 9007199254740992.0;
}

void qr_gaussian(uint64_t seed, float sigma, float *dst, size_t n)
{
    const double two_pi = 6.283185307179586;
    uint64_t state = seed;
    for (size_t i = 0; i < n; i += 2) {
        double r = sqrt(-2.0 * log(uniform(&state)));
        double t = two_pi * uniform(&state);
        dst[i] = (float)(sigma * r * cos(t));
        if (i + 1 < n) {
            dst[i + 1] = (float)(sigma * r * sin(t));
        }
    }
}
