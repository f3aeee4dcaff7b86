#include "parse.h"

#include "checked_math.h"

static const uint8_t gguf_magic[4] = {'G', 'G', 'U', 'F'};

static bool version_supported(uint32_t v)
{
    return v == 2 || v == 3;
}

gs_status gsi_parse_header(gsi_parser *p)
{
    gsi_cursor *c = &p->cur;
    uint64_t avail = gsi_cur_remaining(c);
    size_t cmp = avail < 4 ? (size_t)avail : 4;
    if (!gsi_cur_reach(c, cmp)) {
        return gsi_fail(p->err, GS_E_TRUNCATED, 0, GS_CONTEXT_HEADER, NULL, 0, "magic");
    }
    if (memcmp(c->base, gguf_magic, cmp) != 0) {
        return gsi_fail(p->err, GS_E_BAD_MAGIC, 0, GS_CONTEXT_HEADER, NULL, 0, "magic");
    }
    if (avail < 4) {
        return gsi_fail(p->err, GS_E_TRUNCATED, 0, GS_CONTEXT_HEADER, NULL, 0,
                        "file of %llu bytes ends inside the magic", (unsigned long long)avail);
    }
    c->pos = 4;

    uint32_t version;
    if (!gsi_cur_u32(c, &version)) {
        return gsi_fail(p->err, GS_E_TRUNCATED, 4, GS_CONTEXT_HEADER, NULL, 0, "version");
    }
    if (!version_supported(version)) {
        uint32_t swapped = __builtin_bswap32(version);
        if (swapped >= 1 && swapped <= 3) {
            return gsi_fail(p->err, GS_E_BYTE_SWAPPED, 4, GS_CONTEXT_HEADER, NULL, 0,
                            "version word 0x%08x is big-endian %u", version, swapped);
        }
        return gsi_fail(p->err, GS_E_UNSUPPORTED_VERSION, 4, GS_CONTEXT_HEADER, NULL, 0,
                        "version %u", version);
    }
    p->file->version = version;

    if (!gsi_cur_u64(c, &p->n_tensors_declared)) {
        return gsi_fail(p->err, GS_E_TRUNCATED, 8, GS_CONTEXT_HEADER, NULL, 0, "tensor count");
    }
    if (!gsi_cur_u64(c, &p->n_kv_declared)) {
        return gsi_fail(p->err, GS_E_TRUNCATED, 16, GS_CONTEXT_HEADER, NULL, 0, "key-value count");
    }

    /* Counts against what the remaining bytes could hold, before anything is allocated. */
    uint64_t rem = gsi_cur_remaining(c);
    uint64_t tensor_min;
    /* Detect and prevent integer overflow */
    if (gsi_checked_mul_u64(p->n_tensors_declared, GSI_MIN_TENSOR_INFO_BYTES, &tensor_min) ||
        tensor_min > rem) {
        return gsi_fail(p->err, GS_E_COUNT_EXCEEDS_FILE, 8, GS_CONTEXT_HEADER, NULL, 0,
                        "%llu tensor infos need at least %u bytes each; %llu remain",
                        (unsigned long long)p->n_tensors_declared, GSI_MIN_TENSOR_INFO_BYTES,
                        (unsigned long long)rem);
    }
    if (p->n_tensors_declared > p->limits->max_tensor_count) {
        return gsi_fail(p->err, GS_E_LIMIT_TENSOR_COUNT, 8, GS_CONTEXT_HEADER, NULL, 0,
                        "%llu tensors, limit %llu", (unsigned long long)p->n_tensors_declared,
                        (unsigned long long)p->limits->max_tensor_count);
    }
    uint64_t kv_min;
    /* Detect and prevent integer overflow */
    if (gsi_checked_mul_u64(p->n_kv_declared, GSI_MIN_KV_BYTES, &kv_min) ||
        kv_min > rem - tensor_min) {
        return gsi_fail(p->err, GS_E_COUNT_EXCEEDS_FILE, 16, GS_CONTEXT_HEADER, NULL, 0,
                        "%llu key-value pairs need at least %u bytes each; %llu remain",
                        (unsigned long long)p->n_kv_declared, GSI_MIN_KV_BYTES,
                        (unsigned long long)(rem - tensor_min));
    }
    if (p->n_kv_declared > p->limits->max_kv_count) {
        return gsi_fail(p->err, GS_E_LIMIT_KV_COUNT, 16, GS_CONTEXT_HEADER, NULL, 0,
                        "%llu key-value pairs, limit %llu", (unsigned long long)p->n_kv_declared,
                        (unsigned long long)p->limits->max_kv_count);
    }
    return GS_OK;
}
