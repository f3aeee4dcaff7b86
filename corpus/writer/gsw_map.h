/* The field map: every field the writer emits, with its kind, the record it belongs to, its
 * byte offset and size. Raw-mode overrides are patches addressed through it, and tests take
 * the exact offsets of expected errors from it instead of counting bytes by hand. */
#ifndef GGUFSAFE_GSW_MAP_H
#define GGUFSAFE_GSW_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "gsw_bytes.h"

typedef enum gsw_kind {
    /* header (record 0) */
    GSW_MAGIC,
    GSW_VERSION,
    GSW_N_TENSORS,
    GSW_N_KV,
    /* key-value pair `record` */
    GSW_KEY_LEN,
    GSW_KEY,
    GSW_VALUE_TYPE,
    GSW_VALUE,      /* fixed-size scalar */
    GSW_STR_LEN,    /* string scalar: length */
    GSW_STR,        /* string scalar: bytes */
    GSW_ARR_TYPE,   /* array element type */
    GSW_ARR_COUNT,
    GSW_ARR_ELEM,   /* fixed-size element `index` */
    GSW_ARR_STR_LEN,/* string element `index`: length */
    GSW_ARR_STR,    /* string element `index`: bytes */
    /* tensor info `record` */
    GSW_NAME_LEN,
    GSW_NAME,
    GSW_N_DIMS,
    GSW_DIM,        /* ne[index] */
    GSW_TENSOR_TYPE,
    GSW_OFFSET,
    /* data section */
    GSW_PADDING,    /* zeros between the tensor infos and the data section (record 0) */
    GSW_DATA,       /* tensor `record`'s bytes */
    GSW_DATA_PAD,   /* zeros after tensor `record`'s bytes */
    GSW_KIND_COUNT
} gsw_kind;

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
