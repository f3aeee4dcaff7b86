/* Keys and tensor names: what every profile forbids (empty, NUL) and what strict adds (the GGUF
 * key grammar; ggml's 63-byte tensor-name limit; UTF-8). */
#ifndef GGUFSAFE_KEY_GRAMMAR_H
#define GGUFSAFE_KEY_GRAMMAR_H

#include "ggufsafe.h"

#define GSI_MAX_KEY_BYTES 65535u   /* spec: keys are at most 65535 bytes */
#define GSI_MAX_NAME_BYTES 63u     /* ggml: GGML_MAX_NAME (64) including the NUL */

/* GS_OK, GS_E_EMPTY_KEY, GS_E_KEY_HAS_NUL or (strict) GS_E_BAD_KEY. */
gs_status gsi_check_key(const uint8_t *key, uint64_t len, bool strict);

/* GS_OK, GS_E_TENSOR_NAME_EMPTY, GS_E_TENSOR_NAME_HAS_NUL, or (strict)
 * GS_E_TENSOR_NAME_TOO_LONG / GS_E_INVALID_UTF8. */
gs_status gsi_check_tensor_name(const uint8_t *name, uint64_t len, bool strict);

#endif
