#define _POSIX_C_SOURCE 200809L
/* `ggufsafe dequant`: the --sha256 output on the ggml-written sample equals ggml's own list byte
 * for byte on every decoder path; --out writes the decoder's exact values; --json validates. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_source.h"
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

/* Runs dequant on the sample with `mode` (NULL-terminated, at most 4) and -j jobs. */
static void run_jobs(run_result *r, const char *jobs, const char *m0, const char *m1)
{
    const char *args[10] = {"dequant", sample, "-j", jobs, m0, m1, NULL};
    cr_assert(run_cli_v(r, false, args));
}

Test(dequant, jobs_do_not_change_a_byte)
{
    static const char *const jobs[] = {"1", "2", "3", "8"};
    const char *modes[][2] = {{"--sha256", NULL}, {"--json", NULL}, {NULL, NULL},
                              {"--tensor", "blk.*"}};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        run_result one;
        run_jobs(&one, "1", modes[m][0], modes[m][1]);
        cr_assert_eq(one.status, 0, "%s", one.err);
        if (m == 0) {
            cr_expect_eq(one.out_len, expected_len);
            cr_expect(memcmp(one.out, expected, expected_len) == 0, "ggml's list, -j 1");
        }
        for (size_t j = 1; j < sizeof jobs / sizeof jobs[0]; j++) {
            run_result r;
            run_jobs(&r, jobs[j], modes[m][0], modes[m][1]);
            cr_expect_eq(r.status, 0, "%s", r.err);
            cr_expect_str_eq(r.out, one.out, "mode %zu, -j %s", m, jobs[j]);
            run_result_free(&r);
        }
        run_result_free(&one);
    }
    /* --out: the same bytes from every -j, and to standard output */
    char *first = NULL;
    size_t first_len = 0;
    for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++) {
        char *out = path_join(dir, "all.f32");
        run_result r;
        run_jobs(&r, jobs[j], "--out", out);
        cr_assert_eq(r.status, 0, "%s", r.err);
        run_result_free(&r);
        size_t len;
        char *bytes = read_file(out, &len);
        cr_assert_eq(len, 28 * 4096 * 4);
        if (first == NULL) {
            first = bytes;
            first_len = len;
        } else {
            cr_expect(memcmp(bytes, first, len) == 0, "-j %s", jobs[j]);
            free(bytes);
        }
        free(out);
    }
    run_result r;
    run_jobs(&r, "4", "--out", "-");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(r.out_len, first_len);
    cr_expect(memcmp(r.out, first, first_len) == 0, "--out - is the file's bytes");
    run_result_free(&r);
    free(first);
}

Test(dequant, only_tensors_without_an_f32_form)
{
    char *out = path_join(dir, "ints.f32");
    run_result r;
    CLI_RUN(r, 2, "dequant", sample, "--tensor", "raw.i8", "--out", out);
    cr_expect_str_eq(r.err, "error: --out selects only tensors without an f32 form (raw.i8 i8): "
                            "nothing to write; --sha256 lists them with '-'\n"
                            "run 'ggufsafe dequant --help' for usage\n");
    cr_expect_eq(r.out_len, 0);
    FILE *f = fopen(out, "rb");
    cr_expect_null(f, "no file is created");
    if (f != NULL) {
        fclose(f);
    }
    run_result_free(&r);
    CLI_RUN(r, 2, "dequant", sample, "--tensor", "raw.i*");
    cr_expect_str_eq(r.err, "error: --tensor selects only tensors without an f32 form (raw.i8 "
                            "i8, raw.i16 i16, raw.i32 i32, raw.i64 i64): nothing to decode; "
                            "--sha256 lists them with '-'\n"
                            "run 'ggufsafe dequant --help' for usage\n");
    run_result_free(&r);
    /* --sha256 keeps listing them as ggml's list does, and --json says decodable false */
    CLI_RUN(r, 0, "dequant", sample, "--tensor", "raw.i*", "--sha256");
    cr_expect_str_eq(r.out, "-  raw.i8  i8\n-  raw.i16  i16\n-  raw.i32  i32\n-  raw.i64  i64\n");
    run_result_free(&r);
    CLI_RUN(r, 0, "dequant", sample, "--tensor", "raw.f64", "--json");
    cr_expect(strstr(r.out, "\"decodable\": false") != NULL, "%s", r.out);
    run_result_free(&r);
    /* one decodable tensor among them is enough */
    CLI_RUN(r, 0, "dequant", sample, "--tensor", "raw.*", "--tensor", "blk.0.q8_0.weight", "--out",
            out);
    run_result_free(&r);
    size_t len;
    char *bytes = read_file(out, &len);
    cr_expect_eq(len, 4096 * 4);
    free(bytes);
    free(out);
}

