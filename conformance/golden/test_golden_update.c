/* gs_golden --check / --update on scratch copies of the manifest: a changed hash is rewritten
 * only when the type's ggml KATs pass, refused for a type without KATs or with failing KATs,
 * a missing entry is added, a stale one is never dropped silently. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, symlink, mkdir */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char scratch[64];
static char manifest[256];
static char original[256];

static const char *env(const char *name)
{
    const char *v = getenv(name);
    cr_assert_not_null(v, "%s is not set", name);
    return v;
}

/* The whole file, NUL-terminated; its size in *size_out unless that is NULL. */
static char *slurp_n(const char *path, size_t *size_out)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)size + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t)size, f), (size_t)size);
    buf[size] = '\0';
    fclose(f);
    if (size_out != NULL) {
        *size_out = (size_t)size;
    }
    return buf;
}

static char *slurp(const char *path)
{
    return slurp_n(path, NULL);
}

static void spit_n(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, n, f), n);
    cr_assert_eq(fclose(f), 0);
}

static void spit(const char *path, const char *text)
{
    spit_n(path, text, strlen(text));
}

static void setup(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/gs_golden_XXXXXX");
    cr_assert_not_null(mkdtemp(scratch));
    snprintf(manifest, sizeof manifest, "%s/manifest.tsv", scratch);
    snprintf(original, sizeof original, "%s/conformance/golden/manifest.tsv", env("GS_SOURCE_DIR"));
    char *text = slurp(original);
    spit(manifest, text);
    free(text);
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    cr_assert_eq(system(cmd), 0);
}

/* Runs `[ENV] gs_golden ARGS --kat KAT_DIR --manifest MANIFEST` (env_prefix "" or
 * "NAME=VALUE"), stdout and stderr together into *out (malloc'd); returns the exit status. */
static int run_golden(const char *env_prefix, const char *args, const char *kat_dir,
                      const char *manifest_path, char **out)
{
    char out_path[128], cmd[4096];
    snprintf(out_path, sizeof out_path, "%s/out.txt", scratch);
    snprintf(cmd, sizeof cmd, "%s '%s' %s --kat '%s' --manifest '%s' > '%s' 2>&1", env_prefix,
             env("GS_GOLDEN"), args, kat_dir, manifest_path, out_path);
    const int status = system(cmd);
    cr_assert(WIFEXITED(status), "gs_golden did not exit normally");
    *out = slurp(out_path);
    fputs(*out, stdout); /* sanitizer reports reach ctest's fail regex */
    return WEXITSTATUS(status);
}

/* Runs gs_golden MODE on the scratch manifest and expects exit status rc and an output that
 * contains want and, unless it is NULL, also_want. */
static void expect_run(const char *mode, const char *kat_dir, int rc, const char *want,
                       const char *also_want)
{
    char *out;
    const int got = run_golden("", mode, kat_dir, manifest, &out);
    cr_expect_eq(got, rc, "gs_golden %s: exit %d", mode, got);
    cr_expect_not_null(strstr(out, want), "%s", out);
    cr_expect(also_want == NULL || strstr(out, also_want) != NULL, "%s", out);
    free(out);
}

/* The scratch manifest holds exactly text. */
static void expect_manifest(const char *text)
{
    char *now = slurp(manifest);
    cr_expect_str_eq(now, text);
    free(now);
}

/* The scratch manifest is the checked-in one again. */
static void expect_original_manifest(void)
{
    char *want = slurp(original);
    expect_manifest(want);
    free(want);
}

static const char *kat_dir(void)
{
    static char dir[4096];
    snprintf(dir, sizeof dir, "%s/conformance/kat", env("GS_SOURCE_DIR"));
    return dir;
}

/* Flips the first digit of the output hash on the line that starts with TYPE<TAB>SET<TAB>. */
static void tamper(const char *type_set)
{
    char *text = slurp(manifest);
    char *line = strstr(text, type_set);
    cr_assert_not_null(line, "no %s line", type_set);
    char *tab = line;
    for (char *p = line; *p != '\n' && *p != '\0'; p++) {
        tab = *p == '\t' ? p : tab;
    }
    tab[1] = tab[1] == '0' ? '1' : '0';
    spit(manifest, text);
    free(text);
}

