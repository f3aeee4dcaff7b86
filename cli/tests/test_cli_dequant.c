#define _POSIX_C_SOURCE 200809L
/* `ggufsafe dequant`: the --sha256 output on the ggml-written sample equals ggml's own list byte
 * for byte on every decoder path; --out writes the decoder's exact values; --json validates. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_test.h"
#include "ggufsafe.h"
#include "gsw_sha256.h"
#include "gsw_write.h"

static char *dir;
static char *sample;
static char *expected; /* ggml-written.dequant.sha256 */
static size_t expected_len;

static void setup(void)
{
    cr_assert_not_null(cli_binary(), "GS_CLI is not set: run through ctest");
    sample = source_path("conformance/samples/ggml-written.gguf");
    char *list = source_path("conformance/samples/ggml-written.dequant.sha256");
    expected = read_file(list, &expected_len);
    cr_assert_not_null(expected);
    free(list);
    dir = scratch_dir();
}

static void teardown(void)
{
    scratch_remove(dir);
    free(sample);
    free(expected);
}

TestSuite(dequant, .init = setup, .fini = teardown);

static void sha256_matches_ggml_on(const char *kernel)
{
    if (kernel != NULL) {
        setenv("GGUFSAFE_KERNEL", kernel, 1);
    }
    run_result r;
    cr_assert(run_cli(&r, "dequant", sample, "--sha256", NULL));
    unsetenv("GGUFSAFE_KERNEL");
    cr_assert_eq(r.status, 0, "%s: %s", kernel ? kernel : "auto", r.err);
    cr_assert_eq(r.out_len, expected_len, "%s:\n%s", kernel ? kernel : "auto", r.out);
    cr_assert(memcmp(r.out, expected, expected_len) == 0, "%s:\n%s", kernel ? kernel : "auto",
              r.out);
    run_result_free(&r);
}

Test(dequant, sha256_equals_ggml_list_byte_for_byte)
{
    sha256_matches_ggml_on(NULL);
    sha256_matches_ggml_on("scalar");
}

Test(dequant, every_available_path_gives_the_same_hashes)
{
    static const struct {
        gs_kernel k;
        const char *name;
    } paths[] = {{GS_KERNEL_AVX2, "avx2"}, {GS_KERNEL_NEON, "neon"}};
    for (size_t i = 0; i < 2; i++) {
        if (gs_set_kernel(paths[i].k) == GS_OK) {
            sha256_matches_ggml_on(paths[i].name);
        } else {
            /* a path this CPU lacks is refused, never silently replaced */
            setenv("GGUFSAFE_KERNEL", paths[i].name, 1);
            run_result r;
            cr_assert(run_cli(&r, "dequant", sample, "--sha256", NULL));
            unsetenv("GGUFSAFE_KERNEL");
            cr_assert_eq(r.status, 2, "%s", r.err);
            cr_assert(contains(r.err, "GS_E_KERNEL_UNAVAILABLE"), "%s", r.err);
            cr_assert_eq(r.out_len, 0);
            run_result_free(&r);
        }
    }
}

