/* The --generate mode: which file, where; each written whole or not at all (cli_outfile). */
#include "generate.h"

#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_outfile.h"
#include "report_header.h"

/* Writes one man page (cmd NULL: the tool's) or completion script (fn) to path. */
static int write_file(const char *path, const cli_command *cmd, void (*fn)(FILE *))
{
    cli_outfile of;
    int code = cli_outfile_open(&of, path, NULL);
    if (code >= 0) {
        return code;
    }
    if (fn != NULL) {
        fn(of.f);
    } else if (cmd != NULL) {
        cli_man_command(of.f, cmd);
    } else {
        cli_man_tool(of.f);
    }
    return cli_outfile_commit(&of, CLI_EXIT_OK);
}

static int write_man_pages(const char *dir)
{
    size_t cap = strlen(dir) + 64;
    char *path = cli_xmalloc(cap);
    snprintf(path, cap, "%s/" CLI_TOOL_NAME ".1", dir);
    int code = write_file(path, NULL, NULL);
    for (size_t i = 0; i < cli_command_count && code == CLI_EXIT_OK; i++) {
        snprintf(path, cap, "%s/" CLI_TOOL_NAME "-%s.1", dir, cli_commands[i]->name);
        code = write_file(path, cli_commands[i], NULL);
    }
    free(path);
    return code;
}

int cli_generate(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "man") == 0) {
        return write_man_pages(argv[2]);
    }
    if (argc == 3 && strcmp(argv[1], "bash") == 0) {
        return write_file(argv[2], NULL, cli_completion_bash);
    }
    if (argc == 3 && strcmp(argv[1], "zsh") == 0) {
        return write_file(argv[2], NULL, cli_completion_zsh);
    }
    return cli_usage_error(NULL, "--generate takes 'man DIR', 'bash FILE' or 'zsh FILE'");
}
