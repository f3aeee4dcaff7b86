/* Characters that are valid UTF-8 and still control a terminal or hide (issue #14, point 5): C1
 * controls (U+009B is CSI, U+009D OSC), the Trojan Source class of bidirectional overrides and
 * isolates, zero-width and other invisible format characters, the separators, the BOM and tag
 * characters. A strict-valid file holds one of each class in its strings and in a tensor name;
 * every command that prints them (info, dequant --sha256, certify, diff, the error line on
 * stderr, hash) shows them as \u{XXXX} in text and as \uXXXX in JSON, and no output holds one
 * raw (no_hidden_chars decodes every byte of it). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_test.h"
#include "gsw_sha256.h"
#include "gsw_write.h"

static char *dir;

/* "safe<RLO>gnp.exe" reads "safeexe.png" on a terminal that honours U+202E. */
#define TROJAN "safe\xe2\x80\xaegnp.exe"
#define TROJAN_TEXT "safe\\u{202e}gnp.exe"
#define TROJAN_JSON "safe\\u202egnp.exe"
/* C1: CSI "2J" clears the screen, OSC "0;x" ST retitles the window. */
#define C1 "a\xc2\x9b" "2Jb\xc2\x9d" "0;x\xc2\x9c"
#define C1_TEXT "a\\u{009b}2Jb\\u{009d}0;x\\u{009c}"
#define C1_JSON "a\\u009b2Jb\\u009d0;x\\u009c"
/* LRI x PDI, LRE RLE PDF LRO, LRM RLM, ALM */
#define BIDI "\xe2\x81\xa6x\xe2\x81\xa9 \xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad " \
             "\xe2\x80\x8e\xe2\x80\x8f \xd8\x9c"
#define BIDI_TEXT "\\u{2066}x\\u{2069} \\u{202a}\\u{202b}\\u{202c}\\u{202d} \\u{200e}\\u{200f} " \
                  "\\u{061c}"
#define BIDI_JSON "\\u2066x\\u2069 \\u202a\\u202b\\u202c\\u202d \\u200e\\u200f " \
                  "\\u061c"
/* ZWSP ZWNJ ZWJ WJ, LS PS, BOM, soft hyphen, interlinear annotation anchor, TAG LATIN CAPITAL A */
#define INVISIBLE "\xe2\x80\x8b\xe2\x80\x8c\xe2\x80\x8d\xe2\x81\xa0 \xe2\x80\xa8\xe2\x80\xa9 " \
                  "\xef\xbb\xbf\xc2\xad\xef\xbf\xb9\xf3\xa0\x81\x81"
#define INVISIBLE_TEXT "\\u{200b}\\u{200c}\\u{200d}\\u{2060} \\u{2028}\\u{2029} " \
                       "\\u{feff}\\u{00ad}\\u{fff9}\\u{e0041}"
#define INVISIBLE_JSON "\\u200b\\u200c\\u200d\\u2060 \\u2028\\u2029 " \
                       "\\ufeff\\u00ad\\ufff9\\udb40\\udc41"
/* A tensor name with an override and an isolate: 9 bytes, within strict's 63. */
#define TNAME "w\xe2\x80\xaex\xe2\x81\xa6"
#define TNAME_TEXT "w\\u{202e}x\\u{2066}"
#define TNAME_JSON "w\\u202ex\\u2066"
/* general.type, quoted by certify's meta.type_unknown message */
#define GTYPE "mo\xe2\x80\x8b" "del"
#define GTYPE_TEXT "mo\\u{200b}del"

static const float values[8] = {1, 2, 3, 4, 5, 6, 7, 8};

/* The hostile file, or its reference twin (general.name "ref", the same tensor); tensors copies
 * of the tensor (two: a duplicate name), its third value a NaN when nan. */
static char *write_model(const char *file, bool hostile, int tensors, bool nan)
{
    gsw_model m;
    llama_model(&m);
    gsw_set_cstr(gsw_add(&m, "general.name"), hostile ? TROJAN : "ref");
    if (hostile) {
        gsw_set_cstr(gsw_add(&m, "general.type"), GTYPE);
        gsw_set_cstr(gsw_add(&m, "hidden.c1"), C1);
        gsw_set_cstr(gsw_add(&m, "hidden.bidi"), BIDI);
        gsw_set_cstr(gsw_add(&m, "hidden.invisible"), INVISIBLE);
    }
    const uint64_t ne = 8;
    float data[8];
    memcpy(data, values, sizeof data);
    if (nan) {
        data[2] = __builtin_nanf("");
    }
    for (int i = 0; i < tensors; i++) {
        gsw_tensor_set_data(gsw_add_tensor(&m, TNAME, 1, &ne, GS_TYPE_F32), data, sizeof data);
    }
    char *path = model_to_file(&m, dir, file);
    cr_assert_not_null(path);
    return path;
}

