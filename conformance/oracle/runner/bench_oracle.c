/* gs_oracle_bench: ggufsafe against ggml in one process, on the same inputs (a program, not a
 * test: timings do not belong in assertions). Single thread, best of the repetitions.
 *
 *   gs_oracle_bench [--quick] [--reps N] [--kat DIR] [--stream-mib N] [--parse FILE]...
 *
 * Readers: gs_open_file (strict profile) against gguf_init_from_file (no_alloc, with a
 * ggml_context, as llama.cpp's loader calls it) on each --parse file (default: the generated
 * corpus's 160,000-key and 262,144-token files; --quick leaves out the first). ggml needs tens
 * of seconds on the first (its duplicate check is quadratic): a reader whose first run takes
 * over 2 s is timed once.
 * Decoders: our scalar and AVX2 paths (gs_set_kernel + gs_dequantize) against ggml's to_float
 * (dequantize_row_q8_K for Q8_K), for every type ggml decodes, on ggml's own quantized blocks
 * (the `real` KAT inputs, tiled): cache-resident (32K elements decoded again and again into the
 * same 128 KiB) and streaming (64 MiB of f32 output by default, once per repetition).
 * Prints Markdown tables with the ratios. --quick shrinks everything (a smoke run). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "file_bytes.h"
#include "ggml_api.h"
#include "ggufsafe.h"

typedef struct config {
    const char *kat_dir;
    int reps;
    size_t cache_elems, cache_target, stream_elems;
    const char *parse[8];
    int n_parse;
} config;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- readers ------------------------------------------------------------------------------- */
static double time_ours(const char *path)
{
    const double t0 = now();
    gs_file *f = NULL;
    gs_error e;
    const gs_status st = gs_open_file(path, NULL, &f, &e);
    const double t = now() - t0;
    gs_close(f);
    return st == GS_OK ? t : -1;
}

static double time_ggml(const gsx_ggml *g, const char *path)
{
    struct ggml_context *mctx = NULL;
    const gsx_gguf_init_params p = {true, &mctx};
    const double t0 = now();
    struct gguf_context *ctx = g->gguf_init_from_file(path, p);
    const double t = now() - t0;
    if (ctx != NULL) {
        g->gguf_free(ctx);
    }
    if (mctx != NULL) {
        g->ggml_free(mctx);
    }
    return ctx != NULL ? t : -1;
}

/* Best of reps, or a single run when the first takes over 2 s. */
static double best(const gsx_ggml *g, const char *path, int reps)
{
    double b = 1e300;
    for (int r = 0; r < reps; r++) {
        const double t = g != NULL ? time_ggml(g, path) : time_ours(path);
        if (t < 0) {
            return -1;
        }
        b = t < b ? t : b;
        if (t > 2.0) {
            break;
        }
    }
    return b;
}

static void fmt_time(double s, char *out, size_t cap)
{
    if (s >= 1.0) {
        snprintf(out, cap, "%.1f s", s);
    } else {
        snprintf(out, cap, "%.1f ms", s * 1e3);
    }
}

static void bench_readers(const gsx_ggml *g, const config *cfg)
{
    printf("### Reading the metadata (gs_open_file against gguf_init_from_file)\n\n");
    printf("| file | size | ggml | ggufsafe | ggufsafe faster by |\n|---|---:|---:|---:|---:|\n");
    for (int i = 0; i < cfg->n_parse; i++) {
        struct stat st;
        if (stat(cfg->parse[i], &st) != 0) {
            printf("| %s | missing | | | |\n", cfg->parse[i]);
            continue;
        }
        const double ours = best(NULL, cfg->parse[i], cfg->reps);
        const double theirs = best(g, cfg->parse[i], cfg->reps);
        char a[32], b[32];
        fmt_time(theirs, a, sizeof a);
        fmt_time(ours, b, sizeof b);
        const char *name = strrchr(cfg->parse[i], '/');
        printf("| %s | %.2f MB | %s | %s | %.0fx |\n", name ? name + 1 : cfg->parse[i],
               (double)st.st_size / 1e6, theirs < 0 ? "rejected" : a, ours < 0 ? "rejected" : b,
               ours > 0 && theirs > 0 ? theirs / ours : 0.0);
    }
    printf("\n");
}

