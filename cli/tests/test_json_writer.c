/* The CLI's JSON writer on its own: nesting and commas, exact 64-bit integers, round-trip floats
 * with NaN/Inf as strings, and string escaping with \xHH for bytes that are not UTF-8. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "num_format.h"

static FILE *sink;
static cli_out out;
static cli_json json;

static void setup(void)
{
    sink = tmpfile();
    cr_assert_not_null(sink);
    gs_sink s;
    gs_sink_file(&s, sink);
    cr_assert_eq(cli_out_init(&out, &s), GS_OK);
    cli_json_init(&json, &out);
}

static void teardown(void)
{
    fclose(sink);
}

/* Everything written so far. */
static char *written(void)
{
    cr_assert_eq(cli_out_finish(&out, NULL), GS_OK);
    fflush(sink);
    long n = ftell(sink);
    cr_assert_geq(n, 0);
    char *buf = calloc((size_t)n + 1, 1);
    rewind(sink);
    cr_assert_eq(fread(buf, 1, (size_t)n, sink), (size_t)n);
    return buf;
}

/* n bytes of raw written as one JSON string are exactly want. */
static void expect_json_string(const char *raw, size_t n, const char *want)
{
    cli_json_string(&json, raw, n);
    char *s = written();
    cr_expect_str_eq(s, want);
    free(s);
}

TestSuite(json_writer, .init = setup, .fini = teardown);

Test(json_writer, nesting_and_layout)
{
    cli_json_begin_object(&json);
    cli_json_key_u64(&json, "a", 1);
    cli_json_key(&json, "shape");
    cli_json_begin_inline_array(&json);
    cli_json_u64(&json, 512);
    cli_json_u64(&json, 8);
    cli_json_end_array(&json);
    cli_json_key(&json, "empty");
    cli_json_begin_array(&json);
    cli_json_end_array(&json);
    cli_json_key(&json, "list");
    cli_json_begin_array(&json);
    cli_json_begin_object(&json);
    cli_json_key_bool(&json, "t", true);
    cli_json_end_object(&json);
    cli_json_null(&json);
    cli_json_end_array(&json);
    cli_json_end_object(&json);
    cli_json_finish(&json);
    char *s = written();
    cr_expect_str_eq(s, "{\n"
                        "  \"a\": 1,\n"
                        "  \"shape\": [512, 8],\n"
                        "  \"empty\": [],\n"
                        "  \"list\": [\n"
                        "    {\n"
                        "      \"t\": true\n"
                        "    },\n"
                        "    null\n"
                        "  ]\n"
                        "}\n");
    free(s);
}

/* A key that begins an object or an array writes what the key and the begin write apart. */
Test(json_writer, key_begin_object_and_array)
{
    cli_json_begin_object(&json);
    cli_json_key_begin_object(&json, "tool");
    cli_json_key_cstring(&json, "name", "x");
    cli_json_end_object(&json);
    cli_json_key_begin_array(&json, "rows");
    cli_json_u64(&json, 7);
    cli_json_end_array(&json);
    cli_json_key_begin_array(&json, "none");
    cli_json_end_array(&json);
    cli_json_end_object(&json);
    cli_json_finish(&json);
    char *s = written();
    cr_expect_str_eq(s, "{\n"
                        "  \"tool\": {\n"
                        "    \"name\": \"x\"\n"
                        "  },\n"
                        "  \"rows\": [\n"
                        "    7\n"
                        "  ],\n"
                        "  \"none\": []\n"
                        "}\n");
    free(s);
}

Test(json_writer, integers_are_exact)
{
    cli_json_begin_inline_array(&json);
    cli_json_u64(&json, UINT64_MAX);
    cli_json_u64(&json, (1ull << 53) + 1);
    cli_json_i64(&json, INT64_MIN);
    cli_json_i64(&json, -1);
    cli_json_end_array(&json);
    char *s = written();
    cr_expect_str_eq(s, "[18446744073709551615, 9007199254740993, -9223372036854775808, -1]");
    free(s);
}

