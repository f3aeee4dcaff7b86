/* simd_diff [--quick] [PATH]: the SIMD decoders against the scalar reference, bit for bit
 * under the NaN rule (every NaN is 0x7FC00000; signed zeros, infinities and subnormals must
 * match).
 *
 * PATH (avx2, neon) is selected with gs_set_kernel; without it the path is the one
 * GGUFSAFE_KERNEL or auto-detection picks. The SIMD side decodes through gsi_decode_blocks,
 * the dispatcher's own entry, so the test also proves the routing; the scalar side calls
 * gsi_decoder_scalar directly. For every decodable type it runs these cases:
 *   random       random bytes (fixed seeds), scales included
 *   scales       every special value in every scale field (f16: +-0, smallest and largest
 *                subnormal, smallest normal, +-65504, +-Inf, quiet and signalling NaNs, +-1;
 *                Q8_K's f32 likewise; all 256 E8M0 / UE4M3 bytes; IQ1_M's scattered d)
 *   elements     F16/BF16: all 65536 patterns; F32: special and random bit patterns
 *   fill         all-0x00 and all-0xFF blocks, and 0x00/0xFF quants under normal scales
 *   lengths      1..N blocks (1..N elements for the plain types), the input ending at an
 *                unreadable page, the output followed and preceded by canaries
 *   misaligned   input at every offset 0..15, output at every float offset 0..7
 *   large        one output of GSI_STREAM_MIN_BYTES and more, misaligned (the path that may
 *                use non-temporal stores); --quick skips it (for slow emulators)
 * A plain C program (no Criterion): it also runs under qemu. It prints the first mismatch of
 * a failing case (type, block, element, both bit patterns) and ends with "N passed, N failed".
 * Exit status: 0 when all pass, 1 on a failure, 77 (skipped) when the path cannot run here,
 * 2 on a usage or system error. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "block_layout.h"
#include "decode.h"
#include "dispatch.h"
#include "ggufsafe.h"
#include "gsw_sha256.h"
#include "xorshift.h"

#define EXIT_SKIP 77
#define CANARY 0xa5a5a5a5u
#define N_LENGTHS 20 /* blocks 1..N_LENGTHS; elements 1..4*N_LENGTHS for the plain types */

static unsigned n_passed, n_failed;

/* ---- random bytes -------------------------------------------------------------------- */

static uint64_t rng_state;

static void seed(uint64_t s)
{
    rng_state = s * 0x9e3779b97f4a7c15u + 0x2545f4914f6cdd1du;
}

static uint32_t next_u32(void)
{
    return (uint32_t)(xorshift64_next(&rng_state) >> 32);
}

static void fill_random(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t)next_u32();
    }
}

/* ---- comparison ---------------------------------------------------------------------- */

static uint32_t raw_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* A type and what its blocks look like (geometry from the registry, fields from the formats). */
typedef struct type_case {
    int32_t type;
    gs_type_info info;
} type_case;

/* The first mismatch of a case, or none: true when `want` and `got` agree on every element. */
static bool same_bits(const type_case *tc, const char *what, const float *want, const float *got,
                      size_t n_elems)
{
    for (size_t e = 0; e < n_elems; e++) {
        if (gsw_nan_canonical_bits(want[e]) != gsw_nan_canonical_bits(got[e])) {
            printf("MISMATCH %s %s: block %zu element %zu: scalar 0x%08x, simd 0x%08x\n",
                   tc->info.name, what, e / tc->info.block_elems, e % tc->info.block_elems,
                   raw_bits(want[e]), raw_bits(got[e]));
            return false;
        }
    }
    return true;
}

/* Decodes n_blocks at src both ways (SIMD into got, which has `guard` canary floats on both
 * sides) and compares. */
static bool check_decode(const type_case *tc, const char *what, const uint8_t *src,
                         size_t n_blocks, float *want, float *got_base, size_t guard)
{
    const size_t n = n_blocks * tc->info.block_elems;
    float *got = got_base + guard;
    for (size_t i = 0; i < n + 2 * guard; i++) {
        const uint32_t c = CANARY;
        memcpy(&got_base[i], &c, sizeof c);
    }
    gsi_decoder_scalar(tc->type)(src, want, n_blocks);
    const gs_status st = gsi_decode_blocks(tc->type, src, got, n_blocks);
    if (st != GS_OK) {
        printf("FAIL %s %s: gsi_decode_blocks returned %s\n", tc->info.name, what,
               gs_status_name(st));
        return false;
    }
    for (size_t i = 0; i < guard; i++) {
        if (raw_bits(got_base[i]) != CANARY || raw_bits(got[n + i]) != CANARY) {
            printf("FAIL %s %s: wrote outside the output (%zu blocks)\n", tc->info.name, what,
                   n_blocks);
            return false;
        }
    }
    return same_bits(tc, what, want, got, n);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n == 0 ? 1 : n);
    if (p == NULL) {
        fprintf(stderr, "simd_diff: out of memory\n");
        exit(2);
    }
    return p;
}

