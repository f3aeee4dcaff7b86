#include "options.h"

#include <stddef.h>
#include <string.h>

#include "abi_compat.h"

#define MIB (1024ull * 1024ull)

/* The sizes of gs_options a caller may pass (struct_size, gs_options_init_sized): sizeof of
 * every released gs_options, each ending on a field boundary. A field appended to gs_options
 * appends an entry (the struct's new sizeof) and moves GSI_OPTIONS_SIZE_LATEST to it; the assert
 * fails until it does. */
/* The next release's: metadata_only, 8-byte aligned past 0.1.0's sizeof, and the struct padded
 * to its alignment (112 on LP64). */
#define GSI_OPTIONS_SIZE_UNRELEASED (((GSI_OPTIONS_SIZE_0_1_0 + 7u) & ~(size_t)7u) + 8u)
#define GSI_OPTIONS_SIZE_LATEST GSI_OPTIONS_SIZE_UNRELEASED
static const size_t known_sizes[] = {
    GSI_OPTIONS_SIZE_0_1_0,      /* 0.1.0: struct_size .. copy_metadata */
    GSI_OPTIONS_SIZE_UNRELEASED, /* unreleased: .. metadata_only */
};
_Static_assert(offsetof(gs_options, metadata_only) >= GSI_OPTIONS_SIZE_0_1_0,
               "an option after 0.1.0 starts past 0.1.0's sizeof (its tail padding)");
_Static_assert(sizeof(gs_options) == GSI_OPTIONS_SIZE_LATEST,
               "gs_options grew: add its new size to known_sizes");

static bool size_known(size_t size)
{
    for (size_t i = 0; i < sizeof known_sizes / sizeof known_sizes[0]; i++) {
        if (known_sizes[i] == size) {
            return true;
        }
    }
    return false;
}

static void defaults(gs_options *opts)
{
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

gs_status gs_options_init_sized(gs_options *opts, size_t size)
{
    if (opts == NULL || !size_known(size)) {
        return GS_E_INVALID_ARGUMENT;
    }
    gs_options full;
    defaults(&full);
    full.struct_size = size;
    memcpy(opts, &full, size);
    return GS_OK;
}

/* The 0.1.0 symbol, for programs built against 0.1.0: their gs_options is 0.1.0's. */
#undef gs_options_init
void gs_options_init(gs_options *opts)
{
    (void)gs_options_init_sized(opts, GSI_OPTIONS_SIZE_0_1_0);
}

gs_status gsi_options_resolve(const gs_options *in, gs_options *out)
{
    defaults(out);
    if (in == NULL) {
        return GS_OK;
    }
    /* struct_size, the first field, is there at every size; read no byte past it before it is
     * known. The fields past the caller's struct keep their defaults. */
    const size_t size = in->struct_size;
    if (!size_known(size)) {
        return GS_E_INVALID_ARGUMENT;
    }
    memcpy(out, in, size);
    out->struct_size = sizeof *out;
    if (out->profile != GS_PROFILE_STRICT && out->profile != GS_PROFILE_LENIENT) {
        return GS_E_INVALID_ARGUMENT;
    }
    const gs_allocator *a = &out->allocator;
    bool all = a->malloc_fn != NULL && a->realloc_fn != NULL && a->free_fn != NULL;
    bool none = a->malloc_fn == NULL && a->realloc_fn == NULL && a->free_fn == NULL;
    if (!all && !none) {
        return GS_E_INVALID_ARGUMENT;
    }
    /* Record numbers are 32-bit internally. */
    if (out->limits.max_kv_count > GSI_MAX_RECORDS) {
        out->limits.max_kv_count = GSI_MAX_RECORDS;
    }
    if (out->limits.max_tensor_count > GSI_MAX_RECORDS) {
        out->limits.max_tensor_count = GSI_MAX_RECORDS;
    }
    return GS_OK;
}
