#include "plugin_table.h"

#include <string.h>

#include "error.h"
#include "le_load.h"
#include "type_registry.h"

static void put_u32(uint8_t *buf, size_t *at, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++) {
        buf[(*at)++] = (uint8_t)(v >> (8 * i));
    }
}

/* The length of s, when its NUL comes within max bytes; false otherwise (or for NULL). */
static bool bounded_len(const char *s, size_t max, size_t *len)
{
    if (s == NULL) {
        return false;
    }
    for (size_t i = 0; i <= max; i++) {
        if (s[i] == '\0') {
            *len = i;
            return true;
        }
    }
    return false;
}

gs_status gsi_plugin_table_encode(const gs_plugin_table *t, uint8_t *buf, size_t *len,
                                  gs_error *err)
{
    if (t == NULL) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "the entry point returned no table");
    }
    if (t->abi_version != GGUFSAFE_PLUGIN_ABI_VERSION) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "plugin ABI version %u; this ggufsafe reads version %u", t->abi_version,
                        GGUFSAFE_PLUGIN_ABI_VERSION);
    }
    if (t->struct_size < sizeof *t) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "table struct_size %u, at least %zu", t->struct_size, sizeof *t);
    }
    if (t->n_types == 0 || t->n_types > GGUFSAFE_PLUGIN_MAX_TYPES || t->types == NULL) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "%zu types, 1 to %u", t->n_types, GGUFSAFE_PLUGIN_MAX_TYPES);
    }
    size_t title_len;
    if (!bounded_len(t->name, GGUFSAFE_PLUGIN_TITLE_MAX, &title_len)) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "the plugin's name is NULL or longer than %u bytes",
                        GGUFSAFE_PLUGIN_TITLE_MAX);
    }
    size_t at = 0;
    memcpy(buf, "GSPT", 4);
    at = 4;
    put_u32(buf, &at, t->abi_version);
    put_u32(buf, &at, (uint32_t)t->n_types);
    put_u32(buf, &at, (uint32_t)title_len);
    memcpy(buf + at, t->name, title_len);
    at += title_len;
    for (size_t i = 0; i < t->n_types; i++) {
        const gs_plugin_type *ty = &t->types[i];
        size_t name_len;
        if (!bounded_len(ty->name, GGUFSAFE_PLUGIN_NAME_MAX, &name_len)) {
            return gsi_fail(err, GS_E_INVALID_ARGUMENT, i, GS_CONTEXT_NONE, NULL, 0,
                            "type %zu (id %d): its name is NULL or longer than %u bytes", i,
                            (int)ty->id, GGUFSAFE_PLUGIN_NAME_MAX);
        }
        if (ty->decode == NULL) {
            return gsi_fail(err, GS_E_INVALID_ARGUMENT, i, GS_CONTEXT_NONE,
                            (const uint8_t *)ty->name, name_len,
                            "type %zu (id %d) has no decode function", i, (int)ty->id);
        }
        put_u32(buf, &at, (uint32_t)ty->id);
        put_u32(buf, &at, ty->block_elems);
        put_u32(buf, &at, ty->block_bytes);
        put_u32(buf, &at, (uint32_t)name_len);
        memcpy(buf + at, ty->name, name_len);
        at += name_len;
    }
    *len = at;
    return GS_OK;
}

/* A bounded reader over the table's bytes. */
typedef struct reader {
    const uint8_t *p;
    size_t len, at;
} reader;

static bool get_u32(reader *r, uint32_t *v)
{
    if (r->len - r->at < 4) {
        return false;
    }
    *v = gsi_load_u32le(r->p + r->at);
    r->at += 4;
    return true;
}

static gs_status short_table(gs_error *err, const reader *r, const char *what)
{
    return gsi_fail(err, GS_E_INVALID_ARGUMENT, r->at, GS_CONTEXT_NONE, NULL, 0,
                    "plugin table: %zu bytes end inside %s", r->len, what);
}

