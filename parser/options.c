#include "options.h"

#include <string.h>

#define MIB (1024ull * 1024ull)

void gs_options_init(gs_options *opts)
{
    if (opts == NULL) {
        return;
    }
    memset(opts, 0, sizeof *opts);
    opts->struct_size = sizeof *opts;
    opts->profile = GS_PROFILE_STRICT;
    opts->limits.max_kv_count = 1ull << 20;
    opts->limits.max_tensor_count = 1ull << 20;
    opts->limits.max_string_length = 64 * MIB;
    opts->limits.max_array_length = 1ull << 26;
    opts->limits.max_alignment = 1u << 20;
    opts->limits.max_metadata_memory = 1024 * MIB;
}

gs_status gsi_options_resolve(const gs_options *in, gs_options *out)
{
    gs_options_init(out);
    if (in == NULL) {
        return GS_OK;
    }
    if (in->struct_size != sizeof *in) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (in->profile != GS_PROFILE_STRICT && in->profile != GS_PROFILE_LENIENT) {
        return GS_E_INVALID_ARGUMENT;
    }
    const gs_allocator *a = &in->allocator;
    bool all = a->malloc_fn != NULL && a->realloc_fn != NULL && a->free_fn != NULL;
    bool none = a->malloc_fn == NULL && a->realloc_fn == NULL && a->free_fn == NULL;
    if (!all && !none) {
        return GS_E_INVALID_ARGUMENT;
    }
    *out = *in;
    /* Record numbers are 32-bit internally. */
    if (out->limits.max_kv_count > GSI_MAX_RECORDS) {
        out->limits.max_kv_count = GSI_MAX_RECORDS;
    }
    if (out->limits.max_tensor_count > GSI_MAX_RECORDS) {
        out->limits.max_tensor_count = GSI_MAX_RECORDS;
    }
    return GS_OK;
}
