#include "gsw_raw.h"

#include <string.h>

#include "ggufsafe.h"

void gsw_raw_header(gsw_bytes *b, uint32_t version, uint64_t n_tensors, uint64_t n_kv)
{
    gsw_put(b, "GGUF", 4);
    gsw_put_u32(b, version);
    gsw_put_u64(b, n_tensors);
    gsw_put_u64(b, n_kv);
}

size_t gsw_raw_kv_head(gsw_bytes *b, const void *key, size_t key_len, uint32_t type)
{
    size_t at = b->len;
    gsw_put_str(b, key, key_len);
    gsw_put_u32(b, type);
    return at;
}

size_t gsw_raw_kv_u32(gsw_bytes *b, const char *key, uint32_t v)
{
    size_t at = gsw_raw_kv_head(b, key, strlen(key), GS_VALUE_U32);
    gsw_put_u32(b, v);
    return at;
}

size_t gsw_raw_kv_u8(gsw_bytes *b, const char *key, uint8_t v)
{
    size_t at = gsw_raw_kv_head(b, key, strlen(key), GS_VALUE_U8);
    gsw_put_u8(b, v);
    return at;
}

size_t gsw_raw_kv_str(gsw_bytes *b, const char *key, const char *v)
{
    size_t at = gsw_raw_kv_head(b, key, strlen(key), GS_VALUE_STRING);
    gsw_put_cstr(b, v);
    return at;
}

size_t gsw_raw_tensor_n(gsw_bytes *b, const void *name, size_t name_len, uint32_t n_dims,
                        const uint64_t *ne, int32_t type, uint64_t offset)
{
    size_t at = b->len;
    gsw_put_str(b, name, name_len);
    gsw_put_u32(b, n_dims);
    for (uint32_t i = 0; i < n_dims; i++) {
        gsw_put_u64(b, ne[i]);
    }
    gsw_put_u32(b, (uint32_t)type);
    gsw_put_u64(b, offset);
    return at;
}

size_t gsw_raw_tensor(gsw_bytes *b, const char *name, uint32_t n_dims, const uint64_t *ne,
                      int32_t type, uint64_t offset)
{
    return gsw_raw_tensor_n(b, name, strlen(name), n_dims, ne, type, offset);
}

size_t gsw_raw_offset_field(size_t info_at, size_t name_len, uint32_t n_dims)
{
    return info_at + 8 + name_len + 4 + 8 * (size_t)n_dims + 4;
}
