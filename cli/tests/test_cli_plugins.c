#define _POSIX_C_SOURCE 200809L
/* Caller-defined types and decoder plugins through the command: a file whose Q8_0 tensor is
 * relabelled 8 -> 200 (the corpus writer) decodes through the example plugin to the same bytes
 * as the original (dequant --sha256, diff --max-abs 0), in a child and in-process; the faulty
 * plugins (crash, hang, out-of-bounds write, wrong ABI version, a built-in id) are reported
 * naming the plugin and the tensor, exit 2; --type definitions that overflow or clash are usage
 * errors; info without a definition names --type, --plugin and --ggml; certify reports
 * compat.unknown_type and the file's other findings. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_test.h"
#include "ggufsafe.h"
#include "gsw_write.h"

static char *dir;
static char q8[512], t200[512], noarch[512];
static char example[512], plugin_dir[512];

/* "w": 256 x 4 Q8_0 (deterministic bytes, NaN and Inf scales among them), "b": 8 f32; the same
 * bytes with w's type id `type`; without general.architecture when no_arch. */
static void write_model(const char *path, int32_t type, bool no_arch)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    if (!no_arch) {
        gsw_set_cstr(gsw_add(&m, "general.architecture"), "llama");
    }
    gsw_set_u32(gsw_add(&m, "general.quantization_version"), 2);
    const uint64_t ne[2] = {256, 4};
    gsw_tensor *w = gsw_add_tensor(&m, "w", 2, ne, GS_TYPE_Q8_0);
    cr_assert(gsw_tensor_fill(w, 11, 1u << 20));
    w->type = type;
    gsw_tensor *b = gsw_add_tensor(&m, "b", 1, (const uint64_t[]){8}, GS_TYPE_F32);
    cr_assert(gsw_tensor_fill(b, 5, 1024));
    char why[256];
    cr_assert_eq(gsw_write_file(&m, GSW_LAX, path, why, sizeof why), 0, "%s", why);
    gsw_model_free(&m);
}

static void setup(void)
{
    cr_assert_not_null(cli_binary(), "GS_CLI is not set: run through ctest");
    const char *pd = getenv("GS_PLUGIN_DIR");
    cr_assert_not_null(pd, "GS_PLUGIN_DIR is not set: run through ctest");
    snprintf(plugin_dir, sizeof plugin_dir, "%s", pd);
    snprintf(example, sizeof example, "%s/plugin_example.so", pd);
    dir = scratch_dir();
    snprintf(q8, sizeof q8, "%s/q8.gguf", dir);
    snprintf(t200, sizeof t200, "%s/t200.gguf", dir);
    snprintf(noarch, sizeof noarch, "%s/noarch.gguf", dir);
    write_model(q8, GS_TYPE_Q8_0, false);
    write_model(t200, 200, false);
    write_model(noarch, 200, true);
}

static void teardown(void)
{
    scratch_remove(dir);
}

TestSuite(plugins, .init = setup, .fini = teardown);

/* The digests of dequant --sha256 with the type column dropped (q8_0 against q8_0_example). */
static char *digests(const char *out)
{
    char *s = strdup(out);
    cr_assert_not_null(s);
    char *w = s;
    for (const char *line = out; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
        const char *last = line + len;
        while (last > line && last[-1] != ' ') {
            last--;
        }
        size_t keep = last > line ? (size_t)(last - line) : len;
        memcpy(w, line, keep);
        w += keep;
        *w++ = '\n';
        line += len + (end != NULL);
    }
    *w = '\0';
    return s;
}

