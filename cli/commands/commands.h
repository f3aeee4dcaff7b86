/* The commands of the ggufsafe tool. Each lives in its own cmd_<name>.c and is listed once in the
 * dispatch table in main.c. A command gets argv with argv[0] being its own name and returns the
 * process exit code (cli_common.h). */
#ifndef GGUFSAFE_CLI_COMMANDS_H
#define GGUFSAFE_CLI_COMMANDS_H

typedef struct cli_command {
    const char *name;
    const char *summary; /* one line for `ggufsafe --help` */
    const char *usage;   /* the full usage, printed by `ggufsafe <name> --help` */
    int (*run)(int argc, char **argv);
} cli_command;

extern const cli_command cmd_info;
extern const cli_command cmd_dequant;
extern const cli_command cmd_diff;
extern const cli_command cmd_certify;
extern const cli_command cmd_hash;
extern const cli_command cmd_verify;

#endif
