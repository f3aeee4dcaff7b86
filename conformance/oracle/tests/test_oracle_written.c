/* Files written by ggml's own writer with fresh random contents (runner/oracle_write.h: every
 * KV value type, every live tensor type, random bytes and ggml-quantized data): our reader must
 * accept each under both profiles, from the file and from memory, and see what ggml sees:
 * the same header, KV records and values, tensor directory and data offset, and on every
 * decoder path the same per-tensor dequantized SHA-256 (NaN rule) as ggml's to_float.
 *
 *   test_oracle_written GS_ORACLE WORK_DIR [N_FILES]
 * Seed: GGUFSAFE_ORACLE_SEED, else from the clock; printed. Exit 77 when ggml is unavailable
 * (unless GGUFSAFE_REQUIRE_ORACLE=1). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_bytes.h"
#include "ggufsafe.h"
#include "oracle_client.h"

#define N_VALUE_TYPES 13

typedef struct tally {
    size_t files, opens, tensors, hashes, no_reference, differences, failures;
    int tensor_types[GS_TYPE_COUNT];
    int value_types[N_VALUE_TYPES];
    int array_types[N_VALUE_TYPES];
} tally;

/* Our view of one open, on one kernel path, against ggml's. */
static void compare_one(const gsx_view *ggml, gs_file *f, gs_kernel k, const char *label,
                        tally *t)
{
    char full[600];
    snprintf(full, sizeof full, "%.500s [%s]", label, gs_kernel_name(k));
    if (gs_set_kernel(k) != GS_OK) {
        printf("FAIL: %s: cannot select the path\n", full);
        t->failures++;
        return;
    }
    gsx_view ours;
    const gs_status st = gsx_view_ours(f, GSX_VIEW_KV | GSX_VIEW_HASH, &ours);
    if (st != GS_OK) {
        printf("FAIL: %s: our view failed with %s\n", full, gs_status_name(st));
        t->failures++;
    } else {
        const gsx_view_diff d = gsx_view_compare(ggml, &ours, GSX_VIEW_KV | GSX_VIEW_HASH,
                                                 stdout, full);
        t->differences += d.differences;
        t->hashes += d.hashes_equal;
        t->no_reference += d.no_reference;
        t->tensors += ours.t_n;
    }
    gsx_view_free(&ours);
}

static void check_file(const char *oracle, const char *path, const gs_kernel *paths,
                       size_t n_paths, tally *t)
{
    gsx_view ggml;
    char detail[256];
    const gsx_verdict v = gsx_ggml_report(oracle, path, GSX_VIEW_KV | GSX_VIEW_HASH, 120, &ggml,
                                          detail, sizeof detail, NULL);
    if (v != GSX_ACCEPTED) {
        printf("FAIL: %s: ggml does not read its own file: %s (%s)\n", path,
               gsx_verdict_name(v), detail);
        t->failures++;
        return;
    }
    for (size_t i = 0; i < ggml.t_n; i++) {
        if (ggml.t[i].type >= 0 && ggml.t[i].type < GS_TYPE_COUNT) {
            t->tensor_types[ggml.t[i].type]++;
        }
    }
    for (size_t i = 0; i < ggml.kv_n; i++) {
        if (ggml.kv[i].type >= 0 && ggml.kv[i].type < N_VALUE_TYPES) {
            t->value_types[ggml.kv[i].type]++;
        }
        if (ggml.kv[i].elem >= 0 && ggml.kv[i].elem < N_VALUE_TYPES) {
            t->array_types[ggml.kv[i].elem]++;
        }
    }
    size_t size;
    uint8_t *bytes = gsx_read_file(path, &size);
    const gs_profile profiles[2] = {GS_PROFILE_STRICT, GS_PROFILE_LENIENT};
    for (int p = 0; p < 2; p++) {
        gs_options o;
        gs_options_init(&o);
        o.profile = profiles[p];
        for (int from_memory = 0; from_memory < 2; from_memory++) {
            gs_file *f = NULL;
            gs_error e;
            const gs_status st = from_memory
                                     ? gs_open_memory(bytes, size, &o, &f, &e)
                                     : gs_open_file(path, &o, &f, &e);
            char label[512];
            snprintf(label, sizeof label, "%.480s (%s, %s)", path, p ? "lenient" : "strict",
                     from_memory ? "memory" : "file");
            if (bytes == NULL || st != GS_OK) {
                printf("FAIL: %s: we reject ggml's file: %s at %llu (%s): %s\n", label,
                       gs_status_name(st), (unsigned long long)e.offset, e.context, e.detail);
                t->failures++;
                continue;
            }
            t->opens++;
            /* every path on the strict file open; the default path on the others */
            const size_t n = p == 0 && !from_memory ? n_paths : 1;
            for (size_t k = 0; k < n; k++) {
                compare_one(&ggml, f, paths[k], label, t);
            }
            gs_close(f);
        }
    }
    free(bytes);
    gsx_view_free(&ggml);
    t->files++;
}