/* The digest's input for one value, as docs/cli.md states it: little-endian, a NaN (exponent all
 * ones, mantissa not zero) as 0x7FC00000. */
static void put_canonical_le(uint8_t out[4], uint32_t bits)
{
    const bool nan = (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0;
    const uint32_t c = nan ? 0x7fc00000u : bits;
    for (int k = 0; k < 4; k++) {
        out[k] = (uint8_t)(c >> (8 * k));
    }
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
        put_canonical_le(want_f32 + 4 * i, f32_bits[i]);
        put_canonical_le(want_bf16 + 4 * i, (uint32_t)bf16_bits[i] << 16);
        put_canonical_le(canon_bits + 4 * i, f32_bits[i]);
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
    char *path = model_to_file(&m, dir, "nan.gguf");
    cr_assert_not_null(path);
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

/* A tensor of three and a half decoding chunks (CLI_DECODE_CHUNK_ELEMS), NaN-free except for one
 * element in its third chunk and its last: the first two chunks are hashed as they are decoded,
 * the others through the canonical copy, and the line is the hash of the whole canonical
 * listing, computed here from the bits. */
Test(dequant, sha256_is_the_same_across_chunks_with_and_without_nan)
{
    enum { CHUNK = CLI_DECODE_CHUNK_ELEMS, N = 3 * CHUNK + CHUNK / 2 };
    static uint32_t bits[N];
    static uint8_t want_bytes[4 * N];
    for (uint32_t i = 0; i < N; i++) {
        bits[i] = 0x3f800000u + (i & 0xffffu); /* 1.0 and up: finite, no NaN */
    }
    bits[2 * CHUNK + 1] = 0x7fc00123u; /* a quiet NaN with a payload */
    bits[N - 1] = 0xff800001u;         /* a negative signalling NaN, in the last chunk */
    for (uint32_t i = 0; i < N; i++) {
        put_canonical_le(want_bytes + 4 * i, bits[i]);
    }
    char hex[65], want[200];
    gsw_sha256_hex(want_bytes, sizeof want_bytes, hex);
    snprintf(want, sizeof want, "%s  long  f32\n", hex);
    gsw_model m;
    gsw_model_init(&m, 3);
    const uint64_t ne = N;
    gsw_tensor_set_data(gsw_add_tensor(&m, "long", 1, &ne, GS_TYPE_F32), bits, sizeof bits);
    char *path = model_to_file(&m, dir, "long_nan.gguf");
    cr_assert_not_null(path);
    run_result r;
    cr_assert(run_cli(&r, "dequant", "--sha256", path, NULL));
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.out, want);
    run_result_free(&r);
    free(path);
}

/* A caller's type with 3 elements a block (any size up to GS_TYPE_DEF_MAX_BLOCK_ELEMS is allowed,
 * not only powers of two): decoding in chunks ends every chunk on a block boundary, so a tensor
 * longer than one chunk decodes whole, as the library decodes it in one call. The type is I8's
 * bytes relabelled, its decoder written here. */
static gs_status three_decode(void *ctx, int32_t type, const void *src, size_t src_bytes,
                              float *dst, size_t n_elems)
{
    (void)ctx, (void)type;
    cr_assert_eq(src_bytes, n_elems);
    cr_assert_eq(n_elems % 3, 0);
    for (size_t i = 0; i < n_elems; i++) {
        dst[i] = (float)((const int8_t *)src)[i];
    }
    return GS_OK;
}

typedef struct chunks_seen {
    float *values;
    size_t n, calls;
} chunks_seen;

static gs_status collect_chunk(void *ctx, const float *values, size_t n)
{
    chunks_seen *c = ctx;
    cr_assert_eq(n % 3, 0, "a chunk of %zu elements", n);
    memcpy(c->values + c->n, values, n * sizeof *values);
    c->n += n;
    c->calls++;
    return GS_OK;
}

Test(dequant, chunks_end_on_the_blocks_of_a_three_element_type)
{
    enum { N = 3 * (CLI_DECODE_CHUNK_ELEMS / 3) + 3 * 7 }; /* more than a chunk, whole blocks */
    gsw_model m;
    gsw_model_init(&m, 3);
    const uint64_t ne = N;
    gsw_tensor *t = gsw_add_tensor(&m, "w", 1, &ne, GS_TYPE_I8);
    cr_assert(gsw_tensor_fill(t, 5, N));
    t->type = 201;
    gsw_bytes b;
    gsw_bytes_init(&b);
    char why[128];
    cr_assert_eq(gsw_write(&m, GSW_LAX, &b, NULL, why, sizeof why), 0, "%s", why);
    gsw_model_free(&m);
    const gs_decoder dec = {{201, "three", 3, 3, false}, three_decode, NULL, "test"};
    gs_options o;
    cli_reader_options(&o, GS_PROFILE_STRICT);
    cli_reader_types(&o, NULL, 0, &dec, 1); /* as the commands open files */
    gs_file *f;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, NULL), GS_OK);
    static float whole[N], chunked[N];
    cr_assert_eq(gs_tensor_dequantize(f, 0, whole, N), GS_OK);
    chunks_seen c = {chunked, 0, 0};
    cr_assert_eq(cli_decode_chunks(f, 0, collect_chunk, &c), GS_OK);
    cr_assert_eq(c.n, N);
    cr_assert_eq(c.calls, 2);
    cr_assert_eq(memcmp(whole, chunked, sizeof whole), 0);
    gs_close(f);
    gsw_bytes_free(&b);
}

