/* gs_bench_decode: throughput of the scalar decoders, per type, in Gelem/s of f32 output.
 *
 *   gs_bench_decode [--kat KAT_DIR] [--reps N] [--type NAME] [--quick]
 *
 * Two regimes: cache-resident (32K elements decoded again and again into the same 128 KiB) and
 * streaming (64 MiB of f32 output, once per repetition). memset of the same output sizes is
 * measured in the same run, as the ceiling for writing that much memory. Every figure is the
 * best of the repetitions. Inputs are ggml's `real` KAT blocks tiled (realistic scales: random
 * bytes hit subnormal and NaN scales, which are slow on some cores), or synthesized for F32 and
 * Q8_1, which have no KATs. Prints a Markdown table. --quick shrinks everything (smoke test). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decode.h"

typedef struct config {
    const char *kat_dir;
    const char *only;        /* a type name, or NULL for all */
    int reps;
    size_t cache_elems;      /* elements per cache-resident decode */
    size_t cache_target;     /* elements decoded per cache-resident timing */
    size_t stream_elems;     /* elements of streaming output */
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
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 32);
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

/* Best seconds of cfg->reps runs of `iters` decodes of n_blocks. */
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

/* Called through a volatile pointer so that the stores cannot be optimised away. */
static void *(*volatile memset_fn)(void *, int, size_t) = memset;

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

static double gelem(size_t elems, double seconds)
{
    return seconds > 0 ? (double)elems / seconds * 1e-9 : 0.0;
}

int main(int argc, char **argv)
{
    config cfg = {GS_DEFAULT_KAT_DIR, NULL, 5, 32768, (size_t)1 << 25, (size_t)16 << 20};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--kat") == 0 && i + 1 < argc) {
            cfg.kat_dir = argv[++i];
        } else if (strcmp(argv[i], "--type") == 0 && i + 1 < argc) {
            cfg.only = argv[++i];
        } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            cfg.reps = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--quick") == 0) {
            cfg.reps = 1;
            cfg.cache_target = (size_t)1 << 16;
            cfg.stream_elems = (size_t)1 << 18;
        } else {
            fprintf(stderr, "usage: %s [--kat KAT_DIR] [--reps N] [--type NAME] [--quick]\n",
                    argv[0]);
            return 2;
        }
    }
    if (cfg.reps < 1) {
        cfg.reps = 1;
    }
    const size_t cache_iters = cfg.cache_target / cfg.cache_elems;
    float *cache_out = malloc(cfg.cache_elems * sizeof(float));
    float *stream_out = malloc(cfg.stream_elems * sizeof(float));
    if (cache_out == NULL || stream_out == NULL) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    memset(stream_out, 0, cfg.stream_elems * sizeof(float)); /* fault the pages in */

    const double ms_cache = time_memset(cache_out, cfg.cache_elems, cache_iters, cfg.reps);
    const double ms_stream = time_memset(stream_out, cfg.stream_elems, 1, cfg.reps + 2);
    const double memset_cache = gelem(cfg.cache_elems * cache_iters, ms_cache);
    const double memset_stream = gelem(cfg.stream_elems, ms_stream);

    printf("Scalar decoders, best of %d; cache-resident: %zu elements (%zu KiB of f32) decoded "
           "%zu times; streaming: %zu MiB of f32 output.\n\n",
           cfg.reps, cfg.cache_elems, cfg.cache_elems * 4 / 1024, cache_iters,
           cfg.stream_elems * 4 >> 20);
    printf("| type | bits/elem | cache-resident Gelem/s | streaming Gelem/s | streaming / memset |\n");
    printf("|---|---:|---:|---:|---:|\n");
    printf("| memset (f32 output) | — | %.2f | %.2f | 100%% |\n", memset_cache, memset_stream);

    int failed = 0;
    for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
        gs_type_info info;
        const gsi_decode_fn fn = gsi_decoder_scalar(t);
        if (fn == NULL || gs_type_get_info(t, &info) != GS_OK ||
            (cfg.only != NULL && strcmp(cfg.only, info.name) != 0)) {
            continue;
        }
        const size_t cache_blocks = cfg.cache_elems / info.block_elems;
        const size_t stream_blocks = cfg.stream_elems / info.block_elems;
        uint8_t *cache_in = make_input(&cfg, t, &info, cache_blocks);
        uint8_t *stream_in = make_input(&cfg, t, &info, stream_blocks);
        if (cache_in == NULL || stream_in == NULL) {
            fprintf(stderr, "%s: cannot build the input\n", info.name);
            failed = 1;
        } else {
            fn(cache_in, cache_out, cache_blocks); /* warm up */
            const double tc = time_decode(fn, cache_in, cache_out, cache_blocks, cache_iters,
                                          cfg.reps);
            const double ts = time_decode(fn, stream_in, stream_out, stream_blocks, 1,
                                          cfg.reps + 2);
            const double g_stream = gelem(stream_blocks * info.block_elems, ts);
            printf("| %s | %.4g | %.2f | %.2f | %.0f%% |\n", info.name,
                   8.0 * info.block_bytes / info.block_elems,
                   gelem(cache_blocks * info.block_elems * cache_iters, tc), g_stream,
                   memset_stream > 0 ? 100.0 * g_stream / memset_stream : 0.0);
        }
        free(cache_in);
        free(stream_in);
    }
    free(cache_out);
    free(stream_out);
    return failed;
}