int main(int argc, char **argv)
{
    const int start = gsx_oracle_start(argc, argv, 2, argc, "GS_ORACLE WORK_DIR [N_FILES]");
    if (start != 0) {
        return start;
    }
    const int n_files = argc > 3 ? atoi(argv[3]) : 6;
    const uint64_t seed = gsx_seed();
    printf("seed 0x%016llx (GGUFSAFE_ORACLE_SEED=0x%016llx repeats this run)\n",
           (unsigned long long)seed, (unsigned long long)seed);
    gs_kernel paths[3];
    const size_t n_paths = gsx_kernel_paths(paths);
    tally t;
    memset(&t, 0, sizeof t);
    /* one writer process for all files: ggml's quantizers initialise once */
    if (n_files < 1 || n_files > 64) {
        fprintf(stderr, "N_FILES must be 1..64\n");
        return 2;
    }
    static char paths_arg[64][4096], seeds_arg[64][32];
    char *wargv[3 + 2 * 64];
    int wn = 0;
    wargv[wn++] = argv[1];
    wargv[wn++] = "write";
    for (int i = 0; i < n_files; i++) {
        snprintf(paths_arg[i], sizeof paths_arg[i], "%s/ggml_written_%d.gguf", argv[2], i);
        snprintf(seeds_arg[i], sizeof seeds_arg[i], "0x%016llx",
                 (unsigned long long)(seed + (uint64_t)i));
        wargv[wn++] = seeds_arg[i];
        wargv[wn++] = paths_arg[i];
    }
    wargv[wn] = NULL;
    if (gsx_run_ok(wargv, 600) != 0) {
        printf("FAIL\n");
        return 1;
    }
    for (int i = 0; i < n_files; i++) {
        check_file(argv[1], paths_arg[i], paths, n_paths, &t);
    }
    gs_set_kernel(GS_KERNEL_AUTO);

    /* The writer must have covered every live tensor type and every value type. */
    int types_seen = 0, types_live = 0;
    for (int32_t ty = 0; ty < GS_TYPE_COUNT; ty++) {
        gs_type_info info;
        if (gs_type_get_info(ty, &info) == GS_OK) {
            types_live++;
            types_seen += t.tensor_types[ty] > 0;
        }
    }
    int values_seen = 0, arrays_seen = 0;
    for (int ty = 0; ty < N_VALUE_TYPES; ty++) {
        values_seen += t.value_types[ty] > 0;
        arrays_seen += ty != 9 && t.array_types[ty] > 0;
    }
    if (t.files > 0 && (types_seen != types_live || values_seen != N_VALUE_TYPES ||
                        arrays_seen != N_VALUE_TYPES - 1)) {
        printf("FAIL: coverage: %d of %d tensor types, %d of %d value types, %d of %d array "
               "element types\n", types_seen, types_live, values_seen, N_VALUE_TYPES,
               arrays_seen, N_VALUE_TYPES - 1);
        t.failures++;
    }
    printf("%zu files written by ggml (%d tensor types, %d value types), %zu opens "
           "(strict/lenient x file/memory), %zu tensor comparisons over %zu path(s):",
           t.files, types_seen, values_seen, t.opens, t.tensors, n_paths);
    for (size_t k = 0; k < n_paths; k++) {
        printf(" %s", gs_kernel_name(paths[k]));
    }
    printf("; %zu decoded hashes equal to ggml's, %zu without a ggml decoder (q8_1), "
           "%zu differences\n", t.hashes, t.no_reference, t.differences);
    const int failed = t.failures > 0 || t.differences > 0 || t.files != (size_t)n_files;
    printf("%s\n", failed ? "FAIL" : "PASS");
    return failed;
}
