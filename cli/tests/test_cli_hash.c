#define _POSIX_C_SOURCE 200809L /* setenv */
/* `ggufsafe hash`: the manifest of the ggml-written sample, every digest checked against one
 * computed here from the file's bytes (key-value wire bytes, tensor data, the whole file, which
 * must also be what sha256sum prints); the same bytes whatever --jobs is and whatever the file is
 * called; split sets; names escaped; failures leave no manifest behind. */
#include <criterion/criterion.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli_test.h"
#include "ggufsafe.h"
#include "gsw_write.h"

CLI_SAMPLE_SUITE(hash);

static void sha256_hex(const void *p, size_t n, char out[65])
{
    unsigned char md[32];
    unsigned len = 0;
    cr_assert_eq(EVP_Digest(p, n, md, &len, EVP_sha256(), NULL), 1);
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[md[i] >> 4];
        out[2 * i + 1] = hex[md[i] & 15];
    }
    out[64] = '\0';
}

static char *hash_of(const char *path, const char *jobs)
{
    run_result r;
    cr_assert(run_cli(&r, "hash", path, "--jobs", jobs, NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *out = r.out;
    r.out = NULL;
    run_result_free(&r);
    return out;
}

/* The manifest this test expects for path, computed independently from the file's bytes with
 * the reader's offsets (names here are plain ASCII); with metadata_only, of the file as it is:
 * the tensors whose data is not in it left out. */
static char *expected_manifest_of(const char *path, bool metadata_only)
{
    size_t len;
    char *bytes = read_file(path, &len);
    cr_assert_not_null(bytes);
    gs_file *f;
    gs_options o;
    gs_options_init(&o);
    o.metadata_only = metadata_only;
    cr_assert_eq(gs_open_file(path, &o, &f, NULL), GS_OK);
    size_t cap = 1 << 20, n = 0;
    char *m = malloc(cap);
    char hex[65];
    sha256_hex(bytes, len, hex);
    n += (size_t)snprintf(m + n, cap - n, "ggufsafe-manifest 2\npart 1 of 1\nfile %s %zu\n", hex,
                          len);
    for (size_t i = 0; i < gs_kv_count(f); i++) {
        gs_kv_info kv;
        gs_kv_info_at(f, i, &kv);
        sha256_hex(bytes + kv.offset, kv.size, hex);
        n += (size_t)snprintf(m + n, cap - n, "kv %s %.*s\n", hex, (int)kv.key.len, kv.key.ptr);
    }
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        gs_tensor_info_at(f, i, &t);
        if (!t.data_in_file) {
            continue;
        }
        sha256_hex(bytes + t.data_offset, t.size, hex);
        char shape[96] = "-";
        size_t k = 0;
        for (uint32_t d = 0; d < t.n_dims; d++) {
            k += (size_t)snprintf(shape + k, sizeof shape - k, "%s%llu", d ? "," : "",
                                  (unsigned long long)t.ne[d]);
        }
        n += (size_t)snprintf(m + n, cap - n, "tensor %s %s %s %.*s\n", hex, gs_type_name(t.type),
                              shape, (int)t.name.len, t.name.ptr);
    }
    n += (size_t)snprintf(m + n, cap - n, "end\n");
    cr_assert_lt(n, cap - 1);
    gs_close(f);
    free(bytes);
    return m;
}

static char *expected_manifest(const char *path)
{
    return expected_manifest_of(path, false);
}

/* text with the value fields of its kv lines (version 2) removed, in place: what
 * expected_manifest_of computes; the values are checked apart, byte for byte. */
static char *without_values(char *text)
{
    char *w = text;
    for (const char *r = text; *r != '\0';) {
        const char *eol = strchr(r, '\n');
        size_t len = eol != NULL ? (size_t)(eol - r) + 1 : strlen(r);
        size_t keep = len;
        if (strncmp(r, "kv ", 3) == 0) {
            const char *sp = memchr(r + 3, ' ', len - 3);              /* after the digest */
            const char *sp2 = sp != NULL ? memchr(sp + 1, ' ', (size_t)(r + len - sp - 1)) : NULL;
            if (sp2 != NULL) {
                memmove(w, r, (size_t)(sp2 - r));
                w += sp2 - r;
                *w++ = '\n';
                keep = 0;
            }
        }
        if (keep > 0) {
            memmove(w, r, keep);
            w += keep;
        }
        r += len;
    }
    *w = '\0';
    return text;
}

/* --metadata-only: a header-only copy, and one cut inside its data, get the manifest of the file
 * as it is (every key-value, the whole tensors), which verify --metadata-only accepts; without
 * the option the command refuses them and says which option reads them. */
Test(hash, metadata_only_hashes_the_file_as_it_is)
{
    size_t len;
    char *bytes = read_file(sample, &len);
    cr_assert_not_null(bytes);
    static const size_t cuts[] = {63840, 100000};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "cut_%zu.gguf", cuts[i]);
        char *path = path_join(dir, name);
        cr_assert(write_file(path, bytes, cuts[i]));
        run_result r;
        CLI_RUN(r, 0, "hash", "--metadata-only", path);
        char *want = expected_manifest_of(path, true);
        char *plain = strdup(r.out);
        cr_expect_str_eq(without_values(plain), want);
        free(plain);
        char *manifest = path_join(dir, "cut.manifest");
        cr_assert(write_file(manifest, r.out, r.out_len));
        run_result_free(&r);
        CLI_RUN(r, 0, "verify", "--metadata-only", path, manifest);
        run_result_free(&r);
        CLI_RUN(r, 1, "hash", path);
        cr_expect_eq(r.out_len, 0);
        cr_expect(contains(r.err, "'ggufsafe hash --metadata-only "), "%s", r.err);
        run_result_free(&r);
        free(want);
        free(manifest);
        free(path);
    }
    free(bytes);
}

