/* ggml known-answer vectors (conformance/kat) through gs_dequantize: the NaN-canonical output
 * must hash to SHA256SUMS.nan-canonical, a `real` set's raw output to SHA256SUMS (it has no
 * NaN), and every element must match ggml's .out under the NaN rule. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gsw_sha256.h"
#include "kat_runner.h"

static const char *kat_dir(void)
{
    static char dir[4096];
    const char *src = getenv("GS_SOURCE_DIR");
    cr_assert_not_null(src, "GS_SOURCE_DIR is not set");
    snprintf(dir, sizeof dir, "%s/conformance/kat", src);
    return dir;
}

/* The hash listed for `file` in a sha256sum-format list, or "" when it is not listed. */
static void listed_hash(const char *list, const char *file, char hex[65])
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", kat_dir(), list);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    hex[0] = '\0';
    char line[512], hash[80], name[400];
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "%79s %399s", hash, name) == 2 && strcmp(name, file) == 0 &&
            strlen(hash) == 64) {
            memcpy(hex, hash, 65);
            break;
        }
    }
    fclose(f);
}

struct kat_case {
    int32_t type;
    int set;
};

ParameterizedTestParameters(kat, matches_ggml)
{
    static struct kat_case cases[GS_TYPE_COUNT * GSK_N_SETS];
    size_t n = 0;
    for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
        for (int s = 0; gsk_type_has_kat(t) && s < GSK_N_SETS; s++) {
            cases[n++] = (struct kat_case){t, s};
        }
    }
    return cr_make_param_array(struct kat_case, cases, n);
}

ParameterizedTest(struct kat_case *c, kat, matches_ggml)
{
    const char *name = gs_type_name(c->type);
    const char *set = gsk_set_names[c->set];
    char in_file[128];
    snprintf(in_file, sizeof in_file, "%s.%s.in", name, set);

    gsk_kat_result res;
    gsk_kat_run(kat_dir(), c->type, set, &res);
    cr_assert_not_null(res.decoded, "%s", res.message);

    char got[65], want[65];
    if (c->set == 1) { /* real: no NaN, so the raw bits must be ggml's exactly */
        listed_hash("SHA256SUMS", in_file, want);
        cr_assert_str_neq(want, "", "%s is not listed in SHA256SUMS", in_file);
        gsw_sha256_hex(res.decoded, res.n_elems * sizeof(float), got);
        cr_expect_str_eq(got, want, "%s: raw output hash differs from SHA256SUMS", in_file);
    }
    listed_hash("SHA256SUMS.nan-canonical", in_file, want);
    cr_assert_str_neq(want, "", "%s is not listed in SHA256SUMS.nan-canonical", in_file);
    gsw_sha256_floats_hex(res.decoded, res.n_elems, got);
    cr_expect_str_eq(got, want, "%s: NaN-canonical output hash differs", in_file);

    cr_expect(res.passed, "%s", res.message);
    gsk_kat_result_free(&res);
}

/* 27 ggml to_float types plus Q8_K, two sets each, and nothing listed that we do not run. */
Test(kat, covers_every_listed_vector)
{
    size_t n_types = 0;
    for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
        n_types += gsk_type_has_kat(t);
    }
    cr_assert_eq(n_types, 28);

    char path[4200];
    snprintf(path, sizeof path, "%s/SHA256SUMS.nan-canonical", kat_dir());
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char line[512], hash[80], name[400];
    size_t n_lines = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        cr_assert_eq(sscanf(line, "%79s %399s", hash, name), 2, "bad line: %s", line);
        bool known = false;
        for (int32_t t = 0; t < GS_TYPE_COUNT && !known; t++) {
            for (int s = 0; gsk_type_has_kat(t) && s < GSK_N_SETS; s++) {
                char file[128];
                snprintf(file, sizeof file, "%s.%s.in", gs_type_name(t), gsk_set_names[s]);
                known = known || strcmp(file, name) == 0;
            }
        }
        cr_expect(known, "%s is listed but no test runs it", name);
        n_lines++;
    }
    fclose(f);
    cr_assert_eq(n_lines, 2 * n_types);
}

/* The NaN rule: every NaN is one value; signed zeros and infinities keep their bits. */
Test(kat, nan_rule)
{
    cr_assert_eq(gsw_nan_canonical_bits(-0.0f), 0x80000000u);
    float nans[3];
    const uint32_t bits[3] = {0xffc00000u, 0x7f800001u, 0xfffffffeu};
    memcpy(nans, bits, sizeof bits);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(gsw_nan_canonical_bits(nans[i]), GSK_NAN_CANONICAL);
    }
    const uint32_t inf = 0x7f800000u;
    float f;
    memcpy(&f, &inf, sizeof f);
    cr_assert_eq(gsw_nan_canonical_bits(f), inf);
}

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot create %s", path);
    cr_assert_eq(fwrite(data, 1, size, f), size);
    cr_assert_eq(fclose(f), 0);
}

/* A KAT whose expected output differs in one sign bit must fail, and the message must name the
 * element, its block and both bit patterns. */
Test(kat, reports_first_mismatch)
{
    char in_path[4200], out_path[4200];
    snprintf(in_path, sizeof in_path, "%s/q4_0.rand.in", kat_dir());
    snprintf(out_path, sizeof out_path, "%s/q4_0.rand.out", kat_dir());
    gsk_blob in, out;
    cr_assert(gsk_read_file(in_path, &in) && gsk_read_file(out_path, &out));

    char dir[] = "/tmp/gs_kat_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const size_t bad = 100; /* block 3, element 4 of the block */
    uint32_t want;
    memcpy(&want, out.data + 4 * bad, 4);
    cr_assert((want & 0x7f800000u) != 0x7f800000u, "pick a finite element");
    out.data[4 * bad + 3] ^= 0x80;
    char path[4200];
    snprintf(path, sizeof path, "%s/q4_0.rand.in", dir);
    write_file(path, in.data, in.size);
    snprintf(path, sizeof path, "%s/q4_0.rand.out", dir);
    write_file(path, out.data, out.size);

    gsk_kat_result res;
    gsk_kat_run(dir, GS_TYPE_Q4_0, "rand", &res);
    cr_expect_not(res.passed);
    char expected[200];
    snprintf(expected, sizeof expected,
             "element 100 (block 3, element 4 of the block) is 0x%08x, ggml gives 0x%08x", want,
             want ^ 0x80000000u);
    cr_expect_not_null(strstr(res.message, expected), "message: %s", res.message);

    gsk_kat_result_free(&res);
    snprintf(path, sizeof path, "%s/q4_0.rand.in", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/q4_0.rand.out", dir);
    remove(path);
    rmdir(dir);
    gsk_blob_free(&in);
    gsk_blob_free(&out);
}
