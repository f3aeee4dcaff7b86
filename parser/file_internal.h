/* The in-memory form of an open GGUF: immutable after gs_open_*, safe to read from many threads.
 * Records hold offsets into the file, never copies; sizes were validated at open. */
#ifndef GGUFSAFE_FILE_INTERNAL_H
#define GGUFSAFE_FILE_INTERNAL_H

#include "mem.h"
#include "name_index.h"
#include "source.h"

/* One key-value record, 32 bytes (160,000 keys: 5 MB of records, not 10): what can be worked
 * out from the other fields is, never from the file's bytes, which a caller's buffer or a
 * mapping could change under a getter. */
typedef struct gsi_kv {
    uint64_t offset;    /* record start (key length field); the key's bytes follow it */
    uint64_t value_off; /* scalar value, string length field, or first array element; the key
                           and the type (and an array's element type and count) lie between
                           (gsi_kv_key_len) */
    uint64_t tail;      /* string arrays: where their header is in gs_file.strings (the count,
                           the record's end, then each element's length field); every other
                           record: the first byte after it (gsi_kv_end) */
    uint8_t type;       /* gs_value_type */
    uint8_t elem_type;  /* element type for arrays, type for scalars */
} gsi_kv;
_Static_assert(sizeof(gsi_kv) == 32, "a key-value record is 32 bytes");

/* The entries of a string array's header in gs_file.strings, before its elements' offsets. */
#define GSI_STRING_ARRAY_HEADER 2u

typedef struct gsi_tensor {
    uint64_t info_off;      /* record start (name length field) */
    uint64_t name_off;
    uint64_t name_len;
    uint64_t ne[GS_MAX_DIMS];
    uint64_t offset;        /* relative to the data section, as stored */
    uint64_t nbytes;
    int32_t type;
    uint32_t n_dims;
    bool outside;           /* diagnostic mode: data not inside the file (not addressable) */
    bool unknown_type;      /* diagnostic mode: a type id neither built in nor defined by the
                               caller; nbytes is 0 and the data's extent is unknown */
} gsi_tensor;

struct gs_file {
    gsi_mem mem;
    gsi_source source;
    const uint8_t *base;      /* the metadata (and, unless copied, the whole file) */
    const uint8_t *data_base; /* the whole file, for tensor data pointers; NULL when nothing is
                                 mapped (reopen_for_data, empty files) */
    uint64_t size;
    uint8_t *meta_copy;       /* copy_metadata, reopen_for_data: the heap copy base points to */
    size_t meta_copy_len;     /* its allocated bytes */
    uint32_t version;
    gs_profile profile;

    gsi_kv *kvs;
    size_t n_kv, cap_kv;
    gsi_tensor *tensors;
    size_t n_tensors, cap_tensors;
    /* Offsets of the length field of every string element of every string array, so that the
     * i-th string of an array is found in O(1). */
    uint64_t *strings;
    size_t n_strings, cap_strings;

    gsi_name_index kv_index;
    gsi_name_index tensor_index;
    gs_layout layout;

    /* caller-defined types (type_defs.h), sorted by id */
    struct gsi_ext_type *ext_types;
    size_t n_ext_types, cap_ext_types;

    /* diagnostic mode: layout violations recorded instead of failing the open */
    gs_error *findings;
    size_t n_findings, cap_findings;
};

/* What gs_open_split adds to the opening of a part: its memory comes out of the set's budget
 * too, and check (when not NULL) may refuse the file from its identity before anything is read
 * (GS_E_SPLIT_SAME_FILE), filling err. */
typedef struct gsi_admission {
    gsi_budget *budget;
    gs_status (*check)(void *ctx, const gs_identity *id, gs_error *err);
    void *ctx;
} gsi_admission;

/* gs_open_memory with options already resolved, charged to budget too when not NULL. */
gs_status gsi_open_buffer(const void *data, size_t size, const gs_options *o, gsi_budget *budget,
                          gs_file **out, gs_error *err);
/* gs_open_file with options already resolved; admit may be NULL. */
gs_status gsi_open_path(const char *path, const gs_options *o, const gsi_admission *admit,
                        gs_file **out, gs_error *err);

