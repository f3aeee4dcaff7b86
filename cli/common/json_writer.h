/* A streaming JSON writer shared by every ggufsafe command that prints a report with --json.
 *
 * It keeps the promises of the CLI conventions in one place: integers exact (u64 and i64 are
 * printed from the integer, never through a double), floats with round-trip precision and
 * NaN/Inf as the strings "NaN", "Infinity" and "-Infinity", and strings JSON-escaped with every
 * byte that is not valid UTF-8 written as the six characters \\xHH (the decoded string holds a
 * backslash, 'x' and two hex digits). Commas and indentation follow from the nesting, so callers
 * only say what comes next. */
#ifndef GGUFSAFE_CLI_JSON_WRITER_H
#define GGUFSAFE_CLI_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "out.h"

/* Nesting deeper than this is a bug in the caller; the writer then stops indenting correctly but
 * still writes valid JSON. Reports nest a handful of levels. */
#define CLI_JSON_MAX_DEPTH 32

typedef struct cli_json {
    cli_out *out;
    int depth;
    bool has_items[CLI_JSON_MAX_DEPTH]; /* per open container: something written already */
    bool inline_[CLI_JSON_MAX_DEPTH];   /* per open container: items on one line */
    bool after_key;                     /* a key was written; its value comes next */
} cli_json;

/* Writes through out, which the caller finishes (cli_out_finish) after cli_json_finish. */
void cli_json_init(cli_json *j, cli_out *out);

void cli_json_begin_object(cli_json *j);
void cli_json_end_object(cli_json *j);
void cli_json_begin_array(cli_json *j);
/* An array whose items stay on one line ([512, 8]); for short arrays of scalars. */
void cli_json_begin_inline_array(cli_json *j);
void cli_json_end_array(cli_json *j);

/* An object key; key is text of our own (ASCII), escaped all the same. */
void cli_json_key(cli_json *j, const char *key);

void cli_json_string(cli_json *j, const void *bytes, size_t len);
void cli_json_cstring(cli_json *j, const char *s);
void cli_json_u64(cli_json *j, uint64_t v);
void cli_json_i64(cli_json *j, int64_t v);
void cli_json_f32(cli_json *j, float v);
void cli_json_f64(cli_json *j, double v);
void cli_json_bool(cli_json *j, bool v);
void cli_json_null(cli_json *j);

/* Key and value in one call, for the common flat fields. */
void cli_json_key_cstring(cli_json *j, const char *key, const char *s);
void cli_json_key_u64(cli_json *j, const char *key, uint64_t v);
void cli_json_key_bool(cli_json *j, const char *key, bool v);
/* A key whose value is an object or an array, begun (end it as ever). */
void cli_json_key_begin_object(cli_json *j, const char *key);
void cli_json_key_begin_array(cli_json *j, const char *key);

/* Ends the document with a newline. */
void cli_json_finish(cli_json *j);

#endif
