/* The writer's model of a GGUF: version, key-values in order, tensors in order. It holds what is
 * written, byte for byte, not what it means: keys and strings are bytes with a length (NUL and
 * invalid UTF-8 allowed), scalars are their wire bits, numeric and bool arrays their wire bytes,
 * so a model read from a file writes back the same bytes and a broken model is easy to build.
 * Test-only; allocation failure aborts. */
#ifndef GGUFSAFE_GSW_MODEL_H
#define GGUFSAFE_GSW_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"

/* Dimensions a tensor in the model can store. ggml reads at most 4; more are for the negative
 * cases (the Talos n_dims overflow writes real dimensions after an n_dims of 5 or 9). */
#define GSW_MAX_DIMS 16
/* The value the writer uses when the model names no alignment. */
#define GSW_DEFAULT_ALIGNMENT 32u

typedef struct gsw_blob {
    uint8_t *ptr;
    size_t len;
} gsw_blob;

typedef struct gsw_value gsw_value;
struct gsw_value {
    uint32_t type;      /* gs_value_type id */
    uint64_t bits;      /* fixed-size scalar: the wire value in the low bytes (bool: its byte) */
    gsw_blob str;       /* string scalar */
    uint32_t elem_type; /* array: element type id */
    uint64_t count;     /* array: number of elements */
    gsw_blob raw;       /* array of fixed-size elements: count * size wire bytes */
    gsw_blob *strs;     /* array of strings: count strings */
    gsw_value *items;   /* array of arrays (nested; rejected by ggml and us): count arrays */
};

typedef struct gsw_kv {
    gsw_blob key;
    gsw_value value;
} gsw_kv;

typedef struct gsw_tensor {
    gsw_blob name;
    uint32_t n_dims; /* as stored; the writer writes ne[0..n_dims) */
    uint64_t ne[GSW_MAX_DIMS];
    int32_t type;    /* ggml type id */
    gsw_blob data;   /* the tensor's bytes; the writer pads them */
} gsw_tensor;

typedef struct gsw_model {
    uint32_t version;
    gsw_kv *kvs;
    size_t n_kv, cap_kv;
    gsw_tensor *tensors;
    size_t n_tensors, cap_tensors;
    /* Non-zero: pad and place tensors with this alignment whatever general.alignment says (for
     * files whose declared alignment is broken or huge). */
    uint32_t alignment_override;
} gsw_model;

void gsw_model_init(gsw_model *m, uint32_t version);
void gsw_model_free(gsw_model *m);

/* Wire size of one element of a fixed-size value type; 0 for string, array and invalid ids. */
unsigned gsw_value_size(uint32_t type);

/* Appends a key-value pair and returns its value, to be filled by one gsw_set_* call. The
 * pointer is valid until the next gsw_add. The value starts as u8 0. */
gsw_value *gsw_add(gsw_model *m, const char *key);
gsw_value *gsw_add_n(gsw_model *m, const void *key, size_t key_len);

/* Scalars. gsw_set_scalar takes any fixed-size type and its wire bits. */
void gsw_set_scalar(gsw_value *v, uint32_t type, uint64_t bits);
/* The integer types, X(suffix, C type, bits, GS_VALUE_ suffix): gsw_set_u8 (uint8_t), gsw_set_i8
 * (int8_t, stored as its two's-complement bits), ..., gsw_set_i64. */
#define GSW_INT_VALUES(X)                                                                        \
    X(u8, uint8_t, 8, U8) X(i8, int8_t, 8, I8) X(u16, uint16_t, 16, U16)                        \
    X(i16, int16_t, 16, I16) X(u32, uint32_t, 32, U32) X(i32, int32_t, 32, I32)                 \
    X(u64, uint64_t, 64, U64) X(i64, int64_t, 64, I64)
#define GSW_DECLARE_SET_INT(suffix, ctype, bits, type) void gsw_set_##suffix(gsw_value *v, ctype x);
GSW_INT_VALUES(GSW_DECLARE_SET_INT)
#undef GSW_DECLARE_SET_INT
void gsw_set_f32(gsw_value *v, float x);
void gsw_set_f64(gsw_value *v, double x);
/* The bool's byte as stored: 0 and 1 are valid, anything else is for negative cases. */
void gsw_set_bool(gsw_value *v, uint8_t byte);
void gsw_set_string(gsw_value *v, const void *s, size_t n);
void gsw_set_cstr(gsw_value *v, const char *s);

/* An array of a fixed-size element type: count elements whose wire bytes (little-endian,
 * count * gsw_value_size(elem) of them) are copied from wire, or zeros when wire is NULL. */
void gsw_set_array(gsw_value *v, uint32_t elem_type, uint64_t count, const void *wire);
/* An array of count strings, all empty until gsw_array_string sets them. */
void gsw_set_string_array(gsw_value *v, uint64_t count);
void gsw_array_string(gsw_value *v, uint64_t i, const void *s, size_t n);
/* An array of count arrays (nested): returns the items, each to be set with gsw_set_array,
 * gsw_set_string_array or gsw_set_nested_array. */
gsw_value *gsw_set_nested_array(gsw_value *v, uint64_t count);

/* Appends a tensor with no data and returns it (valid until the next gsw_add_tensor). n_dims
 * may exceed 4 up to GSW_MAX_DIMS; ne holds n_dims values. */
gsw_tensor *gsw_add_tensor(gsw_model *m, const char *name, uint32_t n_dims, const uint64_t *ne,
                           int32_t type);
gsw_tensor *gsw_add_tensor_n(gsw_model *m, const void *name, size_t name_len, uint32_t n_dims,
                             const uint64_t *ne, int32_t type);
/* Copies len bytes of data into the tensor. */
void gsw_tensor_set_data(gsw_tensor *t, const void *data, size_t len);
/* Gives the tensor the byte size the type registry computes for its shape, filled with
 * deterministic bytes derived from seed. False (and no data) when the size cannot be computed
 * (unknown or removed type, ne[0] not a whole number of blocks, overflow) or exceeds max_bytes. */
bool gsw_tensor_fill(gsw_tensor *t, uint64_t seed, uint64_t max_bytes);

/* Byte size of a tensor from the type registry, with checked arithmetic over the first
 * min(n_dims, 4) dimensions. False for unusable types, partial blocks and overflow. */
bool gsw_tensor_nbytes(int32_t type, uint32_t n_dims, const uint64_t *ne, uint64_t *out);

/* The alignment the writer uses: the override, else a u32 `general.alignment` (exact key), else
 * 32. Returns 0 when general.alignment is a u32 zero and there is no override (cannot pad). */
uint32_t gsw_model_alignment(const gsw_model *m);

#endif
