/* `ggufsafe verify`: the sample matches its own manifest; a single flipped byte in any tensor
 * names exactly that tensor; a changed metadata value names its key; added, missing, retyped and
 * reshaped entries; a cut-short file; split sets; and malformed manifests (untrusted input) are
 * refused with a clear message and exit 2. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    CLI_RUN(r, 0, "verify", sample, manifest);
    cr_expect_str_eq(r.out, "OK: 32 key-values, 33 tensors and the file match the manifest\n");
    run_result_free(&r);
}

/* Writes n bytes of text to dir/name as a manifest and expects the sample to verify against it;
 * returns the path. */
static char *sample_verifies_against(const char *name, const char *text, size_t n)
{
    char *path = path_join(dir, name);
    cr_assert(write_file(path, text, n));
    run_result r;
    CLI_RUN(r, 0, "verify", sample, path);
    cr_expect_str_eq(r.out, "OK: 32 key-values, 33 tensors and the file match the manifest\n");
    run_result_free(&r);
    return path;
}

/* A manifest saved with CR LF line ends (a Windows editor, a git checkout with autocrlf)
 * verifies as the LF one does. */
Test(verify, crlf_manifest_verifies)
{
    size_t len;
    char *text = read_file(manifest, &len);
    cr_assert_not_null(text);
    char *crlf = malloc(2 * len);
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            crlf[n++] = '\r';
        }
        crlf[n++] = text[i];
    }
    free(sample_verifies_against("crlf.manifest", crlf, n));
    free(crlf);
    free(text);
}

/* The sample with llama.context_length doubled (a metadata edit), at dir/edited.gguf. */
static char *edited_copy(void)
{
    size_t len;
    char *bytes = read_file(sample, &len);
    cr_assert_not_null(bytes);
    char *at = memmem(bytes, len, "llama.context_length", 20);
    cr_assert_not_null(at);
    uint8_t *value = (uint8_t *)at + 20 + 4; /* after the key: u32 type, then the value */
    value[1] ^= 0x20;                        /* 4096 -> 12288 */
    char *path = path_join(dir, "edited.gguf");
    cr_assert(write_file(path, bytes, len));
    free(bytes);
    return path;
}

Test(verify, tensors_only_passes_a_metadata_edit)
{
    char *edited = edited_copy();
    run_result r;
    CLI_RUN(r, 0, "verify", "--tensors-only", edited, manifest);
    cr_expect_str_eq(r.out, "OK: 33 tensors match the manifest (type, shape and data; the "
                            "metadata was not compared)\n");
    run_result_free(&r);
    CLI_RUN(r, 0, "verify", "--tensors-only", "--json", edited, manifest);
    cr_expect_eq(check_json(dir, "verify.schema.json", r.out, "/ok=true", "/tensors_only=true",
                            "/counts={\"parts\":1,\"key_values\":32,\"tensors\":33,"
                            "\"differences\":0}",
                            "/differences=[]", NULL),
                 0);
    run_result_free(&r);
    /* without it, the edit and the file's digest */
    CLI_RUN(r, 1, "verify", "--json", edited, manifest);
    cr_expect_eq(check_json(dir, "verify.schema.json", r.out, "/ok=false", "/tensors_only=false",
                            "/differences/0={\"change\":\"changed\",\"item\":\"kv\","
                            "\"part\":1,\"subject\":\"llama.context_length\","
                            "\"old\":\"4096\",\"new\":\"12288\","
                            "\"detail\":\"value: old 4096 -> new 12288\"}",
                            "/differences/1/item=\"file\"", "/counts/differences=2", NULL),
                 0);
    run_result_free(&r);
    free(edited);
}

/* A version 1 manifest (digests only, as ggufsafe before format 2 wrote it) still verifies; a
 * changed value is then named without its old and new values. */
