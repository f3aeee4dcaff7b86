/* The block layouts of ggml's tensor types, named once: every decoder path (kernels/scalar,
 * kernels/avx2, kernels/neon), the type registry, the certification scale checks and the tools
 * and tests that write blocks take field offsets and block sizes from here, never as literals.
 *
 * Each block type is a struct of byte arrays mirroring ggml's block_<type> (ggml-common.h at
 * d99724f2; docs/quant-types.md), field for field and in ggml's order; the comment of each
 * field says how its bytes are read (f16 and f32 fields and u16/u32 arrays are little-endian).
 * The structs exist for offsetof and sizeof only: blocks sit at any address (MXFP4's are 17
 * bytes) and are read byte-wise through le_load.h, never through these types. Per type:
 *   GSI_<TYPE>_<FIELD>  the byte offset of the field in the block (an int constant)
 *   GSI_<TYPE>_BYTES    bytes per block, GSI_<TYPE>_ELEMS elements per block
 *   GSI_FIELD_BYTES(type, field)  the size of a field in bytes
 * and static asserts that the fields tile the block with no gap (the sizes add up to the
 * struct's size) and that the block has ggml's size. The registry (type_registry.c) takes its
 * geometry from these constants, so the two cannot disagree.
 *
 * Packing inside a field (which bits of which byte belong to which element) is documented, and
 * indexed, where it is decoded; it is arithmetic on element numbers, not a layout. */
#ifndef GGUFSAFE_BLOCK_LAYOUT_H
#define GGUFSAFE_BLOCK_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "le_load.h"

/* Elements per super-block of the K-quants, I-quants and ternary types (ggml's QK_K). */
#define GSI_QK_K 256

#define GSI_FIELD_BYTES(type, field) sizeof(((gsi_block_##type *)0)->field)

/* _Static_assert that the n fields listed tile gsi_block_<type> exactly and that it is `bytes`
 * long (ggml's size for the type). */
