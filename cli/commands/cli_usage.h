/* The pieces of a command's usage that --help (cli_usage.c), the man pages and the completion
 * scripts (generate_*.c) share, so that all three say the same thing from the same table. */
#ifndef GGUFSAFE_CLI_USAGE_H
#define GGUFSAFE_CLI_USAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "commands.h"

/* Lines of --help end before this column. */
#define CLI_USAGE_WIDTH 79

/* The paragraphs of a description (commands.h): fn gets each one's text (without the blank
 * line) and whether it is an example, shown as it is. */
typedef void (*cli_paragraph_fn)(void *ctx, const char *text, size_t len, bool example);
void cli_paragraphs(const char *text, cli_paragraph_fn fn, void *ctx);

/* Prints text[0..len), words separated by spaces or newlines, filled up to CLI_USAGE_WIDTH: the
 * first line continues at column col, the others begin with indent spaces. Returns the column
 * after the last word. */
size_t cli_wrap(FILE *out, const char *text, size_t len, size_t col, size_t indent);

/* Whether o appears in the synopsis: not hidden, not a mode of its own, and not the second of
 * two exclusive options (which share one "[--a | --b]"). */
bool cli_in_synopsis(const cli_command *cmd, const cli_opt *o);
/* The option that o excludes or that excludes o, when it comes later in the table: NULL
 * otherwise. */
const cli_opt *cli_synopsis_partner(const cli_command *cmd, const cli_opt *o);

/* How o's value is shown in the synopsis: the choices joined with '|', or its arg name. */
void cli_value_display(const cli_opt *o, char *buf, size_t cap);

#endif
