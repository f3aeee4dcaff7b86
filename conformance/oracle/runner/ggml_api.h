/* The part of ggml's public C API the oracle calls beyond decoding, declared by us (nothing of
 * ggml's source is in this project). The library is libggml-base.so from the npm package
 * @node-llama-cpp/linux-x64 3.22.1 (ggml 0.25.1, commit 0ad4a86; ci/oracle_fetch.sh), opened
 * with the library's own loader (kernels/ggml_lib.h: dlopen, the type traits and their layout
 * check against our registry, the decoders), which this file extends with the gguf_* reading and
 * writing functions and ggml's quantizers, each a pointer filled by gsi_ggml_resolve.
 *
 * Signatures follow ggml's public headers (ggml/include/ggml.h and gguf.h): enums are int-sized,
 * ids int64_t, sizes size_t. The two structs below are written to the documented layouts. */
#ifndef GGUFSAFE_GGML_API_H
#define GGUFSAFE_GGML_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggml_lib.h"

/* Opaque on our side. */
struct ggml_context;
struct ggml_tensor;
struct gguf_context;

/* struct gguf_init_params: no_alloc, then the optional ggml_context out-pointer. */
typedef struct gsx_gguf_init_params {
    bool no_alloc;
    struct ggml_context **ctx;
} gsx_gguf_init_params;

/* struct ggml_init_params. */
typedef struct gsx_ggml_init_params {
    size_t mem_size;
    void *mem_buffer;
    bool no_alloc;
} gsx_ggml_init_params;

typedef gsi_ggml_to_float_fn gsx_to_float_fn;
typedef gsi_ggml_traits gsx_type_traits;

/* gguf_type ids used by the writer. */
enum {
    GSX_GGUF_U8 = 0, GSX_GGUF_I8 = 1, GSX_GGUF_U16 = 2, GSX_GGUF_I16 = 3, GSX_GGUF_U32 = 4,
    GSX_GGUF_I32 = 5, GSX_GGUF_F32 = 6, GSX_GGUF_BOOL = 7, GSX_GGUF_STRING = 8, GSX_GGUF_ARRAY = 9,
    GSX_GGUF_U64 = 10, GSX_GGUF_I64 = 11, GSX_GGUF_F64 = 12
};

#define GSX_GGML_TYPE_COUNT 43 /* ggml_type ids 0..42; never ask the traits of another id */
#define GSX_GGML_TYPE_Q8_K 15