/* ---- decoders ------------------------------------------------------------------------------ */
typedef struct decoder {
    gsx_to_float_fn ggml;  /* NULL: ours */
    gs_kernel kernel;
    int32_t type;
} decoder;

static void run_decoder(const decoder *d, const uint8_t *in, size_t in_bytes, float *out,
                        size_t n)
{
    if (d->ggml != NULL) {
        d->ggml(in, out, (int64_t)n);
    } else {
        gs_dequantize((gs_type)d->type, in, in_bytes, out, n);
    }
}

static double time_decoder(const decoder *d, const uint8_t *in, size_t in_bytes, float *out,
                           size_t n, size_t iters, int reps)
{
    if (d->ggml == NULL && gs_set_kernel(d->kernel) != GS_OK) {
        return -1;
    }
    run_decoder(d, in, in_bytes, out, n); /* warm up */
    double b = 1e300;
    for (int r = 0; r < reps; r++) {
        const double t0 = now();
        for (size_t i = 0; i < iters; i++) {
            run_decoder(d, in, in_bytes, out, n);
        }
        const double t = now() - t0;
        b = t < b ? t : b;
    }
    return b;
}

/* n_blocks of the type's ggml-quantized KAT blocks, tiled. */
static uint8_t *tiled(const config *cfg, const gs_type_info *info, size_t n_blocks)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.real.in", cfg->kat_dir, info->name);
    size_t tile_size;
    uint8_t *tile = gsx_read_file(path, &tile_size);
    const size_t bytes = n_blocks * info->block_bytes;
    uint8_t *in =
        tile != NULL && tile_size > 0 && tile_size % info->block_bytes == 0 ? malloc(bytes) : NULL;
    for (size_t off = 0; in != NULL && off < bytes; off += tile_size) {
        memcpy(in + off, tile, bytes - off < tile_size ? bytes - off : tile_size);
    }
    free(tile);
    return in;
}

static void bench_decoders(const gsx_ggml *g, const config *cfg)
{
    const int have_avx2 = gs_set_kernel(GS_KERNEL_AVX2) == GS_OK;
    const size_t iters = cfg->cache_target / cfg->cache_elems;
    void *cache_mem = NULL, *stream_mem = NULL;
    if (posix_memalign(&cache_mem, 64, cfg->cache_elems * sizeof(float)) != 0 ||
        posix_memalign(&stream_mem, 64, cfg->stream_elems * sizeof(float)) != 0) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(stream_mem, 0, cfg->stream_elems * sizeof(float)); /* fault the pages in */
    printf("### Decoding to f32 (ggml's to_float against our scalar and AVX2 paths)\n\n");
    printf("Gelem/s of f32 output, single thread, best of %d. Cache-resident: %zu elements "
           "decoded %zu times into the same %zu KiB; streaming: %zu MiB of f32 output. Inputs: "
           "ggml's quantized KAT blocks, tiled.\n\n",
           cfg->reps, cfg->cache_elems, iters, cfg->cache_elems * 4 / 1024,
           cfg->stream_elems * 4 >> 20);
    printf("| type | ggml cache | scalar cache | avx2 cache | scalar/ggml | avx2/ggml "
           "| ggml stream | scalar stream | avx2 stream | scalar/ggml | avx2/ggml |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    double log_sum[2][2] = {{0, 0}, {0, 0}};
    int n_types = 0;
    for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
        gs_type_info info;
        const gsx_to_float_fn fn = gsx_decoder(g, t);
        if (fn == NULL || gs_type_get_info(t, &info) != GS_OK || !info.decodable) {
            continue;
        }
        const size_t cb = cfg->cache_elems / info.block_elems;
        const size_t sb = cfg->stream_elems / info.block_elems;
        uint8_t *cin = tiled(cfg, &info, cb), *sin = tiled(cfg, &info, sb);
        if (cin == NULL || sin == NULL) {
            printf("| %s | no KAT input in %s | | | | | | | | | |\n", info.name, cfg->kat_dir);
            free(cin);
            free(sin);
            continue;
        }
        const decoder ds[3] = {{fn, GS_KERNEL_AUTO, t}, {NULL, GS_KERNEL_SCALAR, t},
                               {NULL, GS_KERNEL_AVX2, t}};
        double cache[3], stream[3];
        for (int k = 0; k < 3; k++) {
            if (k == 2 && !have_avx2) {
                cache[k] = stream[k] = 0;
                continue;
            }
            const double tc = time_decoder(&ds[k], cin, cb * info.block_bytes, cache_mem,
                                           cb * info.block_elems, iters, cfg->reps);
            const double ts = time_decoder(&ds[k], sin, sb * info.block_bytes, stream_mem,
                                           sb * info.block_elems, 1, cfg->reps + 2);
            cache[k] = tc > 0 ? (double)(cb * info.block_elems * iters) / tc * 1e-9 : 0;
            stream[k] = ts > 0 ? (double)(sb * info.block_elems) / ts * 1e-9 : 0;
        }
        printf("| %s | %.2f | %.2f | %.2f | %.2fx | %.2fx | %.2f | %.2f | %.2f | %.2fx | %.2fx |\n",
               info.name, cache[0], cache[1], cache[2], cache[1] / cache[0], cache[2] / cache[0],
               stream[0], stream[1], stream[2], stream[1] / stream[0], stream[2] / stream[0]);
        for (int k = 1; k < 3; k++) {
            if (cache[k] > 0 && stream[k] > 0) {
                log_sum[k - 1][0] += log(cache[k] / cache[0]);
                log_sum[k - 1][1] += log(stream[k] / stream[0]);
            }
        }
        n_types++;
        free(cin);
        free(sin);
    }
    gs_set_kernel(GS_KERNEL_AUTO);
    if (n_types > 0) {
        printf("\nGeometric mean over %d types, ours / ggml: scalar %.2fx cache-resident, %.2fx "
               "streaming; avx2 %.2fx cache-resident, %.2fx streaming.\n\n", n_types,
               exp(log_sum[0][0] / n_types), exp(log_sum[0][1] / n_types),
               exp(log_sum[1][0] / n_types), exp(log_sum[1][1] / n_types));
    }
    free(cache_mem);
    free(stream_mem);
}

