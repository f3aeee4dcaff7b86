/* gs_bench_decode: decoder throughput per type and path (scalar, and every SIMD path this CPU
 * runs: avx2 on x86-64, neon on AArch64), single thread.
 *
 *   gs_bench_decode [--kat KAT_DIR] [--reps N] [--type NAME] [--stream-mib N]
 *                   [--out-offset BYTES] [--quick]
 *
 * Two regimes: cache-resident (32K elements decoded again and again into the same 128 KiB) and
 * streaming (64 MiB of f32 output by default, once per repetition). Outputs are 64-byte
 * aligned, as an allocator for large arrays gives them; --out-offset moves them by a multiple
 * of 4 bytes to measure a misaligned destination. memset and memcpy of the same output
 * size are measured in the same run: memset as the ceiling for writing that much memory, and
 * memcpy (bytes read + bytes written per second) as the yardstick of the streaming bandwidth
 * targets. A decoder's effective bandwidth is its input bytes read + output bytes written per
 * second. Every figure is the best of the repetitions. Inputs are ggml's `real` KAT blocks
 * tiled (realistic scales: random bytes hit subnormal and NaN scales, which are slow on some
 * cores), or synthesized for F32 and Q8_1, which have no KATs. Prints Markdown tables: per type,
 * the speedup of each SIMD path over scalar; then the geometric means and the streaming
 * bandwidth of Q8_0, Q4_0, Q4_K, F16 and BF16 as a share of memcpy's. --quick shrinks
 * everything (smoke test).
 *
 * What this benchmark decided on the AVX2 path (kernels/avx2/): non-temporal stores only for
 * outputs of GSI_STREAM_MIN_BYTES and more (decode.h; below that the output still sits in the
 * last-level cache and ordinary stores win); grid entries by plain loads except in IQ3_S
 * (vpgatherdd measured faster there, slower for IQ3_XXS and the u64 grids); sub-block factors
 * broadcast from memory (vbroadcastss) rather than shuffled out of a register. Run it with
 * --out-offset 16 to see the cost of a destination that is not 32-byte aligned. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tests/xorshift.h"
#include "decode.h"
#include "dispatch.h"

#define MAX_PATHS 3

typedef struct config {
    const char *kat_dir;
    const char *only;        /* a type name, or NULL for all */
    int reps;
    size_t cache_elems;      /* elements per cache-resident decode */
    size_t cache_target;     /* elements decoded per cache-resident timing */
    size_t stream_elems;     /* elements of streaming output */
    size_t out_offset;       /* bytes added to the 64-byte aligned output addresses */
} config;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Reads a whole file; NULL if it cannot. */
static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    uint8_t *buf = NULL;
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)len);
        if (buf != NULL && fread(buf, 1, (size_t)len, f) != (size_t)len) {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    *size = buf != NULL ? (size_t)len : 0;
    return buf;
}

static uint64_t rng_state = 0x2545f4914f6cdd1du;

static uint32_t next_u32(void)
{
    return (uint32_t)(xorshift64_next(&rng_state) >> 32);
}

/* n_blocks of input for `type`: the KAT `real` blocks repeated, or synthesized. */
static uint8_t *make_input(const config *cfg, int32_t type, const gs_type_info *info,
                           size_t n_blocks)
{
    const size_t bytes = n_blocks * info->block_bytes;
    uint8_t *in = malloc(bytes);
    if (in == NULL) {
        return NULL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.real.in", cfg->kat_dir, info->name);
    size_t tile_size = 0;
    uint8_t *tile = read_file(path, &tile_size);
    if (tile != NULL && tile_size % info->block_bytes == 0) {
        for (size_t off = 0; off < bytes; off += tile_size) {
            memcpy(in + off, tile, bytes - off < tile_size ? bytes - off : tile_size);
        }
    } else if (type == GS_TYPE_F32) {
        for (size_t i = 0; i < bytes; i += 4) {
            const uint32_t bits = 0x3c000000u + (next_u32() & 0x03ffffffu); /* 2^-7 .. 2^1 */
            memcpy(in + i, &bits, 4);
        }
    } else { /* Q8_1: random quants, a normal f16 d, an unused s */
        for (size_t i = 0; i < bytes; i++) {
            in[i] = (uint8_t)next_u32();
        }
        for (size_t b = 0; b < n_blocks; b++) {
            const uint32_t d = 0x2000u + (next_u32() & 0x0fffu);
            in[b * info->block_bytes] = (uint8_t)d;
            in[b * info->block_bytes + 1] = (uint8_t)(d >> 8);
        }
    }
    free(tile);
    return in;
}

/* Best seconds of `reps` runs of `iters` decodes of n_blocks. */
static double time_decode(gsi_decode_fn fn, const uint8_t *in, float *out, size_t n_blocks,
                          size_t iters, int reps)
{
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
        const double t0 = now_seconds();
        for (size_t i = 0; i < iters; i++) {
            fn(in, out, n_blocks);
        }
        const double t = now_seconds() - t0;
        best = t < best ? t : best;
    }
    return best;
}

