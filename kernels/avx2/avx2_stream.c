/* Large outputs on the AVX2 path: decode a chunk into an L1-resident scratch buffer, then copy
 * it to the destination with non-temporal stores. An ordinary store first reads the line it
 * writes (read-for-ownership), so streaming 4-byte floats to memory moves 8 bytes per element;
 * non-temporal stores move 4. They also push the output out of the caches, which is why only
 * outputs of GSI_STREAM_MIN_BYTES and more take this path (measured: kernels/bench). The copy
 * moves bits unchanged, so the output equals the direct decode. */
#include <stdint.h>

#include "avx2_util.h"
#include "decode.h"
#include "decode_avx2.h"

/* Floats per chunk: 16 KiB of output, so the scratch stays in L1 beside the input being read.
 * A multiple of every block size (1..256) and of the vector width. */
#define CHUNK_ELEMS 4096

/* Copies n floats (n a multiple of 8, at least 8) from `in` to `out`, which have the same
 * address modulo 32: the aligned middle with streaming stores, the unaligned ends with one
 * ordinary store each (overlapping the middle with the same values). */
static void copy_streaming(float *out, const float *in, size_t n)
{
    const size_t head = ((32u - (uintptr_t)out % 32u) % 32u) / sizeof(float);
    size_t i = head;
    if (head != 0) {
        _mm256_storeu_ps(out, _mm256_loadu_ps(in));
    }
    for (; i + 8 <= n; i += 8) {
        _mm256_stream_ps(out + i, _mm256_load_ps(in + i));
    }
    if (i < n) {
        _mm256_storeu_ps(out + n - 8, _mm256_loadu_ps(in + n - 8));
    }
}

void gsi_avx2_decode(gsi_avx2_rows_fn rows, const uint8_t *src, float *dst, size_t n_blocks,
                     size_t block_bytes, size_t block_elems)
{
    if (n_blocks < GSI_STREAM_MIN_BYTES / sizeof(float) / block_elems) {
        rows(src, dst, n_blocks);
        return;
    }
    /* The scratch starts at the destination's offset within 32 bytes, so that its loads and
     * the destination's streaming stores are aligned together. */
    _Alignas(32) float scratch[CHUNK_ELEMS + 8];
    float *const buf = scratch + ((uintptr_t)dst % 32u) / sizeof(float);
    const size_t per_chunk = CHUNK_ELEMS / block_elems;
    size_t b = 0;
    for (; b + per_chunk <= n_blocks; b += per_chunk) {
        rows(src + b * block_bytes, buf, per_chunk);
        copy_streaming(dst + b * block_elems, buf, CHUNK_ELEMS);
    }
    _mm_sfence(); /* the streaming stores are weakly ordered: finish them before returning */
    rows(src + b * block_bytes, dst + b * block_elems, n_blocks - b);
}