Test(hash, sample_manifest_is_every_digest_of_the_file)
{
    char *got = hash_of(sample, "2");
    char *want = expected_manifest(sample);
    char *plain = without_values(strdup(got));
    cr_expect_str_eq(plain, want);
    free(plain);
    /* the values (format 2): scalars, a string with escapes, the first 32 elements of an array,
     * an empty array */
    static const char *const fragments[] = {
        " llama.context_length u32 =4096\n",
        " general.name string =oracle-model\n",
        " oracle.i64 i64 =-9000000000000000000\n",
        " oracle.bool bool =true\n",
        " oracle.empty string =\n",
        (" oracle.utf8 string =h\\xc3\\xa9llo\\x20\\xe2\\x9c\\x93\\x20"
         "\\xf0\\x9f\\x98\\x80\n"),
        " oracle.f64_arr array f64 3 =1.5,=-0,=1e+300\n",
        " oracle.empty_arr array u32 0 -\n",
        (" tokenizer.ggml.token_type array i32 1000 =3,=3,=3,=1,=1,=1,=1,=1,=1,"
         "=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1,=1\n"),
    };
    CLI_EXPECT_ALL_IN(got, fragments);
    cr_expect(contains(got, "=m30\\x20m31,=m31\\x20m32\n"), "the 32nd merge ends the list");
    /* the whole-file line is what sha256sum prints, and the sample's published digest */
    cr_expect(contains(got, "\nfile 538272288539eaa6134473818489a7d053abe98cc4134c509bea061be00a6a51 "
                            "148896\n"));
    const char *argv[] = {"/usr/bin/sha256sum", sample, NULL};
    run_result r;
    cr_assert(run_program(argv, &r));
    cr_assert_eq(r.status, 0);
    char line[80];
    snprintf(line, sizeof line, "\nfile %.64s ", r.out);
    cr_expect(contains(got, line), "sha256sum says %s", r.out);
    run_result_free(&r);
    free(got);
    free(want);
}