Test(plugins, example_plugin_decodes_like_q8_0_bit_for_bit)
{
    run_result ref, child, inproc;
    cr_assert(run_cli(&ref, "dequant", q8, "--sha256", NULL));
    cr_assert_eq(ref.status, 0, "%s", ref.err);
    cr_assert(run_cli(&child, "dequant", t200, "--sha256", "--plugin", example, NULL));
    cr_assert_eq(child.status, 0, "%s", child.err);
    cr_assert(contains(child.out, "  w  q8_0_example\n"), "%s", child.out);
    cr_assert(run_cli(&inproc, "dequant", t200, "--sha256", "--plugin", example,
                      "--plugin-in-process", NULL));
    cr_assert_eq(inproc.status, 0, "%s", inproc.err);
    char *a = digests(ref.out), *b = digests(child.out), *c = digests(inproc.out);
    cr_assert_str_eq(a, b);
    cr_assert_str_eq(a, c);
    free(a), free(b), free(c);
    run_result_free(&ref);
    run_result_free(&child);
    run_result_free(&inproc);

    run_result d;
    cr_assert(run_cli(&d, "diff", q8, t200, "--max-abs", "0", "--plugin", example, NULL));
    cr_assert_eq(d.status, 0, "%s%s", d.out, d.err);
    cr_assert(contains(d.out, "gate: --max-abs 0: 0 tensors fail; PASS"), "%s", d.out);
    run_result_free(&d);
    /* the same through the library's in-process path, and certify --deep checks the values */
    cr_assert(run_cli(&d, "certify", "--deep", t200, "--plugin", example, "--profile",
                      "lenient", NULL));
    cr_assert(!contains(d.out, "compat.unknown_type"), "%s", d.out);
    cr_assert(!contains(d.err, "error"), "%s", d.err);
    run_result_free(&d);
}

Test(plugins, type_geometry_alone_lists_and_hashes)
{
    run_result r;
    CLI_RUN(r, 0, "info", t200, "--type", "200:q8_0_example:32:34");
    cr_assert(contains(r.out, "Q8_0_EXAMPLE"), "%s", r.out);
    cr_assert(contains(r.out, "EXACT"), "%s", r.out);
    /* the quantization mix counts it, under its name, after f32 (by type id) */
    cr_assert(contains(r.out, "quantization mix:\n"
                              "  F32               1 tensor              32 bytes        32 B "
                              "   2.9%\n"
                              "  Q8_0_EXAMPLE      1 tensor            1088 bytes    1.06 KiB "
                              "  97.1%\n"), "%s", r.out);
    run_result_free(&r);
    CLI_RUN(r, 0, "info", "--json", t200, "--type", "200:q8_0_example:32:34");
    cr_expect_eq(check_json(dir, "info.schema.json", r.out, "/tensors/0/type_id=200",
                            "/tensors/0/type=\"q8_0_example\"",
                            "/quantization_mix/0/type=\"f32\"",
                            "/quantization_mix/1/type=\"q8_0_example\"",
                            "/quantization_mix/1/type_id=200", "/quantization_mix/1/tensors=1",
                            "/quantization_mix/1/bytes=1088", NULL),
                 0, "%s", r.out);
    run_result_free(&r);
    /* without a decoder the tensor has no f32 form: listed with "-" like an integer tensor */
    CLI_RUN(r, 0, "dequant", t200, "--sha256", "--type", "200:q8_0_example:32:34");
    cr_assert(strncmp(r.out, "-  w  q8_0_example\n", 19) == 0, "%s", r.out);
    run_result_free(&r);
    CLI_RUN(r, 0, "hash", t200, "--type", "200:q8_0_example:32:34");
    cr_assert(contains(r.out, "q8_0_example"), "%s", r.out);
    run_result_free(&r);
}

/* The one flag of a plugin lists, hashes and verifies the file as its --type does: the geometry
 * comes from the plugin's table, in the child host or in-process alike. */
