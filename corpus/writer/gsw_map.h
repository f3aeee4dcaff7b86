/* The field map: every field the writer emits, with its kind, the record it belongs to, its
 * byte offset and size. Raw-mode overrides are patches addressed through it, and tests take
 * the exact offsets of expected errors from it instead of counting bytes by hand. */
#ifndef GGUFSAFE_GSW_MAP_H
#define GGUFSAFE_GSW_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "gsw_bytes.h"

/* Every kind of field, X(SUFFIX, name): the enumerator GSW_<SUFFIX> and its gsw_kind_name, the
 * suffix in lower case (test file names and descriptions use it). */
#define GSW_KINDS(X)                                                                             \
    /* header (record 0) */                                                                     \
    X(MAGIC, magic) X(VERSION, version) X(N_TENSORS, n_tensors) X(N_KV, n_kv)                   \
    /* key-value pair `record` */                                                               \
    X(KEY_LEN, key_len) X(KEY, key) X(VALUE_TYPE, value_type)                                   \
    X(VALUE, value)             /* fixed-size scalar */                                         \
    X(STR_LEN, str_len)         /* string scalar: length */                                     \
    X(STR, str)                 /* string scalar: bytes */                                      \
    X(ARR_TYPE, arr_type)       /* array element type */                                        \
    X(ARR_COUNT, arr_count)                                                                     \
    X(ARR_ELEM, arr_elem)       /* fixed-size element `index` */                                \
    X(ARR_STR_LEN, arr_str_len) /* string element `index`: length */                            \
    X(ARR_STR, arr_str)         /* string element `index`: bytes */                             \
    /* tensor info `record` */                                                                  \
    X(NAME_LEN, name_len) X(NAME, name) X(N_DIMS, n_dims)                                       \
    X(DIM, dim)                 /* ne[index] */                                                 \
    X(TENSOR_TYPE, tensor_type) X(OFFSET, offset)                                               \
    /* data section */                                                                          \
    X(PADDING, padding)   /* zeros between the tensor infos and the data section (record 0) */  \
    X(DATA, data)         /* tensor `record`'s bytes */                                         \
    X(DATA_PAD, data_pad) /* zeros after tensor `record`'s bytes */

#define GSW_KIND_ENUMERATOR(suffix, name) GSW_##suffix,
typedef enum gsw_kind { GSW_KINDS(GSW_KIND_ENUMERATOR) GSW_KIND_COUNT } gsw_kind;
#undef GSW_KIND_ENUMERATOR

typedef struct gsw_field {
    uint64_t offset;
    uint64_t size;
    uint64_t index;   /* element or dimension index; 0 where there is none */
    uint32_t record;  /* KV or tensor index; 0 for header and padding */
    uint32_t kind;    /* gsw_kind */
} gsw_field;

typedef struct gsw_map {
    gsw_field *fields;
    size_t n, cap;
} gsw_map;

void gsw_map_init(gsw_map *m);
void gsw_map_free(gsw_map *m);
void gsw_map_add(gsw_map *m, gsw_kind kind, uint32_t record, uint64_t index, uint64_t offset,
                 uint64_t size);

/* The first field of that kind, record and index (fields of nested arrays come after their
 * outer array's, so the outer one is found first); NULL when there is none. */
const gsw_field *gsw_map_find(const gsw_map *m, gsw_kind kind, uint32_t record, uint64_t index);
/* The offset of that field; aborts when it is not in the map (a broken test recipe). */
uint64_t gsw_at(const gsw_map *m, gsw_kind kind, uint32_t record, uint64_t index);
/* The first byte after that field; aborts like gsw_at. */
uint64_t gsw_end(const gsw_map *m, gsw_kind kind, uint32_t record, uint64_t index);

/* Raw-mode overrides. gsw_override writes value little-endian over the whole field (1, 2, 4 or
 * 8 bytes; value must fit); aborts when the field is absent or wider than 8 bytes. */
void gsw_override(gsw_bytes *b, const gsw_map *m, gsw_kind kind, uint32_t record, uint64_t index,
                  uint64_t value);

const char *gsw_kind_name(gsw_kind kind);

#endif
