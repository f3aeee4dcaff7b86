/* Raw GGUF records, appended field by field to a gsw_bytes: the test builder for bytes the model
 * (gsw_model.h) does not hold on purpose, such as counts that disagree with the records, a value
 * type followed by bytes of another, or a tensor info pointing anywhere. Each record function
 * returns the offset where its record starts, so tests name the exact offset of an expected
 * error. Valid files are better built with the model and gsw_write. Test-only. */
#ifndef GGUFSAFE_GSW_RAW_H
#define GGUFSAFE_GSW_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "gsw_bytes.h"

/* Header: magic, version, tensor count, KV count. */
void gsw_raw_header(gsw_bytes *b, uint32_t version, uint64_t n_tensors, uint64_t n_kv);
/* Key given as bytes (may hold NUL), then the value type id; the caller writes the value. */
size_t gsw_raw_kv_head(gsw_bytes *b, const void *key, size_t key_len, uint32_t type);
/* Whole key-value records with a NUL-terminated key. */
size_t gsw_raw_kv_u32(gsw_bytes *b, const char *key, uint32_t v);
size_t gsw_raw_kv_u8(gsw_bytes *b, const char *key, uint8_t v);
size_t gsw_raw_kv_str(gsw_bytes *b, const char *key, const char *v);
/* Tensor info; ne has n_dims entries. */
size_t gsw_raw_tensor(gsw_bytes *b, const char *name, uint32_t n_dims, const uint64_t *ne,
                      int32_t type, uint64_t offset);
size_t gsw_raw_tensor_n(gsw_bytes *b, const void *name, size_t name_len, uint32_t n_dims,
                        const uint64_t *ne, int32_t type, uint64_t offset);
/* Offset of the `offset` field of a tensor info written at info_at with that name and n_dims. */
size_t gsw_raw_offset_field(size_t info_at, size_t name_len, uint32_t n_dims);

#endif
