#include "options.h"

#include <stddef.h>
#include <string.h>

#include "abi_compat.h"
#include "error.h"

#define MIB (1024ull * 1024ull)

/* The gs_options a caller may pass (struct_size, gs_options_init_sized): sizeof of every
 * released gs_options, and where its last field ends. Only the fields are read from the
 * caller: a later version's first field may sit in an earlier version's tail padding (0.1.0's
 * ends with two bools and padding up to 104 bytes), bytes a caller of that version never
 * initialized. A field appended to gs_options appends an entry and moves
 * GSI_OPTIONS_SIZE_LATEST to it; the assert fails until it does. */
typedef struct options_version {
    size_t size;       /* sizeof */
    size_t fields_end; /* end of its last field */
} options_version;

#define FIELD_END(type, f) (offsetof(type, f) + sizeof(((type *)0)->f))
#define GSI_OPTIONS_SIZE_LATEST sizeof(gs_options)
static const options_version known_sizes[] = {
    /* 0.1.0: struct_size .. copy_metadata */
    {GSI_OPTIONS_SIZE_0_1_0, FIELD_END(gsi_options_0_1_0, copy_metadata)},
    /* unreleased: .. reopen_for_data, max_split_metadata_memory, metadata_only, type_defs,
       n_type_defs, decoders, n_decoders */
    {GSI_OPTIONS_SIZE_LATEST, FIELD_END(gs_options, n_decoders)},
};
_Static_assert((FIELD_END(gs_options, n_decoders) + _Alignof(gs_options) - 1) /
                       _Alignof(gs_options) * _Alignof(gs_options) ==
                   GSI_OPTIONS_SIZE_LATEST,
               "gs_options grew: add its new size to known_sizes");

/* The version whose sizeof is size, or NULL. */
static const options_version *version_of(size_t size)
{
    for (size_t i = 0; i < sizeof known_sizes / sizeof known_sizes[0]; i++) {
        if (known_sizes[i].size == size) {
            return &known_sizes[i];
        }
    }
    return NULL;
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
    if (opts == NULL || version_of(size) == NULL) {
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
    const options_version *v = version_of(in->struct_size);
    if (v == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    memcpy(out, in, v->fields_end);
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

gs_status gsi_open_path_args(const char *path, bool has_out, const gs_options *opts,
                             gs_options *o, gs_error *err)
{
    gsi_error_clear(err);
    if (!has_out || path == NULL) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "path or out is NULL");
    }
    if (gsi_options_resolve(opts, o) != GS_OK) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0, "options");
    }
    return GS_OK;
}