/* Called through volatile pointers so that the stores cannot be optimised away. */
static void *(*volatile memset_fn)(void *, int, size_t) = memset;
static void *(*volatile memcpy_fn)(void *, const void *, size_t) = memcpy;

static double time_memset(float *out, size_t n_elems, size_t iters, int reps)
{
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
        const double t0 = now_seconds();
        for (size_t i = 0; i < iters; i++) {
            memset_fn(out, (int)(i & 0x7f), n_elems * sizeof(float));
        }
        const double t = now_seconds() - t0;
        best = t < best ? t : best;
    }
    return best;
}

static double time_memcpy(float *out, const float *in, size_t n_elems, size_t iters, int reps)
{
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
        const double t0 = now_seconds();
        for (size_t i = 0; i < iters; i++) {
            memcpy_fn(out, in, n_elems * sizeof(float));
        }
        const double t = now_seconds() - t0;
        best = t < best ? t : best;
    }
    return best;
}

static double per_second(double amount, double seconds)
{
    return seconds > 0 ? amount / seconds * 1e-9 : 0.0;
}

/* One type on one path. */
typedef struct result {
    double cache_gelem, stream_gelem, stream_gbs;
} result;

/* The paths measured: scalar first, then each SIMD path this CPU runs. */
typedef struct paths {
    int n;
    gs_kernel kernel[MAX_PATHS];
} paths;

static paths measured_paths(void)
{
    paths p = {1, {GS_KERNEL_SCALAR}};
    const gs_kernel simd[] = {GS_KERNEL_AVX2, GS_KERNEL_NEON};
    for (size_t i = 0; i < sizeof simd / sizeof simd[0]; i++) {
        if (gsi_kernel_supported(simd[i]) && gsi_decoder_for(simd[i], GS_TYPE_Q8_0) != NULL) {
            p.kernel[p.n++] = simd[i];
        }
    }
    return p;
}

/* The types whose streaming bandwidth is held against memcpy's. */
static int is_bandwidth_type(int32_t t)
{
    return t == GS_TYPE_Q8_0 || t == GS_TYPE_Q4_0 || t == GS_TYPE_Q4_K || t == GS_TYPE_F16 ||
           t == GS_TYPE_BF16;
}

