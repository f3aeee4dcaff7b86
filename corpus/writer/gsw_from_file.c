#include "gsw_from_file.h"

#include <stdio.h>
#include <string.h>

/* Scalars are copied as their wire bytes so that a lenient file's bool byte 2 or a NaN payload
 * comes back unchanged (the typed getters would normalise them): read through gs_file_read at
 * the value offset gs_kv_info_at gives. */
static gs_status wire_bits(const gs_file *f, uint64_t at, unsigned size, uint64_t *bits)
{
    uint8_t le[8];
    const gs_status st = gs_file_read(f, at, le, size);
    *bits = 0;
    for (unsigned i = 0; st == GS_OK && i < size; i++) {
        *bits |= (uint64_t)le[i] << (8 * i);
    }
    return st;
}

/* -1, with why saying which key-value or tensor the reader refused and its status. */
static int refused(char *why, size_t why_cap, const char *what, size_t index, gs_status st)
{
    (void)snprintf(why, why_cap, "%s %zu: %s", what, index, gs_status_name(st));
    return -1;
}

static int copy_value(const gs_file *f, size_t index, const gs_kv_info *info, gsw_value *v,
                      char *why, size_t why_cap)
{
    gs_status st = GS_OK;
    if (info->type == GS_VALUE_STRING) {
        gs_str s;
        st = gs_kv_get_string(f, index, &s);
        if (st == GS_OK) {
            gsw_set_string(v, s.ptr, s.len);
        }
    } else if (info->type != GS_VALUE_ARRAY) {
        uint64_t bits;
        st = wire_bits(f, info->value_offset, gsw_value_size(info->type), &bits);
        if (st == GS_OK) {
            gsw_set_scalar(v, info->type, bits);
        }
    } else if (info->elem_type == GS_VALUE_STRING) {
        gsw_set_string_array(v, info->count);
        for (uint64_t i = 0; i < info->count && st == GS_OK; i++) {
            gs_str s;
            st = gs_kv_get_array_string(f, index, i, &s);
            if (st == GS_OK) {
                gsw_array_string(v, i, s.ptr, s.len);
            }
        }
    } else {
        const void *data;
        uint64_t count;
        st = gs_kv_get_array_data(f, index, &data, &count);
        if (st == GS_OK) {
            gsw_set_array(v, info->elem_type, count, data);
        }
    }
    if (st != GS_OK) {
        return refused(why, why_cap, "key-value", index, st);
    }
    return 0;
}

int gsw_model_from_file(const gs_file *f, gsw_model *m, char *why, size_t why_cap)
{
    gsw_model_init(m, gs_file_version(f));
    for (size_t i = 0; i < gs_kv_count(f); i++) {
        gs_kv_info info;
        gs_status st = gs_kv_info_at(f, i, &info);
        if (st != GS_OK) {
            return refused(why, why_cap, "key-value", i, st);
        }
        gsw_value *v = gsw_add_n(m, info.key.ptr, info.key.len);
        if (copy_value(f, i, &info, v, why, why_cap) != 0) {
            return -1;
        }
    }
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        gs_status st = gs_tensor_info_at(f, i, &t);
        if (st != GS_OK) {
            return refused(why, why_cap, "tensor", i, st);
        }
        gsw_tensor *wt = gsw_add_tensor_n(m, t.name.ptr, t.name.len, t.n_dims, t.ne,
                                           (int32_t)t.type);
        gsw_tensor_set_data(wt, t.data, (size_t)t.size);
    }
    /* The reader's alignment is the writer's unless general.alignment is absent or not a u32
     * (then both use 32) - keep an override only if they would ever differ. */
    gs_layout layout;
    gs_file_layout(f, &layout);
    if (gsw_model_alignment(m) != layout.alignment) {
        m->alignment_override = layout.alignment;
    }
    return 0;
}
