/* fuzz_type_spec: the command line's caller-defined type (--type ID:NAME:BLOCK_ELEMENTS:
 * BLOCK_BYTES[:override], cli/common/type_spec.h) parsed from the payload, which need not be
 * NUL-terminated. Accepted, the definition must pass gs_type_defs_check, its fields must be
 * within their bounds, and printing it back must parse to the same definition; refused, the
 * reason must be a non-empty line. The trailer is not read. */
#include <stdio.h>
#include <string.h>

#include "fuzz_common.h"
#include "type_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cli_type_spec s;
    char why[GS_ERROR_TEXT_MAX];
    why[0] = '\0';
    const bool ok = cli_type_spec_parse((const char *)data, size, &s, why, sizeof why);
    if (!ok) {
        FUZZ_ASSERT_MSG(why[0] != '\0' && strchr(why, '\n') == NULL, "refused without a reason");
        return 0;
    }
    FUZZ_ASSERT(s.def.name == s.name);
    FUZZ_ASSERT(gs_type_defs_check(&s.def, 1, NULL) == GS_OK);
    FUZZ_ASSERT(s.def.id >= 0 && s.def.block_elems >= 1 &&
                s.def.block_elems <= GS_TYPE_DEF_MAX_BLOCK_ELEMS && s.def.block_bytes >= 1 &&
                s.def.block_bytes <= GS_TYPE_DEF_MAX_BLOCK_BYTES);
    FUZZ_ASSERT(strlen(s.name) >= 1 && strlen(s.name) <= GS_TYPE_NAME_MAX);
    char again[160];
    int n = snprintf(again, sizeof again, "%d:%s:%u:%u%s", (int)s.def.id, s.name,
                     s.def.block_elems, s.def.block_bytes,
                     s.def.override_builtin ? ":override" : "");
    FUZZ_ASSERT(n > 0 && (size_t)n < sizeof again);
    cli_type_spec t;
    FUZZ_ASSERT_MSG(cli_type_spec_parse(again, (size_t)n, &t, why, sizeof why),
                    "its own form '%s' is refused: %s", again, why);
    FUZZ_ASSERT(t.def.id == s.def.id && t.def.block_elems == s.def.block_elems &&
                t.def.block_bytes == s.def.block_bytes &&
                t.def.override_builtin == s.def.override_builtin && strcmp(t.name, s.name) == 0);
    return 0;
}
