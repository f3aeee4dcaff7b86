/* `ggufsafe --generate man DIR | bash FILE | zsh FILE`: the man pages (ggufsafe.1 and one
 * ggufsafe-COMMAND.1 per command) and the bash and zsh completion scripts, written from the same
 * tables that parse the arguments and print --help. The build runs it (cli/CMakeLists.txt);
 * packagers may too. Hidden from --help: it is not for everyday use. */
#ifndef GGUFSAFE_CLI_GENERATE_H
#define GGUFSAFE_CLI_GENERATE_H

#include <stdio.h>

#include "commands.h"

/* argv[0] is "--generate". Returns the exit code. */
int cli_generate(int argc, char **argv);

/* The writers, each to an open stream. */
void cli_man_tool(FILE *out);
void cli_man_command(FILE *out, const cli_command *cmd);
void cli_completion_bash(FILE *out);
void cli_completion_zsh(FILE *out);

/* roff for the sections a command adds to its page (man_sections): text escaped so that roff
 * prints it as it is (backslash, hyphens, a leading dot or quote). */
void cli_man_text(FILE *out, const char *text);
/* ".SH NAME" with the title escaped. */
void cli_man_section(FILE *out, const char *title);

#endif
