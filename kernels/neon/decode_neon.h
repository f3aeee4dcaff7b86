/* The NEON decoders, one per type of kernels/scalar/decode_scalar.h, with the same contract:
 * n_blocks consecutive blocks from src (any alignment) into dst, reading and writing nothing
 * outside them, bit-identical to gsi_scalar_<name> under the NaN rule. */
#ifndef GGUFSAFE_DECODE_NEON_H
#define GGUFSAFE_DECODE_NEON_H

#include <stddef.h>
#include <stdint.h>

#define GSI_NEON_DECODER(name) \
    void gsi_neon_##name(const uint8_t *src, float *dst, size_t n_blocks)

/* neon_float.c */
GSI_NEON_DECODER(f32);
GSI_NEON_DECODER(f16);
GSI_NEON_DECODER(bf16);
/* neon_legacy.c */
GSI_NEON_DECODER(q4_0);
GSI_NEON_DECODER(q4_1);
GSI_NEON_DECODER(q5_0);
GSI_NEON_DECODER(q5_1);
GSI_NEON_DECODER(q8_0);
GSI_NEON_DECODER(q8_1);
GSI_NEON_DECODER(q1_0);
GSI_NEON_DECODER(q2_0);
/* neon_kquants.c */
GSI_NEON_DECODER(q2_K);
GSI_NEON_DECODER(q3_K);
GSI_NEON_DECODER(q4_K);
GSI_NEON_DECODER(q5_K);
GSI_NEON_DECODER(q6_K);
GSI_NEON_DECODER(q8_K);
/* neon_iquants.c */
GSI_NEON_DECODER(iq2_xxs);
GSI_NEON_DECODER(iq2_xs);
GSI_NEON_DECODER(iq2_s);
GSI_NEON_DECODER(iq3_xxs);
GSI_NEON_DECODER(iq3_s);
GSI_NEON_DECODER(iq1_s);
GSI_NEON_DECODER(iq1_m);
/* neon_codebook.c */
GSI_NEON_DECODER(iq4_nl);
GSI_NEON_DECODER(iq4_xs);
GSI_NEON_DECODER(mxfp4);
GSI_NEON_DECODER(nvfp4);
/* neon_ternary.c */
GSI_NEON_DECODER(tq1_0);
GSI_NEON_DECODER(tq2_0);

/* Defines gsi_neon_<name> as a loop over `static void name##_block(const uint8_t *block,
 * float *out)`. */
#define GSI_NEON_ROW(name, block_bytes, block_elems)                                \
    GSI_NEON_DECODER(name)                                                          \
    {                                                                               \
        for (size_t i = 0; i < n_blocks; i++) {                                     \
            name##_block(src + i * (size_t)(block_bytes), dst + i * (size_t)(block_elems)); \
        }                                                                           \
    }

#endif
