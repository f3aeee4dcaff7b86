/* fuzz_plugin_table: a decoder plugin's table as the reader gets it, bytes (from a child over
 * its pipe, or encoded from an in-process plugin's struct): parser/plugin_table.h. Accepted,
 * every type must pass gs_type_defs_check as one set and encoding the parsed table again must
 * give back exactly the input; refused, the reason must be set. The same bytes are parsed once
 * more as the ggml kernel host's table (built-in ids allowed with the registry's name and
 * geometry): it accepts whatever the plain parse accepts, and each built-in entry it accepts
 * is the registry's. The trailer is not read. */
#include <string.h>

#include "fuzz_common.h"
#include "plugin_table.h"

static int never(int32_t type, const void *src, size_t src_bytes, float *dst, size_t n_elems)
{
    (void)type, (void)src, (void)src_bytes, (void)dst, (void)n_elems;
    return 1;
}

/* The kernel host's parse: a superset of the plain one; built-in entries are the registry's. */
static void parse_builtin_ok(const uint8_t *data, size_t size, bool plain_ok)
{
    static gsi_plugin_desc k;
    gs_error e;
    if (gsi_plugin_table_parse(data, size, true, &k, &e) != GS_OK) {
        FUZZ_ASSERT_MSG(!plain_ok, "the kernel host's parse refuses a table the plain one takes");
        FUZZ_ASSERT(e.status == GS_E_INVALID_ARGUMENT && e.detail[0] != '\0' && k.n == 0);
        return;
    }
    for (size_t i = 0; i < k.n; i++) {
        gs_type_info ti;
        const gs_type_def *def = &k.entries[i].def;
        const bool builtin = gs_type_get_info(def->id, &ti) == GS_OK;
        FUZZ_ASSERT(def->override_builtin == builtin);
        FUZZ_ASSERT(!builtin || (ti.decodable && ti.block_elems == def->block_elems &&
                                 ti.block_bytes == def->block_bytes &&
                                 strcmp(ti.name, def->name) == 0));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gsi_plugin_desc d;
    gs_error e;
    if (gsi_plugin_table_parse(data, size, false, &d, &e) != GS_OK) {
        FUZZ_ASSERT_MSG(e.status == GS_E_INVALID_ARGUMENT && e.detail[0] != '\0',
                        "refused with %s and no reason", gs_status_name(e.status));
        FUZZ_ASSERT(d.n == 0);
        parse_builtin_ok(data, size, false);
        return 0;
    }
    parse_builtin_ok(data, size, true);
    FUZZ_ASSERT(d.n >= 1 && d.n <= GGUFSAFE_PLUGIN_MAX_TYPES && d.title[0] != '\0');
    static gs_type_def defs[GGUFSAFE_PLUGIN_MAX_TYPES];
    static gs_plugin_type types[GGUFSAFE_PLUGIN_MAX_TYPES];
    for (size_t i = 0; i < d.n; i++) {
        defs[i] = d.entries[i].def;
        FUZZ_ASSERT(defs[i].name == d.entries[i].name);
        types[i] = (gs_plugin_type){defs[i].id, d.entries[i].name, defs[i].block_elems,
                                    defs[i].block_bytes, never};
    }
    FUZZ_ASSERT(gs_type_defs_check(defs, d.n, NULL) == GS_OK);
    gs_plugin_table t = {d.abi_version, sizeof t, d.title, d.n, types};
    static uint8_t enc[GSI_PLUGIN_TABLE_MAX_BYTES];
    size_t len = 0;
    FUZZ_ASSERT(gsi_plugin_table_encode(&t, enc, &len, &e) == GS_OK);
    FUZZ_ASSERT_MSG(len == size && memcmp(enc, data, size) == 0,
                    "the table encodes to %zu bytes, not the %zu it was parsed from", len, size);
    return 0;
}
