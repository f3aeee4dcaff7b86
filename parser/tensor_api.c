/* Tensor getters of an open file. */
#include <string.h>

#include "abi_compat.h"
#include "file_internal.h"
#include "type_defs.h"
#include "type_registry.h"

void gsi_tensor_strides(const gs_file *f, const gsi_tensor *t, uint64_t nb[GS_MAX_DIMS])
{
    const gsi_type_row *row = gsi_file_type_row(f, t->type);
    if (row == NULL || t->unknown_type) {
        for (int j = 0; j < GS_MAX_DIMS; j++) {
            nb[j] = 0; /* diagnostic mode: a type without geometry */
        }
        return;
    }
    nb[0] = row->block_bytes;
    nb[1] = nb[0] * (t->ne[0] / row->block_elems);
    for (int j = 2; j < GS_MAX_DIMS; j++) {
        nb[j] = nb[j - 1] * t->ne[j - 1];
    }
}

/* Fills *info field by field: the caller's struct itself when it is this library's size (see
 * fill_kv_info in kv_api.c: no stack copy read back through store forwarding). */
static void fill_tensor_info(const gs_file *file, const gsi_tensor *t, gs_tensor_info *info)
{
    memset(info, 0, sizeof *info);
    info->name = (gs_str){(const char *)file->base + t->name_off, (size_t)t->name_len};
    info->n_dims = t->n_dims;
    info->n_elements = 1;
    for (int j = 0; j < GS_MAX_DIMS; j++) {
        info->ne[j] = t->ne[j];
        info->n_elements *= t->ne[j]; /* validated at open: no overflow */
    }
    gsi_tensor_strides(file, t, info->nb);
    info->type = (gs_type)t->type;
    info->offset = t->offset;
    info->data_offset = file->layout.data_offset + t->offset; /* may wrap only when outside */
    info->size = t->nbytes;
    info->info_offset = t->info_off;
    info->data_in_file = !t->outside;
    info->data = t->nbytes > 0 && !t->outside && file->data_base != NULL
                    ? file->data_base + info->data_offset
                    : NULL;
}

gs_status gs_tensor_info_at_sized(const gs_file *file, size_t index, gs_tensor_info *out,
                                  size_t out_size)
{
    if (file == NULL || out == NULL || out_size < GSI_TENSOR_INFO_SIZE_0_1_0) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (index >= file->n_tensors) {
        return GS_E_OUT_OF_RANGE;
    }
    const gsi_tensor *t = &file->tensors[index];
    GSI_FILL_SIZED(gs_tensor_info, fill_tensor_info, file, t, out, out_size);
    return GS_OK;
}

/* The 0.1.0 symbol, for programs built against 0.1.0: their gs_tensor_info is 0.1.0's. */
#undef gs_tensor_info_at
gs_status gs_tensor_info_at(const gs_file *file, size_t index, gs_tensor_info *out)
{
    return gs_tensor_info_at_sized(file, index, out, GSI_TENSOR_INFO_SIZE_0_1_0);
}

gs_status gs_tensor_find_n(const gs_file *file, const char *name, size_t name_len, size_t *index)
{
    return gsi_file_find(file, true, name, name_len, index);
}

gs_status gs_tensor_find(const gs_file *file, const char *name, size_t *index)
{
    return gsi_file_find_str(file, true, name, index);
}
