/* `ggufsafe verify`: the sample matches its own manifest; a single flipped byte in any tensor
 * names exactly that tensor; a changed metadata value names its key; added, missing, retyped and
 * reshaped entries; a cut-short file; split sets; and malformed manifests (untrusted input) are
 * refused with a clear message and exit 2. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_test.h"
#include "ggufsafe.h"
#include "gsw_write.h"

static char *dir;
static char *sample;
static char *manifest; /* the sample's */

static void setup(void)
{
    cr_assert_not_null(cli_binary(), "GS_CLI is not set: run through ctest");
    char why[512];
    cr_assert(sample_with_manifest(&dir, &sample, &manifest, why, sizeof why), "%s", why);
}

static void teardown(void)
{
    sample_with_manifest_free(dir, sample, manifest);
}

TestSuite(verify, .init = setup, .fini = teardown);

Test(verify, sample_matches_its_manifest)
{
    run_result r;
    cr_assert(run_cli(&r, "verify", sample, manifest, NULL));
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect_str_eq(r.out, "OK: 32 key-values, 33 tensors and the file match the manifest\n");
    run_result_free(&r);
}

/* One byte flipped in each tensor in turn (first, middle or last byte): verify names that tensor
 * and the file, nothing else. */
Test(verify, a_flipped_byte_in_any_tensor_is_named, .timeout = 120)
{
    size_t len;
    char *bytes = read_file(sample, &len);
    cr_assert_not_null(bytes);
    gs_file *f;
    cr_assert_eq(gs_open_memory(bytes, len, NULL, &f, NULL), GS_OK);
    char *copy = path_join(dir, "flipped.gguf");
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        gs_tensor_info_at(f, i, &t);
        uint64_t pos = t.data_offset + (i % 3 == 0 ? 0 : i % 3 == 1 ? t.size / 2 : t.size - 1);
        bytes[pos] ^= 0x01;
        cr_assert(write_file(copy, bytes, len));
        bytes[pos] ^= 0x01;
        run_result r;
        cr_assert(run_cli(&r, "verify", copy, manifest, "--jobs", i % 2 ? "2" : "1", NULL));
        cr_expect_eq(r.status, 1);
        char want[256];
        snprintf(want, sizeof want, "changed  tensor  %.*s  data\nchanged  file    sha256\n"
                                    "FAILED: 2 differences from the manifest\n",
                 (int)t.name.len, t.name.ptr);
        cr_expect_str_eq(r.out, want);
        run_result_free(&r);
    }
    gs_close(f);
    free(copy);
    free(bytes);
}

static void verify_patched(const char *name, const char *find, const char *repl,
                           const char *want)
{
    size_t len;
    char *bytes = read_file(sample, &len);
    char *at = memmem(bytes, len, find, strlen(find));
    cr_assert_not_null(at, "%s", find);
    memcpy(at, repl, strlen(repl));
    char *copy = path_join(dir, name);
    cr_assert(write_file(copy, bytes, len));
    run_result r;
    cr_assert(run_cli(&r, "verify", copy, manifest, NULL));
    cr_expect_eq(r.status, 1);
    cr_expect_str_eq(r.out, want);
    run_result_free(&r);
    free(copy);
    free(bytes);
}

Test(verify, a_changed_metadata_value_is_named)
{
    verify_patched("name.gguf", "oracle-model", "oracle-MODEL",
                   "changed  kv      general.name  value\nchanged  file    sha256\n"
                   "FAILED: 2 differences from the manifest\n");
    /* a token string deep inside the vocabulary */
    verify_patched("token.gguf", "tok999", "tok99x",
                   "changed  kv      tokenizer.ggml.tokens  value\nchanged  file    sha256\n"
                   "FAILED: 2 differences from the manifest\n");
}

/* Files built from one model with one thing changed each. */
static char *model_file(const char *name, int variant)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    gsw_set_cstr(gsw_add(&m, "general.architecture"), "llama");
    if (variant == 1) {
        gsw_set_u32(gsw_add(&m, "x.extra"), 7);
    }
    uint64_t n = 32;
    cr_assert(gsw_tensor_fill(gsw_add_tensor(&m, "w", 1, &n, variant == 2 ? GS_TYPE_F16
                                                                            : GS_TYPE_F32),
                              1, 1024));
    uint64_t shape[2] = {8, 4};
    cr_assert(gsw_tensor_fill(gsw_add_tensor(&m, "v", variant == 3 ? 2 : 1,
                                             variant == 3 ? shape : &n, GS_TYPE_F32),
                              2, 1024));
    if (variant != 4) {
        cr_assert(gsw_tensor_fill(gsw_add_tensor(&m, "u", 1, &n, GS_TYPE_F32), 3, 1024));
    }
    char *path = path_join(dir, name);
    char why[256];
    cr_assert_eq(gsw_write_file(&m, 0, path, why, sizeof why), 0, "%s", why);
    gsw_model_free(&m);
    return path;
}