int main(int argc, char **argv)
{
    config cfg = {GSX_DEFAULT_KAT_DIR, 3, 32768, (size_t)1 << 25, (size_t)16 << 20, {NULL}, 0};
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
            cfg.reps = 1;
            cfg.cache_target = (size_t)1 << 16;
            cfg.stream_elems = (size_t)1 << 18;
        } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            cfg.reps = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
        } else if (strcmp(argv[i], "--kat") == 0 && i + 1 < argc) {
            cfg.kat_dir = argv[++i];
        } else if (strcmp(argv[i], "--stream-mib") == 0 && i + 1 < argc) {
            cfg.stream_elems = (size_t)strtoul(argv[++i], NULL, 10) << 18;
        } else if (strcmp(argv[i], "--parse") == 0 && i + 1 < argc && cfg.n_parse < 8) {
            cfg.parse[cfg.n_parse++] = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--quick] [--reps N] [--kat DIR] [--stream-mib N] "
                            "[--parse FILE]...\n", argv[0]);
            return 2;
        }
    }
    if (cfg.n_parse == 0) { /* the corpus's large files; --quick spares ggml the 160k keys */
        if (!quick) {
            cfg.parse[cfg.n_parse++] = GSX_DEFAULT_CORPUS "/boundary/keys_160k.gguf";
        }
        cfg.parse[cfg.n_parse++] = GSX_DEFAULT_CORPUS "/boundary/vocab_262144.gguf";
    }
    static gsx_ggml g;
    char why[512];
    if (gsx_ggml_load(&g, why, sizeof why) != GSX_LOADED) {
        fprintf(stderr, "gs_oracle_bench: ggml unavailable: %s\n", why);
        return 77;
    }
    printf("ggufsafe %s against ggml %s (commit %s, libggml-base.so of @node-llama-cpp/linux-x64 "
           "3.22.1), same process, same inputs\n\n", gs_version(), g.lib.version,
           g.lib.commit);
    if (cfg.n_parse > 0) {
        bench_readers(&g, &cfg);
    }
    bench_decoders(&g, &cfg);
    return 0;
}
