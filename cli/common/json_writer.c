#include "json_writer.h"

#include <inttypes.h>
#include <string.h>

#include "num_format.h"
#include "text_escape.h"

void cli_json_init(cli_json *j, cli_out *out)
{
    memset(j, 0, sizeof *j);
    j->out = out;
}

static bool is_inline(const cli_json *j)
{
    return j->depth > 0 && j->depth <= CLI_JSON_MAX_DEPTH && j->inline_[j->depth - 1];
}

static void newline_indent(cli_json *j, int depth)
{
    cli_out_putc(j->out, '\n');
    for (int i = 0; i < depth; i++) {
        cli_out_puts(j->out, "  ");
    }
}

/* Everything that starts a value or a key goes through here: the comma and line break that
 * separate it from its predecessor. A value right after its key needs neither. */
static void before_item(cli_json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth == 0 || j->depth > CLI_JSON_MAX_DEPTH) {
        return;
    }
    bool *has = &j->has_items[j->depth - 1];
    if (is_inline(j)) {
        cli_out_puts(j->out, *has ? ", " : "");
    } else {
        cli_out_puts(j->out, *has ? "," : "");
        newline_indent(j, j->depth);
    }
    *has = true;
}

static void open_container(cli_json *j, char c, bool one_line)
{
    bool parent_inline = is_inline(j);
    before_item(j);
    cli_out_putc(j->out, c);
    if (j->depth < CLI_JSON_MAX_DEPTH) {
        j->has_items[j->depth] = false;
        j->inline_[j->depth] = one_line || parent_inline;
    }
    j->depth++;
}

static void close_container(cli_json *j, char c)
{
    if (j->depth == 0) {
        return;
    }
    bool had = j->depth <= CLI_JSON_MAX_DEPTH && j->has_items[j->depth - 1];
    bool one_line = is_inline(j);
    j->depth--;
    if (had && !one_line) {
        newline_indent(j, j->depth);
    }
    cli_out_putc(j->out, c);
}

void cli_json_begin_object(cli_json *j)
{
    open_container(j, '{', false);
}

void cli_json_end_object(cli_json *j)
{
    close_container(j, '}');
}

void cli_json_begin_array(cli_json *j)
{
    open_container(j, '[', false);
}

void cli_json_begin_inline_array(cli_json *j)
{
    open_container(j, '[', true);
}

void cli_json_end_array(cli_json *j)
{
    close_container(j, ']');
}

/* The string body under the escaping rule of text_escape.h: quote and backslash as JSON needs,
 * every hidden character as a JSON escape (\n-style or \uXXXX, a surrogate pair above U+FFFF),
 * other valid UTF-8 as it is, every byte that is not valid UTF-8 as the text \xHH (its
 * backslash escaped for JSON). */
static void write_string_body(cli_out *out, const uint8_t *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t i = 0;
    while (i < n) {
        gsi_char c = gsi_char_next(s + i, n - i);
        if (c.cls == GSI_CHAR_INVALID) {
            cli_out_puts(out, "\\\\x");
            cli_out_putc(out, (char)hex[c.cp >> 4]);
            cli_out_putc(out, (char)hex[c.cp & 15]);
        } else if (c.cls == GSI_CHAR_HIDDEN) {
            switch (c.cp) {
            case '\n': cli_out_puts(out, "\\n"); break;
            case '\t': cli_out_puts(out, "\\t"); break;
            case '\r': cli_out_puts(out, "\\r"); break;
            case '\b': cli_out_puts(out, "\\b"); break;
            case '\f': cli_out_puts(out, "\\f"); break;
            default:
                if (c.cp > 0xffff) {
                    uint32_t v = c.cp - 0x10000;
                    cli_out_printf(out, "\\u%04x\\u%04x", (unsigned)(0xd800 + (v >> 10)),
                                   (unsigned)(0xdc00 + (v & 0x3ff)));
                } else {
                    cli_out_printf(out, "\\u%04x", (unsigned)c.cp);
                }
                break;
            }
        } else if (c.cp == '"' || c.cp == '\\') {
            cli_out_putc(out, '\\');
            cli_out_putc(out, (char)c.cp);
        } else {
            cli_out_write(out, s + i, c.len);
        }
        i += c.len;
    }
}

void cli_json_key(cli_json *j, const char *key)
{
    before_item(j);
    cli_out_putc(j->out, '"');
    write_string_body(j->out, (const uint8_t *)key, strlen(key));
    cli_out_puts(j->out, "\": ");
    j->after_key = true;
}

void cli_json_string(cli_json *j, const void *bytes, size_t len)
{
    before_item(j);
    cli_out_putc(j->out, '"');
    write_string_body(j->out, bytes, len);
    cli_out_putc(j->out, '"');
}

void cli_json_cstring(cli_json *j, const char *s)
{
    cli_json_string(j, s, strlen(s));
}

void cli_json_u64(cli_json *j, uint64_t v)
{
    before_item(j);
    cli_out_printf(j->out, "%" PRIu64, v);
}

void cli_json_i64(cli_json *j, int64_t v)
{
    before_item(j);
    cli_out_printf(j->out, "%" PRId64, v);
}

/* Finite numbers as numbers, the rest as their names in a string. A float that prints like an
 * integer gets ".0", so that consumers that type JSON numbers (Python) still see a float. */
static void write_number_text(cli_json *j, const char *text, bool finite)
{
    before_item(j);
    if (finite) {
        cli_out_puts(j->out, text);
        if (strpbrk(text, ".e") == NULL) {
            cli_out_puts(j->out, ".0");
        }
    } else {
        cli_out_printf(j->out, "\"%s\"", text);
    }
}

void cli_json_f32(cli_json *j, float v)
{
    char buf[CLI_NUM_BUF];
    bool finite = cli_format_f32(buf, v);
    write_number_text(j, buf, finite);
}

void cli_json_f64(cli_json *j, double v)
{
    char buf[CLI_NUM_BUF];
    bool finite = cli_format_f64(buf, v);
    write_number_text(j, buf, finite);
}

void cli_json_bool(cli_json *j, bool v)
{
    before_item(j);
    cli_out_puts(j->out, v ? "true" : "false");
}

void cli_json_null(cli_json *j)
{
    before_item(j);
    cli_out_puts(j->out, "null");
}

void cli_json_key_cstring(cli_json *j, const char *key, const char *s)
{
    cli_json_key(j, key);
    cli_json_cstring(j, s);
}

void cli_json_key_begin_object(cli_json *j, const char *key)
{
    cli_json_key(j, key);
    cli_json_begin_object(j);
}

void cli_json_key_begin_array(cli_json *j, const char *key)
{
    cli_json_key(j, key);
    cli_json_begin_array(j);
}

void cli_json_key_u64(cli_json *j, const char *key, uint64_t v)
{
    cli_json_key(j, key);
    cli_json_u64(j, v);
}

void cli_json_key_bool(cli_json *j, const char *key, bool v)
{
    cli_json_key(j, key);
    cli_json_bool(j, v);
}

void cli_json_finish(cli_json *j)
{
    cli_out_putc(j->out, '\n');
}