/* Deletes the line that starts with TYPE<TAB>SET<TAB>. */
static void delete_line(const char *type_set)
{
    char *text = slurp(manifest);
    char *line = strstr(text, type_set);
    cr_assert_not_null(line, "no %s line", type_set);
    const size_t len = strcspn(line, "\n") + 1;
    memmove(line, line + len, strlen(line + len) + 1);
    spit(manifest, text);
    free(text);
}

/* A manifest that --check fails saying `found`, and that --update (the KATs passing) repairs
 * saying `fixed`: the checked-in manifest again. */
static void expect_repaired(const char *found, const char *fixed)
{
    expect_run("--check", kat_dir(), 1, found, NULL);
    expect_run("--update", kat_dir(), 0, fixed, NULL);
    expect_original_manifest();
}

/* --update with the KATs of kat refuses the change (exit 1, saying `says` and `why`) and leaves
 * the manifest as it is. */
static void expect_update_refused(const char *kat, const char *says, const char *why)
{
    char *before = slurp(manifest);
    expect_run("--update", kat, 1, says, why);
    expect_manifest(before);
    free(before);
}

TestSuite(golden_update, .init = setup, .fini = teardown);

Test(golden_update, check_passes_on_the_checked_in_manifest)
{
    expect_run("--check", kat_dir(), 0, " 0 failed", NULL);
}

Test(golden_update, changed_hash_with_passing_kats_is_rewritten)
{
    tamper("q4_0\tzero\t");
    expect_repaired("changed q4_0/zero", "rewrote q4_0/zero");
}

Test(golden_update, changed_hash_without_kats_is_refused)
{
    tamper("f32\tspecials\t");
    expect_update_refused(kat_dir(), "refused f32/specials", "no ggml KATs");
}

/* A KAT directory whose q4_0.rand.out disagrees with the decoder in one sign bit: the KATs
 * fail for q4_0, so its golden hashes are frozen. */
Test(golden_update, changed_hash_with_failing_kats_is_refused)
{
    char bad_kat[128], from[4608], to[4608];
    snprintf(bad_kat, sizeof bad_kat, "%s/kat", scratch);
    cr_assert_eq(mkdir(bad_kat, 0700), 0);
    DIR *d = opendir(kat_dir());
    cr_assert_not_null(d);
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.' || strcmp(de->d_name, "q4_0.rand.out") == 0) {
            continue;
        }
        snprintf(from, sizeof from, "%s/%s", kat_dir(), de->d_name);
        snprintf(to, sizeof to, "%s/%s", bad_kat, de->d_name);
        cr_assert_eq(symlink(from, to), 0);
    }
    closedir(d);
    snprintf(from, sizeof from, "%s/q4_0.rand.out", kat_dir());
    snprintf(to, sizeof to, "%s/q4_0.rand.out", bad_kat);
    char *out_bytes = slurp(from);
    out_bytes[3] ^= (char)0x80; /* sign of element 0 */
    FILE *f = fopen(to, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(out_bytes, 1, 256 * 32 * 4, f), 256u * 32 * 4);
    cr_assert_eq(fclose(f), 0);
    free(out_bytes);

    tamper("q4_0\tzero\t");
    expect_update_refused(bad_kat, "refused q4_0/zero", "the ggml KATs fail");
}

Test(golden_update, missing_entry_is_added)
{
    delete_line("iq1_m\tgrid\t");
    expect_repaired("missing iq1_m/grid", "added iq1_m/grid");
}

Test(golden_update, stale_entry_is_not_dropped)
{
    char *text = slurp(manifest);
    const size_t len = strlen(text);
    char *more = malloc(len + 200);
    cr_assert_not_null(more);
    memcpy(more, text, len);
    snprintf(more + len, 200, "q4_0\tretired\t1\t%064d\t%064d\n", 0, 0);
    spit(manifest, more);
    expect_run("--check", kat_dir(), 1, "stale q4_0/retired", NULL);
    expect_run("--update", kat_dir(), 1, "refused to drop q4_0/retired", NULL);
    expect_manifest(more);
    free(more);
    free(text);
}

/* ---- a type the registry does not know: the example plugin (id 200, q8_0_example) ----------
 * docs/new-quant-types.md, step 3, on a scratch manifest and KAT directory. */

static char kat_scratch[128];

