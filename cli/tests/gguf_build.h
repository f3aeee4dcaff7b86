/* Tiny GGUF files for the CLI tests, put together with the corpus writer's byte buffer
 * (gsw_bytes): header, KVs, f32 tensor infos, padding and data, in that order. */
#ifndef GGUFSAFE_TEST_GGUF_BUILD_H
#define GGUFSAFE_TEST_GGUF_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "gsw_bytes.h"

void gb_header(gsw_bytes *b, uint64_t n_tensors, uint64_t n_kv);
void gb_kv_string(gsw_bytes *b, const void *key, size_t key_len, const void *value,
                  size_t value_len);
void gb_kv_u16(gsw_bytes *b, const char *key, uint16_t v);
void gb_kv_i32(gsw_bytes *b, const char *key, int32_t v);
void gb_kv_f32(gsw_bytes *b, const char *key, float v);
/* An array of n strings. */
void gb_kv_strings(gsw_bytes *b, const char *key, const char *const *values, const size_t *lens,
                   size_t n);
/* A 1-dimensional f32 tensor of ne0 elements at offset (relative to the data section). */
void gb_tensor_f32(gsw_bytes *b, const void *name, size_t name_len, uint64_t ne0, uint64_t offset);
/* Pads to the default alignment (32) and appends n f32 values 1, 2, 3, ... */
void gb_data_f32(gsw_bytes *b, size_t n);

#endif
