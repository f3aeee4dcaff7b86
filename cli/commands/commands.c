/* The list of commands, running one, and `ggufsafe --help`. */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_usage.h"
#include "report_header.h"

/* One line per command; a new command adds its cmd_<name>.c and a row here. */
const cli_command *const cli_commands[] = {
    &cmd_info, &cmd_dequant, &cmd_diff, &cmd_certify, &cmd_hash, &cmd_verify,
};

const size_t cli_command_count = sizeof cli_commands / sizeof cli_commands[0];

const cli_command *cli_find_command(const char *name)
{
    for (size_t i = 0; i < cli_command_count; i++) {
        if (strcmp(cli_commands[i]->name, name) == 0) {
            return cli_commands[i];
        }
    }
    return NULL;
}

int cli_command_main(const cli_command *cmd, int argc, char **argv)
{
    void *args = calloc(1, cmd->args_size);
    if (args == NULL) {
        return cli_print_out_of_memory();
    }
    if (cmd->init != NULL) {
        cmd->init(args);
    }
    int code = cli_parse(cmd, argc, argv, args);
    if (code < 0) {
        code = cmd->run(args);
    }
    cli_args_free(cmd, args);
    free(args);
    return code;
}

void cli_print_tool_usage(FILE *out)
{
    fprintf(out,
            "usage: " CLI_TOOL_NAME " COMMAND [ARGS...]\n"
            "       " CLI_TOOL_NAME " --help | --version\n"
            "       " CLI_TOOL_NAME " COMMAND --help\n"
            "\n"
            "commands:\n");
    for (size_t i = 0; i < cli_command_count; i++) {
        fprintf(out, "  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    }
    fprintf(out,
            "\n"
            "Every command takes -h (--help); -j N (--jobs), -q (--quiet) and -o FILE (its output\n"
            "file) mean the same wherever a command has them. Manual: man " CLI_TOOL_NAME
            ", man " CLI_TOOL_NAME "-COMMAND.\n"
            "\n"
            "exit status: 0 success, 1 the file is invalid, 2 usage error, I/O error or not a\n"
            "GGUF file. Errors are one line on stderr:\n"
            "  error: <STATUS> at byte <offset> (<key, tensor or header>): <message>\n"
            "  error: cannot read '<file>': <why>\n");
}
