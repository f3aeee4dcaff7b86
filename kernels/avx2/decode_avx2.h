/* The AVX2 decoders, one per type with a scalar decoder, mirroring kernels/scalar/ family by
 * family. Same contract as the scalar ones (decode_scalar.h): n_blocks blocks from src (any
 * alignment) to dst, the same bits under the NaN rule. They assume AVX2 + FMA + F16C: only the
 * dispatcher (kernels/dispatch.c) calls them, after checking the CPU. */
#ifndef GGUFSAFE_DECODE_AVX2_H
#define GGUFSAFE_DECODE_AVX2_H

#include <stddef.h>
#include <stdint.h>

#include "decode.h"

#define GSI_AVX2_DECODER(name) \
    void gsi_avx2_##name(const uint8_t *src, float *dst, size_t n_blocks)

/* gsi_avx2_<name> for every type of decoder_types.h, family by family. */
#define GSI_AVX2_DECLARE(id, name) GSI_AVX2_DECODER(name);
GSI_DECODED_TYPES(GSI_AVX2_DECLARE)
#undef GSI_AVX2_DECLARE

/* A plain loop over blocks, writing with ordinary stores. */
typedef void (*gsi_avx2_rows_fn)(const uint8_t *src, float *dst, size_t n_blocks);

/* Runs `rows` over n_blocks; outputs of GSI_STREAM_MIN_BYTES (decode.h) or more go through an
 * L1 scratch buffer and non-temporal stores (avx2_stream.c). */
void gsi_avx2_decode(gsi_avx2_rows_fn rows, const uint8_t *src, float *dst, size_t n_blocks,
                     size_t block_bytes, size_t block_elems);

/* Defines gsi_avx2_<name> over `static void name##_block(const uint8_t *, float *)`: a loop
 * name##_rows over blocks of GSI_<id>_BYTES into GSI_<id>_ELEMS floats (block_layout.h), run
 * through gsi_avx2_decode. */
#define GSI_AVX2_ROW(id, name)                                                                \
    static void name##_rows(const uint8_t *src, float *dst, size_t n_blocks)                  \
    {                                                                                         \
        GSI_BLOCK_LOOP(id, name)                                                              \
    }                                                                                         \
    GSI_AVX2_DECODER(name)                                                                    \
    {                                                                                         \
        gsi_avx2_decode(name##_rows, src, dst, n_blocks, GSI_##id##_BYTES, GSI_##id##_ELEMS); \
    }

#endif