Test(json_writer, floats_round_trip_and_name_non_finite)
{
    cli_json_begin_inline_array(&json);
    cli_json_f32(&json, 0.95f);
    cli_json_f32(&json, 1.0f);
    cli_json_f32(&json, -0.0f);
    cli_json_f32(&json, 1e-45f); /* smallest subnormal */
    cli_json_f32(&json, 3.40282347e38f);
    cli_json_f64(&json, 0.1);
    cli_json_f64(&json, 3.141592653589793);
    cli_json_f64(&json, 1e300);
    cli_json_f32(&json, NAN);
    cli_json_f64(&json, INFINITY);
    cli_json_f64(&json, -INFINITY);
    cli_json_end_array(&json);
    char *s = written();
    cr_expect_str_eq(s, "[0.95, 1.0, -0.0, 1e-45, 3.4028235e+38, 0.1, 3.141592653589793, 1e+300, "
                        "\"NaN\", \"Infinity\", \"-Infinity\"]");
    free(s);
}

Test(json_writer, every_float_round_trips)
{
    /* A spread of bit patterns: the printed text must read back to the same float. */
    for (uint32_t bits = 1; bits < 0x7f800000u; bits += 0x00012345u) {
        float f;
        memcpy(&f, &bits, sizeof f);
        char buf[CLI_NUM_BUF];
        cr_assert(cli_format_f32(buf, f));
        cr_assert_eq(strtof(buf, NULL), f, "%s for bits 0x%08x", buf, bits);
    }
}

Test(json_writer, strings_escape_controls_and_invalid_utf8)
{
    static const char raw[] = "q\" b\\ \n\t\r\b\f \x01\x1b\x7f "
                              "\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80 "
                              "\xff \xc3\x28 \xe2\x9c \xed\xa0\x80 \xc0\xaf";
    expect_json_string(raw, sizeof raw - 1,
                       "\"q\\\" b\\\\ \\n\\t\\r\\b\\f \\u0001\\u001b\\u007f \xc3\xa9 \xe2\x9c\x93 "
                       "\xf0\x9f\x98\x80 \\\\xff \\\\xc3( \\\\xe2\\\\x9c "
                       "\\\\xed\\\\xa0\\\\x80 \\\\xc0\\\\xaf\"");
}

/* The characters text output shows as \u{XXXX} are JSON escapes here (a surrogate pair above
 * U+FFFF), so that a report printed on a terminal is as safe as the text form: C1 (CSI, OSC,
 * NEL), the Trojan Source override, isolates, zero-width characters, the separators, the BOM,
 * a tag character. Their neighbours (NBSP, U+2030, U+FFFC) pass as they are. */
Test(json_writer, strings_escape_invisible_and_bidi_characters)
{
    static const char raw[] = "\xc2\x9b\xc2\x9d\xc2\x85 safe\xe2\x80\xaegnp.exe "
                              "\xe2\x81\xa6x\xe2\x81\xa9 \xe2\x80\x8b\xe2\x80\x8f\xe2\x80\xa8"
                              "\xe2\x80\xa9\xef\xbb\xbf\xd8\x9c \xf3\xa0\x81\x81 "
                              "\xc2\xa0\xe2\x80\xb0\xef\xbf\xbc";
    expect_json_string(raw, sizeof raw - 1,
                       "\"\\u009b\\u009d\\u0085 safe\\u202egnp.exe \\u2066x\\u2069 "
                       "\\u200b\\u200f\\u2028\\u2029\\ufeff\\u061c \\udb40\\udc41 "
                       "\xc2\xa0\xe2\x80\xb0\xef\xbf\xbc\"");
}

Test(json_writer, embedded_nul_is_escaped)
{
    expect_json_string("a\0b", 3, "\"a\\u0000b\"");
}
