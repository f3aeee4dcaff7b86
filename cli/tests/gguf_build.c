#include "gguf_build.h"

#include <string.h>

#define GGUF_VALUE_F32 6u
#define GGUF_VALUE_I32 5u
#define GGUF_VALUE_U16 2u
#define GGUF_VALUE_STRING 8u
#define GGUF_VALUE_ARRAY 9u
#define GGML_TYPE_F32 0u

void gb_header(gsw_bytes *b, uint64_t n_tensors, uint64_t n_kv)
{
    gsw_put(b, "GGUF", 4);
    gsw_put_u32(b, 3);
    gsw_put_u64(b, n_tensors);
    gsw_put_u64(b, n_kv);
}

void gb_kv_string(gsw_bytes *b, const void *key, size_t key_len, const void *value,
                  size_t value_len)
{
    gsw_put_str(b, key, key_len);
    gsw_put_u32(b, GGUF_VALUE_STRING);
    gsw_put_str(b, value, value_len);
}

void gb_kv_u16(gsw_bytes *b, const char *key, uint16_t v)
{
    gsw_put_cstr(b, key);
    gsw_put_u32(b, GGUF_VALUE_U16);
    gsw_put_u16(b, v);
}

void gb_kv_i32(gsw_bytes *b, const char *key, int32_t v)
{
    gsw_put_cstr(b, key);
    gsw_put_u32(b, GGUF_VALUE_I32);
    gsw_put_u32(b, (uint32_t)v);
}

void gb_kv_f32(gsw_bytes *b, const char *key, float v)
{
    gsw_put_cstr(b, key);
    gsw_put_u32(b, GGUF_VALUE_F32);
    gsw_put_f32(b, v);
}

void gb_kv_strings(gsw_bytes *b, const char *key, const char *const *values, const size_t *lens,
                   size_t n)
{
    gsw_put_cstr(b, key);
    gsw_put_u32(b, GGUF_VALUE_ARRAY);
    gsw_put_u32(b, GGUF_VALUE_STRING);
    gsw_put_u64(b, n);
    for (size_t i = 0; i < n; i++) {
        gsw_put_str(b, values[i], lens[i]);
    }
}

void gb_tensor_f32(gsw_bytes *b, const void *name, size_t name_len, uint64_t ne0, uint64_t offset)
{
    gsw_put_str(b, name, name_len);
    gsw_put_u32(b, 1);
    gsw_put_u64(b, ne0);
    gsw_put_u32(b, GGML_TYPE_F32);
    gsw_put_u64(b, offset);
}

void gb_data_f32(gsw_bytes *b, size_t n)
{
    gsw_pad_to(b, 32);
    for (size_t i = 0; i < n; i++) {
        gsw_put_f32(b, (float)(i + 1));
    }
}