Test(verify, version_1_manifests_still_verify)
{
    size_t len;
    char *text = read_file(manifest, &len);
    cr_assert_not_null(text);
    cr_assert(strncmp(text, "ggufsafe-manifest 2\n", 20) == 0);
    char *v1 = malloc(len + 1);
    size_t n = 0;
    for (const char *r = text; *r != '\0';) {
        const char *eol = strchr(r, '\n');
        cr_assert_not_null(eol);
        size_t line = (size_t)(eol - r);
        if (strncmp(r, "kv ", 3) == 0) {
            const char *key = (const char *)memchr(r + 3, ' ', line - 3) + 1;
            const char *end = memchr(key, ' ', (size_t)(eol - key));
            line = (size_t)((end != NULL ? end : eol) - r);
        }
        memcpy(v1 + n, r, line);
        n += line;
        v1[n++] = '\n';
        r = eol + 1;
    }
    v1[18] = '1'; /* "ggufsafe-manifest 1" */
    char *path = sample_verifies_against("v1.manifest", v1, n);
    run_result r;
    char *edited = edited_copy();
    CLI_RUN(r, 1, "verify", edited, path);
    cr_expect_str_eq(r.out, "changed  kv      llama.context_length  value\n"
                            "changed  file    sha256\nFAILED: 2 differences from the manifest\n");
    run_result_free(&r);
    cr_assert(run_cli(&r, "verify", "--json", edited, path, NULL));
    cr_expect_eq(check_json(dir, "verify.schema.json", r.out,
                            "/differences/0={\"change\":\"changed\",\"item\":\"kv\","
                            "\"part\":1,\"subject\":\"llama.context_length\","
                            "\"detail\":\"value\"}",
                            NULL),
                 0);
    run_result_free(&r);
    free(edited);
    free(path);
    free(v1);
    free(text);
}

/* hash --manifest-dir writes DIR/<file name>.manifest per file (the same bytes as hash FILE);
 * verify --manifest-dir checks each file against it: a line per file, a summary, exit 2 when a
 * manifest or file cannot be read, else 1 when one differs; --json is verify-multi.schema.json. */
Test(verify, many_files_with_a_manifest_dir)
{
    char *edited = edited_copy();
    char *mdir = path_join(dir, "mdir");
    cr_assert_eq(mkdir(mdir, 0755), 0);
    run_result r;
    CLI_RUN(r, 0, "hash", "--manifest-dir", mdir, sample, edited);
    cr_expect_eq(r.out_len, 0);
    run_result_free(&r);
    char *sample_mf = path_join(mdir, "ggml-written.gguf.manifest");
    char *edited_mf = path_join(mdir, "edited.gguf.manifest");
    size_t a_len, b_len;
    char *a = read_file(sample_mf, &a_len);
    char *b = read_file(manifest, &b_len);
    cr_assert_not_null(a);
    cr_assert_not_null(b);
    cr_expect(a_len == b_len && memcmp(a, b, a_len) == 0, "not what hash FILE writes");
    free(a);

    CLI_RUN(r, 0, "verify", "--manifest-dir", mdir, sample, edited);
    char want[2048];
    snprintf(want, sizeof want,
             "%s: OK: 32 key-values, 33 tensors and the file match the manifest\n"
             "%s: OK: 32 key-values, 33 tensors and the file match the manifest\n"
             "2 files: 2 match, 0 differ, 0 invalid, 0 unreadable\n",
             sample, edited);
    cr_expect_str_eq(r.out, want);
    run_result_free(&r);

    /* the edited file against the original's manifest */
    cr_assert(write_file(edited_mf, b, b_len));
    CLI_RUN(r, 1, "verify", "--manifest-dir", mdir, sample, edited);
    snprintf(want, sizeof want,
             "%s: OK: 32 key-values, 33 tensors and the file match the manifest\n"
             "changed  kv      llama.context_length  value: old 4096 -> new 12288\n"
             "changed  file    sha256\n"
             "%s: FAILED: 2 differences from the manifest\n"
             "2 files: 1 match, 1 differ, 0 invalid, 0 unreadable\n",
             sample, edited);
    cr_expect_str_eq(r.out, want);
    run_result_free(&r);

    /* a file without a manifest: unreadable, exit 2, the others still reported */
    char *absent = path_join(dir, "absent.gguf");
    cr_assert(write_file(absent, b, b_len));
    cr_assert(run_cli(&r, "verify", "--manifest-dir", mdir, "--json", sample, edited, absent,
                      NULL));
    cr_expect_eq(r.status, 2, "%s%s", r.out, r.err);
    cr_expect(contains(r.err, "absent.gguf.manifest"), "%s", r.err);
    cr_expect_eq(check_json(dir, "verify-multi.schema.json", r.out, "/command=\"verify\"",
                            "/files/0/ok=true", "/files/1/ok=false",
                            "/files/1/differences/0/old=\"4096\"",
                            "/files/1/differences/0/new=\"12288\"",
                            "/files/2/problem=\"unreadable\"",
                            "/summary={\"files\":3,\"matched\":1,\"differ\":1,\"invalid\":0,"
                            "\"unreadable\":1,\"exit_code\":2}",
                            NULL),
                 0);
    run_result_free(&r);

    /* without --manifest-dir the operands stay FILE MANIFEST */
    CLI_RUN(r, 2, "verify", sample);
    cr_expect(contains(r.err, "MANIFEST missing (or give --manifest-dir DIR)"), "%s", r.err);
    run_result_free(&r);
    /* two files of one name would share a manifest */
    CLI_RUN(r, 2, "verify", "--manifest-dir", mdir, edited, edited);
    cr_expect(contains(r.err, "two files have the same name"), "%s", r.err);
    run_result_free(&r);
    free(absent);
    free(b);
    free(sample_mf);
    free(edited_mf);
    free(mdir);
    free(edited);
}

