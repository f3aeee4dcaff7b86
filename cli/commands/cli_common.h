/* What every ggufsafe command shares: exit codes, the error line, the options every command takes
 * (--json, --profile), option-value parsing, opening with the chosen profile, and standard
 * output. The commands are the only code that prints, parses arguments or picks exit codes: the
 * libraries they call return statuses (docs/library-certify.md). */
#ifndef GGUFSAFE_CLI_COMMON_H
#define GGUFSAFE_CLI_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"
#include "json_writer.h"
#include "out.h"
#include "report_header.h"

/* Exit codes (docs/cli.md, "Exit status"). */
enum {
    CLI_EXIT_OK = 0,      /* success, valid, certified */
    CLI_EXIT_INVALID = 1, /* the file under test is bad (not GGUF at all included) */
    CLI_EXIT_USAGE = 2    /* usage, I/O or environment error */
};

/* The exit code for a failed open: the environment (I/O, memory, arguments) is 2, everything the
 * file's contents got wrong, a file that is not GGUF at all included, is 1. */
int cli_exit_for_status(gs_status status);

/* Prints the reader's failure to stderr as one line:
 *   error: <STATUS_NAME> at byte <offset> (<context>): <message>[: <detail>]
 * context is the key, tensor or part name, "header", or "-". */
void cli_print_error(const gs_error *err);

/* A failure a library call returned: "error: out of memory" for GS_E_NO_MEMORY, the error line
 * otherwise. Returns the exit code for its status. */
int cli_print_failure(const gs_error *err);

/* GGUFSAFE_KERNEL naming a decoder path this CPU lacks, or none: -1 when the active path is
 * usable, else the error line ("names no decoder path" or "is not available") and
 * CLI_EXIT_USAGE. Decoding commands refuse before any work rather than fall back silently. */
int cli_kernel_unavailable(void);

/* Prints "error: <message>" and a pointer to the usage to stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The same for an argument from the command line, shown escaped: "error: <what> '<arg>'". */
int cli_usage_error_arg(const char *command, const char *what, const char *arg);

/* Options every reporting command takes. */
typedef struct cli_common {
    bool json;
    gs_profile profile;
} cli_common;

void cli_common_init(cli_common *c);

/* Outcome of trying to match argv[*i] against an option. */
typedef enum cli_match {
    CLI_MATCH_NO = 0,  /* not this option */
    CLI_MATCH_YES = 1, /* consumed (and its value, advancing *i) */
    CLI_MATCH_ERROR = -1 /* this option, but unusable: the usage error is already printed */
} cli_match;

/* --json, --profile strict|lenient (also --profile=lenient). */
cli_match cli_match_common(cli_common *c, const char *command, int argc, char **argv, int *i);

/* An option with a value, as "--name value" or "--name=value"; *value points into argv. */
cli_match cli_match_value(const char *command, const char *name, int argc, char **argv, int *i,
                          const char **value);

/* --jobs N: a thread count in 1..CLI_MAX_JOBS. */
#define CLI_MAX_JOBS 256u
cli_match cli_match_jobs(const char *command, int argc, char **argv, int *i, uint64_t *jobs);

/* The options every command takes besides its own: --part-only, --help (-h, prints usage) and
 * "--" (every later argument is an operand). Returns -1 when arg was one of them, otherwise the
 * exit code the command returns: CLI_EXIT_OK after --help, CLI_EXIT_USAGE after the error line
 * for an unknown option. */
int cli_match_final(const char *command, const char *usage, const char *arg, bool *part_only,
                    bool *options_done);

/* A decimal count in 0..max, digits only. */
bool cli_parse_u64(const char *s, uint64_t max, uint64_t *out);

/* True for an argument that looks like an option ("-x", "--x"); "-" alone is a file name. */
bool cli_is_option(const char *arg);

/* gs_options with the defaults and the chosen profile. */
void cli_options(const cli_common *c, gs_options *opts);

/* Standard output as the libraries' writers and the commands' own renderers see it: a gs_sink
 * (unbuffered by us: stdio buffers it), and a cli_out on it that the command finishes. */
void cli_stdout_sink(gs_sink *sink);
void cli_stdout_out(cli_out *out);

/* malloc that ends the program with "error: out of memory" (exit 2) instead of returning NULL:
 * for the CLI's own small buffers, where there is nothing sensible to print without them. */
void *cli_xmalloc(size_t size);

/* Flushes stdout; a failed write (full disk, closed pipe) is an I/O error: reported, exit 2. */
int cli_finish_output(int code);

#endif
