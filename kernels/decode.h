/* Internal decoding interface: block decoders by type, and the entry the parser uses for
 * chunked decoding. */
#ifndef GGUFSAFE_DECODE_H
#define GGUFSAFE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "decoder_types.h"
#include "ggufsafe.h"

/* Decodes n_blocks consecutive blocks at src (any alignment) into dst. The caller guarantees
 * src holds n_blocks * block_bytes and dst n_blocks * block_elems floats (registry geometry). */
typedef void (*gsi_decode_fn)(const uint8_t *src, float *dst, size_t n_blocks);

/* Outputs at least this large may be written by a SIMD path with non-temporal stores. They
 * skip the read-for-ownership of each line but leave the output out of the caches, so they
 * only pay once the output no longer fits in the last-level cache: on the measurement machine
 * (kernels/bench) ordinary stores won up to 32 MiB and streaming ones from 48 MiB. The bits
 * are the same either way; simd_diff decodes one output of this size to check that path. */
#ifndef GSI_STREAM_MIN_BYTES /* overridable for measurements */
#define GSI_STREAM_MIN_BYTES ((size_t)48 << 20)
#endif

/* Defines gsi_decoder_<path> (declared below) from a table of every type of decoder_types.h,
 * filled by entry(id, name) (`[GS_TYPE_##id] = gsi_<path>_##name,`): the one table shape of the
 * three paths (scalar_table.c, avx2_table.c, neon_table.c). */
#define GSI_DECODER_TABLE(path, entry)                                           \
    static const gsi_decode_fn path##_decoders[GS_TYPE_COUNT] = {                \
        GSI_DECODED_TYPES(entry)                                                 \
    };                                                                           \
    gsi_decode_fn gsi_decoder_##path(int32_t type)                               \
    {                                                                            \
        return type >= 0 && type < GS_TYPE_COUNT ? path##_decoders[type] : NULL; \
    }

/* The loop of every path's row decoder over `static void name##_block(const uint8_t *block,
 * float *out)`: n_blocks blocks of GSI_<id>_BYTES at src into GSI_<id>_ELEMS floats each at dst
 * (block_layout.h), as the scalar, NEON and AVX2 row macros (GSI_<PATH>_ROW) expand it. */
#define GSI_BLOCK_LOOP(id, name)                            \
    for (size_t i = 0; i < n_blocks; i++) {                 \
        name##_block(src + i * (size_t)(GSI_##id##_BYTES),  \
                     dst + i * (size_t)(GSI_##id##_ELEMS)); \
    }

/* The scalar reference decoder of a type; NULL if the type has no decoder (unknown, removed,
 * integer and f64 ids). */
gsi_decode_fn gsi_decoder_scalar(int32_t type);

/* The AVX2 decoder of a type (kernels/avx2/, x86-64 builds only) and the NEON decoder
 * (kernels/neon/, AArch64 builds only); NULL for a type without a decoder. They do not check
 * the CPU: only the dispatcher (dispatch.h) calls them, after it has. */
gsi_decode_fn gsi_decoder_avx2(int32_t type);
gsi_decode_fn gsi_decoder_neon(int32_t type);

/* The entry the parser uses for chunked decoding; goes through the active path (dispatch.h).
 * Sizes are the caller's to check (as above). GS_E_UNKNOWN_TENSOR_TYPE /
 * GS_E_REMOVED_TENSOR_TYPE / GS_E_NOT_DECODABLE for types without a decoder,
 * GS_E_KERNEL_UNAVAILABLE while GGUFSAFE_KERNEL asks for a path this CPU lacks,
 * GS_E_INVALID_ARGUMENT for NULL buffers with n_blocks > 0. */
gs_status gsi_decode_blocks(int32_t type, const uint8_t *src, float *dst, size_t n_blocks);

struct gsi_type_row;
/* gs_dequantize's argument checks for a row's geometry (built in or caller-defined): NULL
 * buffers with data (GS_E_INVALID_ARGUMENT), n_elems not whole blocks or src_bytes not their
 * size (GS_E_SIZE_MISMATCH, overflow included); GS_OK with *n_blocks. */
gs_status gsi_decode_sizes(const struct gsi_type_row *row, const void *src, size_t src_bytes,
                           const float *dst, size_t n_elems, size_t *n_blocks);

#endif