typedef struct gsx_ggml {
    gsi_ggml lib; /* the library's loader: path, version, commit, traits, decoders */

    /* reading */
    struct gguf_context *(*gguf_init_from_file)(const char *fname, gsx_gguf_init_params params);
    struct gguf_context *(*gguf_init_from_buffer)(const void *data, size_t size,
                                                  gsx_gguf_init_params params);
    void (*gguf_free)(struct gguf_context *ctx);
    uint32_t (*gguf_get_version)(const struct gguf_context *ctx);
    size_t (*gguf_get_alignment)(const struct gguf_context *ctx);
    size_t (*gguf_get_data_offset)(const struct gguf_context *ctx);
    int64_t (*gguf_get_n_kv)(const struct gguf_context *ctx);
    const char *(*gguf_get_key)(const struct gguf_context *ctx, int64_t key_id);
    int (*gguf_get_kv_type)(const struct gguf_context *ctx, int64_t key_id);
    int (*gguf_get_arr_type)(const struct gguf_context *ctx, int64_t key_id);
    size_t (*gguf_get_arr_n)(const struct gguf_context *ctx, int64_t key_id);
    const void *(*gguf_get_arr_data)(const struct gguf_context *ctx, int64_t key_id);
    const char *(*gguf_get_arr_str)(const struct gguf_context *ctx, int64_t key_id, size_t i);
    const void *(*gguf_get_val_data)(const struct gguf_context *ctx, int64_t key_id);
    const char *(*gguf_get_val_str)(const struct gguf_context *ctx, int64_t key_id);
    int64_t (*gguf_get_n_tensors)(const struct gguf_context *ctx);
    int64_t (*gguf_find_tensor)(const struct gguf_context *ctx, const char *name);
    const char *(*gguf_get_tensor_name)(const struct gguf_context *ctx, int64_t tensor_id);
    int (*gguf_get_tensor_type)(const struct gguf_context *ctx, int64_t tensor_id);
    size_t (*gguf_get_tensor_offset)(const struct gguf_context *ctx, int64_t tensor_id);
    size_t (*gguf_get_tensor_size)(const struct gguf_context *ctx, int64_t tensor_id);
    const int64_t *(*gguf_get_tensor_ne)(const struct gguf_context *ctx, int64_t tensor_id);

    /* writing */
    struct gguf_context *(*gguf_init_empty)(void);
    void (*gguf_set_val_u8)(struct gguf_context *ctx, const char *key, uint8_t val);
    void (*gguf_set_val_i8)(struct gguf_context *ctx, const char *key, int8_t val);
    void (*gguf_set_val_u16)(struct gguf_context *ctx, const char *key, uint16_t val);
    void (*gguf_set_val_i16)(struct gguf_context *ctx, const char *key, int16_t val);
    void (*gguf_set_val_u32)(struct gguf_context *ctx, const char *key, uint32_t val);
    void (*gguf_set_val_i32)(struct gguf_context *ctx, const char *key, int32_t val);
    void (*gguf_set_val_f32)(struct gguf_context *ctx, const char *key, float val);
    void (*gguf_set_val_u64)(struct gguf_context *ctx, const char *key, uint64_t val);
    void (*gguf_set_val_i64)(struct gguf_context *ctx, const char *key, int64_t val);
    void (*gguf_set_val_f64)(struct gguf_context *ctx, const char *key, double val);
    void (*gguf_set_val_bool)(struct gguf_context *ctx, const char *key, bool val);
    void (*gguf_set_val_str)(struct gguf_context *ctx, const char *key, const char *val);
    void (*gguf_set_arr_data)(struct gguf_context *ctx, const char *key, int type,
                              const void *data, size_t n);
    void (*gguf_set_arr_str)(struct gguf_context *ctx, const char *key, const char **data,
                             size_t n);
    void (*gguf_add_tensor)(struct gguf_context *ctx, const struct ggml_tensor *tensor);
    void (*gguf_set_tensor_data)(struct gguf_context *ctx, const char *name, const void *data);
    bool (*gguf_write_to_file)(const struct gguf_context *ctx, const char *fname, bool only_meta);
    struct ggml_context *(*ggml_init)(gsx_ggml_init_params params);
    void (*ggml_free)(struct ggml_context *ctx);
    size_t (*ggml_tensor_overhead)(void);
    struct ggml_tensor *(*ggml_new_tensor)(struct ggml_context *ctx, int type, int n_dims,
                                           const int64_t *ne);
    struct ggml_tensor *(*ggml_set_name)(struct ggml_tensor *tensor, const char *name);

    /* quantizing */
    size_t (*ggml_quantize_chunk)(int type, const float *src, void *dst, int64_t start,
                                  int64_t nrows, int64_t n_per_row, const float *imatrix);
    bool (*ggml_quantize_requires_imatrix)(int type);
} gsx_ggml;

/* Where the library is: $GGUFSAFE_ORACLE_LIB, else the cache ci/oracle_fetch.sh fills:
 * ${GGUFSAFE_ORACLE_CACHE:-$HOME/.cache/ggufsafe/oracle}/node-llama-cpp-linux-x64-3.22.1/
 * package/bins/linux-x64/libggml-base.so. Writes at most cap bytes; 0, or -1 if too long. */
int gsx_library_path(char *out, size_t cap);

/* Outcome of gsx_ggml_load. */
typedef enum gsx_load_status {
    GSX_LOADED = 0,
    GSX_NOT_FOUND = 1,   /* no library at the path: not fetched */
    GSX_BAD_LIBRARY = 2  /* dlopen/dlsym failed, or the layout check did not hold */
} gsx_load_status;

/* Opens the library at gsx_library_path with gsi_ggml_open (which checks the traits), then
 * resolves every symbol above; on failure writes the reason into why. */
gsx_load_status gsx_ggml_load(gsx_ggml *g, char *why, size_t why_cap);

/* The decoder ggml has for a type (gsi_ggml_decoder): the traits' to_float,
 * dequantize_row_q8_K for Q8_K, NULL for types it cannot convert (F32 is the identity and
 * handled by callers). */
static inline gsx_to_float_fn gsx_decoder(const gsx_ggml *g, int type)
{
    return type >= 0 && type < GSX_GGML_TYPE_COUNT ? gsi_ggml_decoder(&g->lib, type) : NULL;
}

#endif
