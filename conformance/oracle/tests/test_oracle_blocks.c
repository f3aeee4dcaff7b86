/* Random blocks of every type ggml can decode, through ggml's to_float (and
 * dequantize_row_q8_K) and through each of our decoder paths: the outputs must be identical
 * bit for bit under the NaN rule. Two input sets per type: uniformly random bytes (every scale
 * bit pattern: NaN, Inf, subnormal, signed zero) and blocks ggml's quantizer made from
 * Gaussian data. Our side also decodes prefixes of 1, 2, 3, ... blocks from an odd address,
 * which must match the head of ggml's output.
 *
 *   test_oracle_blocks GS_ORACLE WORK_DIR
 * Seed: GGUFSAFE_ORACLE_SEED, else from the clock; printed. Exit 77 when ggml is unavailable
 * (unless GGUFSAFE_REQUIRE_ORACLE=1). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_bytes.h"
#include "ggufsafe.h"
#include "gsw_sha256.h"
#include "oracle_client.h"

#define QUANT_ROWS 16 /* rows of 256 elements (or one block) quantized by ggml */

/* Types ggml has a decoder for: every type with a to_float, plus Q8_K. Q8_1 has none. */
static int ggml_decodes(int32_t t, gs_type_info *info)
{
    return gs_type_get_info(t, info) == GS_OK && info->decodable && t != GS_TYPE_F32 &&
           t != GS_TYPE_Q8_1;
}

static uint64_t rng_state;

static uint64_t next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Index of the first element whose canonical bits differ, or n. */
static size_t first_difference(const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (gsw_nan_canonical_bits(a[i]) != gsw_nan_canonical_bits(b[i])) {
            return i;
        }
    }
    return n;
}

typedef struct tally {
    size_t sets, blocks, elements, prefix_runs, failures;
} tally;

/* One input set of one type on every path: whole run, then prefixes from an odd address. */
static void compare_set(int32_t t, const gs_type_info *info, const char *set, const char *in_path,
                        const char *out_path, const gs_kernel *paths, size_t n_paths, tally *tl)
{
    size_t in_size, out_size;
    uint8_t *in = gsx_read_file(in_path, &in_size);
    float *ref = (float *)(void *)gsx_read_file(out_path, &out_size);
    const size_t n_blocks = in != NULL ? in_size / info->block_bytes : 0;
    const size_t n = n_blocks * info->block_elems;
    float *ours = malloc(n * sizeof *ours + 1);
    uint8_t *odd = malloc(in_size + 1);
    if (in == NULL || ref == NULL || ours == NULL || odd == NULL || out_size != n * sizeof(float) ||
        n_blocks == 0) {
        printf("FAIL: %s %s: ggml's output missing or of the wrong size\n", info->name, set);
        tl->failures++;
        goto out;
    }
    memcpy(odd + 1, in, in_size);
    for (size_t k = 0; k < n_paths; k++) {
        if (gs_set_kernel(paths[k]) != GS_OK) {
            tl->failures++;
            continue;
        }
        gs_status st = gs_dequantize((gs_type)t, in, in_size, ours, n);
        size_t at = st == GS_OK ? first_difference(ref, ours, n) : 0;
        if (st != GS_OK || at != n) {
            uint32_t a = 0, b = 0;
            memcpy(&a, &ref[at], 4);
            memcpy(&b, &ours[at], 4);
            printf("FAIL: %s %s [%s]: %s; element %zu (block %zu): ggml 0x%08x, ours 0x%08x\n",
                   info->name, set, gs_kernel_name(paths[k]), gs_status_name(st), at,
                   at / info->block_elems, a, b);
            tl->failures++;
            continue;
        }
        /* prefixes of 1..17 blocks and of all but one, decoded from an odd address */
        size_t lengths[18], n_lengths = 0;
        for (size_t m = 1; m <= 17 && m <= n_blocks; m++) {
            lengths[n_lengths++] = m;
        }
        if (n_blocks - 1 > 17) {
            lengths[n_lengths++] = n_blocks - 1;
        }
        for (size_t j = 0; j < n_lengths; j++) {
            const size_t m = lengths[j], e = m * info->block_elems;
            memset(ours, 0xFF, e * sizeof *ours);
            st = gs_dequantize((gs_type)t, odd + 1, m * info->block_bytes, ours, e);
            at = st == GS_OK ? first_difference(ref, ours, e) : 0;
            tl->prefix_runs++;
            if (st != GS_OK || at != e) {
                printf("FAIL: %s %s [%s]: %zu blocks at an odd address: %s, element %zu differs\n",
                       info->name, set, gs_kernel_name(paths[k]), m, gs_status_name(st), at);
                tl->failures++;
                break;
            }
        }
    }
    tl->sets++;
    tl->blocks += n_blocks;
    tl->elements += n;
out:
    free(in);
    free(ref);
    free(ours);
    free(odd);
}