Test(plugins, plugin_alone_lists_hashes_and_verifies)
{
    static const char *const cmds[] = {"info", "hash"};
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        run_result by_type, child, inproc;
        CLI_RUN(by_type, 0, cmds[c], t200, "--type", "200:q8_0_example:32:34");
        CLI_RUN(child, 0, cmds[c], t200, "--plugin", example);
        CLI_RUN(inproc, 0, cmds[c], t200, "--plugin", example, "--plugin-in-process");
        cr_assert_str_eq(child.out, by_type.out, "%s", cmds[c]);
        cr_assert_str_eq(inproc.out, by_type.out, "%s", cmds[c]);
        run_result_free(&by_type);
        run_result_free(&child);
        run_result_free(&inproc);
    }
    char manifest[600];
    snprintf(manifest, sizeof manifest, "%s/t200.manifest", dir);
    run_result r;
    CLI_RUN(r, 0, "hash", t200, "--plugin", example, "-o", manifest);
    run_result_free(&r);
    CLI_RUN(r, 0, "verify", t200, manifest, "--plugin", example);
    run_result_free(&r);
    /* without it the type has no name: verify says so as a difference */
    CLI_RUN(r, 1, "verify", t200, manifest);
    cr_assert_str_eq(r.out, "changed  tensor  w  type q8_0_example -> unknown\n"
                            "FAILED: 1 difference from the manifest\n");
    cr_assert_str_eq(r.err, "hint: a tensor's type has no definition in this run: define it "
                            "with --type ID:NAME:BLOCK_ELEMENTS:BLOCK_BYTES, or load its decoder "
                            "with --plugin PATH or --ggml PATH, as when the manifest was "
                            "written\n");
    run_result_free(&r);
    /* the hint is for a person: --quiet leaves it out */
    CLI_RUN(r, 1, "verify", "--quiet", t200, manifest);
    cr_assert_str_eq(r.err, "");
    run_result_free(&r);
}

Test(plugins, info_without_a_definition_names_the_flags)
{
    static const char *const named[] = {
        "error: GS_E_UNKNOWN_TENSOR_TYPE at byte ", "(w): unknown tensor type id: type id 200",
        "--type ID:NAME:BLOCK_ELEMENTS:BLOCK_BYTES", "--plugin", "--ggml"};
    run_result r;
    CLI_RUN(r, 1, "info", t200);
    CLI_EXPECT_ALL_IN(r.err, named);
    run_result_free(&r);
}

Test(plugins, certify_reports_the_unknown_type_and_the_rest)
{
    run_result r;
    cr_assert(run_cli(&r, "certify", noarch, "--profile", "lenient", NULL));
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert(contains(r.out, "error   compat.unknown_type at byte "), "%s", r.out);
    cr_assert(contains(r.out, ", tensor 'w'\n        unknown tensor type id: type id 200"),
              "%s", r.out);
    cr_assert(contains(r.out, "NOT CERTIFIED (lenient)"), "%s", r.out);
    run_result_free(&r);
    cr_assert(run_cli(&r, "certify", noarch, NULL));
    cr_assert_eq(r.status, 1);
    cr_assert(contains(r.out, "compat.unknown_type"), "%s", r.out);
    cr_assert(contains(r.out, "meta.architecture_missing"), "%s", r.out);
    cr_assert(!contains(r.out, "layout.gap"), "%s", r.out);
    cr_assert(!contains(r.out, "layout.trailing_bytes"), "%s", r.out);
    run_result_free(&r);
    /* defined, the same file certifies but for its missing architecture */
    cr_assert(run_cli(&r, "certify", noarch, "--type", "200:q8_0_example:32:34", NULL));
    cr_assert(!contains(r.out, "compat.unknown_type"), "%s", r.out);
    cr_assert(contains(r.out, "meta.architecture_missing"), "%s", r.out);
    run_result_free(&r);
}

static void faulty(const char *name, const char *want, const char *extra)
{
    char path[600];
    snprintf(path, sizeof path, "%s/plugin_%s.so", plugin_dir, name);
    run_result r;
    cr_assert(run_cli(&r, "dequant", t200, "--sha256", "--plugin", path, "--plugin-timeout",
                      "2000", extra, NULL));
    cr_assert_eq(r.status, 2, "%s: %d %s", name, r.status, r.err);
    cr_assert(contains(r.err, want), "%s: %s", name, r.err);
    run_result_free(&r);
}

