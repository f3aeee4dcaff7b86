/* Header and layout getters of an open file. */
#include <string.h>

#include "abi_compat.h"
#include "checked_math.h"
#include "file_internal.h"

const char *gs_version(void)
{
    return GS_VERSION_STRING;
}

uint32_t gs_file_version(const gs_file *file)
{
    return file != NULL ? file->version : 0;
}

gs_profile gs_file_profile(const gs_file *file)
{
    return file != NULL ? file->profile : GS_PROFILE_STRICT;
}

size_t gs_kv_count(const gs_file *file)
{
    return file != NULL ? file->n_kv : 0;
}

size_t gs_tensor_count(const gs_file *file)
{
    return file != NULL ? file->n_tensors : 0;
}

gs_status gs_file_layout_sized(const gs_file *file, gs_layout *out, size_t out_size)
{
    if (out == NULL || out_size < GSI_LAYOUT_SIZE_0_1_0) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (file == NULL) {
        memset(out, 0, out_size);
        return GS_E_INVALID_ARGUMENT;
    }
    gsi_copy_sized(out, out_size, &file->layout, sizeof file->layout);
    return GS_OK;
}

/* The 0.1.0 symbol, for programs built against 0.1.0: their gs_layout is 0.1.0's. */
#undef gs_file_layout
void gs_file_layout(const gs_file *file, gs_layout *out)
{
    (void)gs_file_layout_sized(file, out, GSI_LAYOUT_SIZE_0_1_0);
}

size_t gs_file_finding_count(const gs_file *file)
{
    return file != NULL ? file->n_findings : 0;
}

gs_status gs_file_finding(const gs_file *file, size_t i, gs_error *out)
{
    if (file == NULL || out == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (i >= file->n_findings) {
        return GS_E_OUT_OF_RANGE;
    }
    *out = file->findings[i];
    return GS_OK;
}

gs_status gs_file_read(const gs_file *file, uint64_t offset, void *dst, size_t n)
{
    if (file == NULL || (dst == NULL && n > 0)) {
        return GS_E_INVALID_ARGUMENT;
    }
    uint64_t end;
    /* Detect and prevent integer overflow */
    if (gsi_checked_add_u64(offset, n, &end) || end > file->size) {
        return GS_E_OUT_OF_RANGE;
    }
    if (n == 0) {
        return GS_OK;
    }
    if (file->source.is_file) {
        return gsi_source_pread(&file->source, offset, dst, n);
    }
    memcpy(dst, file->data_base + offset, n);
    return GS_OK;
}

gs_status gs_file_identity_sized(const gs_file *file, gs_identity *out, size_t out_size)
{
    if (file == NULL || out == NULL || out_size < sizeof(gs_identity)) {
        return GS_E_INVALID_ARGUMENT;
    }
    static const gs_identity none;
    gsi_copy_sized(out, out_size, file->source.is_file ? &file->source.id : &none,
                   sizeof(gs_identity));
    return file->source.is_file ? GS_OK : GS_E_NOT_FOUND;
}
