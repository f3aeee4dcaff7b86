/* Bytes from a file on their way to a terminal: escaped by the library's gsi_escape_text (the one
 * rule of parser/text_escape.h: control bytes, DEL and invalid UTF-8 as \xHH, C1 controls, bidi
 * controls and invisible format characters as \u{XXXX}, backslash doubled), optionally cut to a
 * readable length with an ellipsis, and padded to a column. Nothing from a file reaches stdout
 * any other way. */
#ifndef GGUFSAFE_CLI_TEXT_OUT_H
#define GGUFSAFE_CLI_TEXT_OUT_H

#include <stddef.h>

#include "out.h"

/* The most source bytes one escaped field shows; longer fields are cut. */
#define CLI_TEXT_MAX_SRC 256
/* Every source byte escapes to at most 4 bytes; room for the ellipsis and the NUL. */
#define CLI_TEXT_BUF (4 * CLI_TEXT_MAX_SRC + 8)

typedef struct cli_text {
    char s[CLI_TEXT_BUF];
    size_t len;   /* bytes in s */
    size_t width; /* code points in s: the columns it takes on a terminal (wide glyphs aside) */
} cli_text;

/* How many of src[0..n) to keep so that at most max_src bytes are kept and the cut does not
 * split a UTF-8 sequence (n when everything fits). */
size_t cli_text_cut(const void *src, size_t n, size_t max_src);

/* Escapes at most max_src bytes of src[0..n) (cut by cli_text_cut) into dst, NUL-terminated,
 * ending with "…" when some were left out; returns the bytes written. With cap at least
 * 4 * max_src + 8 nothing else is cut (a smaller buffer ends in "..." where it is full). The one
 * escape-and-cut of the command and its engines. */
size_t cli_escape_cut(char *dst, size_t cap, const void *src, size_t n, size_t max_src);

/* Escapes src[0..n) into t, keeping at most max_src source bytes (capped at CLI_TEXT_MAX_SRC),
 * as cli_escape_cut does. */
void cli_text_escape(cli_text *t, const void *src, size_t n, size_t max_src);

/* The columns cli_text_escape(t, src, n, max_src) gives t: t->width, without the text (a
 * column of keys is sized before it is printed). */
size_t cli_text_columns(const void *src, size_t n, size_t max_src);

/* Whether cli_text_escape(t, src, n, max_src) gives src itself (printable ASCII without a
 * backslash, not cut): its n bytes can then be printed as they are, in n columns. */
bool cli_text_is_plain(const void *src, size_t n, size_t max_src);

/* The same for a NUL-terminated string (command-line arguments). */
void cli_text_escape_cstr(cli_text *t, const char *s);

/* Text of our own (numbers, type names), formatted into t without escaping. */
void cli_text_printf(cli_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints t, then spaces up to width columns. */
void cli_text_print_padded(cli_out *out, const cli_text *t, size_t width);

#endif
