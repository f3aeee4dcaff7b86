/* ggufsafe: the command-line tool. main() only dispatches: global options (--help, --version),
 * then the command named by argv[1] from the table below. */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"

/* One line per command; a new command adds its cmd_<name>.c and a row here. */
static const cli_command *const commands[] = {
    &cmd_info,
    &cmd_dequant,
    &cmd_diff,
    &cmd_certify,
    &cmd_hash,
    &cmd_verify,
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *out)
{
    fprintf(out,
            "usage: ggufsafe COMMAND [ARGS...]\n"
            "       ggufsafe --help | --version\n"
            "       ggufsafe COMMAND --help\n"
            "\n"
            "commands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++) {
        fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    }
    fprintf(out,
            "\n"
            "exit status: 0 success, 1 the file is invalid, 2 usage error, I/O error or not a\n"
            "GGUF file. Errors are one line on stderr:\n"
            "  error: <STATUS> at byte <offset> (<key, tensor or header>): <message>\n");
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(commands[i]->name, name) == 0) {
            return commands[i];
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0 || strcmp(first, "help") == 0) {
        if (argc > 2 && strcmp(first, "help") == 0) {
            const cli_command *c = find_command(argv[2]);
            if (c == NULL) {
                return cli_usage_error_arg(NULL, "unknown command", argv[2]);
            }
            fputs(c->usage, stdout);
        } else {
            print_usage(stdout);
        }
        return cli_finish_output(CLI_EXIT_OK);
    }
    if (strcmp(first, "--version") == 0 || strcmp(first, "-V") == 0) {
        printf(CLI_TOOL_NAME " %s\n", gs_version());
        return cli_finish_output(CLI_EXIT_OK);
    }
    const cli_command *c = find_command(first);
    if (c == NULL) {
        const char *what = cli_is_option(first) ? "unknown option" : "unknown command";
        return cli_usage_error_arg(NULL, what, first);
    }
    return c->run(argc - 1, argv + 1);
}
