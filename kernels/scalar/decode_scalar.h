/* The scalar reference decoders, one per ggml type with an f32 form. Each decodes n_blocks
 * consecutive blocks from src (any alignment) into n_blocks * block_elems floats at dst, giving
 * the bits of ggml's dequantize_row_* (NaN payloads aside). Block sizes and field offsets come
 * from kernels/block_layout.h, the registry's source too, so decoders and registry agree. */
#ifndef GGUFSAFE_DECODE_SCALAR_H
#define GGUFSAFE_DECODE_SCALAR_H

#include <stddef.h>
#include <stdint.h>

#include "decode.h"

#define GSI_SCALAR_DECODER(name) \
    void gsi_scalar_##name(const uint8_t *src, float *dst, size_t n_blocks)

/* gsi_scalar_<name> for every type of decoder_types.h, family by family. */
#define GSI_SCALAR_DECLARE(id, name) GSI_SCALAR_DECODER(name);
GSI_DECODED_TYPES(GSI_SCALAR_DECLARE)
#undef GSI_SCALAR_DECLARE

/* Defines gsi_scalar_<name> as a loop over a static per-block function
 * `static void name##_block(const uint8_t *block, float *out)`, blocks of
 * GSI_<id>_BYTES into GSI_<id>_ELEMS floats (block_layout.h). */
#define GSI_SCALAR_ROW(id, name) \
    GSI_SCALAR_DECODER(name)     \
    {                            \
        GSI_BLOCK_LOOP(id, name) \
    }

#endif
