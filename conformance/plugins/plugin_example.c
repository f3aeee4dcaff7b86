/* The example decoder plugin: type id 200, "q8_0_example", with exactly Q8_0's block (32
 * elements in 34 bytes: an IEEE half scale d, then 32 signed bytes q) and Q8_0's decoding,
 * y[j] = (float)q[j] * d, written here from the format's definition. It includes only the plugin
 * ABI header and links nothing of ggufsafe's: a file whose Q8_0 tensors are relabelled 8 -> 200
 * must decode to the same bytes through it (cli/tests/test_cli_plugins.c). README.md beside it
 * is the plugin author's guide. */
#include <stdint.h>
#include <string.h>

#include "ggufsafe_plugin.h"

#define QK 32
#define BLOCK_BYTES (2 + QK)

/* IEEE 754 binary16 to binary32, exactly (every half is a float): normal, subnormal, zero,
 * infinity and NaN (payload kept, shifted into the float's mantissa). */
static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13); /* inf, NaN */
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (man << 13); /* 127 - 15 = 112 */
    } else if (man == 0) {
        bits = sign; /* signed zero */
    } else {
        /* subnormal: normalise the mantissa */
        uint32_t e = 113u; /* 127 - 15 + 1 */
        while ((man & 0x400u) == 0) {
            man <<= 1;
            e--;
        }
        bits = sign | (e << 23) | ((man & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static int decode_q8_0_example(int32_t type, const void *src, size_t src_bytes, float *dst,
                               size_t n_elems)
{
    if (type != 200 || src_bytes % BLOCK_BYTES != 0 || src_bytes / BLOCK_BYTES * QK != n_elems) {
        return 1; /* never asked by ggufsafe: whole blocks only */
    }
    const uint8_t *b = src;
    for (size_t i = 0; i < src_bytes / BLOCK_BYTES; i++, b += BLOCK_BYTES) {
        const float d = half_to_float((uint16_t)(b[0] | (uint16_t)(b[1] << 8)));
        for (int j = 0; j < QK; j++) {
            dst[i * QK + (size_t)j] = (float)(int8_t)b[2 + j] * d;
        }
    }
    return 0;
}

static const gs_plugin_type types[] = {
    {200, "q8_0_example", QK, BLOCK_BYTES, decode_q8_0_example},
};

static const gs_plugin_table table = {
    GGUFSAFE_PLUGIN_ABI_VERSION, sizeof table, "q8_0 example", 1, types,
};

GGUFSAFE_PLUGIN_EXPORT const gs_plugin_table *ggufsafe_plugin_v1(void);
GGUFSAFE_PLUGIN_EXPORT const gs_plugin_table *ggufsafe_plugin_v1(void)
{
    return &table;
}