static void setup_caller(void)
{
    setup();
    cr_assert_eq(remove(manifest), 0); /* a new manifest: the first --update creates it */
    snprintf(kat_scratch, sizeof kat_scratch, "%s/kat", scratch);
    cr_assert_eq(mkdir(kat_scratch, 0700), 0);
}

/* Copies conformance/kat/FROM to the scratch KAT directory as TO. */
static void copy_kat(const char *from, const char *to)
{
    char src[4608], dst[256];
    snprintf(src, sizeof src, "%s/%s", kat_dir(), from);
    snprintf(dst, sizeof dst, "%s/%s", kat_scratch, to);
    size_t n;
    char *bytes = slurp_n(src, &n);
    spit_n(dst, bytes, n);
    free(bytes);
}

/* Runs gs_golden ARGS (with the example plugin) on the scratch KAT directory and manifest and
 * expects exit status rc and exactly the output want. */
static void expect_exact(const char *env_prefix, const char *args, int rc, const char *want)
{
    char *out;
    const int got = run_golden(env_prefix, args, kat_scratch, manifest, &out);
    cr_expect_eq(got, rc, "gs_golden %s: exit %d", args, got);
    cr_expect_str_eq(out, want);
    free(out);
}

static const char *plugin_args(const char *mode)
{
    static char args[2048];
    snprintf(args, sizeof args, "%s --plugin '%s'", mode, env("GS_PLUGIN_EXAMPLE"));
    return args;
}

/* The manifest's text with every line's type column cut: what two types decoding the same
 * bytes to the same values share. */
static char *without_type_column(const char *path)
{
    char *text = slurp(path);
    char *w = text;
    for (const char *line = text; *line != '\0';) {
        const char *tab = strchr(line, '\t');
        const char *end = line + strcspn(line, "\n");
        const char *from = tab != NULL && tab < end ? tab : line;
        const size_t len = (size_t)(end - from) + (*end == '\n');
        memmove(w, from, len);
        w += len;
        line = end + (*end == '\n');
    }
    *w = '\0';
    return text;
}

TestSuite(golden_caller, .init = setup_caller, .fini = teardown);

/* The plugin's goldens on Q8_0's KAT inputs: the same input and output hashes as Q8_0's goldens
 * (native, --raw), its KAT outputs ggml's byte for byte, and the manifest, relabelled, checks
 * the native decoder on every path this CPU has. */