int main(int argc, char **argv)
{
    const int start = gsx_oracle_start(argc, argv, 2, argc, "GS_ORACLE WORK_DIR");
    if (start != 0) {
        return start;
    }
    const uint64_t seed = gsx_seed();
    rng_state = seed;
    printf("seed 0x%016llx (GGUFSAFE_ORACLE_SEED=0x%016llx repeats this run)\n",
           (unsigned long long)seed, (unsigned long long)seed);
    gs_kernel paths[3];
    const size_t n_paths = gsx_kernel_paths(paths);
    tally tl = {0, 0, 0, 0, 0};

    /* Input and output file names per type: random bytes (every type ggml decodes) and
     * ggml-quantized blocks (all of them but Q8_K, which ggml does not quantize to). */
    static char rnames[GS_TYPE_COUNT][2][4096], qnames[GS_TYPE_COUNT][2][4096];
    static char targ[GS_TYPE_COUNT][8], qseed[GS_TYPE_COUNT][32];
    char qrows[8];
    snprintf(qrows, sizeof qrows, "%d", QUANT_ROWS);
    char *qargv[3 + 4 * GS_TYPE_COUNT], *fargv[3 + 6 * GS_TYPE_COUNT];
    int qn = 0, fn = 0;
    qargv[qn++] = argv[1];
    qargv[qn++] = "quantize";
    fargv[fn++] = argv[1];
    fargv[fn++] = "to-float";
    gs_type_info info;
    for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
        if (!ggml_decodes(t, &info)) {
            continue;
        }
        snprintf(targ[t], sizeof targ[t], "%d", t);
        snprintf(rnames[t][0], sizeof rnames[t][0], "%s/%s.rand.in", argv[2], info.name);
        snprintf(rnames[t][1], sizeof rnames[t][1], "%s/%s.rand.ggml", argv[2], info.name);
        snprintf(qnames[t][0], sizeof qnames[t][0], "%s/%s.real.in", argv[2], info.name);
        snprintf(qnames[t][1], sizeof qnames[t][1], "%s/%s.real.ggml", argv[2], info.name);

        /* about 64K elements of random bytes, at least 64 blocks */
        const size_t n_blocks = 65536 / info.block_elems < 64 ? 64 : 65536 / info.block_elems;
        const size_t bytes = n_blocks * info.block_bytes;
        uint8_t *buf = malloc(bytes);
        if (buf == NULL) {
            return 1;
        }
        for (size_t i = 0; i < bytes; i++) {
            buf[i] = (uint8_t)next();
        }
        const int rc = gsx_write_file(rnames[t][0], buf, bytes);
        free(buf);
        if (rc != 0) {
            printf("FAIL: cannot write %s\n", rnames[t][0]);
            return 1;
        }
        fargv[fn++] = targ[t];
        fargv[fn++] = rnames[t][0];
        fargv[fn++] = rnames[t][1];
        if (t != GS_TYPE_Q8_K) {
            snprintf(qseed[t], sizeof qseed[t], "%llu", (unsigned long long)next());
            qargv[qn++] = targ[t];
            qargv[qn++] = qrows;
            qargv[qn++] = qseed[t];
            qargv[qn++] = qnames[t][0];
            fargv[fn++] = targ[t];
            fargv[fn++] = qnames[t][0];
            fargv[fn++] = qnames[t][1];
        }
    }
    qargv[qn] = NULL;
    fargv[fn] = NULL;
    /* ggml quantizes first (the .real.in files), then decodes every set */
    if (gsx_run_ok(qargv, 300) != 0 || gsx_run_ok(fargv, 300) != 0) {
        return 1;
    }

    /* 3. Ours against ggml's, every set on every path. */
    int types = 0;
    for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
        if (!ggml_decodes(t, &info)) {
            continue;
        }
        types++;
        compare_set(t, &info, "random", rnames[t][0], rnames[t][1], paths, n_paths, &tl);
        if (t != GS_TYPE_Q8_K) {
            compare_set(t, &info, "quantized", qnames[t][0], qnames[t][1], paths, n_paths, &tl);
        }
    }
    gs_set_kernel(GS_KERNEL_AUTO);
    printf("%d types, %zu input sets, %zu blocks (%zu elements) on %zu path(s):", types, tl.sets,
           tl.blocks, tl.elements, n_paths);
    for (size_t k = 0; k < n_paths; k++) {
        printf(" %s", gs_kernel_name(paths[k]));
    }
    printf("; %zu prefix runs from odd addresses; %zu failures\n", tl.prefix_runs, tl.failures);
    const int failed = tl.failures > 0 || types != 28;
    if (types != 28) {
        printf("FAIL: expected the 28 types ggml decodes, found %d\n", types);
    }
    printf("%s\n", failed ? "FAIL" : "PASS");
    return failed;
}
