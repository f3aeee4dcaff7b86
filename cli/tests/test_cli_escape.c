/* Hostile bytes from a file never reach the terminal raw: a key, a string value, an array element
 * and a tensor name holding terminal escapes, control bytes and invalid UTF-8 (readable only in
 * the lenient profile) are escaped in the text report, and in JSON they are JSON escapes or the
 * text \xHH, and the report still validates. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cli_test.h"
#include "gsw_write.h"
#include "utf8.h"

static char *dir;
static char *path; /* the hostile file */

/* ESC [31m sets red, BEL rings, ESC ]0;...BEL retitles the terminal; 0xff and 0xc3 0x28 are not
 * UTF-8; 0xe2 0x9c 0x93 is a valid U+2713. */
static const char key[] = "weird\xff\x1b[31mkey\x07";
static const char value[] = "v\x1b]0;pwned\x07\xc3\x28 \"q\" \\ \xe2\x9c\x93\n";
static const char name[] = "t\x1b[2J\xfe";

static void build(void)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    gsw_set_string(gsw_add_n(&m, key, sizeof key - 1), value, sizeof value - 1);
    static const char *const elems[] = {"ok", "\x80\x1b[0m", "\xe2\x9c"};
    static const size_t lens[] = {2, 5, 2};
    gsw_value *arr = gsw_add(&m, "arr");
    gsw_set_string_array(arr, 3);
    for (uint64_t i = 0; i < 3; i++) {
        gsw_array_string(arr, i, elems[i], lens[i]);
    }
    gsw_set_f32(gsw_add(&m, "nan"), __builtin_nanf(""));
    static const float data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const uint64_t ne = 8;
    gsw_tensor_set_data(gsw_add_tensor_n(&m, name, sizeof name - 1, 1, &ne, GS_TYPE_F32), data,
                        sizeof data);
    char why[256];
    cr_assert_eq(gsw_write_file(&m, 0, path, why, sizeof why), 0, "%s", why);
    gsw_model_free(&m);
}

static void setup(void)
{
    cr_assert_not_null(cli_binary(), "GS_CLI is not set: run through ctest");
    dir = scratch_dir();
    cr_assert_not_null(dir);
    path = path_join(dir, "hostile.gguf");
    build();
}

static void teardown(void)
{
    free(path);
    scratch_remove(dir);
}

TestSuite(escape, .init = setup, .fini = teardown);

Test(escape, text_report_has_no_raw_control_bytes)
{
    run_result r;
    cr_assert(run_cli(&r, "info", "--profile", "lenient", path, NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(no_control_bytes(r.out, r.out_len), "%s", r.out);
    cr_expect(gsi_utf8_valid((const uint8_t *)r.out, r.out_len));
    cr_expect(contains(r.out, "weird\\xff\\x1b[31mkey\\x07"), "%s", r.out);
    cr_expect(contains(r.out, "v\\x1b]0;pwned\\x07\\xc3( \"q\" \\\\ \xe2\x9c\x93\\x0a"), "%s",
              r.out);
    cr_expect(contains(r.out, "[string; 3]"));
    cr_expect(contains(r.out, "  nan "));
    cr_expect(contains(r.out, "NaN\n"));
    cr_expect(contains(r.out, "  t\\x1b[2J\\xfe  8  F32  offset 0\n"), "%s", r.out);
    cr_expect(contains(r.out, "profile:     lenient\n"));
    cr_expect(contains(r.out, "\nEXACT\n"));
    run_result_free(&r);
}

Test(escape, json_escapes_and_validates)
{
    run_result r;
    cr_assert(run_cli(&r, "info", "--json", "--profile=lenient", path, NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(no_control_bytes(r.out, r.out_len));
    cr_expect(gsi_utf8_valid((const uint8_t *)r.out, r.out_len));
    /* Control bytes as JSON escapes, invalid bytes as the text \xHH, valid UTF-8 as is. */
    cr_expect(contains(r.out, "\"key\": \"weird\\\\xff\\u001b[31mkey\\u0007\""), "%s", r.out);
    cr_expect(contains(r.out, "\"value\": \"v\\u001b]0;pwned\\u0007\\\\xc3( \\\"q\\\" \\\\ "
                              "\xe2\x9c\x93\\n\""),
              "%s", r.out);
    cr_expect(contains(r.out, "\"head\": [\"ok\", \"\\\\x80\\u001b[0m\", \"\\\\xe2\\\\x9c\"]"),
              "%s", r.out);
    cr_expect(contains(r.out, "\"value\": \"NaN\""), "%s", r.out);
    cr_expect(contains(r.out, "\"name\": \"t\\u001b[2J\\\\xfe\""), "%s", r.out);
    int st = check_json(dir, "info.schema.json", r.out, "/profile=\"lenient\"", "/kv_count=3",
                        "/tensor_count=1",
                        "/metadata/0/key=\"weird\\\\xff\\u001b[31mkey\\u0007\"",
                        "/metadata/1/head/2=\"\\\\xe2\\\\x9c\"", "kv:nan=\"NaN\"",
                        "/tensors/0/name=\"t\\u001b[2J\\\\xfe\"", "/size_check=\"EXACT\"", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
}

Test(escape, strict_profile_rejects_with_escaped_error_line)
{
    run_result r;
    CLI_RUN(r, 1, "info", path);
    cr_expect_eq(r.out_len, 0);
    cr_expect(no_control_bytes(r.err, r.err_len), "%s", r.err);
    cr_expect_str_eq(r.err, "error: GS_E_BAD_KEY at byte 24 (weird\\xff\\x1b[31mkey\\x07): key "
                            "outside the GGUF key grammar (lower_snake_case segments joined by "
                            "'.'): key-value pair 0, not valid UTF-8\n");
    run_result_free(&r);
}

Test(escape, hostile_arguments_are_escaped_in_usage_errors)
{
    run_result r;
    CLI_RUN(r, 2, "info", "--\x1b[2J", path);
    cr_expect(no_control_bytes(r.err, r.err_len), "%s", r.err);
    cr_expect(contains(r.err, "error: unknown option '--\\x1b[2J'\n"), "%s", r.err);
    run_result_free(&r);
}