gs_status gsi_plugin_table_parse(const uint8_t *bytes, size_t len, bool builtin_ok,
                                 gsi_plugin_desc *out, gs_error *err)
{
    gsi_error_clear(err);
    memset(out, 0, sizeof *out);
    if (bytes == NULL && len > 0) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0, "no bytes");
    }
    reader r = {bytes, len, 0};
    if (len < 4 || memcmp(bytes, "GSPT", 4) != 0) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "plugin table: no GSPT magic");
    }
    r.at = 4;
    uint32_t version, n, title_len;
    if (!get_u32(&r, &version)) {
        return short_table(err, &r, "the ABI version");
    }
    if (version != GGUFSAFE_PLUGIN_ABI_VERSION) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 4, GS_CONTEXT_NONE, NULL, 0,
                        "plugin ABI version %u; this ggufsafe reads version %u", version,
                        GGUFSAFE_PLUGIN_ABI_VERSION);
    }
    out->abi_version = version;
    if (!get_u32(&r, &n)) {
        return short_table(err, &r, "the type count");
    }
    if (n == 0 || n > GGUFSAFE_PLUGIN_MAX_TYPES) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 8, GS_CONTEXT_NONE, NULL, 0,
                        "plugin table: %u types, 1 to %u", n, GGUFSAFE_PLUGIN_MAX_TYPES);
    }
    if (!get_u32(&r, &title_len)) {
        return short_table(err, &r, "the name length");
    }
    if (title_len == 0 || title_len > GGUFSAFE_PLUGIN_TITLE_MAX) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 12, GS_CONTEXT_NONE, NULL, 0,
                        "plugin table: a name of %u bytes, 1 to %u", title_len,
                        GGUFSAFE_PLUGIN_TITLE_MAX);
    }
    if (len - r.at < title_len) {
        return short_table(err, &r, "the name");
    }
    for (uint32_t i = 0; i < title_len; i++) {
        uint8_t c = bytes[r.at + i];
        if (c < 0x20 || c > 0x7e) {
            return gsi_fail(err, GS_E_INVALID_ARGUMENT, r.at + i, GS_CONTEXT_NONE, NULL, 0,
                            "plugin table: the name holds byte 0x%02x (printable ASCII only)", c);
        }
    }
    memcpy(out->title, bytes + r.at, title_len);
    r.at += title_len;
    gs_type_def defs[GGUFSAFE_PLUGIN_MAX_TYPES];
    for (uint32_t i = 0; i < n; i++) {
        gsi_plugin_entry *e = &out->entries[i];
        uint32_t id, elems, bsize, name_len;
        size_t entry_at = r.at;
        if (!get_u32(&r, &id) || !get_u32(&r, &elems) || !get_u32(&r, &bsize) ||
            !get_u32(&r, &name_len)) {
            return short_table(err, &r, "a type entry");
        }
        if (name_len == 0 || name_len > GGUFSAFE_PLUGIN_NAME_MAX || len - r.at < name_len) {
            return gsi_fail(err, GS_E_INVALID_ARGUMENT, entry_at + 12, GS_CONTEXT_NONE, NULL, 0,
                            "plugin table: type %u has a name of %u bytes (1 to %u, within the "
                            "table)",
                            i, name_len, GGUFSAFE_PLUGIN_NAME_MAX);
        }
        memcpy(e->name, bytes + r.at, name_len);
        if (memchr(e->name, '\0', name_len) != NULL) {
            return gsi_fail(err, GS_E_INVALID_ARGUMENT, r.at, GS_CONTEXT_NONE, NULL, 0,
                            "plugin table: type %u's name holds a NUL", i);
        }
        r.at += name_len;
        const gsi_type_row *row = builtin_ok ? gsi_type_lookup((int32_t)id) : NULL;
        if (row != NULL && (!gsi_type_is_usable(row) || !row->decodable ||
                            row->block_elems != elems || row->block_bytes != bsize ||
                            strcmp(row->name, e->name) != 0)) {
            return gsi_fail(err, GS_E_INVALID_ARGUMENT, entry_at, GS_CONTEXT_NONE,
                            (const uint8_t *)e->name, name_len,
                            "plugin table: type %u (id %u) is not the registry's %s (%u elements "
                            "in %u bytes)", i, id, row->name, row->block_elems, row->block_bytes);
        }
        e->def = (gs_type_def){.id = (int32_t)id,
                               .name = e->name,
                               .block_elems = elems,
                               .block_bytes = bsize,
                               .override_builtin = row != NULL};
        defs[i] = e->def;
    }
    if (r.at != len) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, r.at, GS_CONTEXT_NONE, NULL, 0,
                        "plugin table: %zu bytes after the last type", len - r.at);
    }
    gs_status st = gs_type_defs_check(defs, n, err);
    if (st != GS_OK) {
        return st; /* offset: the type's index; context: its name */
    }
    out->n = n;
    return GS_OK;
}
