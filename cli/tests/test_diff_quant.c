/* `ggufsafe diff` as the regression kit it is for: an F32 model against its Q8_0 and Q4_0
 * copies (made by the test-side quantizer, quant_ref.c, and written by the test-only writer),
 * with NMSE ordered as expected and below documented bounds; with ggml's oracle available, also
 * against Q4_K and IQ4_XS copies quantized by ggml itself.
 *
 * The bounds (docs/diff.md, "Expected error on Gaussian weights"). For Gaussian data quantized in
 * blocks of 32 with a scale set by the block's largest magnitude (about 2.1 sigma for 32
 * samples), the rounding error is uniform over one step, so NMSE ~ step^2 / 12 / sigma^2:
 *   Q8_0, step amax/127: ~2.3e-5 (measured 2.85e-5), asserted below 1e-4;
 *   Q4_0, step amax/8:   ~6e-3 plus the clamp at +7 steps (measured 7.35e-3), below 1e-2.
 * ggml's Q4_K (8 sub-blocks of 32 with 6-bit scale and min) and IQ4_XS (a non-uniform 4-bit
 * grid, 4.25 bits per weight) land between the two: measured 5.1e-3 and 5.9e-3 on 64 rows of
 * 256, asserted below 7e-3 and between Q8_0 and Q4_0. The data are seeded, so every figure is
 * the same on every run; the bounds leave room for a deliberate change of the test data. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block_layout.h"
#include "cli_test.h"
#include "diff_test_util.h"
#include "ggufsafe.h"
#include "gsw_model.h"
#include "le_load.h"
#include "quant_ref.h"

#define Q8_0_BOUND 1e-4
#define Q4_0_BOUND 1e-2
#define K_I_BOUND 7e-3

DT_SCRATCH_SUITE(diff_quant);

static float half_value(uint16_t h)
{
    float f;
    cr_assert_eq(gs_dequantize(GS_TYPE_F16, &h, 2, &f, 1), GS_OK);
    return f;
}

/* The quantizer's f16 scales: every finite half survives a round trip through the library's
 * decoder, and a value halfway between two neighbours rounds to the even one. */
Test(diff_quant, f16_rounding_is_nearest_even)
{
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0) {
            continue; /* NaN */
        }
        float f = half_value((uint16_t)h);
        cr_assert_eq(qr_f32_to_f16(f), h, "half 0x%04x (%g)", h, (double)f);
        if ((h & 0x7fff) < 0x7bff) {
            float next = half_value((uint16_t)(h + 1));
            float mid = (float)(((double)f + (double)next) / 2); /* exact: 12 bits */
            uint32_t even = (h & 1) == 0 ? h : h + 1;
            cr_assert_eq(qr_f32_to_f16(mid), even, "midpoint after 0x%04x", h);
        }
    }
    cr_assert_eq(qr_f32_to_f16(65520.0f), 0x7c00, "rounds up past the largest half");
    cr_assert_eq(qr_f32_to_f16(1e-8f), 0x0000);
}

/* Blocks written by the quantizer decode (through the library) to within the step they claim:
 * half a step for Q8_0 (plus the scale's f16 rounding), one step for Q4_0 (its clamp). */
Test(diff_quant, quantized_blocks_decode_within_a_step)
{
    enum { N = 32 * 64 };
    float *src = malloc(N * sizeof *src), *dec = malloc(N * sizeof *dec);
    uint8_t *q = malloc(N / 32 * GSI_Q8_0_BYTES);
    qr_gaussian(5, 1.0f, src, N);
    for (int k = 0; k < 2; k++) {
        gs_type type = k == 0 ? GS_TYPE_Q8_0 : GS_TYPE_Q4_0;
        size_t block_bytes = k == 0 ? GSI_Q8_0_BYTES : GSI_Q4_0_BYTES;
        size_t d_at = k == 0 ? GSI_Q8_0_D : GSI_Q4_0_D;
        if (k == 0) {
            qr_quantize_q8_0(src, N, q);
        } else {
            qr_quantize_q4_0(src, N, q);
        }
        cr_assert_eq(gs_dequantize(type, q, N / 32 * block_bytes, dec, N), GS_OK);
        for (size_t b = 0; b < N / 32; b++) {
            uint16_t h = gsi_load_u16le(q + b * block_bytes + d_at);
            double step = fabs((double)half_value(h));
            cr_assert_gt(step, 0);
            for (size_t j = 0; j < 32; j++) {
                double err = fabs((double)dec[b * 32 + j] - (double)src[b * 32 + j]);
                cr_assert_leq(err, (k == 0 ? 0.6 : 1.1) * step, "%s block %zu element %zu",
                              k == 0 ? "q8_0" : "q4_0", b, j);
            }
        }
    }
    free(src);
    free(dec);
    free(q);
}

