#include "key_grammar.h"

#include <string.h>

#include "utf8.h"

/* [a-z0-9_] */
static bool is_key_char(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

gs_status gsi_check_key(const uint8_t *key, uint64_t len, bool strict)
{
    if (len == 0) {
        return GS_E_EMPTY_KEY;
    }
    if (memchr(key, 0, (size_t)len) != NULL) {
        return GS_E_KEY_HAS_NUL;
    }
    if (!strict) {
        return GS_OK;
    }
    if (len > GSI_MAX_KEY_BYTES) {
        return GS_E_BAD_KEY;
    }
    /* [a-z0-9_]+(\.[a-z0-9_]+)* : no empty segment, no leading or trailing dot. */
    bool segment_empty = true;
    for (uint64_t i = 0; i < len; i++) {
        uint8_t c = key[i];
        if (c == '.') {
            if (segment_empty) {
                return GS_E_BAD_KEY;
            }
            segment_empty = true;
        } else if (is_key_char(c)) {
            segment_empty = false;
        } else {
            return GS_E_BAD_KEY;
        }
    }
    return segment_empty ? GS_E_BAD_KEY : GS_OK;
}

gs_status gsi_check_tensor_name(const uint8_t *name, uint64_t len, bool strict)
{
    if (len == 0) {
        return GS_E_TENSOR_NAME_EMPTY;
    }
    if (memchr(name, 0, (size_t)len) != NULL) {
        return GS_E_TENSOR_NAME_HAS_NUL;
    }
    if (!strict) {
        return GS_OK;
    }
    if (len > GSI_MAX_NAME_BYTES) {
        return GS_E_TENSOR_NAME_TOO_LONG;
    }
    if (!gsi_utf8_valid(name, (size_t)len)) {
        return GS_E_INVALID_UTF8;
    }
    return GS_OK;
}