Test(plugins, faulty_plugins_are_reported_not_fatal)
{
    faulty("crash",
           "error: GS_E_DECODER_FAILED on tensor 'w': plugin 'faulty' (", NULL);
    faulty("crash", "crashed with SIGSEGV (signal 11) decoding 1088 bytes of type 200; its "
                    "stderr: \"plugin_faulty: about to crash\"", NULL);
    faulty("hang", "did not answer within 2000 ms decoding 1088 bytes of type 200 (hung; killed)",
           NULL);
    faulty("oob", "wrote out of bounds of its output decoding 1088 bytes of type 200: at byte 12 "
                  "past the end of it (caught in the child)", NULL);
    /* a table of the wrong ABI version: the same status, exit 2, in the child and in-process */
    faulty("abi", "error: cannot load plugin '", NULL);
    faulty("abi", "': GS_E_INVALID_ARGUMENT: plugin ABI version 2; this ggufsafe reads version 1\n",
           NULL);
    faulty("abi", "': GS_E_INVALID_ARGUMENT: plugin ABI version 2; this ggufsafe reads version 1\n",
           "--plugin-in-process");
    faulty("builtin", "type id 8 is built in (q8_0): redefining it needs the override flag",
           NULL);
    faulty("builtin", "type id 8 is built in (q8_0)", "--plugin-in-process");
    /* diff names the tensor too */
    char path[600];
    snprintf(path, sizeof path, "%s/plugin_crash.so", plugin_dir);
    run_result r;
    cr_assert(run_cli(&r, "diff", q8, t200, "--plugin", path, NULL));
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(contains(r.err, "GS_E_DECODER_FAILED on tensor 'w': plugin 'faulty'"), "%s", r.err);
    run_result_free(&r);
    cr_assert(run_cli(&r, "certify", "--deep", t200, "--plugin", path, NULL));
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(contains(r.err, "crashed with SIGSEGV"), "%s", r.err);
    run_result_free(&r);
}

static void bad_type(const char *spec, const char *want)
{
    run_result r;
    cr_assert(run_cli(&r, "info", t200, "--type", spec, NULL));
    cr_assert_eq(r.status, 2, "%s: %s", spec, r.err);
    cr_assert(contains(r.err, want), "%s: %s", spec, r.err);
    run_result_free(&r);
}

Test(plugins, type_definitions_that_overflow_or_clash)
{
    bad_type("200:x:4294967296:34", "BLOCK_ELEMENTS must be decimal digits, at most 4294967295");
    bad_type("200:x:32:99999999999999999999", "BLOCK_BYTES must be decimal digits");
    bad_type("2147483648:x:32:34", "ID must be decimal digits, 0 to 2147483647");
    bad_type("200:x:5000:34", "type id 200: 5000 elements per block, at most 4096");
    bad_type("200:x:0:34", "both must be nonzero");
    bad_type("8:q8:32:34", "type id 8 is built in (q8_0): redefining it needs the override flag");
    bad_type("200:bad name:32:34", "type id 200: the name must be");
    bad_type("200:x:32:34:sure", "only ':override' may follow BLOCK_BYTES");
    run_result r;
    cr_assert(run_cli(&r, "info", t200, "--type", "200:a:32:34", "--type", "200:b:32:34", NULL));
    cr_assert_eq(r.status, 2);
    cr_assert(contains(r.err, "type id 200 is defined twice (definitions 0 and 1)"), "%s", r.err);
    run_result_free(&r);
    /* a --type and a plugin's type of another geometry */
    cr_assert(run_cli(&r, "dequant", t200, "--sha256", "--type", "200:a:32:36", "--plugin",
                      example, NULL));
    cr_assert_eq(r.status, 2);
    cr_assert(contains(r.err, "serves type id 200 with 32 elements in 34 bytes, --type says 32 "
                              "in 36"), "%s", r.err);
    run_result_free(&r);
    /* an override replaces a built-in geometry: then Q8_0's tensor no longer fits */
    cr_assert(run_cli(&r, "info", q8, "--type", "8:q8_wide:512:34:override", NULL));
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert(contains(r.err, "GS_E_ROW_NOT_BLOCK_MULTIPLE"), "%s", r.err);
    run_result_free(&r);
}
