/* fuzz_utf8: UTF-8 validation, the SIMD path (AVX2, for ranges of 64 bytes and more) against
 * the scalar validator and against an independent decoder of code points (fuzz_utf8_ok), on the
 * payload and on each of its suffixes from the first 40 bytes (every alignment of the 32-byte
 * blocks). All three must agree. The trailer is not read. */
#include "fuzz_common.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (size_t k = 0; k <= size && k <= 40; k++) {
        const uint8_t *s = data + k;
        const size_t n = size - k;
        const bool decoded = fuzz_utf8_ok(s, n);
        const bool scalar = gsi_utf8_valid_scalar(s, n);
        const bool dispatched = gsi_utf8_valid(s, n);
        FUZZ_ASSERT_MSG(scalar == decoded && dispatched == decoded,
                        "suffix %zu of %zu bytes: decoder %d, scalar %d, dispatched %d", k, size,
                        decoded, scalar, dispatched);
    }
    return 0;
}
