/* Tensor getters of an open file. */
#include <string.h>

#include "file_internal.h"
#include "type_registry.h"

void gsi_tensor_strides(const gsi_tensor *t, uint64_t nb[GS_MAX_DIMS])
{
    const gsi_type_row *row = gsi_type_lookup(t->type);
    nb[0] = row->block_bytes;
    nb[1] = nb[0] * (t->ne[0] / row->block_elems);
    for (int j = 2; j < GS_MAX_DIMS; j++) {
        nb[j] = nb[j - 1] * t->ne[j - 1];
    }
}

gs_status gs_tensor_info_at(const gs_file *file, size_t index, gs_tensor_info *out)
{
    if (file == NULL || out == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (index >= file->n_tensors) {
        return GS_E_OUT_OF_RANGE;
    }
    const gsi_tensor *t = &file->tensors[index];
    memset(out, 0, sizeof *out);
    out->name = (gs_str){(const char *)file->base + t->name_off, (size_t)t->name_len};
    out->n_dims = t->n_dims;
    out->n_elements = 1;
    for (int j = 0; j < GS_MAX_DIMS; j++) {
        out->ne[j] = t->ne[j];
        out->n_elements *= t->ne[j]; /* validated at open: no overflow */
    }
    gsi_tensor_strides(t, out->nb);
    out->type = (gs_type)t->type;
    out->offset = t->offset;
    out->data_offset = file->layout.data_offset + t->offset; /* may wrap only when outside */
    out->size = t->nbytes;
    out->info_offset = t->info_off;
    out->data_in_file = !t->outside;
    out->data = t->nbytes > 0 && !t->outside ? file->data_base + out->data_offset : NULL;
    return GS_OK;
}

gs_status gs_tensor_find_n(const gs_file *file, const char *name, size_t name_len, size_t *index)
{
    if (file == NULL || (name == NULL && name_len > 0) || index == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    uint32_t rec;
    gsi_name_source names = gsi_tensor_names(file);
    if (!gsi_index_find(&file->tensor_index, &names, (const uint8_t *)name, name_len, &rec)) {
        return GS_E_NOT_FOUND;
    }
    *index = rec;
    return GS_OK;
}

gs_status gs_tensor_find(const gs_file *file, const char *name, size_t *index)
{
    if (name == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    return gs_tensor_find_n(file, name, strlen(name), index);
}
