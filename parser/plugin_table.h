/* A decoder plugin's table (include/ggufsafe_plugin.h) in the one form ggufsafe reads it: bytes.
 * An in-process plugin's table is encoded from the struct it returns (reading its strings with a
 * bound), a child's arrives over the pipe already encoded; both go through one parser, which
 * trusts nothing (fuzz/fuzz_plugin_table.c):
 *
 *   "GSPT" u32 abi_version u32 n_types u32 title_len title[title_len]
 *   n_types x { i32 id u32 block_elems u32 block_bytes u32 name_len name[name_len] }
 *
 * little-endian, nothing after the last entry. */
#ifndef GGUFSAFE_PLUGIN_TABLE_H
#define GGUFSAFE_PLUGIN_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"
#include "ggufsafe_plugin.h"

#define GSI_PLUGIN_TABLE_MAX_BYTES                                                                \
    (16u + GGUFSAFE_PLUGIN_TITLE_MAX + GGUFSAFE_PLUGIN_MAX_TYPES * (16u + GGUFSAFE_PLUGIN_NAME_MAX))

typedef struct gsi_plugin_entry {
    gs_type_def def; /* def.name points at name */
    char name[GGUFSAFE_PLUGIN_NAME_MAX + 1];
} gsi_plugin_entry;

typedef struct gsi_plugin_desc {
    char title[GGUFSAFE_PLUGIN_TITLE_MAX + 1];
    uint32_t abi_version;
    size_t n;
    gsi_plugin_entry entries[GGUFSAFE_PLUGIN_MAX_TYPES];
} gsi_plugin_desc;

/* Encodes the table a plugin returned into buf (GSI_PLUGIN_TABLE_MAX_BYTES): *len set, GS_OK; or
 * GS_E_INVALID_ARGUMENT with err saying what is wrong with the struct (a NULL pointer, a version
 * or size this library does not read, too many types, a string without its NUL within its
 * bound). Geometry is the parser's to check. */
gs_status gsi_plugin_table_encode(const gs_plugin_table *t, uint8_t *buf, size_t *len,
                                  gs_error *err);

/* Parses and checks bytes[0..len): every field bounded, the ABI version this library reads, the
 * title printable ASCII, and the types as one gs_type_defs_check set (no built-in id: a plugin
 * serves new types). With builtin_ok (the table of the ggml kernel host, which serves ggml's
 * decoders for the registry's types too), an id the registry knows is accepted when it is a
 * live, decodable type given with exactly the registry's name and geometry; its def then has
 * override_builtin set. GS_OK with *out filled, or GS_E_INVALID_ARGUMENT with err (offset: the
 * byte of the field that failed; context: the type's name when one is known). */
gs_status gsi_plugin_table_parse(const uint8_t *bytes, size_t len, bool builtin_ok,
                                 gsi_plugin_desc *out, gs_error *err);

#endif
