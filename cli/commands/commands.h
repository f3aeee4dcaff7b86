/* The commands of the ggufsafe tool. Each lives in its own cmd_<name>.c and is listed once in
 * commands.c. A command is its text (for --help and its man page), its table of operands and
 * options (cli_opts.h), and run(), which gets the parsed arguments and returns the process exit
 * code (cli_common.h). */
#ifndef GGUFSAFE_CLI_COMMANDS_H
#define GGUFSAFE_CLI_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli_opts.h"

typedef struct cli_command {
    const char *name;
    const char *summary;      /* one line for `ggufsafe --help` and the man page's NAME */
    /* Paragraphs, blank-line separated, wrapped at 80 columns; a paragraph whose lines begin
     * with two spaces is an example, shown as it is. */
    const char *description;  /* after the synopsis */
    const char *notes;        /* after the options (NULL: none) */
    const char *exit_status;  /* one paragraph: "0 ..., 1 ..., 2 ..." */
    const cli_operand *operands;
    size_t n_operands;
    const cli_opt *options;
    size_t n_options;
    size_t args_size;         /* the command's args struct, which begins with a cli_args */
    void (*init)(void *args); /* the defaults (the struct is zeroed before); may be NULL */
    int (*run)(void *args);
    /* Sections of its own for the man page, after OPTIONS (NULL: none). */
    void (*man_sections)(FILE *out);
    bool decodes;             /* decodes tensors: GGUFSAFE_KERNEL applies (man page) */
} cli_command;

/* Where `cmake --install` puts the JSON schemas (set by the build from the install prefix). */
#ifndef GGUFSAFE_SCHEMA_DIR
#define GGUFSAFE_SCHEMA_DIR "/usr/local/share/ggufsafe/schema"
#endif
#define CLI_SCHEMA(name) "schema: " GGUFSAFE_SCHEMA_DIR "/" name ".schema.json"

#define CLI_TABLE(t) (t), (sizeof(t) / sizeof((t)[0]))
/* What every command's entry names the same way: its tables `operands` and `options`, the
 * args struct its run() gets, and its init() and run(). */
#define CLI_COMMAND_PARTS(args_type, init_fn, run_fn)                                          \
    .operands = CLI_TABLE(operands), .options = CLI_TABLE(options),                          \
    .args_size = sizeof(args_type), .init = (init_fn), .run = (run_fn)

extern const cli_command cmd_info;
extern const cli_command cmd_dequant;
extern const cli_command cmd_diff;
extern const cli_command cmd_certify;
extern const cli_command cmd_hash;
extern const cli_command cmd_verify;

/* Every command, in the order `ggufsafe --help` lists them. */
extern const cli_command *const cli_commands[];
extern const size_t cli_command_count;
const cli_command *cli_find_command(const char *name);

/* Parses argv (argv[0] the command's name) into a fresh args struct and runs the command. */
int cli_command_main(const cli_command *cmd, int argc, char **argv);

/* The usage `COMMAND --help` prints (cli_usage.c), and `ggufsafe --help`. */
void cli_print_usage(const cli_command *cmd, FILE *out);
void cli_print_tool_usage(FILE *out);

#endif