/* A file of many 4 MiB chunks, so the reader and the range hashers really pipeline. */
static char *big_file(const char *name)
{
    gsw_model m;
    llama_model(&m);
    const uint64_t sizes[] = {3u << 20, 7, 5u << 20, 0, 1u << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char tname[16];
        snprintf(tname, sizeof tname, "t%zu", i);
        cr_assert(gsw_tensor_fill(gsw_add_tensor(&m, tname, 1, &sizes[i], GS_TYPE_F32),
                                  i + 1, 1u << 26));
    }
    char *path = model_to_file(&m, dir, name);
    cr_assert_not_null(path);
    return path;
}

Test(hash, same_bytes_whatever_jobs_and_name, .timeout = 60)
{
    char *big = big_file("big.gguf");
    char *want = expected_manifest(big);
    char *first = hash_of(big, "1");
    char *plain = without_values(strdup(first));
    cr_expect_str_eq(plain, want);
    free(plain);
    cr_expect(contains(first, " general.architecture string =llama\n"));
    static const char *const jobs[] = {"2", "3", "8"};
    for (size_t j = 0; j < 3; j++) {
        char *got = hash_of(big, jobs[j]);
        cr_expect_str_eq(got, first, "--jobs %s", jobs[j]);
        free(got);
    }
    free(want);
    want = first;
    /* another name, another directory: the same manifest */
    char *sub = path_join(dir, "elsewhere.bin");
    size_t len;
    char *bytes = read_file(big, &len);
    cr_assert(write_file(sub, bytes, len));
    char *moved = hash_of(sub, "2");
    cr_expect_str_eq(moved, want);
    /* --manifest OUT writes exactly what stdout gets */
    char *out = path_join(dir, "big.manifest");
    run_result r;
    CLI_RUN(r, 0, "hash", "--manifest", out, big);
    cr_expect_eq(r.out_len, 0);
    run_result_free(&r);
    size_t mlen;
    char *written = read_file(out, &mlen);
    cr_assert_not_null(written);
    cr_expect_str_eq(written, want);
    free(written);
    free(out);
    free(moved);
    free(bytes);
    free(sub);
    free(want);
    free(big);
}

Test(hash, split_set_has_a_section_per_part)
{
    char *paths[2];
    char why[256];
    cr_assert(write_split_pair(dir, "x", paths, why, sizeof why), "%s", why);
    char *got = hash_of(paths[0], "2");
    char *one = expected_manifest(paths[0]);
    char *two = expected_manifest(paths[1]);
    /* the set's manifest is part 1's section, then part 2's, then "end" */
    char *s1 = strstr(one, "part 1 of 1\n") + strlen("part 1 of 1\n");
    char *s2 = strstr(two, "part 1 of 1\n") + strlen("part 1 of 1\n");
    *strstr(s1, "end\n") = '\0';
    *strstr(s2, "end\n") = '\0';
    char want[8192];
    snprintf(want, sizeof want, "ggufsafe-manifest 2\npart 1 of 2\n%spart 2 of 2\n%send\n", s1,
             s2);
    cr_expect_str_eq(without_values(got), want);
    run_result r;
    cr_assert(run_cli(&r, "hash", "--part-only", paths[0], NULL));
    cr_expect(contains(r.out, "part 1 of 1\n"));
    run_result_free(&r);
    free(got);
    free(one);
    free(two);
    free(paths[0]);
    free(paths[1]);
}

