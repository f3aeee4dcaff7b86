/* fuzz_decode_blocks: raw block bytes times type id, through the public gs_dequantize on every
 * decoder path this CPU runs (gs_set_kernel), whatever the active path is. Oracles:
 *   - every SIMD path gives the scalar path's bits under the NaN rule (every NaN is one value,
 *     everything else bit for bit);
 *   - on every path, decoding the blocks in two calls gives the bits of one call (no state
 *     across blocks, no dependence on where a call starts);
 *   - decoders read only their blocks and write only their elements (buffers are allocated to
 *     the byte, at an odd offset, so ASan sees any stray access and unaligned loads are used);
 *   - types without a decoder get the status the type registry implies, and wrong sizes get
 *     GS_E_SIZE_MISMATCH.
 *
 * Trailer (fuzz_common.h): tail[0] the type id (0..214: id modulo 43; above: ids outside the
 * table); tail[1] the source's byte offset (0..31); tail[2] where the second call starts (in
 * blocks); tail[3] the destination's offset in floats (0..7). */
#include "fuzz_common.h"

#define MAX_BLOCKS 256u

static int32_t pick_type(uint8_t b)
{
    static const int32_t outside[] = {-1, 43, 44, 63, 64, 255, 256, 1000, INT32_MAX, INT32_MIN};
    if (b < 5 * GS_TYPE_COUNT) {
        return b % GS_TYPE_COUNT;
    }
    return outside[(b - 5 * GS_TYPE_COUNT) % (sizeof outside / sizeof outside[0])];
}

/* The status gs_dequantize owes a type without a decoder, from the registry. */
static gs_status undecodable_status(const gs_type_info *ti)
{
    if (ti->status == GS_TYPE_UNKNOWN) {
        return GS_E_UNKNOWN_TENSOR_TYPE;
    }
    if (ti->status == GS_TYPE_REMOVED) {
        return GS_E_REMOVED_TENSOR_TYPE;
    }
    return GS_E_NOT_DECODABLE;
}

static void report_mismatch(const char *what, int32_t type, const gs_type_info *ti,
                            const uint8_t *src, const float *got, const float *want, size_t at)
{
    const size_t block = at / ti->block_elems;
    fprintf(stderr, "%s: %s block %zu element %zu: 0x%08x, want 0x%08x\nblock bytes:", what,
            gs_type_name(type), block, at % ti->block_elems, fuzz_canonical_bits(got[at]),
            fuzz_canonical_bits(want[at]));
    for (uint32_t k = 0; k < ti->block_bytes; k++) {
        fprintf(stderr, " %02x", src[block * ti->block_bytes + k]);
    }
    fputc('\n', stderr);
    fuzz_fail(__FILE__, __LINE__, "%s", what);
}

/* Decodes on the current path into out, whole and then in two calls split at block k. */
static void decode_on_path(int32_t type, const gs_type_info *ti, const uint8_t *src,
                           size_t n_blocks, size_t k, float *out, float *split)
{
    const size_t n = n_blocks * ti->block_elems, bytes = n_blocks * ti->block_bytes;
    gs_status st = gs_dequantize((gs_type)type, src, bytes, out, n);
    FUZZ_ASSERT_MSG(st == GS_OK, "%s on %s: %s", gs_type_name(type),
                    gs_kernel_name(gs_active_kernel(NULL)), gs_status_name(st));
    const size_t n1 = k * ti->block_elems, b1 = k * ti->block_bytes;
    FUZZ_ASSERT(gs_dequantize((gs_type)type, src, b1, split, n1) == GS_OK);
    FUZZ_ASSERT(gs_dequantize((gs_type)type, src + b1, bytes - b1, split + n1, n - n1) == GS_OK);
    const size_t d = fuzz_first_difference(out, split, n);
    if (d != n) {
        report_mismatch("two calls differ from one", type, ti, src, split, out, d);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_input in = fuzz_split(data, size);
    const int32_t type = pick_type(in.tail[0]);
    gs_type_info ti;
    (void)gs_type_get_info(type, &ti);
    float probe[1];
    if (!ti.decodable) {
        FUZZ_ASSERT(gs_dequantize((gs_type)type, in.data, 0, probe, 0) ==
                    undecodable_status(&ti));
        return 0;
    }
    FUZZ_ASSERT(ti.block_elems > 0 && ti.block_bytes > 0);
    size_t n_blocks = in.size / ti.block_bytes;
    if (n_blocks > MAX_BLOCKS) {
        n_blocks = MAX_BLOCKS;
    }
    const size_t n = n_blocks * ti.block_elems, bytes = n_blocks * ti.block_bytes;
    const size_t src_off = in.tail[1] & 31u, dst_off = in.tail[3] & 7u;
    const size_t k = n_blocks == 0 ? 0 : in.tail[2] % (n_blocks + 1);

    /* Buffers that end exactly where the data ends (ASan catches a stray byte), starting at
     * odd offsets. */
    uint8_t *src_buf = malloc(src_off + bytes > 0 ? src_off + bytes : 1);
    float *bufs[3];
    for (int b = 0; b < 3; b++) {
        bufs[b] = malloc((dst_off + n > 0 ? dst_off + n : 1) * sizeof(float));
        FUZZ_ASSERT(bufs[b] != NULL);
    }
    FUZZ_ASSERT(src_buf != NULL);
    uint8_t *src = src_buf + src_off;
    if (bytes > 0) {
        memcpy(src, in.data, bytes);
    }
    float *ref = bufs[0] + dst_off, *out = bufs[1] + dst_off, *split = bufs[2] + dst_off;

    /* sizes that are not whole blocks */
    if (n_blocks > 0) {
        FUZZ_ASSERT(gs_dequantize((gs_type)type, src, bytes - 1, out, n) == GS_E_SIZE_MISMATCH);
        if (ti.block_elems > 1) {
            FUZZ_ASSERT(gs_dequantize((gs_type)type, src, bytes, out, n - 1) ==
                        GS_E_SIZE_MISMATCH);
        }
    }

    FUZZ_ASSERT(gs_set_kernel(GS_KERNEL_SCALAR) == GS_OK);
    decode_on_path(type, &ti, src, n_blocks, k, ref, split);
    static const gs_kernel simd[] = {GS_KERNEL_AVX2, GS_KERNEL_NEON};
    for (size_t p = 0; p < sizeof simd / sizeof simd[0]; p++) {
        gs_status st = gs_set_kernel(simd[p]);
        if (st == GS_E_KERNEL_UNAVAILABLE) {
            continue; /* not this CPU or not this build */
        }
        FUZZ_ASSERT(st == GS_OK && gs_active_kernel(NULL) == simd[p]);
        decode_on_path(type, &ti, src, n_blocks, k, out, split);
        const size_t d = fuzz_first_difference(out, ref, n);
        if (d != n) {
            report_mismatch(gs_kernel_name(simd[p]), type, &ti, src, out, ref, d);
        }
    }
    FUZZ_ASSERT(gs_set_kernel(GS_KERNEL_AUTO) == GS_OK);

    for (int b = 0; b < 3; b++) {
        free(bufs[b]);
    }
    free(src_buf);
    return 0;
}
