/* The public structs as 0.1.0 laid them out, frozen, and the one way the library writes a struct
 * the caller sized (docs/abi.md has the policy).
 *
 * A struct the library fills (gs_type_info, gs_tensor_info, gs_layout, gs_kv_info) and the
 * options (gs_options) may only grow at the end. Programs built against 0.1.0 call the 0.1.0
 * symbols, which write exactly the 0.1.0 sizes below; programs built later go through the
 * _sized entry points with their own sizeof. The static asserts hold today's structs to the
 * 0.1.0 layouts: every 0.1.0 field at its 0.1.0 offset with its 0.1.0 size, the growable
 * structs no smaller, and the frozen ones (gs_str, gs_allocator, gs_limits, gs_error: embedded
 * in other structs or written by unsized entry points) exactly the same. ci/abi_check.sh checks
 * the same against the 0.1.0 library's debug info. Never edit a struct of this file. */
#ifndef GGUFSAFE_ABI_COMPAT_H
#define GGUFSAFE_ABI_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ggufsafe.h"

typedef struct gsi_str_0_1_0 {
    const char *ptr;
    size_t len;
} gsi_str_0_1_0;

typedef struct gsi_type_info_0_1_0 {
    const char *name;
    uint32_t block_elems;
    uint32_t block_bytes;
    gs_type_status status;
    bool decodable;
} gsi_type_info_0_1_0;

typedef struct gsi_allocator_0_1_0 {
    void *(*malloc_fn)(void *opaque, size_t size);
    void *(*realloc_fn)(void *opaque, void *ptr, size_t size);
    void (*free_fn)(void *opaque, void *ptr);
    void *opaque;
} gsi_allocator_0_1_0;

typedef struct gsi_limits_0_1_0 {
    uint64_t max_kv_count;
    uint64_t max_tensor_count;
    uint64_t max_string_length;
    uint64_t max_array_length;
    uint32_t max_alignment;
    uint64_t max_metadata_memory;
} gsi_limits_0_1_0;

typedef struct gsi_options_0_1_0 {
    size_t struct_size;
    gs_profile profile;
    gsi_limits_0_1_0 limits;
    gsi_allocator_0_1_0 allocator;
    bool diagnostic;
    bool copy_metadata;
} gsi_options_0_1_0;

typedef struct gsi_error_0_1_0 {
    gs_status status;
    uint64_t offset;
    gs_context_kind context_kind;
    char context[128];
    char detail[128];
} gsi_error_0_1_0;

typedef struct gsi_layout_0_1_0 {
    uint64_t file_size;
    uint64_t kv_end;
    uint64_t tensor_info_end;
    uint32_t alignment;
    uint64_t data_offset;
    uint64_t data_end;
    uint64_t predicted_size;
    uint64_t trailing_bytes;
    uint64_t missing_tail_padding;
    uint64_t header_padding_nonzero;
    uint64_t first_nonzero_padding;
    uint64_t findings_dropped;
} gsi_layout_0_1_0;

typedef struct gsi_kv_info_0_1_0 {
    gsi_str_0_1_0 key;
    gs_value_type type;
    gs_value_type elem_type;
    uint64_t count;
    uint64_t offset;
    uint64_t value_offset;
    uint64_t size;
} gsi_kv_info_0_1_0;

typedef struct gsi_tensor_info_0_1_0 {
    gsi_str_0_1_0 name;
    uint32_t n_dims;
    uint64_t ne[4];
    uint64_t nb[4];
    gs_type type;
    uint64_t n_elements;
    uint64_t offset;
    uint64_t data_offset;
    uint64_t size;
    uint64_t info_offset;
    bool data_in_file;
    const void *data;
} gsi_tensor_info_0_1_0;

/* ---- today's structs against the frozen ones ---------------------------------------------- */
#define GSI_FIELD_SIZE(type, f) sizeof(((type *)0)->f)
#define GSI_SAME(now, old, f) \
    (offsetof(now, f) == offsetof(old, f) && GSI_FIELD_SIZE(now, f) == GSI_FIELD_SIZE(old, f))
