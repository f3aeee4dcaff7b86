/* ggufsafe: the command-line tool. main() only dispatches: global options (--help, --version),
 * the build's generator of man pages and completion (--generate, for packagers and the build),
 * then the command named by argv[1] (commands.c). */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"
#include "generate.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_print_tool_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0 || strcmp(first, "help") == 0) {
        if (argc > 2 && strcmp(first, "help") == 0) {
            const cli_command *c = cli_find_command(argv[2]);
            if (c == NULL) {
                return cli_usage_error_arg(NULL, "unknown command", argv[2]);
            }
            cli_print_usage(c, stdout);
        } else {
            cli_print_tool_usage(stdout);
        }
        return cli_finish_output(CLI_EXIT_OK);
    }
    if (strcmp(first, "--version") == 0 || strcmp(first, "-V") == 0) {
        printf(CLI_TOOL_NAME " %s\n", gs_version());
        return cli_finish_output(CLI_EXIT_OK);
    }
    if (strcmp(first, GS_PLUGIN_HOST_COMMAND) == 0) {
        /* internal: this binary re-executed to run a decoder plugin in a child (--plugin) */
        return gs_plugin_host_main(argc, argv);
    }
    if (strcmp(first, "--generate") == 0) {
        return cli_generate(argc - 1, argv + 1);
    }
    const cli_command *c = cli_find_command(first);
    if (c == NULL) {
        const char *what = first[0] == '-' && first[1] != '\0' ? "unknown option"
                                                               : "unknown command";
        return cli_usage_error_arg(NULL, what, first);
    }
    return cli_command_main(c, argc - 1, argv + 1);
}