Test(verify, added_missing_retyped_reshaped)
{
    char *base = model_file("base.gguf", 0);
    char *mf = path_join(dir, "base.manifest");
    run_result r;
    cr_assert(run_cli(&r, "hash", base, "--manifest", mf, NULL));
    cr_assert_eq(r.status, 0);
    run_result_free(&r);
    static const struct {
        int variant;
        const char *want;
    } cases[] = {
        {1, "added    kv      x.extra\nchanged  file    sha256\n"},
        {2, "changed  tensor  w  type f32 -> f16\nchanged  file    sha256  size 576 -> 512\n"},
        {3, "changed  tensor  v  shape 32 -> 8,4\nchanged  file    sha256\n"},
        {4, "missing  tensor  u\nchanged  file    sha256  size 576 -> 416\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "variant%d.gguf", cases[i].variant);
        char *path = model_file(name, cases[i].variant);
        cr_assert(run_cli(&r, "verify", path, mf, NULL));
        cr_expect_eq(r.status, 1);
        char want[256];
        snprintf(want, sizeof want, "%sFAILED: 2 differences from the manifest\n",
                 cases[i].want);
        cr_expect_str_eq(r.out, want, "variant %d", cases[i].variant);
        run_result_free(&r);
        free(path);
    }
    free(mf);
    free(base);
}

Test(verify, a_file_cut_short_names_what_is_missing)
{
    size_t len;
    char *bytes = read_file(sample, &len);
    char *cut = path_join(dir, "cut.gguf");
    cr_assert(write_file(cut, bytes, 120000));
    run_result r;
    cr_assert(run_cli(&r, "verify", cut, manifest, NULL));
    cr_expect_eq(r.status, 1);
    cr_expect(contains(r.out, "damaged  tensor  blk.0.bf16.weight  its data is not in the file"),
              "%s", r.out);
    cr_expect(contains(r.out, "damaged  tensor  raw.f64  its data is not in the file"), "%s",
              r.out);
    cr_expect(contains(r.out, "changed  file    sha256  size 148896 -> 120000\n"), "%s", r.out);
    cr_expect(!contains(r.out, "blk.0.q4_0.weight"), "%s", r.out);
    run_result_free(&r);
    free(cut);
    free(bytes);
}

Test(verify, split_sets)
{
    char *paths[2];
    char why[256];
    cr_assert(write_split_pair(dir, "y", paths, why, sizeof why), "%s", why);
    char *mf = path_join(dir, "y.manifest");
    run_result r;
    cr_assert(run_cli(&r, "hash", paths[0], "--manifest", mf, NULL));
    cr_assert_eq(r.status, 0);
    run_result_free(&r);
    cr_assert(run_cli(&r, "verify", paths[0], mf, NULL));
    cr_expect_eq(r.status, 0);
    cr_expect_str_eq(r.out, "OK: 6 key-values, 2 tensors and the files match the manifest\n");
    run_result_free(&r);
    cr_assert_eq(remove(paths[1]), 0);
    cr_assert(run_cli(&r, "verify", paths[0], mf, NULL));
    cr_expect_eq(r.status, 1);
    cr_expect_str_eq(r.out, "part 2: damaged  file    GS_E_SPLIT_PART_MISSING: the part does not "
                            "exist\nFAILED: 1 difference from the manifest\n");
    run_result_free(&r);
    /* part 1 alone against the set's manifest: one part fewer */
    cr_assert(run_cli(&r, "verify", "--part-only", paths[0], mf, NULL));
    cr_expect_eq(r.status, 1);
    cr_expect(strncmp(r.out, "changed  parts   the manifest lists 2, the file has 1\n", 53) == 0,
              "%s", r.out);
    run_result_free(&r);
    free(mf);
    free(paths[0]);
    free(paths[1]);
}

static const char hex64[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/* A manifest text and the reason verify must give for refusing it. */
static void refused(const char *text, size_t len, const char *reason)
{
    char *mf = path_join(dir, "bad.manifest");
    cr_assert(write_file(mf, text, len));
    run_result r;
    cr_assert(run_cli(&r, "verify", sample, mf, NULL));
    cr_expect_eq(r.status, 2, "%s", reason);
    cr_expect_eq(r.out_len, 0);
    cr_expect(contains(r.err, "error: malformed manifest "), "%s", r.err);
    cr_expect(contains(r.err, reason), "wanted '%s' in %s", reason, r.err);
    run_result_free(&r);
    free(mf);
}

static void refused_str(const char *text, const char *reason)
{
    refused(text, strlen(text), reason);
}

Test(verify, malformed_manifests_are_refused)
{
    char buf[1024];
    refused_str("", "line 1: empty");
    refused_str("ggufsafe-manifest 2\n", "line 1: unsupported manifest version");
    refused_str("sha256sum output\n", "line 1: not a ggufsafe manifest");
    refused_str("ggufsafe-manifest 1\n", "ends without its 'end' line");
    refused_str("ggufsafe-manifest 1\nend\n", "line 2: 'end' before every part");
    refused_str("ggufsafe-manifest 1\npart 1 of 1", "line 2: the last line has no newline");
    refused_str("ggufsafe-manifest 1\npart 2 of 2\n", "line 2: expected 'part 1 of 2'");
    refused_str("ggufsafe-manifest 1\npart 1 of 0\n", "line 2: expected 'part I of N'");
    refused_str("ggufsafe-manifest 1\npart 1 of 1\nkv x y\n", "line 3: expected 'file <64 hex");
    snprintf(buf, sizeof buf, "ggufsafe-manifest 1\npart 1 of 1\nfile %s 007\n", hex64);
    refused_str(buf, "line 3: expected 'file");
    snprintf(buf, sizeof buf, "ggufsafe-manifest 1\npart 1 of 1\nfile %s 7\nkv %.63s k\nend\n",
             hex64, hex64);
    refused_str(buf, "line 4: the digest is not 64 lower-case hex digits");
    snprintf(buf, sizeof buf, "ggufsafe-manifest 1\npart 1 of 1\nfile %s 7\nkv %.63sA k\nend\n",
             hex64, hex64);
    refused_str(buf, "line 4: the digest");
    snprintf(buf, sizeof buf, "ggufsafe-manifest 1\npart 1 of 1\nfile %s 7\nkv %s a b\nend\n",
             hex64, hex64);
    refused_str(buf, "line 4: expected 'kv <sha256> <key>'");
    snprintf(buf, sizeof buf, "ggufsafe-manifest 1\npart 1 of 1\nfile %s 7\nkv %s  k\nend\n",
             hex64, hex64);
    refused_str(buf, "line 4: empty field");
    static const char *const bad_names[] = {"a\\x4", "a\\x4g", "a\\x41", "a\\xFF", "a\\y00",
                                            "a\\"};
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
        snprintf(buf, sizeof buf, "ggufsafe-manifest 1\npart 1 of 1\nfile %s 7\nkv %s %s\nend\n",
                 hex64, hex64, bad_names[i]);
        refused_str(buf, "line 4: the name is empty or not written as ggufsafe escapes names");
    }
    snprintf(buf, sizeof buf,
             "ggufsafe-manifest 1\npart 1 of 1\nfile %s 7\nkv %s k\nkv %s k\nend\n", hex64,
             hex64, hex64);
    refused_str(buf, "line 5: a second kv named k");
    static const char *const bad_shapes[] = {"1,,2", "1,2,3,4,5", "01", "", "1,x",
                                             "18446744073709551616"};
    for (size_t i = 0; i < sizeof bad_shapes / sizeof bad_shapes[0]; i++) {
        snprintf(buf, sizeof buf,
                 "ggufsafe-manifest 1\npart 1 of 1\nfile %s 7\ntensor %s f32 %s t\nend\n", hex64,
                 hex64, bad_shapes[i]);
        refused_str(buf, "line 4: ");
    }
    snprintf(buf, sizeof buf, "ggufsafe-manifest 1\npart 1 of 1\nfile %s 7\nend\nmore\n", hex64);
    refused_str(buf, "line 5: text after the 'end' line");
    snprintf(buf, sizeof buf, "ggufsafe-manifest 1\nkv %s k\n", hex64);
    refused_str(buf, "line 2: expected 'part 1 of N'");
    snprintf(buf, sizeof buf, "ggufsafe-manifest 1\npart 1 of 1\nfile %s 7\r\nend\n", hex64);
    refused_str(buf, "line 3: holds a NUL, CR or tab byte");
    refused("ggufsafe-manifest 1\npart 1\0 of 1\n", 33, "line 2: holds a NUL");
    /* A 300,000-byte line is read whole (lenient keys make lines that long) and refused for
     * its fields; the line bound itself, 256 MiB, is held to its value in test_manifest_limits. */
    size_t big = 300000;
    char *huge = malloc(big + 64);
    int n = snprintf(huge, 64, "ggufsafe-manifest 1\npart 1 of 1\nkv ");
    memset(huge + n, 'a', big);
    huge[n + (int)big] = '\n';
    refused(huge, (size_t)n + big + 1, "line 3: expected 'file <64 hex digits> <size>'");
    free(huge);
    /* a missing manifest is a usage error too */
    char *none = path_join(dir, "none.manifest");
    run_result r;
    cr_assert(run_cli(&r, "verify", sample, none, NULL));
    cr_expect_eq(r.status, 2);
    cr_expect(contains(r.err, "cannot open the manifest"), "%s", r.err);
    run_result_free(&r);
    free(none);
}
