/* gs_golden --check / --update on scratch copies of the manifest: a changed hash is rewritten
 * only when the type's ggml KATs pass, refused for a type without KATs or with failing KATs,
 * a missing entry is added, a stale one is never dropped silently. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, symlink, mkdir */
#include <criterion/criterion.h>
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

static char *slurp(const char *path)
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
    return buf;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
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

/* Runs gs_golden MODE on the scratch manifest and expects exit status rc and an output that
 * contains want and, unless it is NULL, also_want. */
static void expect_run(const char *mode, const char *kat_dir, int rc, const char *want,
                       const char *also_want)
{
    char out_path[128], cmd[2048];
    snprintf(out_path, sizeof out_path, "%s/out.txt", scratch);
    snprintf(cmd, sizeof cmd, "'%s' %s --kat '%s' --manifest '%s' > '%s' 2>&1", env("GS_GOLDEN"),
             mode, kat_dir, manifest, out_path);
    const int status = system(cmd);
    cr_assert(WIFEXITED(status), "gs_golden did not exit normally");
    char *out = slurp(out_path);
    fputs(out, stdout); /* sanitizer reports reach ctest's fail regex */
    cr_expect_eq(WEXITSTATUS(status), rc, "gs_golden %s: exit %d", mode, WEXITSTATUS(status));
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

TestSuite(golden_update, .init = setup, .fini = teardown);

Test(golden_update, check_passes_on_the_checked_in_manifest)
{
    expect_run("--check", kat_dir(), 0, " 0 failed", NULL);
}

Test(golden_update, changed_hash_with_passing_kats_is_rewritten)
{
    tamper("q4_0\tzero\t");
    expect_run("--check", kat_dir(), 1, "changed q4_0/zero", NULL);
    expect_run("--update", kat_dir(), 0, "rewrote q4_0/zero", NULL);
    expect_original_manifest();
}

Test(golden_update, changed_hash_without_kats_is_refused)
{
    tamper("f32\tspecials\t");
    char *before = slurp(manifest);
    expect_run("--update", kat_dir(), 1, "refused f32/specials", "no ggml KATs");
    expect_manifest(before);
    free(before);
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
    char *before = slurp(manifest);
    expect_run("--update", bad_kat, 1, "refused q4_0/zero", "the ggml KATs fail");
    expect_manifest(before);
    free(before);
}

Test(golden_update, missing_entry_is_added)
{
    delete_line("iq1_m\tgrid\t");
    expect_run("--check", kat_dir(), 1, "missing iq1_m/grid", NULL);
    expect_run("--update", kat_dir(), 0, "added iq1_m/grid", NULL);
    expect_original_manifest();
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