int main(int argc, char **argv)
{
    config cfg = {GS_DEFAULT_KAT_DIR, NULL, 5, 32768, (size_t)1 << 25, (size_t)16 << 20, 0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--kat") == 0 && i + 1 < argc) {
            cfg.kat_dir = argv[++i];
        } else if (strcmp(argv[i], "--type") == 0 && i + 1 < argc) {
            cfg.only = argv[++i];
        } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            cfg.reps = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--stream-mib") == 0 && i + 1 < argc) {
            cfg.stream_elems = (size_t)strtoul(argv[++i], NULL, 10) << 18;
        } else if (strcmp(argv[i], "--out-offset") == 0 && i + 1 < argc) {
            cfg.out_offset = (size_t)strtoul(argv[++i], NULL, 10) / 4 * 4 % 64;
        } else if (strcmp(argv[i], "--quick") == 0) {
            cfg.reps = 1;
            cfg.cache_target = (size_t)1 << 16;
            cfg.stream_elems = (size_t)1 << 18;
        } else {
            fprintf(stderr, "usage: %s [--kat KAT_DIR] [--reps N] [--type NAME] [--stream-mib N] "
                    "[--out-offset BYTES] [--quick]\n", argv[0]);
            return 2;
        }
    }
    if (cfg.reps < 1) {
        cfg.reps = 1;
    }
    const paths p = measured_paths();
    const size_t cache_iters = cfg.cache_target / cfg.cache_elems;
    const size_t out_bytes = cfg.stream_elems * sizeof(float);
    void *cache_mem = NULL, *stream_mem = NULL;
    float *copy_src = malloc(out_bytes);
    if (posix_memalign(&cache_mem, 64, cfg.cache_elems * sizeof(float) + 64) != 0 ||
        posix_memalign(&stream_mem, 64, out_bytes + 64) != 0 || copy_src == NULL) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    float *cache_out = (float *)((char *)cache_mem + cfg.out_offset);
    float *stream_out = (float *)((char *)stream_mem + cfg.out_offset);
    memset(stream_out, 0, out_bytes); /* fault the pages in */
    memset(copy_src, 1, out_bytes);

    const double ms_cache = time_memset(cache_out, cfg.cache_elems, cache_iters, cfg.reps);
    const double ms_stream = time_memset(stream_out, cfg.stream_elems, 1, cfg.reps + 2);
    const double mc_stream = time_memcpy(stream_out, copy_src, cfg.stream_elems, 1, cfg.reps + 2);
    free(copy_src);
    const double memcpy_gbs = per_second(2.0 * (double)out_bytes, mc_stream); /* read + write */

    printf("Decoders, single thread, best of %d; cache-resident: %zu elements (%zu KiB of f32) "
           "decoded %zu times; streaming: %zu MiB of f32 output; outputs at a 64-byte boundary "
           "+ %zu. Gelem/s of f32 output.\n\n",
           cfg.reps, cfg.cache_elems, cfg.cache_elems * 4 / 1024, cache_iters, out_bytes >> 20,
           cfg.out_offset);
    printf("memset (f32 output): cache-resident %.2f Gelem/s, streaming %.2f Gelem/s (%.1f GB/s "
           "written)\n",
           per_second((double)(cfg.cache_elems * cache_iters), ms_cache),
           per_second((double)cfg.stream_elems, ms_stream),
           per_second((double)out_bytes, ms_stream));
    printf("memcpy (%zu MiB to %zu MiB): %.1f GB/s read + written\n\n", out_bytes >> 20,
           out_bytes >> 20, memcpy_gbs);

    /* Header: per path cache-resident and streaming, speedups of the SIMD paths. */
    printf("| type | bits/elem |");
    for (int k = 0; k < p.n; k++) {
        printf(" %s cache |", gs_kernel_name(p.kernel[k]));
    }
    for (int k = 1; k < p.n; k++) {
        printf(" %s/scalar cache |", gs_kernel_name(p.kernel[k]));
    }
    for (int k = 0; k < p.n; k++) {
        printf(" %s stream |", gs_kernel_name(p.kernel[k]));
    }
    for (int k = 1; k < p.n; k++) {
        printf(" %s/scalar stream |", gs_kernel_name(p.kernel[k]));
    }
    printf("\n|---|---:|");
    for (int k = 0; k < 4 * p.n - 2; k++) {
        printf("---:|");
    }
    printf("\n");

    double log_sum_cache[MAX_PATHS] = {0}, log_sum_stream[MAX_PATHS] = {0};
    double min_cache[MAX_PATHS], min_stream[MAX_PATHS];
    const char *min_cache_type[MAX_PATHS] = {0}, *min_stream_type[MAX_PATHS] = {0};
    for (int k = 0; k < MAX_PATHS; k++) {
        min_cache[k] = min_stream[k] = 1e300;
    }
    int n_types = 0;
    char bandwidth_lines[5][160];
    int n_bandwidth = 0;
    int failed = 0;
    for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
        gs_type_info info;
        if (gsi_decoder_scalar(t) == NULL || gs_type_get_info(t, &info) != GS_OK ||
            (cfg.only != NULL && strcmp(cfg.only, info.name) != 0)) {
            continue;
        }
        const size_t cache_blocks = cfg.cache_elems / info.block_elems;
        const size_t stream_blocks = cfg.stream_elems / info.block_elems;
        uint8_t *cache_in = make_input(&cfg, t, &info, cache_blocks);
        uint8_t *stream_in = make_input(&cfg, t, &info, stream_blocks);
        if (cache_in == NULL || stream_in == NULL) {
            fprintf(stderr, "%s: cannot build the input\n", info.name);
            free(cache_in);
            free(stream_in);
            failed = 1;
            continue;
        }
        result r[MAX_PATHS];
        for (int k = 0; k < p.n; k++) {
            const gsi_decode_fn fn = gsi_decoder_for(p.kernel[k], t);
            fn(cache_in, cache_out, cache_blocks); /* warm up */
            const double tc = time_decode(fn, cache_in, cache_out, cache_blocks, cache_iters,
                                          cfg.reps);
            const double ts = time_decode(fn, stream_in, stream_out, stream_blocks, 1,
                                          cfg.reps + 2);
            const size_t n_out = stream_blocks * info.block_elems;
            r[k].cache_gelem = per_second((double)(cache_blocks * info.block_elems * cache_iters),
                                          tc);
            r[k].stream_gelem = per_second((double)n_out, ts);
            r[k].stream_gbs =
                per_second((double)(stream_blocks * info.block_bytes + n_out * sizeof(float)), ts);
        }
        printf("| %s | %.4g |", info.name, 8.0 * info.block_bytes / info.block_elems);
        for (int k = 0; k < p.n; k++) {
            printf(" %.2f |", r[k].cache_gelem);
        }
        for (int k = 1; k < p.n; k++) {
            printf(" %.2fx |", r[k].cache_gelem / r[0].cache_gelem);
        }
        for (int k = 0; k < p.n; k++) {
            printf(" %.2f |", r[k].stream_gelem);
        }
        for (int k = 1; k < p.n; k++) {
            printf(" %.2fx |", r[k].stream_gelem / r[0].stream_gelem);
        }
        printf("\n");
        /* F32 is a copy, not a decoder: it stays out of the means. */
        if (t != GS_TYPE_F32) {
            n_types++;
            for (int k = 1; k < p.n; k++) {
                const double sc = r[k].cache_gelem / r[0].cache_gelem;
                const double ss = r[k].stream_gelem / r[0].stream_gelem;
                log_sum_cache[k] += log(sc);
                log_sum_stream[k] += log(ss);
                if (sc < min_cache[k]) {
                    min_cache[k] = sc;
                    min_cache_type[k] = info.name;
                }
                if (ss < min_stream[k]) {
                    min_stream[k] = ss;
                    min_stream_type[k] = info.name;
                }
            }
        }
        if (is_bandwidth_type(t) && n_bandwidth < 5) {
            char *line = bandwidth_lines[n_bandwidth++];
            int used = snprintf(line, 160, "| %s |", info.name);
            for (int k = 0; k < p.n && used > 0 && used < 160; k++) {
                used += snprintf(line + used, 160 - (size_t)used, " %.1f GB/s (%.0f%%) |",
                                 r[k].stream_gbs, 100.0 * r[k].stream_gbs / memcpy_gbs);
            }
        }
        free(cache_in);
        free(stream_in);
    }

    if (n_types > 0) {
        printf("\nGeometric mean of the speedup over scalar (%d types, F32 excluded):\n", n_types);
        for (int k = 1; k < p.n; k++) {
            printf("- %s: cache-resident %.2fx (lowest %.2fx, %s), streaming %.2fx (lowest "
                   "%.2fx, %s)\n",
                   gs_kernel_name(p.kernel[k]), exp(log_sum_cache[k] / n_types), min_cache[k],
                   min_cache_type[k], exp(log_sum_stream[k] / n_types), min_stream[k],
                   min_stream_type[k]);
        }
    }
    if (n_bandwidth > 0) {
        printf("\nStreaming effective bandwidth (input read + f32 written per second) as a share "
               "of memcpy's %.1f GB/s:\n\n| type |", memcpy_gbs);
        for (int k = 0; k < p.n; k++) {
            printf(" %s |", gs_kernel_name(p.kernel[k]));
        }
        printf("\n|---|");
        for (int k = 0; k < p.n; k++) {
            printf("---:|");
        }
        printf("\n");
        for (int i = 0; i < n_bandwidth; i++) {
            printf("%s\n", bandwidth_lines[i]);
        }
    }
    free(cache_mem);
    free(stream_mem);
    return failed;
}
