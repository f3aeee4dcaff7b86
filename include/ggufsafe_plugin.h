/*
 * ggufsafe_plugin.h: the decoder plugin ABI, version 1 (docs/new-quant-types.md and
 * conformance/plugins/README.md, the plugin author's guide).
 *
 * A plugin is a shared object that decodes a tensor type ggufsafe does not know (a new quant
 * format under development) to f32. It includes only this header and links nothing of
 * ggufsafe's. It exports one function, GGUFSAFE_PLUGIN_ENTRY_NAME, returning a table that lives
 * as long as the plugin is loaded:
 *
 *     static int decode_q(int32_t type, const void *src, size_t src_bytes, float *dst,
 *                         size_t n_elems) { ...; return 0; }
 *     static const gs_plugin_type types[] = {{200, "my_q", 32, 34, decode_q}};
 *     static const gs_plugin_table table = {GGUFSAFE_PLUGIN_ABI_VERSION, sizeof table,
 *                                           "my_q plugin", 1, types};
 *     GGUFSAFE_PLUGIN_EXPORT const gs_plugin_table *ggufsafe_plugin_v1(void) { return &table; }
 *
 * ggufsafe checks the table before it uses it (the version, the sizes, every id, name and block
 * geometry, as for --type definitions: an id the registry knows is refused) and calls decode
 * with whole blocks only: src holds src_bytes = n * block_bytes bytes (any alignment), dst room
 * for exactly n_elems = n * block_elems floats, at most 32 KiB of src per call. decode returns 0,
 * or non-zero for a failure (reported naming the plugin and the tensor). It may be called from
 * several threads at once. By default the command runs the plugin in a child process, so a
 * crash, a hang or a write past dst is reported instead of taking the tool down.
 */
#ifndef GGUFSAFE_PLUGIN_H
#define GGUFSAFE_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GGUFSAFE_PLUGIN_ABI_VERSION 1u
#define GGUFSAFE_PLUGIN_ENTRY_NAME "ggufsafe_plugin_v1"
#define GGUFSAFE_PLUGIN_MAX_TYPES 256u     /* entries of one table */
#define GGUFSAFE_PLUGIN_NAME_MAX 63u       /* bytes of a type's name: [A-Za-z0-9_.-] */
#define GGUFSAFE_PLUGIN_TITLE_MAX 127u     /* bytes of the plugin's own name */

#if defined(__GNUC__)
#define GGUFSAFE_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define GGUFSAFE_PLUGIN_EXPORT
#endif

/* Decodes n_elems / block_elems whole blocks of `type` at src into dst: 0 on success. */
typedef int (*gs_plugin_decode_fn)(int32_t type, const void *src, size_t src_bytes, float *dst,
                                   size_t n_elems);

typedef struct gs_plugin_type {
    int32_t id;               /* the type id tensors carry: not one ggufsafe knows */
    const char *name;         /* 1..GGUFSAFE_PLUGIN_NAME_MAX bytes of [A-Za-z0-9_.-] */
    uint32_t block_elems;     /* elements per block, 1..4096 */
    uint32_t block_bytes;     /* bytes per block, 1..4096 */
    gs_plugin_decode_fn decode;
} gs_plugin_type;

typedef struct gs_plugin_table {
    uint32_t abi_version;     /* GGUFSAFE_PLUGIN_ABI_VERSION */
    uint32_t struct_size;     /* sizeof(gs_plugin_table) */
    const char *name;         /* the plugin's name, for messages (1..127 printable bytes) */
    size_t n_types;           /* 1..GGUFSAFE_PLUGIN_MAX_TYPES */
    const gs_plugin_type *types;
} gs_plugin_table;

/* The one symbol a plugin exports. */
typedef const gs_plugin_table *(*gs_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* GGUFSAFE_PLUGIN_H */