/* Runs diff ref cand --json and returns the NMSE of tensor `name`, checked against the
 * whole-tensor computation. */
static double nmse_of(const char *ref, const char *cand, const char *name)
{
    run_result r;
    cr_assert(run_cli(&r, "diff", ref, cand, "--json", NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out, "/command=\"diff\"", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    double got;
    cr_assert(dt_json_number(r.out, name, "nmse", &got), "%s", r.out);
    run_result_free(&r);
    size_t na, nb;
    float *a = dt_decode_whole(ref, name, &na);
    float *b = dt_decode_whole(cand, name, &nb);
    cr_assert(a != NULL && b != NULL && na == nb);
    dt_metrics want;
    dt_metrics_whole(a, b, na, 32, &want);
    cr_expect_eq(got, want.nmse, "%s: diff %.17g, whole tensor %.17g", name, got, want.nmse);
    free(a);
    free(b);
    return got;
}

/* A small "model": two Gaussian matrices of different scales and a norm vector, which the
 * copies keep in F32 (as llama.cpp's quantizer does), so its error is exactly zero. */
static const char *write_model(const char *file, int32_t matrix_type)
{
    static const uint64_t q_ne[2] = {4096, 16}, d_ne[2] = {1024, 64}, n_ne[1] = {4096};
    float *v = malloc(65536 * sizeof *v);
    gsw_model m;
    llama_model(&m);
    qr_gaussian(21, 0.02f, v, 65536);
    dt_add_tensor(&m, "blk.0.attn_q.weight", 2, q_ne, matrix_type, v);
    qr_gaussian(22, 1.0f, v, 65536);
    dt_add_tensor(&m, "blk.0.ffn_down.weight", 2, d_ne, matrix_type, v);
    for (size_t i = 0; i < 4096; i++) {
        v[i] = 1.0f + 0.01f * (float)(i % 7);
    }
    dt_add_tensor(&m, "output_norm.weight", 1, n_ne, GS_TYPE_F32, v);
    free(v);
    const char *path;
    DT_SAVE(path, &m, file);
    return path;
}

Test(diff_quant, nmse_of_q8_0_and_q4_0_copies)
{
    const char *ref = write_model("ref.gguf", GS_TYPE_F32);
    const char *q8 = write_model("q8_0.gguf", GS_TYPE_Q8_0);
    const char *q4 = write_model("q4_0.gguf", GS_TYPE_Q4_0);
    static const char *const matrices[2] = {"blk.0.attn_q.weight", "blk.0.ffn_down.weight"};
    for (int t = 0; t < 2; t++) {
        double n8 = nmse_of(ref, q8, matrices[t]);
        double n4 = nmse_of(ref, q4, matrices[t]);
        fprintf(stderr, "diff_quant: %s: NMSE q8_0 %.6g, q4_0 %.6g\n", matrices[t], n8, n4);
        cr_expect(n8 > 0 && n8 < Q8_0_BOUND, "%s q8_0 NMSE %g", matrices[t], n8);
        cr_expect(n4 > n8 && n4 < Q4_0_BOUND, "%s q4_0 NMSE %g", matrices[t], n4);
    }
    /* the gate at the documented bounds, and the order between the two */
    run_result r;
    cr_assert(run_cli(&r, "diff", ref, q8, "--max-nmse", "1e-4", NULL));
    cr_expect_eq(r.status, 0, "%s", r.out);
    cr_expect(contains(r.out, "  output_norm.weight "), "%s", r.out);
    cr_expect(contains(r.out, "gate: --max-nmse 0.0001: 0 tensors fail; PASS\n"), "%s", r.out);
    run_result_free(&r);
    cr_assert(run_cli(&r, "diff", ref, q4, "--max-nmse", "1e-2", NULL));
    cr_expect_eq(r.status, 0, "%s", r.out);
    run_result_free(&r);
    cr_assert(run_cli(&r, "diff", ref, q4, "--max-nmse", "1e-4", NULL));
    cr_expect_eq(r.status, 1, "q4_0 is above q8_0's bound: %s", r.out);
    cr_expect(contains(r.out, ": 2 tensors fail; FAIL\n"), "%s", r.out);
    run_result_free(&r);
    /* the norm, kept F32 on both sides, is exactly equal */
    cr_assert(run_cli(&r, "diff", ref, q4, "--tensor", "output_norm.weight", "--max-abs", "0",
                      NULL));
    cr_expect_eq(r.status, 0, "%s", r.out);
    run_result_free(&r);
}

/* ggml_quantize_chunk through the oracle runner (conformance/oracle/, gs_oracle quantize TYPE
 * ROWS SEED OUT: the same Gaussian rows of 256 for every type with one seed). F32 is not among
 * ggml's to_float types, so the reference is ggml's F16 copy of the rows. Skipped without the
 * oracle; with GGUFSAFE_REQUIRE_ORACLE=1, a built runner that cannot load ggml fails. */
static bool oracle_required(void)
{
    const char *v = getenv("GGUFSAFE_REQUIRE_ORACLE");
    return v != NULL && strcmp(v, "1") == 0;
}

/* What the oracle quantizes: ROWS rows of 256 elements, to each of these types (ggml's type id,
 * its name, ours, and the bytes ggml writes for the N elements); f16 first, the reference. */
enum { ROWS = 64, N = 256 * ROWS };
static const struct {
    const char *id, *name;
    int32_t type;
    size_t bytes;
} types[] = {
    {"1", "f16", GS_TYPE_F16, N * 2},          {"8", "q8_0", GS_TYPE_Q8_0, N / 32 * 34},
    {"2", "q4_0", GS_TYPE_Q4_0, N / 32 * 18},  {"12", "q4_K", GS_TYPE_Q4_K, N / 256 * 144},
    {"23", "iq4_xs", GS_TYPE_IQ4_XS, N / 256 * 136},
};
enum { N_TYPES = sizeof types / sizeof types[0] };

Test(diff_quant, ggml_quantized_q4_K_and_iq4_xs_copies)
{
    const char *oracle = getenv("GS_ORACLE");
    if (oracle == NULL || oracle[0] == '\0') {
        /* a build without the oracle: like the oracle's own tests, which it does not build */
        cr_skip_test("gs_oracle is not built (configure with -DGGUFSAFE_ORACLE=ON)");
    }
    const char *raw[N_TYPES];
    const char *argv[4 + 4 * N_TYPES + 1] = {oracle, "quantize"};
    int argc = 2;
    for (int k = 0; k < N_TYPES; k++) {
        char file[32];
        snprintf(file, sizeof file, "%s.bin", types[k].name);
        raw[k] = dt_scratch_path(&scratch, file);
        argv[argc++] = types[k].id;
        argv[argc++] = "64";
        argv[argc++] = "20261129";
        argv[argc++] = raw[k];
    }
    argv[argc] = NULL;
    run_result r;
    cr_assert(run_program(argv, &r), "cannot start %s", oracle);
    if (r.status == 3 || r.status == 4) { /* GSX_EXIT_UNAVAILABLE, GSX_EXIT_BAD_LIBRARY */
        cr_assert(!oracle_required(), "ggml is required but unavailable: %s", r.err);
        fprintf(stderr, "diff_quant: skipped: %s", r.err);
        run_result_free(&r);
        cr_skip_test("ggml's library is not available (run ci/oracle_fetch.sh)");
    }
    cr_assert_eq(r.status, 0, "gs_oracle quantize: exit %d: %s", r.status, r.err);
    run_result_free(&r);

    const char *files[N_TYPES];
    const uint64_t ne[2] = {256, ROWS};
    for (int k = 0; k < N_TYPES; k++) {
        size_t len;
        char *bytes = read_file(raw[k], &len);
        cr_assert(bytes != NULL && len == types[k].bytes, "%s: %zu bytes", types[k].name, len);
        gsw_model m;
        gsw_model_init(&m, 3);
        gsw_tensor *t = gsw_add_tensor(&m, "w", 2, ne, types[k].type);
        gsw_tensor_set_data(t, bytes, len);
        char file[32];
        snprintf(file, sizeof file, "%s.gguf", types[k].name);
        files[k] = dt_scratch_path(&scratch, file);
        cr_assert(dt_save(&m, files[k]));
        gsw_model_free(&m);
        free(bytes);
    }
    double nmse[N_TYPES];
    for (int k = 1; k < N_TYPES; k++) {
        nmse[k] = nmse_of(files[0], files[k], "w");
        fprintf(stderr, "diff_quant: ggml %s against ggml's f16 reference: NMSE %.6g\n",
                types[k].name, nmse[k]);
    }
    cr_expect(nmse[1] > 0 && nmse[1] < Q8_0_BOUND, "q8_0 %g", nmse[1]);
    cr_expect(nmse[2] > nmse[1] && nmse[2] < Q4_0_BOUND, "q4_0 %g", nmse[2]);
    for (int k = 3; k < N_TYPES; k++) {
        cr_expect(nmse[k] > nmse[1] && nmse[k] < K_I_BOUND && nmse[k] < nmse[2], "%s %g",
                  types[k].name, nmse[k]);
    }
}

/* Saves report text to $GS_DIFF_NOTE_DIR/<name> when that is set (the figures of a closing
 * note or a review); the assertions do not depend on it. */
static void keep_report(const char *name, const char *text)
{
    const char *dir = getenv("GS_DIFF_NOTE_DIR");
    if (dir == NULL || dir[0] == '\0') {
        return;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

/* A model of four ggml-quantized matrices in two layers, in F16 (the reference), Q8_0, Q4_0,
 * Q4_K and IQ4_XS, and a Q4_K copy that lost blk.1.ffn_up.weight: the gate, old against new
 * and the roll-ups on files ggml wrote. */
Test(diff_quant, ggml_quantized_model_gate_three_way_and_rollups)
{
    const char *oracle = getenv("GS_ORACLE");
    if (oracle == NULL || oracle[0] == '\0') {
        cr_skip_test("gs_oracle is not built (configure with -DGGUFSAFE_ORACLE=ON)");
    }
    enum { N_TENSORS = 4 };
    static const char *const names[N_TENSORS] = {"blk.0.attn_q.weight", "blk.0.ffn_up.weight",
                                                 "blk.1.attn_q.weight", "blk.1.ffn_up.weight"};
    static const char *const seeds[N_TENSORS] = {"101", "102", "103", "104"};
    const char *raw[N_TYPES][N_TENSORS];
    const char *argv[2 + 4 * N_TYPES * N_TENSORS + 1] = {oracle, "quantize"};
    int argc = 2;
    for (int k = 0; k < N_TYPES; k++) {
        for (int t = 0; t < N_TENSORS; t++) {
            char file[48];
            snprintf(file, sizeof file, "%s.%d.bin", types[k].name, t);
            raw[k][t] = dt_scratch_path(&scratch, file);
            argv[argc++] = types[k].id;
            argv[argc++] = "64";
            argv[argc++] = seeds[t];
            argv[argc++] = raw[k][t];
        }
    }
    argv[argc] = NULL;
    run_result r;
    cr_assert(run_program(argv, &r), "cannot start %s", oracle);
    if (r.status == 3 || r.status == 4) {
        cr_assert(!oracle_required(), "ggml is required but unavailable: %s", r.err);
        run_result_free(&r);
        cr_skip_test("ggml's library is not available (run ci/oracle_fetch.sh)");
    }
    cr_assert_eq(r.status, 0, "gs_oracle quantize: exit %d: %s", r.status, r.err);
    run_result_free(&r);
    const char *files[N_TYPES + 1];
    const uint64_t ne[2] = {256, ROWS};
    for (int k = 0; k <= N_TYPES; k++) {
        int type = k < N_TYPES ? k : 3; /* the last: Q4_K without blk.1.ffn_up.weight */
        gsw_model m;
        llama_model(&m);
        char *bytes[N_TENSORS] = {NULL};
        for (int t = 0; t < N_TENSORS - (k == N_TYPES); t++) {
            size_t len;
            bytes[t] = read_file(raw[type][t], &len);
            cr_assert(bytes[t] != NULL && len == types[type].bytes, "%s: %zu bytes",
                      types[type].name, len);
            gsw_tensor *w = gsw_add_tensor(&m, names[t], 2, ne, types[type].type);
            gsw_tensor_set_data(w, bytes[t], len);
        }
        char file[32];
        snprintf(file, sizeof file, "%s.gguf", k < N_TYPES ? types[k].name : "q4_K-dropped");
        files[k] = dt_scratch_path(&scratch, file);
        cr_assert(dt_save(&m, files[k]));
        gsw_model_free(&m);
        for (int t = 0; t < N_TENSORS; t++) {
            free(bytes[t]);
        }
    }
    const char *ref = files[0], *q8 = files[1], *q4 = files[2], *q4k = files[3];
    const char *dropped = files[N_TYPES];

    /* a dropped tensor fails the gate, and passes only when allowed */
    CLI_RUN(r, 1, "diff", ref, dropped, "--max-nmse", "1");
    cr_expect(strstr(r.out, "; 1 missing in B; FAIL\n  missing             blk.1.ffn_up.weight: "
                            "in A, not in B") != NULL,
              "%s", r.out);
    keep_report("gate-dropped.txt", r.out);
    run_result_free(&r);
    CLI_RUN(r, 0, "diff", ref, dropped, "--max-nmse", "1", "--allow-missing");
    keep_report("gate-dropped-allowed.txt", r.out);
    run_result_free(&r);

    /* Q4_0 is worse than Q8_0 on every tensor; the other way round passes */
    CLI_RUN(r, 1, "diff", ref, q8, q4, "--max-nmse-ratio", "1");
    cr_expect(strstr(r.out, "gate: --max-nmse-ratio 1: 4 tensors fail; FAIL\n") != NULL, "%s",
              r.out);
    keep_report("three-way-q8_0-q4_0.txt", r.out);
    run_result_free(&r);
    CLI_RUN(r, 0, "diff", ref, q4, q8, "--max-nmse-ratio", "1");
    cr_expect(strstr(r.out, "gate: --max-nmse-ratio 1: 0 tensors fail; PASS\n") != NULL, "%s",
              r.out);
    keep_report("three-way-q4_0-q8_0.txt", r.out);
    run_result_free(&r);

    /* roll-ups: ggml's block sizes give the bits per weight; the error falls as they rise */
    static const struct {
        int file;
        const char *bpw;
    } bits[] = {{1, "8.5"}, {2, "4.5"}, {3, "4.5"}, {4, "4.25"}};
    double nmse[N_TYPES] = {0};
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
        int k = bits[i].file;
        cr_assert(run_cli(&r, "diff", ref, files[k], "--json", NULL));
        cr_assert_eq(r.status, 0, "%s", r.err);
        char want[64];
        snprintf(want, sizeof want, "\"bits_per_weight\": %s,", bits[i].bpw);
        const char *total = strstr(r.out, "\"total\": {\n      \"tensors\": 4");
        cr_assert_not_null(total, "%s", r.out);
        cr_expect(strstr(total, want) != NULL, "%s: %s", types[k].name, want);
        const char *n = strstr(total, "\"nmse\": ");
        cr_assert_not_null(n);
        nmse[k] = strtod(n + 8, NULL);
        run_result_free(&r);
        cr_assert(run_cli(&r, "diff", ref, files[k], NULL));
        char name[48];
        snprintf(name, sizeof name, "rollups-%s.txt", types[k].name);
        keep_report(name, r.out);
        run_result_free(&r);
    }
    cr_expect(nmse[1] > 0 && nmse[1] < nmse[3] && nmse[3] < nmse[2] && nmse[4] < nmse[2],
              "q8_0 %g q4_0 %g q4_K %g iq4_xs %g", nmse[1], nmse[2], nmse[3], nmse[4]);
    cr_assert(run_cli(&r, "diff", ref, q4, q4k, "--max-nmse-ratio", "1", "--worst", "2", NULL));
    cr_expect_eq(r.status, 0, "Q4_K no worse than Q4_0: %s%s", r.out, r.err);
    keep_report("three-way-q4_0-q4_K.txt", r.out);
    run_result_free(&r);
}