/* A tensor renamed (same type, shape and data) is one rename, not added plus missing; a tensor
 * whose data also changed stays added and missing. */
Test(verify, a_renamed_tensor_is_one_rename)
{
    size_t len;
    char *bytes = read_file(sample, &len);
    cr_assert_not_null(bytes);
    gs_file *f;
    cr_assert_eq(gs_open_memory(bytes, len, NULL, &f, NULL), GS_OK);
    gs_tensor_info t;
    gs_tensor_info_at(f, 3, &t);
    char old_name[256];
    snprintf(old_name, sizeof old_name, "%.*s", (int)t.name.len, t.name.ptr);
    gs_close(f);
    char *hit = memmem(bytes, len, old_name, strlen(old_name));
    cr_assert_not_null(hit);
    size_t at = (size_t)(hit - bytes);
    cr_assert_null(memmem(hit + 1, len - at - 1, old_name, strlen(old_name)), "one occurrence");
    size_t name_len = strlen(old_name);
    bytes[at + name_len - 1] ^= 0x01; /* the last letter of the name */
    char new_name[256];
    snprintf(new_name, sizeof new_name, "%.*s", (int)name_len, bytes + at);
    char *copy = path_join(dir, "renamed.gguf");
    cr_assert(write_file(copy, bytes, len));
    run_result r;
    CLI_RUN(r, 1, "verify", copy, manifest);
    char want[600];
    snprintf(want, sizeof want, "renamed  tensor  %s  from %s\nchanged  file    sha256\n"
                                "FAILED: 2 differences from the manifest\n",
             new_name, old_name);
    cr_expect_str_eq(r.out, want);
    run_result_free(&r);
    cr_assert(run_cli(&r, "verify", "--tensors-only", "--json", copy, manifest, NULL));
    cr_expect_eq(r.status, 1, "a rename changes the tensors");
    char from[300];
    snprintf(from, sizeof from, "/differences/0/from=\"%s\"", old_name);
    cr_expect_eq(check_json(dir, "verify.schema.json", r.out, "/differences/0/change=\"renamed\"",
                            from, "/counts/differences=1", NULL),
                 0);
    run_result_free(&r);
    free(copy);
    free(bytes);
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
        CLI_RUN(r, 1, "verify", copy, manifest, "--jobs", i % 2 ? "2" : "1");
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
    CLI_RUN(r, 1, "verify", copy, manifest);
    cr_expect_str_eq(r.out, want);
    run_result_free(&r);
    free(copy);
    free(bytes);
}

Test(verify, a_changed_metadata_value_is_named)
{
    verify_patched("name.gguf", "oracle-model", "oracle-MODEL",
                   "changed  kv      general.name  value: old \"oracle-model\" -> new "
                   "\"oracle-MODEL\"\nchanged  file    sha256\n"
                   "FAILED: 2 differences from the manifest\n");
    /* an element of an array among the first 32 the manifest lists: its index, old and new */
    verify_patched("token17.gguf", "tok17\xc4\xa0x", "tok17\xc4\xa0y",
                   "changed  kv      tokenizer.ggml.tokens  element 17: old \"tok17\xc4\xa0x\" -> "
                   "new \"tok17\xc4\xa0y\"\nchanged  file    sha256\n"
                   "FAILED: 2 differences from the manifest\n");
    /* a token string deep inside the vocabulary, past the listed elements: what the manifest
     * cannot say */
    verify_patched("token.gguf", "tok999", "tok99x",
                   "changed  kv      tokenizer.ggml.tokens  value (the first 32 elements match: a "
                   "later one differs)\nchanged  file    sha256\n"
                   "FAILED: 2 differences from the manifest\n");
    /* a number changed and its type with it */
    verify_patched("retyped.gguf", "llama.context_length\x04", "llama.context_length\x05",
                   "changed  kv      llama.context_length  type u32 -> i32: old 4096 -> new 4096\n"
                   "changed  file    sha256\nFAILED: 2 differences from the manifest\n");
}

