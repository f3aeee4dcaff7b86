/* The AVX2 decoders, one per type with a scalar decoder, mirroring kernels/scalar/ family by
 * family. Same contract as the scalar ones (decode_scalar.h): n_blocks blocks from src (any
 * alignment) to dst, the same bits under the NaN rule. They assume AVX2 + FMA + F16C: only the
 * dispatcher (kernels/dispatch.c) calls them, after checking the CPU. */
#ifndef GGUFSAFE_DECODE_AVX2_H
#define GGUFSAFE_DECODE_AVX2_H

#include <stddef.h>
#include <stdint.h>

#define GSI_AVX2_DECODER(name) \
    void gsi_avx2_##name(const uint8_t *src, float *dst, size_t n_blocks)

/* avx2_float.c */
GSI_AVX2_DECODER(f32);
GSI_AVX2_DECODER(f16);
GSI_AVX2_DECODER(bf16);
/* avx2_legacy.c */
GSI_AVX2_DECODER(q4_0);
GSI_AVX2_DECODER(q4_1);
GSI_AVX2_DECODER(q5_0);
GSI_AVX2_DECODER(q5_1);
GSI_AVX2_DECODER(q8_0);
GSI_AVX2_DECODER(q8_1);
GSI_AVX2_DECODER(q1_0);
GSI_AVX2_DECODER(q2_0);
/* avx2_kquants.c */
GSI_AVX2_DECODER(q2_K);
GSI_AVX2_DECODER(q3_K);
GSI_AVX2_DECODER(q4_K);
GSI_AVX2_DECODER(q5_K);
GSI_AVX2_DECODER(q6_K);
GSI_AVX2_DECODER(q8_K);
/* avx2_iquants.c */
GSI_AVX2_DECODER(iq2_xxs);
GSI_AVX2_DECODER(iq2_xs);
GSI_AVX2_DECODER(iq2_s);
GSI_AVX2_DECODER(iq3_xxs);
GSI_AVX2_DECODER(iq3_s);
GSI_AVX2_DECODER(iq1_s);
GSI_AVX2_DECODER(iq1_m);
/* avx2_codebook.c */
GSI_AVX2_DECODER(iq4_nl);
GSI_AVX2_DECODER(iq4_xs);
GSI_AVX2_DECODER(mxfp4);
GSI_AVX2_DECODER(nvfp4);
/* avx2_ternary.c */
GSI_AVX2_DECODER(tq1_0);
GSI_AVX2_DECODER(tq2_0);

/* A plain loop over blocks, writing with ordinary stores. */
typedef void (*gsi_avx2_rows_fn)(const uint8_t *src, float *dst, size_t n_blocks);

/* Runs `rows` over n_blocks; outputs of GSI_STREAM_MIN_BYTES (decode.h) or more go through an
 * L1 scratch buffer and non-temporal stores (avx2_stream.c). */
void gsi_avx2_decode(gsi_avx2_rows_fn rows, const uint8_t *src, float *dst, size_t n_blocks,
                     size_t block_bytes, size_t block_elems);

/* Defines gsi_avx2_<name> over `static void name##_block(const uint8_t *, float *)`: a loop
 * name##_rows, run through gsi_avx2_decode. */
#define GSI_AVX2_ROW(name, block_bytes, block_elems)                                     \
    static void name##_rows(const uint8_t *src, float *dst, size_t n_blocks)             \
    {                                                                                    \
        for (size_t i = 0; i < n_blocks; i++) {                                          \
            name##_block(src + i * (size_t)(block_bytes), dst + i * (size_t)(block_elems)); \
        }                                                                                \
    }                                                                                    \
    GSI_AVX2_DECODER(name)                                                               \
    {                                                                                    \
        gsi_avx2_decode(name##_rows, src, dst, n_blocks, block_bytes, block_elems);      \
    }

#endif
