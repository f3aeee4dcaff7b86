#include "cert_scales.h"

#include <string.h>

#include "block_layout.h"
#include "ggufsafe.h"
#include "le_load.h"

typedef enum scale_kind {
    NONE = 0,
    F16_D,      /* f16 at off1 */
    F16_D_M,    /* f16 at off1 and off2 */
    F32_D,      /* f32 at off1 (q8_K) */
    IQ1M,       /* f16 reassembled from the top nibbles of 4 u16 at off1 */
    E8M0,       /* u8 exponent at off1; 0xFF is invalid */
    UE4M3_X4    /* 4 UE4M3 bytes at off1 (nvfp4): odd, never invalid */
} scale_kind;

typedef struct scale_layout {
    scale_kind kind;
    uint16_t off1, off2;
} scale_layout;

/* Where each type keeps its scales (kernels/block_layout.h; docs/quant-types.md, "Scales ggml
 * calls invalid"). Q8_1, an activation type that ggml does not validate, is checked on d, the
 * only field its decoding uses (s is a sum). */
static scale_layout layout_of(int32_t type)
{
    switch (type) {
    case GS_TYPE_Q4_0: return (scale_layout){F16_D, GSI_Q4_0_D, 0};
    case GS_TYPE_Q5_0: return (scale_layout){F16_D, GSI_Q5_0_D, 0};
    case GS_TYPE_Q8_0: return (scale_layout){F16_D, GSI_Q8_0_D, 0};
    case GS_TYPE_Q8_1: return (scale_layout){F16_D, GSI_Q8_1_D, 0};
    case GS_TYPE_Q1_0: return (scale_layout){F16_D, GSI_Q1_0_D, 0};
    case GS_TYPE_Q2_0: return (scale_layout){F16_D, GSI_Q2_0_D, 0};
    case GS_TYPE_IQ2_XXS: return (scale_layout){F16_D, GSI_IQ2_XXS_D, 0};
    case GS_TYPE_IQ2_XS: return (scale_layout){F16_D, GSI_IQ2_XS_D, 0};
    case GS_TYPE_IQ2_S: return (scale_layout){F16_D, GSI_IQ2_S_D, 0};
    case GS_TYPE_IQ3_XXS: return (scale_layout){F16_D, GSI_IQ3_XXS_D, 0};
    case GS_TYPE_IQ3_S: return (scale_layout){F16_D, GSI_IQ3_S_D, 0};
    case GS_TYPE_IQ1_S: return (scale_layout){F16_D, GSI_IQ1_S_D, 0};
    case GS_TYPE_IQ4_NL: return (scale_layout){F16_D, GSI_IQ4_NL_D, 0};
    case GS_TYPE_IQ4_XS: return (scale_layout){F16_D, GSI_IQ4_XS_D, 0};
    case GS_TYPE_Q3_K: return (scale_layout){F16_D, GSI_Q3_K_D, 0};
    case GS_TYPE_Q6_K: return (scale_layout){F16_D, GSI_Q6_K_D, 0};
    case GS_TYPE_TQ1_0: return (scale_layout){F16_D, GSI_TQ1_0_D, 0};
    case GS_TYPE_TQ2_0: return (scale_layout){F16_D, GSI_TQ2_0_D, 0};
    case GS_TYPE_Q4_1: return (scale_layout){F16_D_M, GSI_Q4_1_D, GSI_Q4_1_M};
    case GS_TYPE_Q5_1: return (scale_layout){F16_D_M, GSI_Q5_1_D, GSI_Q5_1_M};
    case GS_TYPE_Q2_K: return (scale_layout){F16_D_M, GSI_Q2_K_D, GSI_Q2_K_DMIN};
    case GS_TYPE_Q4_K: return (scale_layout){F16_D_M, GSI_Q4_K_D, GSI_Q4_K_DMIN};
    case GS_TYPE_Q5_K: return (scale_layout){F16_D_M, GSI_Q5_K_D, GSI_Q5_K_DMIN};
    case GS_TYPE_Q8_K: return (scale_layout){F32_D, GSI_Q8_K_D, 0};
    case GS_TYPE_IQ1_M: return (scale_layout){IQ1M, GSI_IQ1_M_SCALES, 0};
    case GS_TYPE_MXFP4: return (scale_layout){E8M0, GSI_MXFP4_E, 0};
    case GS_TYPE_NVFP4: return (scale_layout){UE4M3_X4, GSI_NVFP4_D, 0};
    default: return (scale_layout){NONE, 0, 0};
    }
}