/* Decodes `blocks` (n_blocks) both ways and records one passed or failed case. */
static void run_case(const type_case *tc, const char *what, const uint8_t *blocks,
                     size_t n_blocks)
{
    const size_t n = n_blocks * tc->info.block_elems;
    float *want = xmalloc(n * sizeof(float));
    float *got = xmalloc((n + 16) * sizeof(float));
    const bool ok = check_decode(tc, what, blocks, n_blocks, want, got, 8);
    ok ? n_passed++ : n_failed++;
    free(want);
    free(got);
}

/* ---- scale fields ---------------------------------------------------------------------- */

static const uint16_t special_f16[] = {
    0x0000, 0x8000, /* +-0 */
    0x0001, 0x8001, /* smallest subnormal */
    0x03ff, 0x83ff, /* largest subnormal */
    0x0400, 0x8400, /* smallest normal */
    0x7bff, 0xfbff, /* +-65504 */
    0x7c00, 0xfc00, /* +-Inf */
    0x7e00, 0xfe00, 0x7c01, 0xfc01, 0x7fff, /* quiet and signalling NaNs */
    0x3c00, 0xbc00, /* +-1 */
};
#define N_SPECIAL_F16 (sizeof special_f16 / sizeof special_f16[0])

static const uint32_t special_f32[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu,
    0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u,
    0xffc00000u, 0x7f800001u, 0xffbfffffu, 0x3f800000u, 0xbf800000u, 0x3c000000u,
};
#define N_SPECIAL_F32 (sizeof special_f32 / sizeof special_f32[0])

/* Byte offsets of a type's f16 scale fields (at most 2); 0 fields for the types whose scales
 * are special-cased (F32/F16/BF16: no scale; Q8_K: f32; MXFP4, NVFP4, IQ1_M). */
typedef struct f16_fields {
    int n;
    size_t at[2];
} f16_fields;

static f16_fields f16_fields_of(int32_t type)
{
    switch (type) {
    case GS_TYPE_Q4_0: return (f16_fields){1, {GSI_Q4_0_D, 0}};
    case GS_TYPE_Q5_0: return (f16_fields){1, {GSI_Q5_0_D, 0}};
    case GS_TYPE_Q8_0: return (f16_fields){1, {GSI_Q8_0_D, 0}};
    case GS_TYPE_Q1_0: return (f16_fields){1, {GSI_Q1_0_D, 0}};
    case GS_TYPE_Q2_0: return (f16_fields){1, {GSI_Q2_0_D, 0}};
    case GS_TYPE_IQ2_XXS: return (f16_fields){1, {GSI_IQ2_XXS_D, 0}};
    case GS_TYPE_IQ2_XS: return (f16_fields){1, {GSI_IQ2_XS_D, 0}};
    case GS_TYPE_IQ2_S: return (f16_fields){1, {GSI_IQ2_S_D, 0}};
    case GS_TYPE_IQ3_XXS: return (f16_fields){1, {GSI_IQ3_XXS_D, 0}};
    case GS_TYPE_IQ3_S: return (f16_fields){1, {GSI_IQ3_S_D, 0}};
    case GS_TYPE_IQ1_S: return (f16_fields){1, {GSI_IQ1_S_D, 0}};
    case GS_TYPE_IQ4_NL: return (f16_fields){1, {GSI_IQ4_NL_D, 0}};
    case GS_TYPE_IQ4_XS: return (f16_fields){1, {GSI_IQ4_XS_D, 0}};
    case GS_TYPE_Q3_K: return (f16_fields){1, {GSI_Q3_K_D, 0}};
    case GS_TYPE_Q6_K: return (f16_fields){1, {GSI_Q6_K_D, 0}};
    case GS_TYPE_TQ1_0: return (f16_fields){1, {GSI_TQ1_0_D, 0}};
    case GS_TYPE_TQ2_0: return (f16_fields){1, {GSI_TQ2_0_D, 0}};
    case GS_TYPE_Q4_1: return (f16_fields){2, {GSI_Q4_1_D, GSI_Q4_1_M}};
    case GS_TYPE_Q5_1: return (f16_fields){2, {GSI_Q5_1_D, GSI_Q5_1_M}};
    case GS_TYPE_Q8_1: return (f16_fields){2, {GSI_Q8_1_D, GSI_Q8_1_S}};
    case GS_TYPE_Q4_K: return (f16_fields){2, {GSI_Q4_K_D, GSI_Q4_K_DMIN}};
    case GS_TYPE_Q5_K: return (f16_fields){2, {GSI_Q5_K_D, GSI_Q5_K_DMIN}};
    case GS_TYPE_Q2_K: return (f16_fields){2, {GSI_Q2_K_D, GSI_Q2_K_DMIN}};
    default: return (f16_fields){0, {0, 0}};
    }
}