#define GSI_KEEPS(now, old, cond) \
    _Static_assert((cond) && sizeof(now) >= sizeof(old), #now ": a 0.1.0 field moved or changed")
#define GSI_FROZEN(now, old, cond) \
    _Static_assert((cond) && sizeof(now) == sizeof(old), #now " is frozen: it changed since 0.1.0")

GSI_FROZEN(gs_str, gsi_str_0_1_0, GSI_SAME(gs_str, gsi_str_0_1_0, ptr) &&
                                      GSI_SAME(gs_str, gsi_str_0_1_0, len));
GSI_FROZEN(gs_allocator, gsi_allocator_0_1_0,
           GSI_SAME(gs_allocator, gsi_allocator_0_1_0, malloc_fn) &&
               GSI_SAME(gs_allocator, gsi_allocator_0_1_0, realloc_fn) &&
               GSI_SAME(gs_allocator, gsi_allocator_0_1_0, free_fn) &&
               GSI_SAME(gs_allocator, gsi_allocator_0_1_0, opaque));
GSI_FROZEN(gs_limits, gsi_limits_0_1_0,
           GSI_SAME(gs_limits, gsi_limits_0_1_0, max_kv_count) &&
               GSI_SAME(gs_limits, gsi_limits_0_1_0, max_tensor_count) &&
               GSI_SAME(gs_limits, gsi_limits_0_1_0, max_string_length) &&
               GSI_SAME(gs_limits, gsi_limits_0_1_0, max_array_length) &&
               GSI_SAME(gs_limits, gsi_limits_0_1_0, max_alignment) &&
               GSI_SAME(gs_limits, gsi_limits_0_1_0, max_metadata_memory));
GSI_FROZEN(gs_error, gsi_error_0_1_0,
           GSI_SAME(gs_error, gsi_error_0_1_0, status) &&
               GSI_SAME(gs_error, gsi_error_0_1_0, offset) &&
               GSI_SAME(gs_error, gsi_error_0_1_0, context_kind) &&
               GSI_SAME(gs_error, gsi_error_0_1_0, context) &&
               GSI_SAME(gs_error, gsi_error_0_1_0, detail));
GSI_KEEPS(gs_type_info, gsi_type_info_0_1_0,
          GSI_SAME(gs_type_info, gsi_type_info_0_1_0, name) &&
              GSI_SAME(gs_type_info, gsi_type_info_0_1_0, block_elems) &&
              GSI_SAME(gs_type_info, gsi_type_info_0_1_0, block_bytes) &&
              GSI_SAME(gs_type_info, gsi_type_info_0_1_0, status) &&
              GSI_SAME(gs_type_info, gsi_type_info_0_1_0, decodable));
GSI_KEEPS(gs_options, gsi_options_0_1_0,
          GSI_SAME(gs_options, gsi_options_0_1_0, struct_size) &&
              GSI_SAME(gs_options, gsi_options_0_1_0, profile) &&
              GSI_SAME(gs_options, gsi_options_0_1_0, limits) &&
              GSI_SAME(gs_options, gsi_options_0_1_0, allocator) &&
              GSI_SAME(gs_options, gsi_options_0_1_0, diagnostic) &&
              GSI_SAME(gs_options, gsi_options_0_1_0, copy_metadata));
GSI_KEEPS(gs_layout, gsi_layout_0_1_0,
          GSI_SAME(gs_layout, gsi_layout_0_1_0, file_size) &&
              GSI_SAME(gs_layout, gsi_layout_0_1_0, kv_end) &&
              GSI_SAME(gs_layout, gsi_layout_0_1_0, tensor_info_end) &&
              GSI_SAME(gs_layout, gsi_layout_0_1_0, alignment) &&
              GSI_SAME(gs_layout, gsi_layout_0_1_0, data_offset) &&
              GSI_SAME(gs_layout, gsi_layout_0_1_0, data_end) &&
              GSI_SAME(gs_layout, gsi_layout_0_1_0, predicted_size) &&
              GSI_SAME(gs_layout, gsi_layout_0_1_0, trailing_bytes) &&
              GSI_SAME(gs_layout, gsi_layout_0_1_0, missing_tail_padding) &&
              GSI_SAME(gs_layout, gsi_layout_0_1_0, header_padding_nonzero) &&
              GSI_SAME(gs_layout, gsi_layout_0_1_0, first_nonzero_padding) &&
              GSI_SAME(gs_layout, gsi_layout_0_1_0, findings_dropped));
GSI_KEEPS(gs_kv_info, gsi_kv_info_0_1_0,
          GSI_SAME(gs_kv_info, gsi_kv_info_0_1_0, key) &&
              GSI_SAME(gs_kv_info, gsi_kv_info_0_1_0, type) &&
              GSI_SAME(gs_kv_info, gsi_kv_info_0_1_0, elem_type) &&
              GSI_SAME(gs_kv_info, gsi_kv_info_0_1_0, count) &&
              GSI_SAME(gs_kv_info, gsi_kv_info_0_1_0, offset) &&
              GSI_SAME(gs_kv_info, gsi_kv_info_0_1_0, value_offset) &&
              GSI_SAME(gs_kv_info, gsi_kv_info_0_1_0, size));
GSI_KEEPS(gs_tensor_info, gsi_tensor_info_0_1_0,
          GSI_SAME(gs_tensor_info, gsi_tensor_info_0_1_0, name) &&
              GSI_SAME(gs_tensor_info, gsi_tensor_info_0_1_0, n_dims) &&
              GSI_SAME(gs_tensor_info, gsi_tensor_info_0_1_0, ne) &&
              GSI_SAME(gs_tensor_info, gsi_tensor_info_0_1_0, nb) &&
              GSI_SAME(gs_tensor_info, gsi_tensor_info_0_1_0, type) &&
              GSI_SAME(gs_tensor_info, gsi_tensor_info_0_1_0, n_elements) &&
              GSI_SAME(gs_tensor_info, gsi_tensor_info_0_1_0, offset) &&
              GSI_SAME(gs_tensor_info, gsi_tensor_info_0_1_0, data_offset) &&
              GSI_SAME(gs_tensor_info, gsi_tensor_info_0_1_0, size) &&
              GSI_SAME(gs_tensor_info, gsi_tensor_info_0_1_0, info_offset) &&
              GSI_SAME(gs_tensor_info, gsi_tensor_info_0_1_0, data_in_file) &&
              GSI_SAME(gs_tensor_info, gsi_tensor_info_0_1_0, data));

/* The sizes the 0.1.0 entry points write. */
#define GSI_TYPE_INFO_SIZE_0_1_0 sizeof(gsi_type_info_0_1_0)
#define GSI_OPTIONS_SIZE_0_1_0 sizeof(gsi_options_0_1_0)
#define GSI_LAYOUT_SIZE_0_1_0 sizeof(gsi_layout_0_1_0)
#define GSI_KV_INFO_SIZE_0_1_0 sizeof(gsi_kv_info_0_1_0)
#define GSI_TENSOR_INFO_SIZE_0_1_0 sizeof(gsi_tensor_info_0_1_0)

#if defined(__LP64__)
/* On LP64 (x86-64, AArch64 Linux), the sizes of the 0.1.0 library. */
_Static_assert(GSI_TYPE_INFO_SIZE_0_1_0 == 24 && GSI_OPTIONS_SIZE_0_1_0 == 104 &&
                   GSI_LAYOUT_SIZE_0_1_0 == 96 && GSI_KV_INFO_SIZE_0_1_0 == 56 &&
                   GSI_TENSOR_INFO_SIZE_0_1_0 == 152 && sizeof(gs_error) == 280,
               "the 0.1.0 struct sizes on LP64");
#endif

/* Copies the library's struct `full` (full_size bytes) into the caller's, which holds out_size
 * bytes (at least the 0.1.0 size: the caller checks): as many of its bytes as fit, and zeros
 * past its end when the caller's struct is larger (a program built against a later header),
 * so that fields this library does not know read as 0 / false / NULL. */
static inline void gsi_copy_sized(void *out, size_t out_size, const void *full, size_t full_size)
{
    const size_t n = out_size < full_size ? out_size : full_size;
    memcpy(out, full, n);
    if (out_size > n) {
        memset((uint8_t *)out + n, 0, out_size - n);
    }
}

#endif
