/* The NEON decoders, one per type of kernels/scalar/decode_scalar.h, with the same contract:
 * n_blocks consecutive blocks from src (any alignment) into dst, reading and writing nothing
 * outside them, bit-identical to gsi_scalar_<name> under the NaN rule. */
#ifndef GGUFSAFE_DECODE_NEON_H
#define GGUFSAFE_DECODE_NEON_H

#include <stddef.h>
#include <stdint.h>

#include "decode.h"

#define GSI_NEON_DECODER(name) \
    void gsi_neon_##name(const uint8_t *src, float *dst, size_t n_blocks)

/* gsi_neon_<name> for every type of decoder_types.h, family by family. */
#define GSI_NEON_DECLARE(id, name) GSI_NEON_DECODER(name);
GSI_DECODED_TYPES(GSI_NEON_DECLARE)
#undef GSI_NEON_DECLARE

/* Defines gsi_neon_<name> as a loop over `static void name##_block(const uint8_t *block,
 * float *out)`, blocks of GSI_<id>_BYTES into GSI_<id>_ELEMS floats (block_layout.h). */
#define GSI_NEON_ROW(id, name)   \
    GSI_NEON_DECODER(name)       \
    {                            \
        GSI_BLOCK_LOOP(id, name) \
    }

#endif