#define GSI_SUM_1(t, a) GSI_FIELD_BYTES(t, a)
#define GSI_SUM_2(t, a, b) GSI_SUM_1(t, a) + GSI_FIELD_BYTES(t, b)
#define GSI_SUM_3(t, a, b, c) GSI_SUM_2(t, a, b) + GSI_FIELD_BYTES(t, c)
#define GSI_SUM_4(t, a, b, c, d) GSI_SUM_3(t, a, b, c) + GSI_FIELD_BYTES(t, d)
#define GSI_SUM_5(t, a, b, c, d, e) GSI_SUM_4(t, a, b, c, d) + GSI_FIELD_BYTES(t, e)
#define GSI_BLOCK_CHECK(type, bytes, n, ...)                                                     \
    _Static_assert(GSI_SUM_##n(type, __VA_ARGS__) == sizeof(gsi_block_##type),                 \
                   "block " #type ": the fields do not tile the block");                       \
    _Static_assert(sizeof(gsi_block_##type) == (bytes), "block " #type ": not ggml's size")

/* ---- plain element types: one element per "block" ----------------------------------------- */
enum {
    GSI_F32_BYTES = 4, GSI_F32_ELEMS = 1,   /* IEEE binary32 */
    GSI_F16_BYTES = 2, GSI_F16_ELEMS = 1,   /* IEEE binary16 */
    GSI_BF16_BYTES = 2, GSI_BF16_ELEMS = 1, /* bfloat16: the top half of a binary32 */
    GSI_F64_BYTES = 8, GSI_F64_ELEMS = 1,
    GSI_I8_BYTES = 1, GSI_I8_ELEMS = 1,
    GSI_I16_BYTES = 2, GSI_I16_ELEMS = 1,
    GSI_I32_BYTES = 4, GSI_I32_ELEMS = 1,
    GSI_I64_BYTES = 8, GSI_I64_ELEMS = 1,
};

/* ---- legacy 32-element blocks (legacy nibble order: byte j holds elements j and j+16) ------- */
typedef struct gsi_block_q4_0 {
    uint8_t d[2];   /* f16 scale */
    uint8_t qs[16]; /* 4-bit quants */
} gsi_block_q4_0;
enum {
    GSI_Q4_0_D = offsetof(gsi_block_q4_0, d),
    GSI_Q4_0_QS = offsetof(gsi_block_q4_0, qs),
    GSI_Q4_0_BYTES = sizeof(gsi_block_q4_0),
    GSI_Q4_0_ELEMS = 32,
};
GSI_BLOCK_CHECK(q4_0, 18, 2, d, qs);

typedef struct gsi_block_q4_1 {
    uint8_t d[2];   /* f16 scale */
    uint8_t m[2];   /* f16 minimum */
    uint8_t qs[16]; /* 4-bit quants */
} gsi_block_q4_1;
enum {
    GSI_Q4_1_D = offsetof(gsi_block_q4_1, d),
    GSI_Q4_1_M = offsetof(gsi_block_q4_1, m),
    GSI_Q4_1_QS = offsetof(gsi_block_q4_1, qs),
    GSI_Q4_1_BYTES = sizeof(gsi_block_q4_1),
    GSI_Q4_1_ELEMS = 32,
};
GSI_BLOCK_CHECK(q4_1, 20, 3, d, m, qs);

typedef struct gsi_block_q5_0 {
    uint8_t d[2];   /* f16 scale */
    uint8_t qh[4];  /* u32: bit e is the 5th bit of element e */
    uint8_t qs[16]; /* low 4 bits */
} gsi_block_q5_0;
enum {
    GSI_Q5_0_D = offsetof(gsi_block_q5_0, d),
    GSI_Q5_0_QH = offsetof(gsi_block_q5_0, qh),
    GSI_Q5_0_QS = offsetof(gsi_block_q5_0, qs),
    GSI_Q5_0_BYTES = sizeof(gsi_block_q5_0),
    GSI_Q5_0_ELEMS = 32,
};
GSI_BLOCK_CHECK(q5_0, 22, 3, d, qh, qs);

typedef struct gsi_block_q5_1 {
    uint8_t d[2];   /* f16 scale */
    uint8_t m[2];   /* f16 minimum */
    uint8_t qh[4];  /* u32: bit e is the 5th bit of element e */
    uint8_t qs[16]; /* low 4 bits */
} gsi_block_q5_1;
enum {
    GSI_Q5_1_D = offsetof(gsi_block_q5_1, d),
    GSI_Q5_1_M = offsetof(gsi_block_q5_1, m),
    GSI_Q5_1_QH = offsetof(gsi_block_q5_1, qh),
    GSI_Q5_1_QS = offsetof(gsi_block_q5_1, qs),
    GSI_Q5_1_BYTES = sizeof(gsi_block_q5_1),
    GSI_Q5_1_ELEMS = 32,
};
GSI_BLOCK_CHECK(q5_1, 24, 4, d, m, qh, qs);

typedef struct gsi_block_q8_0 {
    uint8_t d[2];   /* f16 scale */
    uint8_t qs[32]; /* int8 quants */
} gsi_block_q8_0;
enum {
    GSI_Q8_0_D = offsetof(gsi_block_q8_0, d),
    GSI_Q8_0_QS = offsetof(gsi_block_q8_0, qs),
    GSI_Q8_0_BYTES = sizeof(gsi_block_q8_0),
    GSI_Q8_0_ELEMS = 32,
};
GSI_BLOCK_CHECK(q8_0, 34, 2, d, qs);

typedef struct gsi_block_q8_1 {
    uint8_t d[2];   /* f16 scale */
    uint8_t s[2];   /* f16 d * sum(qs), for dot products; not needed to decode */
    uint8_t qs[32]; /* int8 quants */
} gsi_block_q8_1;
enum {
    GSI_Q8_1_D = offsetof(gsi_block_q8_1, d),
    GSI_Q8_1_S = offsetof(gsi_block_q8_1, s),
    GSI_Q8_1_QS = offsetof(gsi_block_q8_1, qs),
    GSI_Q8_1_BYTES = sizeof(gsi_block_q8_1),
    GSI_Q8_1_ELEMS = 32,
};
GSI_BLOCK_CHECK(q8_1, 36, 3, d, s, qs);

/* ---- newer low-bit blocks ----------------------------------------------------------------- */
typedef struct gsi_block_q1_0 {
    uint8_t d[2];   /* f16 scale */
    uint8_t qs[16]; /* 1 bit per element, LSB first */
} gsi_block_q1_0;
enum {
    GSI_Q1_0_D = offsetof(gsi_block_q1_0, d),
    GSI_Q1_0_QS = offsetof(gsi_block_q1_0, qs),
    GSI_Q1_0_BYTES = sizeof(gsi_block_q1_0),
    GSI_Q1_0_ELEMS = 128,
};
GSI_BLOCK_CHECK(q1_0, 18, 2, d, qs);

typedef struct gsi_block_q2_0 {
    uint8_t d[2];   /* f16 scale */
    uint8_t qs[16]; /* 2 bits per element, linear, LSB first */
} gsi_block_q2_0;
enum {
    GSI_Q2_0_D = offsetof(gsi_block_q2_0, d),
    GSI_Q2_0_QS = offsetof(gsi_block_q2_0, qs),
    GSI_Q2_0_BYTES = sizeof(gsi_block_q2_0),
    GSI_Q2_0_ELEMS = 64,
};
GSI_BLOCK_CHECK(q2_0, 18, 2, d, qs);

/* ---- K-quants ------------------------------------------------------------------------------ */
typedef struct gsi_block_q2_K {
    uint8_t scales[16]; /* per 16 elements: low nibble scale, high nibble min */
    uint8_t qs[64];     /* 2-bit planes */
    uint8_t d[2];       /* f16 scale of the scales */
    uint8_t dmin[2];    /* f16 scale of the mins */
} gsi_block_q2_K;
enum {
    GSI_Q2_K_SCALES = offsetof(gsi_block_q2_K, scales),
    GSI_Q2_K_QS = offsetof(gsi_block_q2_K, qs),
    GSI_Q2_K_D = offsetof(gsi_block_q2_K, d),
    GSI_Q2_K_DMIN = offsetof(gsi_block_q2_K, dmin),
    GSI_Q2_K_BYTES = sizeof(gsi_block_q2_K),
    GSI_Q2_K_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(q2_K, 84, 4, scales, qs, d, dmin);

typedef struct gsi_block_q3_K {
    uint8_t hmask[32];  /* high bit of each element */
    uint8_t qs[64];     /* low 2 bits, 2-bit planes */
    uint8_t scales[12]; /* 16 6-bit scales: low nibbles in bytes 0..7, high bits in 8..11 */
    uint8_t d[2];       /* f16 super-block scale */
} gsi_block_q3_K;
enum {
    GSI_Q3_K_HMASK = offsetof(gsi_block_q3_K, hmask),
    GSI_Q3_K_QS = offsetof(gsi_block_q3_K, qs),
    GSI_Q3_K_SCALES = offsetof(gsi_block_q3_K, scales),
    GSI_Q3_K_D = offsetof(gsi_block_q3_K, d),
    GSI_Q3_K_BYTES = sizeof(gsi_block_q3_K),
    GSI_Q3_K_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(q3_K, 110, 4, hmask, qs, scales, d);

typedef struct gsi_block_q4_K {
    uint8_t d[2];       /* f16 scale of the scales */
    uint8_t dmin[2];    /* f16 scale of the mins */
    uint8_t scales[12]; /* 8 6-bit scales and 8 6-bit mins, packed (get_scale_min_k4) */
    uint8_t qs[128];    /* 4-bit quants */
} gsi_block_q4_K;
enum {
    GSI_Q4_K_D = offsetof(gsi_block_q4_K, d),
    GSI_Q4_K_DMIN = offsetof(gsi_block_q4_K, dmin),
    GSI_Q4_K_SCALES = offsetof(gsi_block_q4_K, scales),
    GSI_Q4_K_QS = offsetof(gsi_block_q4_K, qs),
    GSI_Q4_K_BYTES = sizeof(gsi_block_q4_K),
    GSI_Q4_K_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(q4_K, 144, 4, d, dmin, scales, qs);

typedef struct gsi_block_q5_K {
    uint8_t d[2];       /* f16 scale of the scales */
    uint8_t dmin[2];    /* f16 scale of the mins */
    uint8_t scales[12]; /* as Q4_K */
    uint8_t qh[32];     /* 5th bits: bit j of qh[l] belongs to element 32j + l */
    uint8_t qs[128];    /* low 4 bits */
} gsi_block_q5_K;
enum {
    GSI_Q5_K_D = offsetof(gsi_block_q5_K, d),
    GSI_Q5_K_DMIN = offsetof(gsi_block_q5_K, dmin),
    GSI_Q5_K_SCALES = offsetof(gsi_block_q5_K, scales),
    GSI_Q5_K_QH = offsetof(gsi_block_q5_K, qh),
    GSI_Q5_K_QS = offsetof(gsi_block_q5_K, qs),
    GSI_Q5_K_BYTES = sizeof(gsi_block_q5_K),
    GSI_Q5_K_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(q5_K, 176, 5, d, dmin, scales, qh, qs);

typedef struct gsi_block_q6_K {
    uint8_t ql[128];    /* low 4 bits */
    uint8_t qh[64];     /* high 2 bits */
    uint8_t scales[16]; /* int8 scale per 16 elements */
    uint8_t d[2];       /* f16 super-block scale */
} gsi_block_q6_K;
enum {
    GSI_Q6_K_QL = offsetof(gsi_block_q6_K, ql),
    GSI_Q6_K_QH = offsetof(gsi_block_q6_K, qh),
    GSI_Q6_K_SCALES = offsetof(gsi_block_q6_K, scales),
    GSI_Q6_K_D = offsetof(gsi_block_q6_K, d),
    GSI_Q6_K_BYTES = sizeof(gsi_block_q6_K),
    GSI_Q6_K_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(q6_K, 210, 4, ql, qh, scales, d);

typedef struct gsi_block_q8_K {
    uint8_t d[4];      /* f32 scale (not f16) */
    uint8_t qs[256];   /* int8 quants */
    uint8_t bsums[32]; /* int16[16] sums of groups of 16 quants, for dot products */
} gsi_block_q8_K;
enum {
    GSI_Q8_K_D = offsetof(gsi_block_q8_K, d),
    GSI_Q8_K_QS = offsetof(gsi_block_q8_K, qs),
    GSI_Q8_K_BSUMS = offsetof(gsi_block_q8_K, bsums),
    GSI_Q8_K_BYTES = sizeof(gsi_block_q8_K),
    GSI_Q8_K_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(q8_K, 292, 3, d, qs, bsums);

/* ---- grid I-quants -------------------------------------------------------------------------- */
/* IQ2_XXS: ggml's qs is uint16_t[32], read as 8 records of 8 bytes, one per 32-element
 * sub-block: 4 grid indices, then a u32 of four 7-bit ksigns indices and a 4-bit scale. */
typedef struct gsi_block_iq2_xxs {
    uint8_t d[2];   /* f16 scale */
    uint8_t qs[64]; /* 8 sub-block records */
} gsi_block_iq2_xxs;
enum {
    GSI_IQ2_XXS_D = offsetof(gsi_block_iq2_xxs, d),
    GSI_IQ2_XXS_QS = offsetof(gsi_block_iq2_xxs, qs),
    GSI_IQ2_XXS_BYTES = sizeof(gsi_block_iq2_xxs),
    GSI_IQ2_XXS_ELEMS = GSI_QK_K,
    /* one sub-block record in qs */
    GSI_IQ2_XXS_SUB_GRID = 0, /* 4 grid indices */
    GSI_IQ2_XXS_SUB_AUX = 4,  /* u32: ksigns indices (bits 0..27), scale (28..31) */
    GSI_IQ2_XXS_SUB_BYTES = 8,
};
GSI_BLOCK_CHECK(iq2_xxs, 66, 2, d, qs);
_Static_assert(8 * GSI_IQ2_XXS_SUB_BYTES == GSI_FIELD_BYTES(iq2_xxs, qs),
               "iq2_xxs: 8 sub-block records fill qs");

typedef struct gsi_block_iq2_xs {
    uint8_t d[2];      /* f16 scale */
    uint8_t qs[64];    /* u16[32]: 9-bit grid index, 7-bit ksigns index */
    uint8_t scales[8]; /* a nibble per pair of groups */
} gsi_block_iq2_xs;
enum {
    GSI_IQ2_XS_D = offsetof(gsi_block_iq2_xs, d),
    GSI_IQ2_XS_QS = offsetof(gsi_block_iq2_xs, qs),
    GSI_IQ2_XS_SCALES = offsetof(gsi_block_iq2_xs, scales),
    GSI_IQ2_XS_BYTES = sizeof(gsi_block_iq2_xs),
    GSI_IQ2_XS_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(iq2_xs, 74, 3, d, qs, scales);

/* IQ2_S: ggml's qs[64] is the 32 low grid-index bytes followed by the 32 sign masks; named
 * apart here. */
typedef struct gsi_block_iq2_s {
    uint8_t d[2];      /* f16 scale */
    uint8_t qs[32];    /* low 8 bits of the grid indices */
    uint8_t signs[32]; /* direct 8-bit sign masks, one per group of 8 */
    uint8_t qh[8];     /* high 2 index bits of each group */
    uint8_t scales[8]; /* a nibble per pair of groups */
} gsi_block_iq2_s;
enum {
    GSI_IQ2_S_D = offsetof(gsi_block_iq2_s, d),
    GSI_IQ2_S_QS = offsetof(gsi_block_iq2_s, qs),
    GSI_IQ2_S_SIGNS = offsetof(gsi_block_iq2_s, signs),
    GSI_IQ2_S_QH = offsetof(gsi_block_iq2_s, qh),
    GSI_IQ2_S_SCALES = offsetof(gsi_block_iq2_s, scales),
    GSI_IQ2_S_BYTES = sizeof(gsi_block_iq2_s),
    GSI_IQ2_S_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(iq2_s, 82, 5, d, qs, signs, qh, scales);

/* IQ3_XXS: ggml's qs[96] is the 64 grid-index bytes followed by scales_and_signs; named apart
 * here. */
typedef struct gsi_block_iq3_xxs {
    uint8_t d[2];                /* f16 scale */
    uint8_t qs[64];              /* two u32 grid indices per group of 8 */
    uint8_t scales_and_signs[32]; /* u32[8]: four 7-bit ksigns indices, a 4-bit scale */
} gsi_block_iq3_xxs;
enum {
    GSI_IQ3_XXS_D = offsetof(gsi_block_iq3_xxs, d),
    GSI_IQ3_XXS_QS = offsetof(gsi_block_iq3_xxs, qs),
    GSI_IQ3_XXS_SCALES_AND_SIGNS = offsetof(gsi_block_iq3_xxs, scales_and_signs),
    GSI_IQ3_XXS_BYTES = sizeof(gsi_block_iq3_xxs),
    GSI_IQ3_XXS_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(iq3_xxs, 98, 3, d, qs, scales_and_signs);

typedef struct gsi_block_iq3_s {
    uint8_t d[2];      /* f16 scale */
    uint8_t qs[64];    /* low 8 bits of the grid indices */
    uint8_t qh[8];     /* 9th index bit of each of a sub-block's 8 indices */
    uint8_t signs[32]; /* direct 8-bit sign masks */
    uint8_t scales[4]; /* a nibble per sub-block */
} gsi_block_iq3_s;
enum {
    GSI_IQ3_S_D = offsetof(gsi_block_iq3_s, d),
    GSI_IQ3_S_QS = offsetof(gsi_block_iq3_s, qs),
    GSI_IQ3_S_QH = offsetof(gsi_block_iq3_s, qh),
    GSI_IQ3_S_SIGNS = offsetof(gsi_block_iq3_s, signs),
    GSI_IQ3_S_SCALES = offsetof(gsi_block_iq3_s, scales),
    GSI_IQ3_S_BYTES = sizeof(gsi_block_iq3_s),
    GSI_IQ3_S_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(iq3_s, 110, 5, d, qs, qh, signs, scales);

typedef struct gsi_block_iq1_s {
    uint8_t d[2];   /* f16 scale */
    uint8_t qs[32]; /* low 8 bits of the grid indices */
    uint8_t qh[16]; /* u16[8]: 3 high index bits per group, 3-bit scale, delta sign */
} gsi_block_iq1_s;
enum {
    GSI_IQ1_S_D = offsetof(gsi_block_iq1_s, d),
    GSI_IQ1_S_QS = offsetof(gsi_block_iq1_s, qs),
    GSI_IQ1_S_QH = offsetof(gsi_block_iq1_s, qh),
    GSI_IQ1_S_BYTES = sizeof(gsi_block_iq1_s),
    GSI_IQ1_S_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(iq1_s, 50, 3, d, qs, qh);

/* IQ1_M has no d field: the f16 scale is spread over the top nibbles of the four u16 scales. */
typedef struct gsi_block_iq1_m {
    uint8_t qs[32];    /* low 8 bits of the grid indices */
    uint8_t qh[16];    /* a nibble per group: 3 high index bits, delta sign */
    uint8_t scales[8]; /* u16[4]: 3-bit scales (bits 0..11), a nibble of d (12..15) */
} gsi_block_iq1_m;
enum {
    GSI_IQ1_M_QS = offsetof(gsi_block_iq1_m, qs),
    GSI_IQ1_M_QH = offsetof(gsi_block_iq1_m, qh),
    GSI_IQ1_M_SCALES = offsetof(gsi_block_iq1_m, scales),
    GSI_IQ1_M_BYTES = sizeof(gsi_block_iq1_m),
    GSI_IQ1_M_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(iq1_m, 56, 3, qs, qh, scales);

/* The four u16 scales of the IQ1_M block at b into sc; returns its d, whose f16 bits are the
 * scales' top nibbles, the first scale's lowest. One reading for the scalar and NEON decoders. */
static inline float gsi_iq1_m_scales(const uint8_t *b, uint16_t sc[4])
{
    uint16_t d_bits = 0;
    for (int k = 0; k < 4; k++) {
        sc[k] = gsi_load_u16le(b + GSI_IQ1_M_SCALES + 2 * k);
        d_bits = (uint16_t)(d_bits | (sc[k] >> 12) << (4 * k));
    }
    return gsi_f16_to_f32(d_bits);
}

/* ---- 4-bit code-book types ------------------------------------------------------------------ */
typedef struct gsi_block_iq4_nl {
    uint8_t d[2];   /* f16 scale */
    uint8_t qs[16]; /* kvalues_iq4nl indices, legacy nibble order */
} gsi_block_iq4_nl;
enum {
    GSI_IQ4_NL_D = offsetof(gsi_block_iq4_nl, d),
    GSI_IQ4_NL_QS = offsetof(gsi_block_iq4_nl, qs),
    GSI_IQ4_NL_BYTES = sizeof(gsi_block_iq4_nl),
    GSI_IQ4_NL_ELEMS = 32,
};
GSI_BLOCK_CHECK(iq4_nl, 18, 2, d, qs);

typedef struct gsi_block_iq4_xs {
    uint8_t d[2];        /* f16 scale */
    uint8_t scales_h[2]; /* u16: high 2 bits of each sub-block scale */
    uint8_t scales_l[4]; /* low nibbles of the sub-block scales */
    uint8_t qs[128];     /* kvalues_iq4nl indices, legacy nibble order per 32 elements */
} gsi_block_iq4_xs;
enum {
    GSI_IQ4_XS_D = offsetof(gsi_block_iq4_xs, d),
    GSI_IQ4_XS_SCALES_H = offsetof(gsi_block_iq4_xs, scales_h),
    GSI_IQ4_XS_SCALES_L = offsetof(gsi_block_iq4_xs, scales_l),
    GSI_IQ4_XS_QS = offsetof(gsi_block_iq4_xs, qs),
    GSI_IQ4_XS_BYTES = sizeof(gsi_block_iq4_xs),
    GSI_IQ4_XS_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(iq4_xs, 136, 4, d, scales_h, scales_l, qs);

typedef struct gsi_block_mxfp4 {
    uint8_t e[1];   /* E8M0 scale */
    uint8_t qs[16]; /* kvalues_fp4 indices, legacy nibble order */
} gsi_block_mxfp4;
enum {
    GSI_MXFP4_E = offsetof(gsi_block_mxfp4, e),
    GSI_MXFP4_QS = offsetof(gsi_block_mxfp4, qs),
    GSI_MXFP4_BYTES = sizeof(gsi_block_mxfp4),
    GSI_MXFP4_ELEMS = 32,
};
GSI_BLOCK_CHECK(mxfp4, 17, 2, e, qs);

typedef struct gsi_block_nvfp4 {
    uint8_t d[4];   /* UE4M3 scale per 16-element sub-block */
    uint8_t qs[32]; /* kvalues_fp4 indices: per sub-block, 8 bytes, low nibbles first */
} gsi_block_nvfp4;
enum {
    GSI_NVFP4_D = offsetof(gsi_block_nvfp4, d),
    GSI_NVFP4_QS = offsetof(gsi_block_nvfp4, qs),
    GSI_NVFP4_BYTES = sizeof(gsi_block_nvfp4),
    GSI_NVFP4_ELEMS = 64,
};
GSI_BLOCK_CHECK(nvfp4, 36, 2, d, qs);

/* ---- ternary types -------------------------------------------------------------------------- */
typedef struct gsi_block_tq1_0 {
    uint8_t qs[48]; /* 5 trits per byte, base-3 fractions */
    uint8_t qh[4];  /* 4 trits per byte */
    uint8_t d[2];   /* f16 scale */
} gsi_block_tq1_0;
enum {
    GSI_TQ1_0_QS = offsetof(gsi_block_tq1_0, qs),
    GSI_TQ1_0_QH = offsetof(gsi_block_tq1_0, qh),
    GSI_TQ1_0_D = offsetof(gsi_block_tq1_0, d),
    GSI_TQ1_0_BYTES = sizeof(gsi_block_tq1_0),
    GSI_TQ1_0_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(tq1_0, 54, 3, qs, qh, d);

typedef struct gsi_block_tq2_0 {
    uint8_t qs[64]; /* 2-bit planes */
    uint8_t d[2];   /* f16 scale */
} gsi_block_tq2_0;
enum {
    GSI_TQ2_0_QS = offsetof(gsi_block_tq2_0, qs),
    GSI_TQ2_0_D = offsetof(gsi_block_tq2_0, d),
    GSI_TQ2_0_BYTES = sizeof(gsi_block_tq2_0),
    GSI_TQ2_0_ELEMS = GSI_QK_K,
};
GSI_BLOCK_CHECK(tq2_0, 66, 2, qs, d);

#endif