/* Name resolvers for the indexes. */
gsi_name_source gsi_kv_names(const gs_file *f);
gsi_name_source gsi_tensor_names(const gs_file *f);

/* gs_kv_find_n (tensors false) and gs_tensor_find_n (true): the arguments checked, *index is the
 * record of the exact name, or GS_E_NOT_FOUND. gsi_file_find_str: of a NUL-terminated name (NULL
 * is GS_E_INVALID_ARGUMENT). */
gs_status gsi_file_find(const gs_file *file, bool tensors, const char *name, size_t name_len,
                        size_t *index);
gs_status gsi_file_find_str(const gs_file *file, bool tensors, const char *name, size_t *index);

/* A getter's copy of record `rec` into the caller's `type` of out_size bytes (checked to be at
 * least its 0.1.0 size) by fill(file, rec, info): in place when it is this library's size
 * (field by field: a stack copy read back in wide loads stalled on store forwarding, a fifth of
 * info's time on 160,000 keys), else into a whole one that gsi_copy_sized (abi_compat.h) cuts or
 * pads. */
#define GSI_FILL_SIZED(type, fill, file, rec, out, out_size)                                      \
    do {                                                                                          \
        if ((out_size) == sizeof(type)) {                                                         \
            fill(file, rec, out);                                                                 \
        } else {                                                                                  \
            type gsi_whole_;                                                                      \
            fill(file, rec, &gsi_whole_);                                                         \
            gsi_copy_sized(out, out_size, &gsi_whole_, sizeof gsi_whole_);                        \
        }                                                                                         \
    } while (0)

/* What a record's fields imply (the record is complete: the file is open). */
static inline bool gsi_kv_is_string_array(const gsi_kv *kv)
{
    return kv->type == GS_VALUE_ARRAY && kv->elem_type == GS_VALUE_STRING;
}
static inline uint64_t gsi_kv_key_off(const gsi_kv *kv)
{
    return kv->offset + 8;
}
/* Between the key and the value: the type (4 bytes) and for arrays the element type (4) and the
 * count (8). */
static inline uint64_t gsi_kv_key_len(const gsi_kv *kv)
{
    return kv->value_off - kv->offset - 8 - (kv->type == GS_VALUE_ARRAY ? 16u : 4u);
}
static inline uint64_t gsi_kv_end(const gs_file *f, const gsi_kv *kv)
{
    return gsi_kv_is_string_array(kv) ? f->strings[kv->tail + 1] : kv->tail;
}
/* Elements of an array (1 for a scalar): a fixed-size type's fill the bytes up to the end. */
static inline uint64_t gsi_kv_count(const gs_file *f, const gsi_kv *kv)
{
    if (kv->type != GS_VALUE_ARRAY) {
        return 1;
    }
    if (kv->elem_type == GS_VALUE_STRING) {
        return f->strings[kv->tail];
    }
    switch ((gs_value_type)kv->elem_type) {
    case GS_VALUE_U16: case GS_VALUE_I16: return (kv->tail - kv->value_off) >> 1;
    case GS_VALUE_U32: case GS_VALUE_I32: case GS_VALUE_F32: return (kv->tail - kv->value_off) >> 2;
    case GS_VALUE_U64: case GS_VALUE_I64: case GS_VALUE_F64: return (kv->tail - kv->value_off) >> 3;
    case GS_VALUE_U8: case GS_VALUE_I8: case GS_VALUE_BOOL:
    case GS_VALUE_STRING: case GS_VALUE_ARRAY:
    default: return kv->tail - kv->value_off;
    }
}
/* The offset of the length field of element i of a string array. */
static inline uint64_t gsi_kv_string_at(const gs_file *f, const gsi_kv *kv, uint64_t i)
{
    return f->strings[kv->tail + GSI_STRING_ARRAY_HEADER + i];
}

/* Offset of the tensor-info `offset` field of tensor t. */
uint64_t gsi_tensor_offset_field(const gsi_tensor *t);

/* Strides as ggml computes them; validated not to overflow at open. */
void gsi_tensor_strides(const gs_file *f, const gsi_tensor *t, uint64_t nb[GS_MAX_DIMS]);

#endif