bool cert_type_has_scales(int32_t type)
{
    return layout_of(type).kind != NONE;
}

static uint16_t u16_at(const uint8_t *p)
{
    return gsi_load_u16le(p);
}

/* Inf or NaN: the exponent field all ones. */
static bool f16_nonfinite(uint16_t h)
{
    return (h & 0x7c00u) == 0x7c00u;
}

static bool block_bad(const scale_layout *l, const uint8_t *b)
{
    switch (l->kind) {
    case F16_D:
        return f16_nonfinite(u16_at(b + l->off1));
    case F16_D_M:
        return f16_nonfinite(u16_at(b + l->off1)) || f16_nonfinite(u16_at(b + l->off2));
    case F32_D:
        return (gsi_load_u32le(b + l->off1) & 0x7f800000u) == 0x7f800000u;
    case IQ1M: {
        const uint8_t *s = b + l->off1;
        uint16_t d = (uint16_t)((u16_at(s) >> 12) | ((u16_at(s + 2) >> 8) & 0x00f0u) |
                                ((u16_at(s + 4) >> 4) & 0x0f00u) | (u16_at(s + 6) & 0xf000u));
        return f16_nonfinite(d);
    }
    case E8M0:
        return b[l->off1] == 0xff;
    case NONE:
    case UE4M3_X4:
        return false;
    }
    return false;
}

static bool block_odd(const scale_layout *l, const uint8_t *b)
{
    if (l->kind != UE4M3_X4) {
        return false;
    }
    for (int k = 0; k < 4; k++) {
        uint8_t s = b[l->off1 + k];
        if (s == 0x7f || (s & 0x80) != 0) {
            return true;
        }
    }
    return false;
}

/* Zero elements of a plain type: word compares the compiler can vectorise, one loop per width
 * (COUNT_ZEROS of the word type). */
#define COUNT_ZEROS(word)                                                                        \
    for (size_t i = 0; i < n; i++) {                                                             \
        word v;                                                                                  \
        memcpy(&v, p + sizeof v * i, sizeof v);                                                  \
        z += v == 0;                                                                             \
    }

static uint64_t zero_words(const uint8_t *p, size_t n, size_t width)
{
    uint64_t z = 0;
    switch (width) {
    case 1: COUNT_ZEROS(uint8_t) break;
    case 2: COUNT_ZEROS(uint16_t) break;
    case 4: COUNT_ZEROS(uint32_t) break;
    default: COUNT_ZEROS(uint64_t) break;
    }
    return z;
}

#undef COUNT_ZEROS

static const uint8_t zeros[512];

void cert_check_scales(int32_t type, const uint8_t *p, size_t n_blocks, size_t block_bytes,
                       cert_scale_counts *c, uint64_t block_base)
{
    if (block_bytes <= 8) {
        c->zero += zero_words(p, n_blocks, block_bytes);
    } else {
        for (size_t i = 0; i < n_blocks; i++) {
            c->zero += memcmp(p + i * block_bytes, zeros, block_bytes) == 0;
        }
    }
    const scale_layout l = layout_of(type);
    if (l.kind == NONE) {
        return;
    }
    for (size_t i = 0; i < n_blocks; i++) {
        const uint8_t *b = p + i * block_bytes;
        if (block_bad(&l, b) && c->bad++ == 0) {
            c->first_bad = block_base + i;
        }
        if (block_odd(&l, b) && c->odd++ == 0) {
            c->first_odd = block_base + i;
        }
    }
}
