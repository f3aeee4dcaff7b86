/* What one manifest may hold, and the check that hash never writes more: the manifest reader's
 * bounds come from the limits every file is opened with (gs_options_init's defaults, which hash
 * and verify use), so each file the reader accepts under either profile has a manifest that
 * verify can read back, and a file or set beyond them is refused before its data is read. */
#include "api.h"
#include "cli_source.h"
#include "manifest.h"

void mf_limits_default(mf_limits *l)
{
    gs_options o;
    gs_options_init(&o);
    /* the longest line: "tensor", a digest, a type, a shape and a name of the longest length
     * the reader accepts with every byte escaped, four output bytes each */
    l->max_line = 4 * o.limits.max_string_length + MF_LINE_OVERHEAD;
    l->max_part_value_bytes = MF_PART_VALUE_BYTES;
    l->max_part_entries = o.limits.max_kv_count + o.limits.max_tensor_count;
    l->max_entries = 2 * l->max_part_entries;
    l->max_name_bytes = o.limits.max_metadata_memory;
}

uint64_t mf_escaped_len(const void *raw, size_t n)
{
    const uint8_t *s = raw;
    uint64_t len = 0;
    for (size_t i = 0; i < n; i++) {
        len += mf_byte_literal(s[i]) ? 1 : 4;
    }
    return len;
}

/* One name's share: its escaped length must fit a line, and all of them the names' budget. */
static gs_status add_name(const mf_limits *l, gs_str name, size_t part, uint64_t *total,
                          gs_error *err)
{
    uint64_t len = mf_escaped_len(name.ptr, name.len);
    if (len > l->max_line - MF_LINE_OVERHEAD) {
        return gsi_fail(err, GS_E_LIMIT_STRING_LENGTH, 0, GS_CONTEXT_NONE, NULL, 0,
                        "manifest: a name of part %zu is %llu bytes escaped; a line holds %llu",
                        part + 1, (unsigned long long)len,
                        (unsigned long long)(l->max_line - MF_LINE_OVERHEAD));
    }
    *total += len;
    if (*total > l->max_name_bytes) {
        return gsi_fail(err, GS_E_LIMIT_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0,
                        "manifest: names of %llu bytes escaped by part %zu; it holds %llu (hash "
                        "each part with --part-only)",
                        (unsigned long long)*total, part + 1,
                        (unsigned long long)l->max_name_bytes);
    }
    return GS_OK;
}

gs_status mf_check_fits(const cli_source *src, const mf_limits *limits, gs_error *err)
{
    mf_limits l;
    if (limits != NULL) {
        l = *limits;
    } else {
        mf_limits_default(&l);
    }
    uint64_t entries = 0, name_bytes = 0;
    gs_status st = GS_OK;
    for (size_t p = 0; p < cli_source_parts(src) && st == GS_OK; p++) {
        const gs_file *f = cli_source_part(src, p);
        uint64_t in_part = (uint64_t)gs_kv_count(f) + gs_tensor_count(f);
        entries += in_part;
        if (in_part > l.max_part_entries || entries > l.max_entries) {
            return gsi_fail(err, GS_E_LIMIT_TENSOR_COUNT, 0, GS_CONTEXT_NONE, NULL, 0,
                            "manifest: %llu entries by part %zu; it holds %llu a part, %llu in "
                            "all (hash each part with --part-only)",
                            (unsigned long long)entries, p + 1,
                            (unsigned long long)l.max_part_entries,
                            (unsigned long long)l.max_entries);
        }
        for (size_t i = 0; i < gs_kv_count(f) && st == GS_OK; i++) {
            gs_kv_info kv;
            if (gs_kv_info_at(f, i, &kv) == GS_OK) {
                st = add_name(&l, kv.key, p, &name_bytes, err);
            }
        }
        for (size_t i = 0; i < gs_tensor_count(f) && st == GS_OK; i++) {
            gs_tensor_info t;
            if (gs_tensor_info_at(f, i, &t) == GS_OK) {
                st = add_name(&l, t.name, p, &name_bytes, err);
            }
        }
    }
    return st;
}