Test(golden_caller, plugin_goldens_are_q8_0s)
{
    copy_kat("q8_0.rand.in", "q8_0_example.rand.in");
    copy_kat("q8_0.real.in", "q8_0_example.real.in");
    char want[2048];
    snprintf(want, sizeof want,
             "added q8_0_example/kat.rand\nadded q8_0_example/kat.real\n"
             "added q8_0_example/raw.zero\nadded q8_0_example/raw.ones\n"
             "added q8_0_example/raw.random\nadded q8_0_example/raw.sequence\n"
             "wrote %s/q8_0_example.rand.out\nwrote %s/q8_0_example.real.out\n"
             "6 added, 0 rewritten, 0 unchanged\n", kat_scratch, kat_scratch);
    expect_exact("", plugin_args("--update"), 0, want);
    expect_exact("", plugin_args("--check"), 0, "8 passed, 0 failed\n"); /* 6 lines, 2 KATs */

    /* its KAT outputs are ggml's own for Q8_0 */
    for (int s = 0; s < 2; s++) {
        const char *set = s == 0 ? "rand" : "real";
        char path[4608];
        size_t n_ggml, n_ours;
        snprintf(path, sizeof path, "%s/q8_0.%s.out", kat_dir(), set);
        char *ggml = slurp_n(path, &n_ggml);
        snprintf(path, sizeof path, "%s/q8_0_example.%s.out", kat_scratch, set);
        char *ours = slurp_n(path, &n_ours);
        cr_expect_eq(n_ours, n_ggml);
        cr_expect(n_ours == n_ggml && memcmp(ours, ggml, n_ggml) == 0, "%s differs", path);
        free(ggml);
        free(ours);
    }

    /* Q8_0's native decoder on the same sets: the same hashes, line for line */
    char native[256], args[512];
    snprintf(native, sizeof native, "%s/q8_0.tsv", scratch);
    char *out;
    cr_expect_eq(run_golden("", "--update --raw --only q8_0", kat_dir(), native, &out), 0);
    free(out);
    char *a = without_type_column(manifest), *b = without_type_column(native);
    cr_expect_str_eq(a, b);
    free(a);
    free(b);

    /* the kat sets are the checked-in goldens of Q8_0 */
    char *ours = slurp(manifest), *checked_in = slurp(original);
    for (char *line = strstr(ours, "q8_0_example\tkat."); line != NULL;
         line = strstr(line + 1, "q8_0_example\tkat.")) {
        char q8[256];
        snprintf(q8, sizeof q8, "q8_0%.*s", (int)strcspn(line, "\n") - 12, line + 12);
        cr_expect_not_null(strstr(checked_in, q8), "%s is not in the golden manifest", q8);
    }
    free(checked_in);

    /* the same manifest, once the registry knows the type: scalar and every SIMD path */
    char *relabelled = ours;
    for (char *p = strstr(relabelled, "q8_0_example\t"); p != NULL; p = strstr(p, "q8_0_example\t")) {
        memmove(p + 4, p + 12, strlen(p + 12) + 1);
    }
    spit(native, relabelled);
    free(ours);
    const char *paths[] = {"scalar", "avx2", "neon"};
    for (size_t i = 0; i < 3; i++) {
        char env_prefix[64];
        snprintf(env_prefix, sizeof env_prefix, "GGUFSAFE_KERNEL=%s", paths[i]);
        snprintf(args, sizeof args, "--check --skip-unavailable --raw --only q8_0");
        const int rc = run_golden(env_prefix, args, kat_dir(), native, &out);
        if (rc == 77) {
            cr_expect_neq(i, 0u, "scalar is always available");
            cr_expect_not_null(strstr(out, "SKIP: decoder path"), "%s", out);
        } else {
            cr_expect_eq(rc, 0, "%s: exit %d", paths[i], rc);
            cr_expect_str_eq(out, "6 passed, 0 failed\n");
        }
        free(out);
    }
}

/* Line i's output hash (the last column of the line starting TYPE<TAB>SET<TAB>). */
static void output_hash(const char *type_set, char hex[65])
{
    char *text = slurp(manifest);
    const char *line = strstr(text, type_set);
    cr_assert_not_null(line);
    const size_t len = strcspn(line, "\n");
    cr_assert_geq(len, 64u);
    memcpy(hex, line + len - 64, 64);
    hex[64] = '\0';
    free(text);
}

/* Refusing to change a hash, a corrupted hash failing --check, and a KAT output that disagrees
 * with the decoder, each with its exact status and message. */
