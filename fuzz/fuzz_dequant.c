/* fuzz_dequant: open, then decode every tensor through the file API within an output budget
 * (BUDGET_ELEMS floats per input, in chunks of at most CHUNK_ELEMS via
 * gs_tensor_dequantize_range). Oracles:
 *   - a tensor of an open file always decodes (GS_OK) when its type is decodable, and says
 *     GS_E_NOT_DECODABLE otherwise; out-of-range and misaligned requests get their statuses;
 *   - the first chunk equals gs_dequantize on the tensor's bytes, the first row equals
 *     gs_tensor_dequantize_rows, and a small tensor decoded whole equals its chunks;
 *   - F32, F16 and BF16 equal an independent conversion here (under the NaN rule).
 *
 * Trailer (fuzz_common.h): tail[0] bit 0: lenient profile; bit 1: force the scalar path (else
 * the best path this CPU has); tail[1]: blocks per chunk (1 + tail[1] * 4, capped). */
#include "fuzz_common.h"
#include "le_load.h"

#define BUDGET_ELEMS (4u << 20)
#define CHUNK_ELEMS (64u << 10)

/* IEEE half to float, by value: an independent reference for F16. */
static float f16_reference(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h >> 15) << 31;
    const uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | man << 13; /* inf, NaN */
    } else if (exp != 0) {
        bits = sign | (exp + 112) << 23 | man << 13;
    } else if (man == 0) {
        bits = sign;
    } else { /* subnormal half: man * 2^-24, exact in float */
        float v = (float)man * 0x1p-24f;
        memcpy(&bits, &v, 4);
        bits |= sign;
    }
    float out;
    memcpy(&out, &bits, 4);
    return out;
}

/* The plain float types, element by element from the bytes. */
static void check_float_type(gs_type type, const uint8_t *src, const float *out, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        uint32_t want;
        if (type == GS_TYPE_F32) {
            want = gsi_load_u32le(src + 4 * k);
        } else if (type == GS_TYPE_BF16) {
            want = (uint32_t)gsi_load_u16le(src + 2 * k) << 16;
        } else {
            float f = f16_reference(gsi_load_u16le(src + 2 * k));
            memcpy(&want, &f, 4);
        }
        float w;
        memcpy(&w, &want, 4);
        FUZZ_ASSERT_MSG(fuzz_canonical_bits(out[k]) == fuzz_canonical_bits(w),
                        "%s element %zu: got 0x%08x, want 0x%08x", gs_type_name(type), k,
                        fuzz_canonical_bits(out[k]), fuzz_canonical_bits(w));
    }
}

static bool same_bits(const float *a, const float *b, size_t n)
{
    return n == 0 || memcmp(a, b, n * sizeof *a) == 0;
}

/* Decodes tensor i in chunks while *budget (elements) lasts, checking every chunk. */
static void decode_tensor(const gs_file *f, size_t i, uint32_t chunk_blocks, float *out,
                          float *ref, uint64_t *budget)
{
    gs_tensor_info t;
    FUZZ_ASSERT(gs_tensor_info_at(f, i, &t) == GS_OK);
    gs_type_info ti;
    FUZZ_ASSERT(gs_type_get_info(t.type, &ti) == GS_OK);
    if (!ti.decodable) {
        FUZZ_ASSERT(gs_tensor_dequantize_range(f, i, 0, out, 0) == GS_E_NOT_DECODABLE);
        return;
    }
    const uint64_t total = t.n_elements;
    /* misplaced and out-of-range requests */
    FUZZ_ASSERT(gs_tensor_dequantize_range(f, i, total, out, ti.block_elems) ==
                GS_E_OUT_OF_RANGE);
    if (ti.block_elems > 1) {
        FUZZ_ASSERT(gs_tensor_dequantize_range(f, i, 1, out, 0) ==
                    (total >= 1 ? GS_E_SIZE_MISMATCH : GS_E_OUT_OF_RANGE));
    }

    uint64_t per_chunk = (uint64_t)chunk_blocks * ti.block_elems;
    while (per_chunk > CHUNK_ELEMS) {
        per_chunk -= ti.block_elems;
    }
    for (uint64_t at = 0; at < total && *budget > 0;) {
        uint64_t n = total - at < per_chunk ? total - at : per_chunk;
        if (n > *budget) {
            n = *budget - *budget % ti.block_elems;
            if (n == 0) {
                *budget = 0;
                break;
            }
        }
        gs_status st = gs_tensor_dequantize_range(f, i, at, out, (size_t)n);
        FUZZ_ASSERT_MSG(st == GS_OK, "tensor %zu (%s) elements %llu+%llu: %s", i,
                        gs_type_name(t.type), (unsigned long long)at, (unsigned long long)n,
                        gs_status_name(st));
        const uint8_t *src = (const uint8_t *)t.data + at / ti.block_elems * ti.block_bytes;
        const size_t src_bytes = (size_t)(n / ti.block_elems * ti.block_bytes);
        if (t.type == GS_TYPE_F32 || t.type == GS_TYPE_F16 || t.type == GS_TYPE_BF16) {
            check_float_type(t.type, src, out, (size_t)n);
        }
        if (at == 0) {
            /* the same bytes through the raw-block API */
            FUZZ_ASSERT(gs_dequantize(t.type, src, src_bytes, ref, (size_t)n) == GS_OK);
            FUZZ_ASSERT_MSG(same_bits(out, ref, (size_t)n), "tensor %zu: range != gs_dequantize",
                            i);
            /* the first row through the row API */
            if (t.ne[0] > 0 && t.ne[0] <= n) {
                FUZZ_ASSERT(gs_tensor_dequantize_rows(f, i, 0, 1, ref, (size_t)t.ne[0]) == GS_OK);
                FUZZ_ASSERT_MSG(same_bits(out, ref, (size_t)t.ne[0]), "tensor %zu: row 0", i);
            }
            /* the whole tensor, when it fits in one chunk */
            if (n == total) {
                FUZZ_ASSERT(gs_tensor_dequantize(f, i, ref, (size_t)total) == GS_OK);
                FUZZ_ASSERT_MSG(same_bits(out, ref, (size_t)total), "tensor %zu: whole", i);
            }
        }
        at += n;
        *budget -= n;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_input in = fuzz_split(data, size);
    gs_options o;
    fuzz_options(&o, (in.tail[0] & 1) ? GS_PROFILE_LENIENT : GS_PROFILE_STRICT);
    /* Set every run, so no run inherits another's choice. */
    const gs_kernel kernel = (in.tail[0] & 2) ? GS_KERNEL_SCALAR : GS_KERNEL_AUTO;
    FUZZ_ASSERT(gs_set_kernel(kernel) == GS_OK);

    gs_file *f = NULL;
    gs_status st = gs_open_memory(in.data, in.size, &o, &f, NULL);
    FUZZ_ASSERT(fuzz_status_known(st) && st != GS_E_INTERNAL);
    if (st != GS_OK) {
        return 0;
    }
    float *out = malloc(CHUNK_ELEMS * sizeof *out);
    float *ref = malloc(CHUNK_ELEMS * sizeof *ref);
    FUZZ_ASSERT(out != NULL && ref != NULL);
    uint64_t budget = BUDGET_ELEMS;
    const uint32_t chunk_blocks = 1u + in.tail[1] * 4u;
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        decode_tensor(f, i, chunk_blocks, out, ref, &budget);
    }
    free(ref);
    free(out);
    gs_close(f);
    FUZZ_ASSERT(gs_set_kernel(GS_KERNEL_AUTO) == GS_OK);
    return 0;
}