/* Files built from one model with one thing changed each. */
static char *model_file(const char *name, int variant)
{
    gsw_model m;
    llama_model(&m);
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
    char *path = model_to_file(&m, dir, name);
    cr_assert_not_null(path);
    return path;
}

/* A file whose general.name is a 100-byte string, with byte `at` set to 'Z' (at < 0: none). */
static char *long_string_file(const char *name, int at)
{
    char text[101];
    memset(text, 'a', 100);
    text[100] = '\0';
    if (at >= 0) {
        text[at] = 'Z';
    }
    gsw_model m;
    llama_model(&m);
    gsw_set_cstr(gsw_add(&m, "general.name"), text);
    char *path = model_to_file(&m, dir, name);
    cr_assert_not_null(path);
    return path;
}

/* A string longer than 64 bytes is recorded cut ('~' and its first 64 bytes): an edit inside
 * them shows both cut values with an ellipsis; one past them shows the same cut text (what the
 * manifest cannot say, docs/manifests.md#values), the digest still catches it. */
Test(verify, a_long_string_is_cut_at_64_bytes)
{
    char *base = long_string_file("long.gguf", -1);
    char *mf = path_join(dir, "long.manifest");
    run_result r;
    cr_assert(run_cli(&r, "hash", base, "-o", mf, NULL));
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_result_free(&r);
    size_t len;
    char *text = read_file(mf, &len);
    cr_assert_not_null(text);
    char a64[65];
    memset(a64, 'a', 64);
    a64[64] = '\0';
    char want[512];
    snprintf(want, sizeof want, " general.name string ~%s\n", a64);
    cr_expect(contains(text, want), "%s", text);
    free(text);

    /* 'Z' at byte 10: inside the recorded 64; at byte 80: past them */
    static const struct {
        const char *name;
        int at;
        const char *new_head;
    } edits[] = {{"early.gguf", 10, "aaaaaaaaaaZ"}, {"late.gguf", 80, "aaaaaaaaaaa"}};
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        char *edited = long_string_file(edits[i].name, edits[i].at);
        CLI_RUN(r, 1, "verify", edited, mf);
        snprintf(want, sizeof want,
                 "changed  kv      general.name  value: old \"%s...\" -> new \"%s%.53s...\"\n"
                 "changed  file    sha256\nFAILED: 2 differences from the manifest\n",
                 a64, edits[i].new_head, a64);
        cr_expect_str_eq(r.out, want, "%s", edits[i].name);
        run_result_free(&r);
        free(edited);
    }
    free(mf);
    free(base);
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
        CLI_RUN(r, 1, "verify", path, mf);
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
    CLI_RUN(r, 1, "verify", cut, manifest);
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
    CLI_RUN(r, 0, "verify", paths[0], mf);
    cr_expect_str_eq(r.out, "OK: 6 key-values, 2 tensors and the files match the manifest\n");
    run_result_free(&r);
    cr_assert_eq(remove(paths[1]), 0);
    CLI_RUN(r, 1, "verify", paths[0], mf);
    cr_expect_str_eq(r.out, "part 2: damaged  file    GS_E_SPLIT_PART_MISSING: the part does not "
                            "exist\nFAILED: 1 difference from the manifest\n");
    run_result_free(&r);
    /* part 1 alone against the set's manifest: one part fewer */
    CLI_RUN(r, 1, "verify", "--part-only", paths[0], mf);
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
    refused_str("ggufsafe-manifest 3\n", "line 1: unsupported manifest version");
    refused_str("ggufsafe-manifest 0\n", "line 1: unsupported manifest version");
    refused_str("sha256sum output\n", "line 1: not a ggufsafe manifest");
    refused_str("ggufsafe-manifest 1\n", "ends without its 'end' line");
    refused_str("ggufsafe-manifest 1\nend\n", "line 2: 'end' before every part");
    refused_str("ggufsafe-manifest 1\npart 1 of 1", "line 2: the last line has no newline");
    refused_str("ggufsafe-manifest 1\npart 2 of 2\n", "line 2: expected 'part 1 of 2'");
    refused_str("ggufsafe-manifest 1\npart 1 of 0\n", "line 2: expected 'part I of N'");
    refused_str("ggufsafe-manifest 1\npart 1 of 1\nkv x y\n", "line 3: expected 'file <64 hex");
    snprintf(buf, sizeof buf, "ggufsafe-manifest 1\npart 1 of 1\nfile %s 007\n", hex64);
    refused_str(buf, "line 3: expected 'file");
    /* "kv" lines of version 1: the first `digits` of a digest, then `rest` (version 1 has no
     * values; version 2's must have their exact form) */
    static const struct {
        int digits;
        const char *rest, *reason;
    } bad_kv[] = {
        {63, " k", "line 4: the digest is not 64 lower-case hex digits"},
        {63, "A k", "line 4: the digest"},
        {64, " a b", "line 4: expected 'kv <sha256> <key> [<value>]'"},
        {64, " k u8 =1", "line 4: expected 'kv <sha256> <key> [<value>]'"},
    };
    for (size_t i = 0; i < sizeof bad_kv / sizeof bad_kv[0]; i++) {
        snprintf(buf, sizeof buf, "ggufsafe-manifest 1\npart 1 of 1\nfile %s 7\nkv %.*s%s\nend\n",
                 hex64, bad_kv[i].digits, hex64, bad_kv[i].rest);
        refused_str(buf, bad_kv[i].reason);
    }
    static const struct {
        const char *value, *reason;
    } bad_values[] = {
        {"u8 1", "the value is not '=' or '~' then escapes"},
        {"u8 =a,b", "the value is not '=' or '~' then escapes"},
        {"string =a\\x41", "the value is not '=' or '~' then escapes"},
        {"string =a\\x2", "the value is not '=' or '~' then escapes"},
        {"array =1", "unknown value type"},
        {"u128 =1", "unknown value type"},
        {"array u8 2 =1", "the elements are not the first min(count, 32) items"},
        {"array u8 1 =1,=2", "the elements are not the first min(count, 32) items"},
        {"array u8 1 =1,", "the elements are not the first min(count, 32) items"},
        {"array u8 0 =1", "an array without listed elements must show '-'"},
        {"array array 3 =1", "an array without listed elements must show '-'"},
        {"array u8 01 -", "expected '<type> <value>' or 'array <element type> <count>"},
        {"array u9 1 =1", "expected '<type> <value>' or 'array <element type> <count>"},
        {"list u8 1 =1", "expected '<type> <value>' or 'array <element type> <count>"},
    };
    for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
        snprintf(buf, sizeof buf, "ggufsafe-manifest 2\npart 1 of 1\nfile %s 7\nkv %s k %s\nend\n",
                 hex64, hex64, bad_values[i].value);
        refused_str(buf, bad_values[i].reason);
    }
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
    /* one digest in each: the manifest is head, 64 hex digits, tail */
    static const struct {
        const char *head, *tail, *reason;
    } one_digest[] = {
        {"ggufsafe-manifest 1\npart 1 of 1\nfile ", " 7\nend\nmore\n",
         "line 5: text after the 'end' line"},
        {"ggufsafe-manifest 1\nkv ", " k\n", "line 2: expected 'part 1 of N'"},
        {"ggufsafe-manifest 1\npart 1 of 1\nfile ", " 7\r\nend\n",
         "line 3: ends in CR LF, the lines before it in LF alone (mixed line ends)"},
        {"ggufsafe-manifest 1\r\npart 1 of 1\r\nfile ", " 7\nend\n",
         "line 3: ends in LF alone, the lines before it in CR LF (mixed line ends)"},
        {"ggufsafe-manifest 1\npart 1 of 1\rfile ", " 7\nend\n",
         "line 2: holds a carriage return not followed by a newline"},
        {"ggufsafe-manifest 1\npart 1 of 1\nfile ", " 7\nend\r",
         "line 4: holds a carriage return not followed by a newline"},
    };
    for (size_t i = 0; i < sizeof one_digest / sizeof one_digest[0]; i++) {
        snprintf(buf, sizeof buf, "%s%s%s", one_digest[i].head, hex64, one_digest[i].tail);
        refused_str(buf, one_digest[i].reason);
    }
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
    CLI_RUN(r, 2, "verify", sample, none);
    cr_expect(contains(r.err, "cannot open the manifest"), "%s", r.err);
    run_result_free(&r);
    free(none);
}
