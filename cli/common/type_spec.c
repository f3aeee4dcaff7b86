#include "type_spec.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* One decimal field of spec[*pos..len) up to the next ':' or the end: digits only, at most max.
 * Advances *pos past the field (not past the ':'). */
static bool number(const char *spec, size_t len, size_t *pos, uint64_t max, uint64_t *out)
{
    size_t i = *pos;
    uint64_t v = 0;
    if (i >= len || spec[i] < '0' || spec[i] > '9') {
        return false;
    }
    for (; i < len && spec[i] != ':'; i++) {
        char c = spec[i];
        if (c < '0' || c > '9') {
            return false;
        }
        uint64_t d = (uint64_t)(c - '0');
        if (v > (max - d) / 10) {
            return false; /* more than max: overflow is refused, not wrapped */
        }
        v = v * 10 + d;
    }
    *pos = i;
    *out = v;
    return true;
}

static bool colon(const char *spec, size_t len, size_t *pos)
{
    if (*pos < len && spec[*pos] == ':') {
        (*pos)++;
        return true;
    }
    return false;
}

static bool fail(char *why, size_t cap, const char *what)
{
    if (why != NULL && cap > 0) {
        snprintf(why, cap, "%s", what);
    }
    return false;
}

bool cli_type_spec_parse(const char *spec, size_t len, cli_type_spec *out, char *why,
                         size_t why_cap)
{
    memset(out, 0, sizeof *out);
    if (spec == NULL) {
        return fail(why, why_cap, "no type definition");
    }
    size_t pos = 0;
    uint64_t id, elems, bytes;
    if (!number(spec, len, &pos, INT32_MAX, &id) || !colon(spec, len, &pos)) {
        return fail(why, why_cap, "ID must be decimal digits, 0 to 2147483647, followed by ':'");
    }
    size_t name_at = pos;
    while (pos < len && spec[pos] != ':') {
        pos++;
    }
    size_t name_len = pos - name_at;
    if (name_len == 0 || name_len > GS_TYPE_NAME_MAX) {
        return fail(why, why_cap, "NAME must be 1 to 63 bytes");
    }
    memcpy(out->name, spec + name_at, name_len);
    if (!colon(spec, len, &pos) || !number(spec, len, &pos, UINT32_MAX, &elems) ||
        !colon(spec, len, &pos)) {
        return fail(why, why_cap,
                    "BLOCK_ELEMENTS must be decimal digits, at most 4294967295, followed by ':'");
    }
    if (!number(spec, len, &pos, UINT32_MAX, &bytes)) {
        return fail(why, why_cap, "BLOCK_BYTES must be decimal digits, at most 4294967295");
    }
    bool override = false;
    if (pos < len) {
        static const char suffix[] = ":override";
        if (len - pos != sizeof suffix - 1 || memcmp(spec + pos, suffix, sizeof suffix - 1) != 0) {
            return fail(why, why_cap, "only ':override' may follow BLOCK_BYTES");
        }
        override = true;
    }
    out->def = (gs_type_def){.id = (int32_t)id,
                             .name = out->name,
                             .block_elems = (uint32_t)elems,
                             .block_bytes = (uint32_t)bytes,
                             .override_builtin = override};
    gs_error err;
    if (gs_type_defs_check(&out->def, 1, &err) != GS_OK) {
        return fail(why, why_cap, err.detail);
    }
    return true;
}
