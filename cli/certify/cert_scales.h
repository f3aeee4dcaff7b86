/* The scale fields of quantized blocks, checked the way ggml's ggml_validate_row_data checks them
 * (docs/quant-types.md, "Scales ggml calls invalid" and "Scale conversions"): an f16 d (and dmin
 * or m where the type has one) that is Inf or NaN, the IQ1_M scale reassembled from its four
 * nibbles, Q8_K's f32 d, and an MXFP4 E8M0 exponent of 0xFF. NVFP4 is separate: ggml accepts all
 * 256 UE4M3 bytes (0x7F decodes to 0, bit 7 is ignored so 0xFF decodes to 240), but a UE4M3 scale
 * has no sign bit and 0x7F is the E4M3 NaN code, so the legal encodings are 0x00..0x7E: anything
 * else decodes differently elsewhere and is reported as "odd", not as invalid. */
#ifndef GGUFSAFE_CERT_SCALES_H
#define GGUFSAFE_CERT_SCALES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cert_scale_counts {
    uint64_t bad;       /* blocks ggml_validate_row_data rejects */
    uint64_t first_bad; /* block index within the checked run */
    uint64_t odd;       /* NVFP4 blocks with a scale byte outside 0x00..0x7E */
    uint64_t first_odd;
    uint64_t zero;      /* blocks whose bytes are all zero */
} cert_scale_counts;

/* True when type has scale fields to check (every quantized type). */
bool cert_type_has_scales(int32_t type);

/* Checks n_blocks blocks of type at p (block_bytes each, unaligned) and adds to c. first_bad and
 * first_odd are set (relative to p) only when their counts were zero before. */
void cert_check_scales(int32_t type, const uint8_t *p, size_t n_blocks, size_t block_bytes,
                       cert_scale_counts *c, uint64_t block_base);

#endif
