/* The AArch64 NEON decoders, as the dispatcher (kernels/dispatch.c) sees them. Defined only in
 * AArch64 builds (kernels/neon/ is compiled there alone); callers guard the call with
 * #if defined(__aarch64__). Advanced SIMD is mandatory on AArch64 Linux, but the dispatcher still
 * checks getauxval(AT_HWCAP) & HWCAP_ASIMD before choosing this path. */
#ifndef GGUFSAFE_NEON_TABLE_H
#define GGUFSAFE_NEON_TABLE_H

#include <stdint.h>

#include "decode.h"

/* The NEON decoder of a type, giving the same bits as gsi_decoder_scalar(type) under the NaN
 * rule; NULL exactly where the scalar table has NULL, and for every type on a big-endian AArch64
 * build (the decoders read multi-byte fields as little-endian vector lanes). */
gsi_decode_fn gsi_decoder_neon(int32_t type);

#endif
