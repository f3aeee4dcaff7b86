/* The scalar reference decoders, one per ggml type with an f32 form. Each decodes n_blocks
 * consecutive blocks from src (any alignment) into n_blocks * block_elems floats at dst, giving
 * the bits of ggml's dequantize_row_* (NaN payloads aside). Block sizes and field offsets come
 * from kernels/block_layout.h, the registry's source too, so decoders and registry agree. */
#ifndef GGUFSAFE_DECODE_SCALAR_H
#define GGUFSAFE_DECODE_SCALAR_H

#include <stddef.h>
#include <stdint.h>

#define GSI_SCALAR_DECODER(name) \
    void gsi_scalar_##name(const uint8_t *src, float *dst, size_t n_blocks)

/* decode_float.c */
GSI_SCALAR_DECODER(f32);
GSI_SCALAR_DECODER(f16);
GSI_SCALAR_DECODER(bf16);
/* decode_legacy.c */
GSI_SCALAR_DECODER(q4_0);
GSI_SCALAR_DECODER(q4_1);
GSI_SCALAR_DECODER(q5_0);
GSI_SCALAR_DECODER(q5_1);
GSI_SCALAR_DECODER(q8_0);
GSI_SCALAR_DECODER(q8_1);
GSI_SCALAR_DECODER(q1_0);
GSI_SCALAR_DECODER(q2_0);
/* decode_kquants.c */
GSI_SCALAR_DECODER(q2_K);
GSI_SCALAR_DECODER(q3_K);
GSI_SCALAR_DECODER(q4_K);
GSI_SCALAR_DECODER(q5_K);
GSI_SCALAR_DECODER(q6_K);
GSI_SCALAR_DECODER(q8_K);
/* decode_iquants.c */
GSI_SCALAR_DECODER(iq2_xxs);
GSI_SCALAR_DECODER(iq2_xs);
GSI_SCALAR_DECODER(iq2_s);
GSI_SCALAR_DECODER(iq3_xxs);
GSI_SCALAR_DECODER(iq3_s);
GSI_SCALAR_DECODER(iq1_s);
GSI_SCALAR_DECODER(iq1_m);
/* decode_codebook.c */
GSI_SCALAR_DECODER(iq4_nl);
GSI_SCALAR_DECODER(iq4_xs);
GSI_SCALAR_DECODER(mxfp4);
GSI_SCALAR_DECODER(nvfp4);
/* decode_ternary.c */
GSI_SCALAR_DECODER(tq1_0);
GSI_SCALAR_DECODER(tq2_0);

/* Defines gsi_scalar_<name> as a loop over a static per-block function
 * `static void name##_block(const uint8_t *block, float *out)`. */
#define GSI_SCALAR_ROW(name, block_bytes, block_elems)                              \
    GSI_SCALAR_DECODER(name)                                                        \
    {                                                                               \
        for (size_t i = 0; i < n_blocks; i++) {                                     \
            name##_block(src + i * (size_t)(block_bytes), dst + i * (size_t)(block_elems)); \
        }                                                                           \
    }

#endif