static char *hostile;

static void setup(void)
{
    cr_assert_not_null(cli_binary(), "GS_CLI is not set: run through ctest");
    dir = scratch_dir();
    cr_assert_not_null(dir);
    hostile = write_model("hidden.gguf", true, 1, false);
}

static void teardown(void)
{
    free(hostile);
    scratch_remove(dir);
}

TestSuite(invisible, .init = setup, .fini = teardown);

static void expect_safe(const run_result *r)
{
    cr_expect(no_hidden_chars(r->out, r->out_len), "a hidden character on stdout:\n%s", r->out);
    cr_expect(no_hidden_chars(r->err, r->err_len), "a hidden character on stderr:\n%s", r->err);
}

/* Runs the tool with the arguments (the closing NULL added here) into r, and expect_safe. */
#define run_safe(r, ...)                                                                         \
    do {                                                                                         \
        cr_assert(run_cli((r), __VA_ARGS__, NULL));                                              \
        expect_safe(r);                                                                          \
    } while (0)

Test(invisible, info_text)
{
    run_result r;
    cr_assert(run_cli(&r, "info", hostile, NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    expect_safe(&r);
    cr_expect(contains(r.out, "string  " TROJAN_TEXT "\n"), "%s", r.out);
    cr_expect(contains(r.out, "hidden.c1             string  " C1_TEXT "\n"), "%s", r.out);
    cr_expect(contains(r.out, "hidden.bidi           string  " BIDI_TEXT "\n"), "%s", r.out);
    cr_expect(contains(r.out, "hidden.invisible      string  " INVISIBLE_TEXT "\n"), "%s", r.out);
    cr_expect(contains(r.out, "  " TNAME_TEXT "  8  F32  offset 0\n"), "%s", r.out);
    run_result_free(&r);
}

Test(invisible, info_json)
{
    run_result r;
    cr_assert(run_cli(&r, "info", "--json", hostile, NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    expect_safe(&r);
    cr_expect(contains(r.out, "\"" TROJAN_JSON "\""), "%s", r.out);
    int st = check_json(dir, "info.schema.json", r.out, "/metadata/1/value=\"" TROJAN_JSON "\"",
                        "/metadata/3/value=\"" C1_JSON "\"",
                        "/metadata/4/value=\"" BIDI_JSON "\"",
                        "/metadata/5/value=\"" INVISIBLE_JSON "\"",
                        "/tensors/0/name=\"" TNAME_JSON "\"", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
}

Test(invisible, dequant_sha256_and_json)
{
    char hex[65];
    gsw_sha256_hex(values, sizeof values, hex); /* f32 on a little-endian host: the bytes out */
    char line[160];
    snprintf(line, sizeof line, "%s  " TNAME_TEXT "  f32\n", hex);
    run_result r;
    cr_assert(run_cli(&r, "dequant", "--sha256", hostile, NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    expect_safe(&r);
    cr_expect_str_eq(r.out, line);
    run_result_free(&r);
    cr_assert(run_cli(&r, "dequant", "--json", hostile, NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    expect_safe(&r);
    int st = check_json(dir, "dequant.schema.json", r.out,
                        "/tensors/0/name=\"" TNAME_JSON "\"", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
}

/* `certify [--deep] --json path`: output without hidden characters, holding the n fragments,
 * valid against certify.schema.json. */
static void expect_certify_json(const char *path, bool deep, const char *const *fragments,
                                size_t n)
{
    run_result r;
    if (deep) {
        run_safe(&r, "certify", "--deep", "--json", path);
    } else {
        run_safe(&r, "certify", "--json", path);
    }
    for (size_t i = 0; i < n; i++) {
        cr_expect(contains(r.out, fragments[i]), "%s", r.out);
    }
    cr_expect_eq(check_json(dir, "certify.schema.json", r.out, NULL, NULL), 0);
    run_result_free(&r);
}

/* --deep finds the NaN: a finding whose subject is the tensor, named in the location (text)
 * and in the tensor field (JSON); meta.type_unknown quotes general.type in its message. */
Test(invisible, certify_text_json_and_sarif)
{
    char *nan = write_model("nan.gguf", true, 1, true);
    run_result r;
    run_safe(&r, "certify", "--deep", nan);
    cr_expect(contains(r.out, "general.type '" GTYPE_TEXT "' is none of"), "%s", r.out);
    cr_expect(contains(r.out, ", tensor '" TNAME_TEXT "'\n"), "%s", r.out);
    run_result_free(&r);
    /* the message is our text, quoting the file's bytes in their text escapes */
    static const char *const in_json[] = {"general.type 'mo\\\\u{200b}del' is none of",
                                          "\"tensor\": \"" TNAME_JSON "\""};
    expect_certify_json(nan, true, in_json, 2);
    run_safe(&r, "certify", "--deep", "--sarif", nan);
    cr_expect_eq(check_json(dir, "sarif-subset.schema.json", r.out, NULL, NULL), 0);
    run_result_free(&r);
    free(nan);
}

/* Two tensors of that name: certify reports the reader's error, whose context the reader
 * escaped already (so JSON holds the text escapes, JSON-escaped). */
Test(invisible, certify_names_a_tensor)
{
    char *dup = write_model("dup.gguf", true, 2, false);
    run_result r;
    cr_assert(run_cli(&r, "certify", dup, NULL));
    cr_expect_eq(r.status, 1, "%s", r.out);
    expect_safe(&r);
    cr_expect(contains(r.out, "tensor '" TNAME_TEXT "'"), "%s", r.out);
    run_result_free(&r);
    static const char *const in_json[] = {"\"tensor\": \"w\\\\u{202e}x\\\\u{2066}\""};
    expect_certify_json(dup, false, in_json, 1);
    free(dup);
}

Test(invisible, diff_text_and_json)
{
    char *ref = write_model("ref.gguf", false, 1, false);
    run_result r;
    cr_assert(run_cli(&r, "diff", ref, hostile, NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    expect_safe(&r);
    cr_expect(contains(r.out, "  changed     general.name  string \"ref\" -> string \""
                              TROJAN_TEXT "\"\n"),
              "%s", r.out);
    cr_expect(contains(r.out, "  only in B  hidden.bidi  string \"" BIDI_TEXT "\"\n"), "%s",
              r.out);
    cr_expect(contains(r.out, TNAME_TEXT), "%s", r.out);
    run_result_free(&r);
    cr_assert(run_cli(&r, "diff", "--json", ref, hostile, NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    expect_safe(&r);
    int st = check_json(dir, "diff.schema.json", r.out,
                        "/metadata/changed/0/b={\"type\": \"string\", \"value\": \"" TROJAN_JSON
                        "\"}",
                        "/tensors/compared/0/name=\"" TNAME_JSON "\"", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
    free(ref);
}

/* The reader refuses the duplicate name; the error line names it escaped. */
Test(invisible, error_line_on_stderr)
{
    char *dup = write_model("dup.gguf", true, 2, false);
    run_result r;
    CLI_RUN(r, 1, "info", dup);
    cr_expect_eq(r.out_len, 0);
    expect_safe(&r);
    cr_expect(contains(r.err, "error: GS_E_DUPLICATE_TENSOR_NAME at byte "), "%s", r.err);
    cr_expect(contains(r.err, " (" TNAME_TEXT "): "), "%s", r.err);
    run_result_free(&r);
    CLI_RUN(r, 1, "dequant", "--sha256", dup);
    expect_safe(&r);
    cr_expect(contains(r.err, " (" TNAME_TEXT "): "), "%s", r.err);
    run_result_free(&r);
    free(dup);
}

/* The manifest's own form (\xHH outside 0x21..0x7E) is pure ASCII: nothing hidden in it, and
 * verify's report of a changed name shows that form. */
Test(invisible, hash_and_verify_stay_ascii)
{
    run_result r;
    cr_assert(run_cli(&r, "hash", hostile, NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    expect_safe(&r);
    cr_expect(contains(r.out, " f32 8 w\\xe2\\x80\\xaex\\xe2\\x81\\xa6\n"), "%s", r.out);
    char *manifest = path_join(dir, "hidden.manifest");
    cr_assert(write_file(manifest, r.out, r.out_len));
    run_result_free(&r);
    char *ref = write_model("ref2.gguf", false, 1, false);
    cr_assert(run_cli(&r, "verify", ref, manifest, NULL));
    cr_expect_eq(r.status, 1, "%s", r.out);
    expect_safe(&r);
    cr_expect(contains(r.out, "missing  kv      hidden.bidi\n"), "%s", r.out);
    run_result_free(&r);
    free(ref);
    free(manifest);
}
