/* gs_bench_inputs: the generated inputs of ci/bench.sh that no other generator makes (a program,
 * not a test), written with the test-only writer (corpus/writer). Every file is a valid GGUF
 * that `ggufsafe certify` certifies, with deterministic, non-zero contents (no sparse regions).
 *
 *   gs_bench_inputs keys N OUT          N u32 key-values (plus the base metadata), no tensors
 *   gs_bench_inputs tensors N OUT       N F32 tensors of 32 elements each
 *   gs_bench_inputs f16 MIB OUT [B]     16 equal F16 tensors, MIB MiB of data in all, finite
 *                                       random values; with B (a second path) also the same
 *                                       file with the lowest mantissa bit of every fifth
 *                                       element flipped (the second input of a diff)
 *   gs_bench_inputs small COUNT DIR     COUNT small files DIR/small-NNNNN.gguf (8 F32 tensors
 *                                       of 256 elements, 12 keys, different data in each)
 *
 * The base metadata of every file: general.architecture, general.name, alignment 32. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsw_model.h"
#include "gsw_write.h"

/* Enough for 64 GiB of F16 data; bounds what a typo asks for. */
#define MAX_MIB 65536L
#define MAX_COUNT 10000000L
#define F16_TENSORS 16u

static uint64_t next_u64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void base_metadata(gsw_model *m, const char *name)
{
    gsw_set_cstr(gsw_add(m, "general.architecture"), "bench");
    gsw_set_cstr(gsw_add(m, "general.name"), name);
    gsw_set_u32(gsw_add(m, "general.alignment"), GSW_DEFAULT_ALIGNMENT);
}

static int save(const gsw_model *m, const char *path)
{
    char why[256];
    if (gsw_write_file(m, 0, path, why, sizeof why) != 0) {
        fprintf(stderr, "gs_bench_inputs: %s: %s\n", path, why);
        return 1;
    }
    return 0;
}

static void f32_tensor(gsw_model *m, const char *name, uint64_t n, uint64_t *rng)
{
    gsw_tensor *t = gsw_add_tensor(m, name, 1, &n, GS_TYPE_F32);
    float *v = malloc(n * sizeof *v);
    if (v == NULL) {
        fprintf(stderr, "gs_bench_inputs: out of memory\n");
        exit(2);
    }
    for (uint64_t i = 0; i < n; i++) { /* in [-1, 1) */
        v[i] = (float)((int64_t)(next_u64(rng) >> 40) - (1 << 23)) / (float)(1 << 23);
    }
    gsw_tensor_set_data(t, v, n * sizeof *v);
    free(v);
}

static int gen_keys(long n, const char *out)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    base_metadata(&m, "ggufsafe benchmark: keys");
    char key[64];
    for (long i = 0; i < n; i++) {
        snprintf(key, sizeof key, "bench.group_%ld.key_%ld", i % 97, i);
        gsw_set_u32(gsw_add(&m, key), (uint32_t)i);
    }
    const int rc = save(&m, out);
    gsw_model_free(&m);
    return rc;
}

static int gen_tensors(long n, const char *out)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    base_metadata(&m, "ggufsafe benchmark: tensors");
    uint64_t rng = 0x9e3779b97f4a7c15u;
    char name[64];
    for (long i = 0; i < n; i++) {
        snprintf(name, sizeof name, "bench.%ld.weight", i);
        f32_tensor(&m, name, 32, &rng);
    }
    const int rc = save(&m, out);
    gsw_model_free(&m);
    return rc;
}

/* A finite f16 with a magnitude between 2^-8 and 2: the range of trained weights. */
static uint16_t weight_f16(uint64_t r)
{
    const uint16_t sign = (uint16_t)(((r >> 20) & 1) << 15);
    const uint16_t exponent = (uint16_t)((7 + (r >> 32) % 9) << 10);
    return (uint16_t)(sign | exponent | (r & 0x3ff));
}

static int gen_f16(long mib, const char *out_a, const char *out_b)
{
    const uint64_t elems = ((uint64_t)mib << 20) / 2 / F16_TENSORS;
    const uint64_t ne[2] = {4096, elems / 4096};
    if (elems % 4096 != 0) {
        fprintf(stderr, "gs_bench_inputs: f16 needs a multiple of 2 MiB\n");
        return 2;
    }
    uint16_t *v = malloc(elems * sizeof *v);
    if (v == NULL) {
        fprintf(stderr, "gs_bench_inputs: out of memory\n");
        return 2;
    }
    int rc = 0;
    for (int variant = 0; variant < (out_b != NULL ? 2 : 1) && rc == 0; variant++) {
        gsw_model m;
        gsw_model_init(&m, 3);
        base_metadata(&m, "ggufsafe benchmark: f16");
        uint64_t rng = 0x2545f4914f6cdd1du; /* the same values in both variants */
        for (unsigned t = 0; t < F16_TENSORS; t++) {
            char name[64];
            snprintf(name, sizeof name, "bench.%u.weight", t);
            for (uint64_t i = 0; i < elems; i++) {
                v[i] = weight_f16(next_u64(&rng));
                if (variant == 1 && i % 5 == 0) {
                    v[i] ^= 1u;
                }
            }
            gsw_tensor_set_data(gsw_add_tensor(&m, name, 2, ne, GS_TYPE_F16), v,
                                elems * sizeof *v);
        }
        rc = save(&m, variant == 0 ? out_a : out_b);
        gsw_model_free(&m);
    }
    free(v);
    return rc;
}

static int gen_small(long count, const char *dir)
{
    uint64_t rng = 0x853c49e6748fea9bu;
    for (long f = 0; f < count; f++) {
        gsw_model m;
        gsw_model_init(&m, 3);
        base_metadata(&m, "ggufsafe benchmark: small");
        char name[64];
        for (unsigned k = 0; k < 9; k++) {
            snprintf(name, sizeof name, "bench.small.key_%u", k);
            gsw_set_u32(gsw_add(&m, name), (uint32_t)(f * 9 + k));
        }
        for (unsigned t = 0; t < 8; t++) {
            snprintf(name, sizeof name, "bench.%u.weight", t);
            f32_tensor(&m, name, 256, &rng);
        }
        char path[4096];
        if (snprintf(path, sizeof path, "%s/small-%05ld.gguf", dir, f) >= (int)sizeof path) {
            fprintf(stderr, "gs_bench_inputs: directory name too long\n");
            gsw_model_free(&m);
            return 2;
        }
        const int rc = save(&m, path);
        gsw_model_free(&m);
        if (rc != 0) {
            return rc;
        }
    }
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: gs_bench_inputs keys N OUT | tensors N OUT | f16 MIB OUT [B] | "
                    "small COUNT DIR\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5) {
        return usage();
    }
    char *end = NULL;
    const long n = strtol(argv[2], &end, 10);
    if (*end != '\0' || n < 1) {
        return usage();
    }
    const char *kind = argv[1];
    if (strcmp(kind, "f16") == 0) {
        return n <= MAX_MIB ? gen_f16(n, argv[3], argc == 5 ? argv[4] : NULL) : usage();
    }
    if (argc != 4 || n > MAX_COUNT) {
        return usage();
    }
    if (strcmp(kind, "keys") == 0) {
        return gen_keys(n, argv[3]);
    }
    if (strcmp(kind, "tensors") == 0) {
        return gen_tensors(n, argv[3]);
    }
    if (strcmp(kind, "small") == 0) {
        return gen_small(n, argv[3]);
    }
    return usage();
}