Test(hash, names_are_escaped_and_profiles_apply)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    static const char key[] = "a b\\\x01\xff";
    gsw_set_u8(gsw_add_n(&m, key, sizeof key - 1), 1);
    uint64_t n = 8;
    cr_assert(gsw_tensor_fill(gsw_add_tensor(&m, "t\n", 1, &n, GS_TYPE_F32), 1, 64));
    char *path = model_to_file(&m, dir, "odd.gguf");
    cr_assert_not_null(path);
    run_result r;
    cr_assert(run_cli(&r, "hash", path, NULL));
    cr_expect_eq(r.status, 1, "strict rejects the key");
    cr_expect_eq(r.out_len, 0);
    run_result_free(&r);
    CLI_RUN(r, 0, "hash", "--profile", "lenient", path);
    cr_expect(contains(r.out, " a\\x20b\\x5c\\x01\\xff u8 =1\n"), "%s", r.out);
    cr_expect(contains(r.out, " f32 8 t\\x0a\n"), "%s", r.out);
    cr_expect(no_control_bytes(r.out, r.out_len));
    run_result_free(&r);
    free(path);
}

/* Issue #14 point 6: lenient accepts keys past strict's 65,535 bytes and tensor names past its
 * 63, so their manifest lines are longer than strict files ever need. hash --profile lenient
 * writes them and verify reads them back: OK on the same file, and the changed value named on a
 * copy whose long key holds another value. */
