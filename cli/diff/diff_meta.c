#include "diff_meta.h"

#include <stdlib.h>
#include <string.h>

#include "api.h"

/* Bytes compared at a time: a vocabulary array can be tens of megabytes. */
#define COMPARE_CHUNK 65536u

static bool is_split_key(const gs_kv_info *kv)
{
    static const char *const keys[] = {"split.no", "split.count", "split.tensors.count"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        if (kv->key.len == strlen(keys[k]) && memcmp(kv->key.ptr, keys[k], kv->key.len) == 0) {
            return true;
        }
    }
    return false;
}

static gs_status push(diff_kv_list *l, diff_kv item)
{
    if (!cli_reserve((void **)&l->items, &l->cap, l->n + 1, sizeof *l->items)) {
        return GS_E_NO_MEMORY;
    }
    l->items[l->n++] = item;
    return GS_OK;
}

/* Where the first of n bytes at pa (in a) and pb (in b) differ: *at = n when they are equal. */
static gs_status first_byte_diff(const gs_file *a, uint64_t pa, const gs_file *b, uint64_t pb,
                                 uint64_t n, uint64_t *at)
{
    uint8_t *ba = malloc(COMPARE_CHUNK), *bb = malloc(COMPARE_CHUNK);
    gs_status st = ba != NULL && bb != NULL ? GS_OK : GS_E_NO_MEMORY;
    *at = n;
    for (uint64_t done = 0; done < n && st == GS_OK;) {
        size_t len = n - done < COMPARE_CHUNK ? (size_t)(n - done) : COMPARE_CHUNK;
        st = gs_file_read(a, pa + done, ba, len);
        if (st == GS_OK) {
            st = gs_file_read(b, pb + done, bb, len);
        }
        if (st == GS_OK && memcmp(ba, bb, len) != 0) {
            size_t k = 0;
            while (ba[k] == bb[k]) {
                k++;
            }
            *at = done + k;
            break;
        }
        done += len;
    }
    free(ba);
    free(bb);
    return st;
}

static unsigned elem_size(gs_value_type t)
{
    switch (t) {
    case GS_VALUE_U8:
    case GS_VALUE_I8:
    case GS_VALUE_BOOL:
        return 1;
    case GS_VALUE_U16:
    case GS_VALUE_I16:
        return 2;
    case GS_VALUE_U32:
    case GS_VALUE_I32:
    case GS_VALUE_F32:
        return 4;
    case GS_VALUE_U64:
    case GS_VALUE_I64:
    case GS_VALUE_F64:
        return 8;
    case GS_VALUE_STRING:
    case GS_VALUE_ARRAY:
        break;
    }
    return 0;
}

/* The first element where two arrays of one element type differ (the shorter count when one is
 * a prefix of the other). */
static gs_status first_element_diff(const gs_file *a, size_t ia, const gs_kv_info *ka,
                                    const gs_file *b, size_t ib, const gs_kv_info *kb,
                                    uint64_t *out)
{
    uint64_t n = ka->count < kb->count ? ka->count : kb->count;
    unsigned size = elem_size(ka->elem_type);
    if (size > 0) {
        uint64_t at;
        gs_status st = first_byte_diff(a, ka->value_offset, b, kb->value_offset, n * size, &at);
        *out = at / size;
        return st;
    }
    for (uint64_t e = 0; e < n; e++) {
        gs_str sa, sb;
        gs_status st = gs_kv_get_array_string(a, ia, e, &sa);
        if (st == GS_OK) {
            st = gs_kv_get_array_string(b, ib, e, &sb);
        }
        if (st != GS_OK) {
            return st;
        }
        if (sa.len != sb.len || memcmp(sa.ptr, sb.ptr, sa.len) != 0) {
            *out = e;
            return GS_OK;
        }
    }
    *out = n;
    return GS_OK;
}

/* Compares A's KV ia with B's KV ib; appends a "changed" entry when they differ. */
static gs_status compare_values(const gs_file *a, size_t ia, const gs_kv_info *ka,
                                const gs_file *b, size_t ib, const gs_kv_info *kb,
                                diff_kv_list *out)
{
    diff_kv item = {DIFF_KV_CHANGED, ia, ib, false, 0};
    bool same_shape = ka->type == kb->type && ka->elem_type == kb->elem_type;
    if (same_shape && ka->count == kb->count) {
        /* The value's wire bytes: after the type id, or after an array's header. */
        uint64_t na = ka->offset + ka->size - ka->value_offset;
        uint64_t nb = kb->offset + kb->size - kb->value_offset;
        if (na == nb) {
            uint64_t at;
            gs_status st = first_byte_diff(a, ka->value_offset, b, kb->value_offset, na, &at);
            if (st != GS_OK || at == na) {
                return st;
            }
        }
    }
    if (same_shape && ka->type == GS_VALUE_ARRAY) {
        gs_status st = first_element_diff(a, ia, ka, b, ib, kb, &item.first_diff);
        if (st != GS_OK) {
            return st;
        }
        item.has_first_diff = true;
    }
    out->changed++;
    return push(out, item);
}

gs_status diff_metadata(const gs_file *a, bool a_split, const gs_file *b, bool b_split,
                        diff_kv_list *out)
{
    memset(out, 0, sizeof *out);
    gs_status st = GS_OK;
    /* Pass 0: only in A; pass 1: only in B; pass 2: in both, changed. */
    for (int pass = 0; pass < 3 && st == GS_OK; pass++) {
        const gs_file *self = pass == 1 ? b : a;
        const gs_file *other = pass == 1 ? a : b;
        bool self_split = pass == 1 ? b_split : a_split;
        bool other_split = pass == 1 ? a_split : b_split;
        for (size_t i = 0; i < gs_kv_count(self) && st == GS_OK; i++) {
            gs_kv_info kv, ko;
            size_t j;
            st = gs_kv_info_at(self, i, &kv);
            if (st != GS_OK || (self_split && is_split_key(&kv))) {
                continue;
            }
            bool found = gs_kv_find_n(other, kv.key.ptr, kv.key.len, &j) == GS_OK &&
                         gs_kv_info_at(other, j, &ko) == GS_OK &&
                         !(other_split && is_split_key(&ko));
            if (pass < 2 && !found) {
                diff_kv item = {pass == 0 ? DIFF_KV_ONLY_A : DIFF_KV_ONLY_B, pass == 0 ? i : 0,
                                pass == 1 ? i : 0, false, 0};
                if (pass == 0) {
                    out->only_a++;
                } else {
                    out->only_b++;
                }
                st = push(out, item);
            } else if (pass == 2 && found) {
                st = compare_values(a, i, &kv, b, j, &ko, out);
            }
        }
    }
    if (st != GS_OK) {
        diff_kv_list_free(out);
    }
    return st;
}

void diff_kv_list_free(diff_kv_list *l)
{
    free(l->items);
    memset(l, 0, sizeof *l);
}
