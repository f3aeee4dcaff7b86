/* Header and layout getters of an open file. */
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

void gs_file_layout(const gs_file *file, gs_layout *out)
{
    if (out == NULL) {
        return;
    }
    if (file == NULL) {
        *out = (gs_layout){0};
        return;
    }
    *out = file->layout;
}