static void put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* IQ1_M has no d field: its f16 d is the top nibbles of the four u16 scales. */
static void put_iq1_m_d(uint8_t *block, uint16_t d)
{
    for (int k = 0; k < 4; k++) {
        uint8_t *hi = block + GSI_IQ1_M_SCALES + 2 * k + 1;
        *hi = (uint8_t)((*hi & 0x0f) | ((d >> (4 * k)) & 0x0f) << 4);
    }
}

/* Sets every scale of a block to a "normal" value (the fill case): f16 1.0, f32 1.0, E8M0
 * 2^0, UE4M3 1.0. */
static void put_normal_scales(int32_t type, uint8_t *block)
{
    const f16_fields f = f16_fields_of(type);
    for (int i = 0; i < f.n; i++) {
        put_u16(block + f.at[i], 0x3c00);
    }
    switch (type) {
    case GS_TYPE_Q8_K:
        memcpy(block + GSI_Q8_K_D, &special_f32[15], 4);
        break;
    case GS_TYPE_MXFP4:
        block[GSI_MXFP4_E] = 127;
        break;
    case GS_TYPE_NVFP4:
        memset(block + GSI_NVFP4_D, 0x38, 4);
        break;
    case GS_TYPE_IQ1_M:
        put_iq1_m_d(block, 0x3c00);
        break;
    default:
        break;
    }
}

/* ---- the cases ----------------------------------------------------------------------- */

static size_t random_blocks(const type_case *tc)
{
    /* About 2^17 elements: every path through the decoders, quick under qemu too. */
    const size_t n = ((size_t)1 << 17) / tc->info.block_elems;
    return n < 64 ? 64 : n;
}

static void case_random(const type_case *tc)
{
    const size_t n = random_blocks(tc);
    uint8_t *in = xmalloc(n * tc->info.block_bytes);
    seed((uint64_t)tc->type);
    fill_random(in, n * tc->info.block_bytes);
    run_case(tc, "random", in, n);
    free(in);
}

/* Blocks of random bytes with the scale fields forced, `per` blocks per setting. */
static void case_scales(const type_case *tc)
{
    const size_t bb = tc->info.block_bytes, per = 4;
    const f16_fields f = f16_fields_of(tc->type);
    size_t n = 0;
    if (f.n == 1) {
        n = N_SPECIAL_F16 * per;
    } else if (f.n == 2) {
        n = N_SPECIAL_F16 * N_SPECIAL_F16 * per;
    } else if (tc->type == GS_TYPE_Q8_K) {
        n = N_SPECIAL_F32 * per;
    } else if (tc->type == GS_TYPE_MXFP4 || tc->type == GS_TYPE_NVFP4) {
        n = 256 * per;
    } else if (tc->type == GS_TYPE_IQ1_M) {
        n = N_SPECIAL_F16 * per;
    } else {
        return; /* the plain types have no scale: see case_elements */
    }
    uint8_t *in = xmalloc(n * bb);
    seed(1000 + (uint64_t)tc->type);
    fill_random(in, n * bb);
    for (size_t i = 0; i < n; i++) {
        uint8_t *blk = in + i * bb;
        const size_t setting = i / per;
        if (f.n == 1) {
            put_u16(blk + f.at[0], special_f16[setting]);
        } else if (f.n == 2) {
            put_u16(blk + f.at[0], special_f16[setting / N_SPECIAL_F16]);
            put_u16(blk + f.at[1], special_f16[setting % N_SPECIAL_F16]);
        } else if (tc->type == GS_TYPE_Q8_K) {
            memcpy(blk + GSI_Q8_K_D, &special_f32[setting], 4);
        } else if (tc->type == GS_TYPE_MXFP4) {
            blk[GSI_MXFP4_E] = (uint8_t)setting;
        } else if (tc->type == GS_TYPE_NVFP4) {
            /* The value in all four sub-block scales, or in one of them (others random). */
            if (i % per == 0) {
                memset(blk + GSI_NVFP4_D, (int)setting, 4);
            } else {
                blk[GSI_NVFP4_D + i % 4] = (uint8_t)setting;
            }
        } else { /* IQ1_M */
            put_iq1_m_d(blk, special_f16[setting]);
        }
    }
    run_case(tc, "scales", in, n);
    free(in);
}