Test(golden_caller, refusal_and_corruption)
{
    char want[4096];
    snprintf(want, sizeof want,
             "added q8_0_example/kat.rand\nadded q8_0_example/raw.zero\n"
             "added q8_0_example/raw.ones\nadded q8_0_example/raw.random\n"
             "added q8_0_example/raw.sequence\n"
             "wrote %s/q8_0_example.rand.in\nwrote %s/q8_0_example.rand.out\n"
             "5 added, 0 rewritten, 0 unchanged\n", kat_scratch, kat_scratch);
    expect_exact("", plugin_args("--update"), 0, want);
    expect_exact("", plugin_args("--update"), 0, "0 added, 0 rewritten, 5 unchanged\n");
    expect_exact("", plugin_args("--check"), 0, "6 passed, 0 failed\n");
    char *good = slurp(manifest);

    /* a corrupted hash: --check fails naming it; --update rewrites it (the KATs pass) */
    char before[65], after[65];
    output_hash("q8_0_example\traw.random\t", before);
    tamper("q8_0_example\traw.random\t");
    output_hash("q8_0_example\traw.random\t", after);
    snprintf(want, sizeof want, "changed q8_0_example/raw.random: output %.12s -> %.12s\n"
             "5 passed, 1 failed\n", after, before);
    expect_exact("", plugin_args("--check"), 1, want);
    snprintf(want, sizeof want, "rewrote q8_0_example/raw.random: output %.12s -> %.12s\n"
             "  (the KATs pass for q8_0_example with the current decoder)\n"
             "0 added, 1 rewritten, 4 unchanged\n", after, before);
    expect_exact("", plugin_args("--update"), 0, want);
    expect_manifest(good);

    /* a KAT output that disagrees with the decoder: --check fails, a changed hash is refused */
    char out_path[256];
    snprintf(out_path, sizeof out_path, "%s/q8_0_example.rand.out", kat_scratch);
    size_t n;
    char *kat = slurp_n(out_path, &n);
    uint32_t element0;
    memcpy(&element0, kat, 4);
    const uint32_t wrong = 0x12345678u;
    memcpy(kat, &wrong, 4);
    spit_n(out_path, kat, n);
    free(kat);
    char diff[512];
    snprintf(diff, sizeof diff, "q8_0_example.rand: element 0 (block 0, element 0 of the block) "
             "is 0x%08x, q8_0_example.rand.out gives 0x12345678", element0);
    snprintf(want, sizeof want, "kat q8_0_example: 1 of 1 KAT outputs differ; the first: %s\n"
             "5 passed, 1 failed\n", diff);
    expect_exact("", plugin_args("--check"), 1, want);
    tamper("q8_0_example\traw.random\t");
    char *tampered = slurp(manifest);
    snprintf(want, sizeof want, "refused q8_0_example/raw.random: output %.12s -> %.12s\n"
             "  (the KATs in %s fail: %s: a golden hash may change only when the KATs pass for "
             "the type)\nmanifest left unchanged: 1 refused\n", after, before, kat_scratch, diff);
    expect_exact("", plugin_args("--update"), 1, want);
    expect_manifest(tampered);

    /* without KAT outputs, refused too, and the missing output is not written */
    cr_assert_eq(remove(out_path), 0);
    snprintf(want, sizeof want, "refused q8_0_example/raw.random: output %.12s -> %.12s\n"
             "  (the type has no KAT outputs in %s: a golden hash may change only when the KATs "
             "pass for the type)\nmanifest left unchanged: 1 refused\n", after, before,
             kat_scratch);
    expect_exact("", plugin_args("--update"), 1, want);
    expect_manifest(tampered);
    struct stat st;
    cr_expect_neq(stat(out_path, &st), 0, "%s was written", out_path);
    free(tampered);
    free(good);
}

/* --ggml: a ggml build's type the registry lacks (the stand-in library's q8_0_branch, id 43). */
Test(golden_caller, ggml_new_type)
{
    char args[2048], want[2048];
    snprintf(args, sizeof args, "--update --ggml '%s'", env("GS_FAKE_GGML"));
    snprintf(want, sizeof want,
             "added q8_0_branch/kat.rand\nadded q8_0_branch/raw.zero\n"
             "added q8_0_branch/raw.ones\nadded q8_0_branch/raw.random\n"
             "added q8_0_branch/raw.sequence\n"
             "wrote %s/q8_0_branch.rand.in\nwrote %s/q8_0_branch.rand.out\n"
             "5 added, 0 rewritten, 0 unchanged\n", kat_scratch, kat_scratch);
    expect_exact("", args, 0, want);
    snprintf(args, sizeof args, "--check --ggml '%s'", env("GS_FAKE_GGML"));
    expect_exact("", args, 0, "6 passed, 0 failed\n");
}

/* --type with the one parser of the form, checked against the decoders as the reader does. */
Test(golden_caller, type_definitions)
{
    char args[2200];
    snprintf(args, sizeof args, "%s --type 200:q8_0_example:32:34", plugin_args("--update"));
    char *out;
    cr_expect_eq(run_golden("", args, kat_scratch, manifest, &out), 0);
    free(out);
    snprintf(args, sizeof args, "%s --type 200:q8_0_example:32:36", plugin_args("--check"));
    expect_exact("", args, 2, "gs_golden: the caller's types: GS_E_INVALID_ARGUMENT: type id 200: "
                 "the decoder's block (32 elements, 34 bytes) differs from its definition's "
                 "(32, 36)\n");
    expect_exact("", "--check --type 300:nodec:32:34", 2,
                 "gs_golden: type 300 (nodec): --type gives its geometry, but no --plugin or "
                 "--ggml decodes it\n");
    expect_exact("", "--check --type x", 2, "gs_golden: --type 'x': ID must be decimal digits, 0 "
                 "to 2147483647, followed by ':'\n");
    expect_exact("", plugin_args("--check --only q8_0"), 2,
                 "gs_golden: --only q8_0: not a decodable type of this run\n");
}