Test(hash, lenient_manifest_round_trips_through_verify)
{
    enum { KEY_LEN = 70000 };
    char *key = malloc(KEY_LEN);
    cr_assert_not_null(key);
    for (size_t i = 0; i < KEY_LEN; i++) {
        key[i] = i == 0 ? 'K' : (char)0xff; /* escaped: a name of 279,997 bytes, past the
                                               262,268-byte lines a strict file needs */
    }
    char name[100];
    memset(name, 'T', sizeof name);
    const uint64_t ne = 8;
    char *paths[2];
    for (int v = 0; v < 2; v++) {
        gsw_model m;
        gsw_model_init(&m, 3);
        gsw_set_u32(gsw_add_n(&m, key, KEY_LEN), (uint32_t)v);
        gsw_set_cstr(gsw_add(&m, "general.name"), "long names");
        cr_assert(gsw_tensor_fill(gsw_add_tensor_n(&m, name, sizeof name, 1, &ne, GS_TYPE_F32),
                                  1, 64));
        paths[v] = path_join(dir, v == 0 ? "long.gguf" : "long-changed.gguf");
        char why[256];
        cr_assert_eq(gsw_write_file(&m, 0, paths[v], why, sizeof why), 0, "%s", why);
        gsw_model_free(&m);
    }
    char *mf = path_join(dir, "long.manifest");
    run_result r;
    cr_assert(run_cli(&r, "hash", "--profile", "lenient", paths[0], "--manifest", mf, NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_result_free(&r);
    size_t len;
    char *text = read_file(mf, &len);
    cr_assert_not_null(text);
    cr_expect(len > 280000, "%zu bytes", len);
    cr_expect(contains(text, " K\\xff\\xff"), "the key is not in its escaped form");
    free(text);
    CLI_RUN(r, 0, "verify", paths[0], mf);
    cr_expect_str_eq(r.out, "OK: 2 key-values, 1 tensor and the file match the manifest\n");
    run_result_free(&r);
    CLI_RUN(r, 1, "verify", paths[1], mf);
    static const char changed[] = "changed  kv      K\\xff\\xff";
    cr_expect(strncmp(r.out, changed, sizeof changed - 1) == 0, "%.80s", r.out);
    cr_expect(contains(r.out, "\\xff\\xff  value: old 0 -> new 1\n"), "%.80s", r.out);
    cr_expect(contains(r.out, "FAILED: 2 differences from the manifest\n"), "%s", r.err);
    run_result_free(&r);
    free(mf);
    free(paths[0]);
    free(paths[1]);
    free(key);
}

Test(hash, failures_leave_no_manifest)
{
    char *missing = path_join(dir, "missing.gguf");
    char *out = path_join(dir, "out.manifest");
    run_result r;
    CLI_RUN(r, 2, "hash", missing, "--manifest", out);
    char want[1024];
    snprintf(want, sizeof want, "error: cannot read '%s': open: No such file or directory\n",
             missing);
    cr_expect_str_eq(r.err, want);
    run_result_free(&r);
    size_t len;
    char *bytes = read_file(sample, &len);
    char *cut = path_join(dir, "cut.gguf");
    cr_assert(write_file(cut, bytes, len - 100));
    CLI_RUN(r, 1, "hash", cut, "--manifest", out);
    cr_expect(contains(r.err, "GS_E_DATA_OUTSIDE_FILE"), "%s", r.err);
    run_result_free(&r);
    FILE *f = fopen(out, "r");
    cr_expect_null(f, "a manifest was written for a file that could not be hashed");
    if (f != NULL) {
        fclose(f);
    }
    CLI_RUN(r, 2, "hash", "--jobs", "0", sample);
    run_result_free(&r);
    CLI_RUN(r, 2, "hash", "--json", sample);
    run_result_free(&r);
    free(cut);
    free(bytes);
    free(missing);
    free(out);
}

/* Without libcrypto (opened at the first digest: cli/common/sha256.c) hash and verify stop
 * before reading anything, with what to install; the exit code is 2 (the environment). */
Test(hash, without_libcrypto_says_what_to_install)
{
    setenv("GGUFSAFE_LIBCRYPTO", "/nonexistent/libcrypto.so.3", 1);
    char *manifest = path_join(dir, "m.manifest");
    const char *verbs[] = {"hash", "verify"};
    for (int i = 0; i < 2; i++) {
        run_result r;
        cr_assert(i == 0 ? run_cli(&r, "hash", sample, NULL)
                         : run_cli(&r, "verify", sample, manifest, NULL));
        cr_assert_eq(r.status, 2, "%s: %s", verbs[i], r.err);
        cr_assert_eq(r.out_len, 0, "%s: %s", verbs[i], r.out);
        char want[160];
        snprintf(want, sizeof want,
                 "error: %s: SHA-256 needs OpenSSL's libcrypto, which could not be loaded "
                 "(/nonexistent/libcrypto.so.3: ",
                 verbs[i]);
        cr_assert(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
        run_result_free(&r);
    }
    unsetenv("GGUFSAFE_LIBCRYPTO");
    free(manifest);
}

/* hash FILE... --manifest-dir DIR: one manifest per file; several files need it; two files of
 * one name are refused; a file that cannot be read is exit 2, the others' manifests written. */
Test(hash, manifest_dir_writes_one_manifest_per_file)
{
    char *mdir = path_join(dir, "mdir");
    cr_assert_eq(mkdir(mdir, 0755), 0);
    char *absent = path_join(dir, "absent.gguf");
    run_result r;
    CLI_RUN(r, 2, "hash", sample, absent, "--manifest-dir", mdir);
    cr_expect(contains(r.err, "absent.gguf"), "%s", r.err);
    run_result_free(&r);
    char *mf = path_join(mdir, "ggml-written.gguf.manifest");
    size_t len;
    char *text = read_file(mf, &len);
    cr_assert_not_null(text, "no %s", mf);
    char *want = hash_of(sample, "2");
    cr_expect_str_eq(text, want);
    char *none = path_join(mdir, "absent.gguf.manifest");
    cr_expect(access(none, F_OK) != 0, "a manifest of an unreadable file");
    CLI_RUN(r, 2, "hash", sample, sample);
    cr_expect(contains(r.err, "2 files: give --manifest-dir DIR"), "%s", r.err);
    run_result_free(&r);
    CLI_RUN(r, 2, "hash", sample, sample, "--manifest-dir", mdir);
    cr_expect(contains(r.err, "two files have the same name"), "%s", r.err);
    run_result_free(&r);
    CLI_RUN(r, 2, "hash", sample, "--manifest-dir", absent);
    cr_expect(contains(r.err, "--manifest-dir: not a directory"), "%s", r.err);
    run_result_free(&r);
    free(none);
    free(want);
    free(text);
    free(mf);
    free(absent);
    free(mdir);
}
