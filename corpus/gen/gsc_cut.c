#include "gsc_cut.h"

#include <stdio.h>
#include <stdlib.h>

#define MIN_TENSOR_INFO 25u /* name length + 1 name byte + n_dims + type + offset */
#define MIN_KV 14u          /* key length + 1 key byte + value type + 1 value byte */

static uint64_t le(const gsw_bytes *b, uint64_t at, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        v |= (uint64_t)b->data[at + i] << (8 * i);
    }
    return v;
}

static gsc_verdict at(gs_status st, uint64_t offset)
{
    return (gsc_verdict){st, offset};
}

/* Element size used to bound an array count; 8 for strings (their length field). */
static uint64_t min_element(uint32_t type)
{
    switch (type) {
    case GS_VALUE_U8: case GS_VALUE_I8: case GS_VALUE_BOOL: return 1;
    case GS_VALUE_U16: case GS_VALUE_I16: return 2;
    case GS_VALUE_U32: case GS_VALUE_I32: case GS_VALUE_F32: return 4;
    default: return 8;
    }
}

gsc_verdict gsc_cut_verdict(const gsw_bytes *full, const gsw_map *map, uint64_t cut)
{
    const uint64_t n_tensors = le(full, 8, 8), n_kv = le(full, 16, 8);
    uint64_t len_at = 0;     /* the length field of the string being read */
    int kv_section_done = 0; /* the tensor count is checked again after the key-values */
    for (size_t i = 0; i < map->n; i++) {
        const gsw_field *f = &map->fields[i];
        const uint64_t end = f->offset + f->size;
        switch ((gsw_kind)f->kind) {
        case GSW_NAME_LEN:
        case GSW_PADDING:
        case GSW_KEY_LEN:
        case GSW_STR_LEN:
        case GSW_ARR_STR_LEN:
            /* the first tensor name's length, or the padding, ends the key-values */
            if ((f->kind == GSW_NAME_LEN || f->kind == GSW_PADDING) && !kv_section_done) {
                kv_section_done = 1;
                if (MIN_TENSOR_INFO * n_tensors > cut - f->offset) {
                    return at(GS_E_COUNT_EXCEEDS_FILE, 8);
                }
            }
            if (f->kind == GSW_PADDING) {
                if (n_tensors > 0 && end > cut) {
                    return at(GS_E_TRUNCATED, f->offset);
                }
                break;
            }
            len_at = f->offset;
            if (end > cut) {
                return at(GS_E_TRUNCATED, f->offset);
            }
            break;
        case GSW_KEY:
        case GSW_STR:
        case GSW_ARR_STR:
        case GSW_NAME:
            if (end > cut) {
                return at(GS_E_STRING_EXCEEDS_FILE, len_at);
            }
            break;
        case GSW_N_KV:
            if (end > cut) {
                return at(GS_E_TRUNCATED, f->offset);
            }
            if (MIN_TENSOR_INFO * n_tensors > cut - end) {
                return at(GS_E_COUNT_EXCEEDS_FILE, 8);
            }
            if (MIN_KV * n_kv > cut - end - MIN_TENSOR_INFO * n_tensors) {
                return at(GS_E_COUNT_EXCEEDS_FILE, 16);
            }
            break;
        case GSW_ARR_COUNT:
            if (end > cut) {
                return at(GS_E_TRUNCATED, f->offset);
            }
            if (le(full, f->offset, 8) * min_element((uint32_t)le(full, f->offset - 4, 4)) >
                cut - end) {
                return at(GS_E_COUNT_EXCEEDS_FILE, f->offset);
            }
            break;
        case GSW_ARR_ELEM:
            if (end > cut) {
                fprintf(stderr, "gsc_cut: element cut past a count that fits\n");
                abort();
            }
            break;
        case GSW_DATA:
            if (end > cut) {
                return at(GS_E_DATA_OUTSIDE_FILE, gsw_at(map, GSW_OFFSET, f->record, 0));
            }
            break;
        case GSW_DATA_PAD:
            break;
        case GSW_MAGIC:
        case GSW_VERSION:
        case GSW_N_TENSORS:
        case GSW_VALUE_TYPE:
        case GSW_VALUE:
        case GSW_ARR_TYPE:
        case GSW_N_DIMS:
        case GSW_DIM:
        case GSW_TENSOR_TYPE:
        case GSW_OFFSET:
        case GSW_KIND_COUNT:
        default:
            if (end > cut) {
                return at(GS_E_TRUNCATED, f->offset);
            }
            break;
        }
    }
    return at(GS_OK, 0);
}
