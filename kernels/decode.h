/* Internal decoding interface: block decoders by type, and the entry the parser uses for
 * chunked decoding. */
#ifndef GGUFSAFE_DECODE_H
#define GGUFSAFE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"

/* Decodes n_blocks consecutive blocks at src (any alignment) into dst. The caller guarantees
 * src holds n_blocks * block_bytes and dst n_blocks * block_elems floats (registry geometry). */
typedef void (*gsi_decode_fn)(const uint8_t *src, float *dst, size_t n_blocks);

/* The scalar reference decoder of a type; NULL if the type has no decoder (unknown, removed,
 * integer and f64 ids). */
gsi_decode_fn gsi_decoder_scalar(int32_t type);

/* The entry the parser uses for chunked decoding; goes through the active path (scalar today;
 * a later issue adds AVX2/NEON dispatch behind this same function). Sizes are the caller's to
 * check (as above). GS_E_UNKNOWN_TENSOR_TYPE / GS_E_REMOVED_TENSOR_TYPE / GS_E_NOT_DECODABLE
 * for types without a decoder, GS_E_INVALID_ARGUMENT for NULL buffers with n_blocks > 0. */
gs_status gsi_decode_blocks(int32_t type, const uint8_t *src, float *dst, size_t n_blocks);

#endif
