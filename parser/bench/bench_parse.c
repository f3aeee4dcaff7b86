/* Parse-time benchmark (a program, not a test): opens generated metadata-heavy files from memory
 * and reports the best single-thread time, with one memcpy of the same bytes measured in the same
 * run as the baseline.
 *   (a) 160,000 small key-value pairs (ggml's reader needs ~37 s: its duplicate check is O(n^2))
 *   (b) a 262,144-token vocabulary with 514,906 merges (the shape of Gemma 3/4 tokenizers)
 *
 *   gs_bench_parse [reps]          the table
 *   gs_bench_parse --write DIR     writes DIR/keys_160k.gguf and DIR/vocab_merges.gguf, the inputs
 *                                  of the whole-process benchmark (cli/bench/bench_open.sh) */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ggufsafe.h"
#include "gsw_raw.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void many_keys(gsw_bytes *b)
{
    const uint64_t n = 160000;
    gsw_raw_header(b, 3, 0, n);
    char key[64];
    for (uint64_t i = 0; i < n; i++) {
        snprintf(key, sizeof key, "bench.group_%llu.key_%llu", (unsigned long long)(i % 97),
                 (unsigned long long)i);
        gsw_raw_kv_u32(b, key, (uint32_t)i);
    }
}

/* Deterministic token-like strings: mostly ASCII pieces, some multi-byte UTF-8. */
static size_t token(char *out, uint64_t i)
{
    static const char *pieces[] = {"\xe2\x96\x81", "th", "e", "in", "an", "er", "\xc3\xa9", "on",
                                   "re", "ing", "\xe4\xb8\xad", "s", "t", "al", "ed", "or"};
    size_t n = 0;
    uint64_t x = i * 0x9E3779B97F4A7C15ull + 1;
    int parts = 1 + (int)(x % 4);
    for (int p = 0; p < parts; p++) {
        const char *s = pieces[(x >> (8 * p + 8)) & 15];
        size_t l = strlen(s);
        memcpy(out + n, s, l);
        n += l;
    }
    n += (size_t)snprintf(out + n, 24, "%llu", (unsigned long long)(i % 1000));
    return n;
}

/* The head of an array key-value: key, type array, element type, count. */
static void array_head(gsw_bytes *b, const char *key, gs_value_type elem, uint64_t count)
{
    gsw_raw_kv_head(b, key, strlen(key), GS_VALUE_ARRAY);
    gsw_put_u32(b, (uint32_t)elem);
    gsw_put_u64(b, count);
}

static void vocabulary(gsw_bytes *b)
{
    const uint64_t n_tokens = 262144, n_merges = 514906;
    gsw_raw_header(b, 3, 0, 5);
    gsw_raw_kv_str(b, "general.architecture", "gemma3");
    array_head(b, "tokenizer.ggml.tokens", GS_VALUE_STRING, n_tokens);
    char buf[128];
    for (uint64_t i = 0; i < n_tokens; i++) {
        gsw_put_str(b, buf, token(buf, i));
    }
    array_head(b, "tokenizer.ggml.scores", GS_VALUE_F32, n_tokens);
    for (uint64_t i = 0; i < n_tokens; i++) {
        gsw_put_f32(b, -(float)i);
    }
    array_head(b, "tokenizer.ggml.token_type", GS_VALUE_I32, n_tokens);
    for (uint64_t i = 0; i < n_tokens; i++) {
        gsw_put_u32(b, 1);
    }
    array_head(b, "tokenizer.ggml.merges", GS_VALUE_STRING, n_merges);
    for (uint64_t i = 0; i < n_merges; i++) {
        size_t n = token(buf, i);
        buf[n++] = ' ';
        n += token(buf + n, i * 7 + 3);
        gsw_put_str(b, buf, n);
    }
}

static void run(const char *label, const gsw_bytes *b, int reps)
{
    double best_parse = 1e9, best_copy = 1e9;
    uint8_t *dst = malloc(b->len);
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        gs_file *f;
        gs_error e;
        gs_status st = gs_open_memory(b->data, b->len, NULL, &f, &e);
        double t1 = now();
        if (st != GS_OK) {
            fprintf(stderr, "%s: %s %s\n", label, gs_status_name(st), e.detail);
            exit(1);
        }
        gs_close(f);
        memcpy(dst, b->data, b->len);
        double t2 = now();
        __asm__ volatile("" : : "r"(dst) : "memory");
        if (t1 - t0 < best_parse) {
            best_parse = t1 - t0;
        }
        if (t2 - t1 < best_copy) {
            best_copy = t2 - t1;
        }
    }
    free(dst);
    printf("| %s | %.2f MB | %.2f ms | %.2f GB/s | %.3f ms | %.1fx |\n", label,
           (double)b->len / 1e6, best_parse * 1e3, (double)b->len / best_parse / 1e9,
           best_copy * 1e3, best_parse / best_copy);
}

/* dir/name; false (with a message) when it cannot be written. */
static bool save(const gsw_bytes *b, const char *dir, const char *name)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path ||
        gsw_bytes_save(b, path) != 0) {
        fprintf(stderr, "gs_bench_parse: cannot write %s/%s\n", dir, name);
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    gsw_bytes a, v;
    gsw_bytes_init(&a);
    gsw_bytes_init(&v);
    many_keys(&a);
    vocabulary(&v);
    if (argc == 3 && strcmp(argv[1], "--write") == 0) {
        bool ok = save(&a, argv[2], "keys_160k.gguf") && save(&v, argv[2], "vocab_merges.gguf");
        gsw_bytes_free(&a);
        gsw_bytes_free(&v);
        return ok ? 0 : 1;
    }
    int reps = argc > 1 ? atoi(argv[1]) : 20;
    printf("ggufsafe %s, strict profile, best of %d, single thread\n\n", gs_version(), reps);
    printf("| file | metadata | parse | parse rate | memcpy | parse / memcpy |\n");
    printf("|---|---|---|---|---|---|\n");
    run("160,000 KVs", &a, reps);
    run("262,144-token vocabulary + 514,906 merges", &v, reps);
    gsw_bytes_free(&a);
    gsw_bytes_free(&v);
    return 0;
}