/* The plain types: every element pattern. */
static void case_elements(const type_case *tc)
{
    if (tc->type == GS_TYPE_F16 || tc->type == GS_TYPE_BF16) {
        uint8_t *in = xmalloc(65536 * 2);
        for (uint32_t v = 0; v < 65536; v++) {
            put_u16(in + 2 * v, (uint16_t)v);
        }
        run_case(tc, "elements", in, 65536);
        free(in);
    } else if (tc->type == GS_TYPE_F32) {
        const size_t n = N_SPECIAL_F32 + 4096;
        uint8_t *in = xmalloc(n * 4);
        memcpy(in, special_f32, sizeof special_f32);
        seed(77);
        fill_random(in + sizeof special_f32, 4096 * 4);
        run_case(tc, "elements", in, n);
        free(in);
    }
}

/* All-0x00 and all-0xFF blocks, then 0x00 and 0xFF quants (every byte) under normal scales. */
static void case_fill(const type_case *tc)
{
    const size_t bb = tc->info.block_bytes, n = 4;
    uint8_t *in = xmalloc(n * bb);
    memset(in, 0x00, bb);
    memset(in + bb, 0xff, bb);
    memset(in + 2 * bb, 0x00, bb);
    memset(in + 3 * bb, 0xff, bb);
    put_normal_scales(tc->type, in + 2 * bb);
    put_normal_scales(tc->type, in + 3 * bb);
    run_case(tc, "fill", in, n);
    free(in);
}

/* 1..N blocks whose last byte is the last readable one: a page follows that faults on any
 * access, so a decoder that reads past its input dies here. The output has canaries. */
static void case_lengths(const type_case *tc)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t max_blocks = tc->info.block_elems == 1 ? 4 * N_LENGTHS : N_LENGTHS;
    const size_t max_bytes = max_blocks * tc->info.block_bytes;
    const size_t span = (max_bytes + page - 1) / page * page;
    uint8_t *map = mmap(NULL, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                        -1, 0);
    if (map == MAP_FAILED || mprotect(map + span, page, PROT_NONE) != 0) {
        fprintf(stderr, "simd_diff: cannot map a guard page\n");
        exit(2);
    }
    float *want = xmalloc(max_blocks * tc->info.block_elems * sizeof(float));
    float *got = xmalloc((max_blocks * tc->info.block_elems + 16) * sizeof(float));
    seed(2000 + (uint64_t)tc->type);
    bool ok = true;
    for (size_t nb = 1; nb <= max_blocks && ok; nb++) {
        uint8_t *in = map + span - nb * tc->info.block_bytes;
        fill_random(in, nb * tc->info.block_bytes);
        char what[48];
        snprintf(what, sizeof what, "lengths (%zu blocks)", nb);
        ok = check_decode(tc, what, in, nb, want, got, 8);
    }
    ok ? n_passed++ : n_failed++;
    free(want);
    free(got);
    munmap(map, span + page);
}

/* The same blocks at input offsets 0..15 and output offsets 0..7 floats. */
static void case_misaligned(const type_case *tc)
{
    const size_t nb = tc->info.block_elems == 1 ? 45 : 5;
    const size_t bytes = nb * tc->info.block_bytes, elems = nb * tc->info.block_elems;
    uint8_t *buf = xmalloc(bytes + 16);
    uint8_t *blocks = xmalloc(bytes);
    float *want = xmalloc(elems * sizeof(float));
    float *got = xmalloc((elems + 8 + 16) * sizeof(float));
    seed(3000 + (uint64_t)tc->type);
    fill_random(blocks, bytes);
    bool ok = true;
    for (size_t in_off = 0; in_off < 16 && ok; in_off++) {
        memcpy(buf + in_off, blocks, bytes);
        for (size_t out_off = 0; out_off < 8 && ok; out_off++) {
            char what[64];
            snprintf(what, sizeof what, "misaligned (input +%zu, output +%zu floats)", in_off,
                     out_off);
            ok = check_decode(tc, what, buf + in_off, nb, want, got + out_off, 8);
        }
    }
    ok ? n_passed++ : n_failed++;
    free(buf);
    free(blocks);
    free(want);
    free(got);
}