Test(dequant, out_writes_the_decoded_values)
{
    char *out = path_join(dir, "t.f32");
    run_result r;
    cr_assert(run_cli(&r, "dequant", sample, "--tensor", "blk.0.q6_K.weight", "--out", out, NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_result_free(&r);
    size_t len;
    char *bytes = read_file(out, &len);
    cr_assert_eq(len, 512 * 8 * 4);
    gs_file *f;
    cr_assert_eq(gs_open_file(sample, NULL, &f, NULL), GS_OK);
    size_t idx;
    cr_assert_eq(gs_tensor_find(f, "blk.0.q6_K.weight", &idx), GS_OK);
    float *want = malloc(len);
    cr_assert_eq(gs_tensor_dequantize(f, idx, want, 4096), GS_OK);
    cr_assert(memcmp(bytes, want, len) == 0, "little-endian host: raw floats");
    gs_close(f);
    free(want);
    free(bytes);
    /* every decodable tensor, concatenated: 28 tensors of 4096 elements */
    cr_assert(run_cli(&r, "dequant", sample, "--out", out, NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_result_free(&r);
    bytes = read_file(out, &len);
    cr_assert_eq(len, 28 * 4096 * 4);
    free(bytes);
    free(out);
}

Test(dequant, statistics_and_json)
{
    run_result r;
    cr_assert(run_cli(&r, "dequant", sample, "--tensor", "blk.0.q8_0.weight", NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(contains(r.out, "blk.0.q8_0.weight"), "%s", r.out);
    cr_assert(contains(r.out, "q8_0"));
    cr_assert(contains(r.out, "NaN 0 Inf 0"), "%s", r.out);
    run_result_free(&r);
    cr_assert(run_cli(&r, "dequant", sample, "--json", NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(check_json(dir, "dequant.schema.json", r.out,
                            "/tensors/0/name=\"blk.0.q4_0.weight\"",
                            "/tensors/0/sha256="
                            "\"b893c67c3f99bf81605c516b854724fce61b855e21ce52b58aac1b9cd97eea18\"",
                            "/tensors/28/sha256=null", "/tensors/28/type=\"i8\"",
                            "/tensors/0/nan_count=0", NULL),
                 0);
    run_result_free(&r);
}

Test(dequant, usage_and_failures)
{
    run_result r;
    cr_assert(run_cli(&r, "dequant", sample, "--tensor", "nope", NULL));
    cr_assert_eq(r.status, 2);
    cr_assert(contains(r.err, "no tensor named 'nope'"), "%s", r.err);
    run_result_free(&r);
    cr_assert(run_cli(&r, "dequant", NULL));
    cr_assert_eq(r.status, 2);
    run_result_free(&r);
    cr_assert(run_cli(&r, "dequant", sample, "--sha256", "--json", NULL));
    cr_assert_eq(r.status, 2);
    run_result_free(&r);
    cr_assert(run_cli(&r, "dequant", sample, "--out", "/nonexistent/dir/x.f32", NULL));
    cr_assert_eq(r.status, 2);
    run_result_free(&r);
    /* a copy whose tensor data is cut short: the reader refuses it (exit 1) */
    size_t len;
    char *bytes = read_file(sample, &len);
    char *cut = path_join(dir, "cut.gguf");
    cr_assert(write_file(cut, bytes, len - 5000));
    cr_assert(run_cli(&r, "dequant", cut, "--sha256", NULL));
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert(contains(r.err, "GS_E_DATA_OUTSIDE_FILE"), "%s", r.err);
    run_result_free(&r);
    free(cut);
    free(bytes);
}

/* --sha256 hashes NaN as the one canonical 0x7FC00000 (docs/cli.md): f32 and bf16 tensors
 * holding quiet, signalling and negative NaNs of several payloads hash as the same values with
 * every NaN replaced by 0x7FC00000, computed here from the bits, and as a copy whose NaNs are
 * already canonical. Every decoder path gives the same line. */
Test(dequant, sha256_hashes_the_canonical_nan)
{
    static const uint32_t f32_bits[8] = {0x3f800000, 0x7fc00001, 0xffc00000, 0x7f800001,
                                         0x7fffffff, 0xff800000, 0x00000000, 0x80000000};
    static const uint16_t bf16_bits[8] = {0x3f80, 0x7fc1, 0xffc0, 0x7f81,
                                          0x7fff, 0xff80, 0x0000, 0x8000};
    uint8_t want_f32[32], want_bf16[32], canon_bits[32];
    for (int i = 0; i < 8; i++) {
        uint32_t u = f32_bits[i];
        bool nan = (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0;
        uint32_t c = nan ? 0x7fc00000u : u;
        uint32_t b = (uint32_t)bf16_bits[i] << 16;
        bool bnan = (b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu) != 0;
        uint32_t bc = bnan ? 0x7fc00000u : b;
        for (int k = 0; k < 4; k++) {
            want_f32[4 * i + k] = (uint8_t)(c >> (8 * k));
            want_bf16[4 * i + k] = (uint8_t)(bc >> (8 * k));
            canon_bits[4 * i + k] = (uint8_t)(c >> (8 * k));
        }
    }
    char hex_f32[65], hex_bf16[65];
    gsw_sha256_hex(want_f32, sizeof want_f32, hex_f32);
    gsw_sha256_hex(want_bf16, sizeof want_bf16, hex_bf16);
    gsw_model m;
    gsw_model_init(&m, 3);
    const uint64_t ne = 8;
    gsw_tensor_set_data(gsw_add_tensor(&m, "f", 1, &ne, GS_TYPE_F32), f32_bits, sizeof f32_bits);
    gsw_tensor_set_data(gsw_add_tensor(&m, "b", 1, &ne, GS_TYPE_BF16), bf16_bits,
                        sizeof bf16_bits);
    gsw_tensor_set_data(gsw_add_tensor(&m, "c", 1, &ne, GS_TYPE_F32), canon_bits,
                        sizeof canon_bits);
    char *path = path_join(dir, "nan.gguf");
    char why[256];
    cr_assert_eq(gsw_write_file(&m, 0, path, why, sizeof why), 0, "%s", why);
    gsw_model_free(&m);
    char want[400];
    snprintf(want, sizeof want, "%s  f  f32\n%s  b  bf16\n%s  c  f32\n", hex_f32, hex_bf16,
             hex_f32);
    static const struct {
        gs_kernel k;
        const char *name;
    } kernels[] = {{GS_KERNEL_SCALAR, "scalar"}, {GS_KERNEL_AVX2, "avx2"},
                   {GS_KERNEL_NEON, "neon"}};
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        if (gs_set_kernel(kernels[k].k) != GS_OK) {
            continue; /* not on this CPU or build: every_available_path_... checks the refusal */
        }
        run_result r;
        setenv("GGUFSAFE_KERNEL", kernels[k].name, 1);
        cr_assert(run_cli(&r, "dequant", "--sha256", path, NULL));
        unsetenv("GGUFSAFE_KERNEL");
        cr_expect_eq(r.status, 0, "%s: %s", kernels[k].name, r.err);
        cr_expect_str_eq(r.out, want, "%s", kernels[k].name);
        run_result_free(&r);
    }
    free(path);
}