/* libcrypto is opened at the first digest (cli/common/sha256.c): without it, --sha256 and --json
 * are refused before anything is printed, with what to install, and the statistics and --out,
 * which show no digest, do not need it. */
Test(dequant, without_libcrypto_only_the_digests_are_refused)
{
    setenv("GGUFSAFE_LIBCRYPTO", "/nonexistent/libcrypto.so.3", 1);
    static const char want[] = "error: dequant: SHA-256 needs OpenSSL's libcrypto, which could "
                               "not be loaded (/nonexistent/libcrypto.so.3: ";
    const char *flags[] = {"--sha256", "--json"};
    for (int i = 0; i < 2; i++) {
        run_result r;
        cr_assert(run_cli(&r, "dequant", sample, flags[i], NULL));
        cr_assert_eq(r.status, 2, "%s: %s", flags[i], r.err);
        cr_assert_eq(r.out_len, 0, "%s: %s", flags[i], r.out);
        cr_assert(strncmp(r.err, want, sizeof want - 1) == 0, "%s: %s", flags[i], r.err);
        cr_assert(strstr(r.err, "): install it (Debian, Ubuntu: libssl3; Fedora: openssl-libs)\n"),
                  "%s", r.err);
        run_result_free(&r);
    }
    run_result r;
    cr_assert(run_cli(&r, "dequant", sample, "--tensor", "blk.0.q6_K.weight", NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "blk.0.q6_K.weight") != NULL, "%s", r.out);
    run_result_free(&r);
    unsetenv("GGUFSAFE_LIBCRYPTO");
}

/* GGUFSAFE_LIBCRYPTO names the library: one that is not libcrypto is said to be so. */
Test(dequant, a_library_without_sha256_is_named)
{
    setenv("GGUFSAFE_LIBCRYPTO", "libm.so.6", 1);
    run_result r;
    cr_assert(run_cli(&r, "dequant", sample, "--sha256", NULL));
    unsetenv("GGUFSAFE_LIBCRYPTO");
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert_str_eq(r.err, "error: dequant: libm.so.6 has no EVP_MD_CTX_new: SHA-256 needs "
                            "OpenSSL's libcrypto 1.1 or 3\n");
    run_result_free(&r);
}
