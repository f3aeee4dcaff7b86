/* gs_dequantize (public) and gsi_decode_blocks (the internal decode entry): type and size
 * checks in front of the active path's decoder (dispatch.c). */
#include "checked_math.h"
#include "decode.h"
#include "dispatch.h"
#include "type_registry.h"

/* The status for a type that has no decoder, or GS_OK when it has one. */
static gs_status decodable_status(const gsi_type_row *row)
{
    if (row == NULL) {
        return GS_E_UNKNOWN_TENSOR_TYPE;
    }
    if (row->status == GS_TYPE_REMOVED) {
        return GS_E_REMOVED_TENSOR_TYPE;
    }
    if (!gsi_type_is_usable(row)) {
        return GS_E_UNKNOWN_TENSOR_TYPE;
    }
    return row->decodable ? GS_OK : GS_E_NOT_DECODABLE;
}

gs_status gsi_decode_sizes(const gsi_type_row *row, const void *src, size_t src_bytes,
                           const float *dst, size_t n_elems, size_t *n_blocks)
{
    if ((src == NULL && src_bytes != 0) || (dst == NULL && n_elems != 0)) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (n_elems % row->block_elems != 0) {
        return GS_E_SIZE_MISMATCH;
    }
    *n_blocks = n_elems / row->block_elems;
    size_t need;
    /* Detect and prevent integer overflow */
    if (gsi_checked_mul_size(*n_blocks, row->block_bytes, &need) || need != src_bytes) {
        return GS_E_SIZE_MISMATCH;
    }
    return GS_OK;
}

gs_status gsi_decode_blocks(int32_t type, const uint8_t *src, float *dst, size_t n_blocks)
{
    const gs_status st = decodable_status(gsi_type_lookup(type));
    if (st != GS_OK) {
        return st;
    }
    /* Before the empty-input shortcut: while the requested path cannot run, every decode
     * says so, whatever its size. */
    gsi_decoder d;
    const gs_status kst = gsi_active_decoder(type, &d);
    if (kst != GS_OK) {
        return kst;
    }
    if (n_blocks == 0) {
        return GS_OK;
    }
    if (src == NULL || dst == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (d.ggml != NULL) {
        /* ggml counts elements (int64_t); n_blocks * block_elems is a caller-checked size */
        size_t n_elems;
        if (gsi_checked_mul_size(n_blocks, gsi_type_lookup(type)->block_elems, &n_elems) ||
            n_elems > (size_t)INT64_MAX) {
            return GS_E_SIZE_MISMATCH;
        }
        d.ggml(src, dst, (int64_t)n_elems);
        return GS_OK;
    }
    if (d.fn == NULL) {
        return GS_E_INTERNAL; /* the registry says decodable but no decoder is wired */
    }
    d.fn(src, dst, n_blocks);
    return GS_OK;
}

gs_status gs_dequantize(gs_type type, const void *src, size_t src_bytes, float *dst,
                        size_t n_elems)
{
    const gsi_type_row *row = gsi_type_lookup((int32_t)type);
    const gs_status st = decodable_status(row);
    if (st != GS_OK) {
        return st;
    }
    size_t n_blocks;
    const gs_status sst = gsi_decode_sizes(row, src, src_bytes, dst, n_elems, &n_blocks);
    if (sst != GS_OK) {
        return sst;
    }
    return gsi_decode_blocks((int32_t)type, src, dst, n_blocks);
}