/* One output of GSI_STREAM_MIN_BYTES and a few blocks more (a SIMD path may write it with
 * non-temporal stores through a scratch buffer), at a misaligned input and output. */
static void case_large(const type_case *tc)
{
    const size_t nb = GSI_STREAM_MIN_BYTES / sizeof(float) / tc->info.block_elems + 3;
    const size_t in_off = (size_t)tc->type % 16, out_off = 1 + (size_t)tc->type % 7;
    uint8_t *in = xmalloc(nb * tc->info.block_bytes + in_off);
    float *want = xmalloc(nb * tc->info.block_elems * sizeof(float));
    float *got = xmalloc((nb * tc->info.block_elems + 16 + out_off) * sizeof(float));
    seed(4000 + (uint64_t)tc->type);
    fill_random(in + in_off, nb * tc->info.block_bytes);
    const bool ok = check_decode(tc, "large", in + in_off, nb, want, got + out_off, 8);
    ok ? n_passed++ : n_failed++;
    free(in);
    free(want);
    free(got);
}

/* ---- main ---------------------------------------------------------------------------- */

static int skip(const char *why)
{
    printf("SKIP: %s\n", why);
    printf("0 passed, 0 failed\n");
    return EXIT_SKIP;
}

int main(int argc, char **argv)
{
    bool quick = false;
    if (argc > 1 && strcmp(argv[1], "--quick") == 0) {
        quick = true;
        argv++;
        argc--;
    }
    if (argc > 2) {
        fprintf(stderr, "usage: %s [--quick] [avx2|neon]\n", argv[0]);
        return 2;
    }
    static const gs_kernel simd[] = {GS_KERNEL_AVX2, GS_KERNEL_NEON};
    char why[160];
    if (argc == 2) {
        gs_kernel want = GS_KERNEL_AUTO;
        for (size_t i = 0; i < sizeof simd / sizeof simd[0]; i++) {
            if (strcmp(argv[1], gs_kernel_name(simd[i])) == 0) {
                want = simd[i];
            }
        }
        if (want == GS_KERNEL_AUTO) {
            fprintf(stderr, "usage: %s [--quick] [avx2|neon]\n", argv[0]);
            return 2;
        }
        const gs_status st = gs_set_kernel(want);
        if (st != GS_OK) {
            snprintf(why, sizeof why, "the %s path is not usable on this CPU or build "
                     "(gs_set_kernel: %s)", argv[1], gs_status_name(st));
            return skip(why);
        }
    }
    bool usable = false;
    const gs_kernel active = gs_active_kernel(&usable);
    if (!usable) {
        snprintf(why, sizeof why, "GGUFSAFE_KERNEL asks for a path this CPU cannot run "
                 "(active: %s, unusable)", gs_kernel_name(active));
        return skip(why);
    }
    if (active == GS_KERNEL_SCALAR) {
        snprintf(why, sizeof why, "no SIMD path is active (avx2 %s, neon %s); scalar only",
                 gsi_kernel_supported(GS_KERNEL_AVX2) ? "available" : "unavailable",
                 gsi_kernel_supported(GS_KERNEL_NEON) ? "available" : "unavailable");
        return skip(why);
    }
    printf("simd_diff: %s against scalar\n", gs_kernel_name(active));

    for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
        const gsi_decode_fn scalar = gsi_decoder_scalar(t);
        if (scalar == NULL) {
            continue;
        }
        type_case tc = {t, {0}};
        if (gs_type_get_info(t, &tc.info) != GS_OK) {
            printf("FAIL type %d: no registry row\n", t);
            n_failed++;
            continue;
        }
        /* A SIMD name over the scalar code does not count as a SIMD decoder. */
        const gsi_decode_fn fn = gsi_decoder_for(active, t);
        if (fn == NULL || fn == scalar) {
            printf("FAIL %s: the %s table has %s\n", tc.info.name, gs_kernel_name(active),
                   fn == NULL ? "no entry" : "the scalar decoder");
            n_failed++;
            continue;
        }
        const unsigned failed_before = n_failed;
        case_random(&tc);
        case_scales(&tc);
        case_elements(&tc);
        case_fill(&tc);
        case_lengths(&tc);
        case_misaligned(&tc);
        if (!quick) {
            case_large(&tc);
        }
        printf("%-8s %s\n", tc.info.name, n_failed == failed_before ? "ok" : "FAILED");
    }
    printf("%u passed, %u failed\n", n_passed, n_failed);
    return n_failed == 0 ? 0 : 1;
}
