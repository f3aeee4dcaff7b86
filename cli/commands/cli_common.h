/* What every ggufsafe command shares: exit codes, the error lines (usage, a file's contents, a
 * file that cannot be used), opening with the chosen profile, and standard output. Arguments
 * are parsed by cli_opts.h. The commands are the only code that prints, parses arguments or picks exit codes: the
 * libraries they call return statuses (docs/library-certify.md). */
#ifndef GGUFSAFE_CLI_COMMON_H
#define GGUFSAFE_CLI_COMMON_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_opts.h"
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
/* `--ggml PATH`: loads that libggml-base for the ggml path (gs_set_ggml_library) and adds its
 * types our registry does not know, with their decoders, to the command's set (cli_types.h):
 * decoded by ggml's to_float in a child process (cli_types_load_ggml_child, timeout_ms per call),
 * or in this process with in_process (--plugin-in-process). With GGUFSAFE_KERNEL=ggml (the
 * library from --ggml or GGUFSAFE_GGML) and not in_process, the child serves the registry's
 * types too (`__plugin-host --ggml-kernel`): no ggml decoder runs in this process. -1 when path
 * is NULL or it loaded; otherwise the error line with the loader's reason and CLI_EXIT_USAGE. */
int cli_load_ggml(const char *command, const char *path, bool in_process, uint64_t timeout_ms);
/* A tensor the active path cannot decode although the path runs: on the ggml path, a type the
 * loaded ggml has no decoder for (Q8_1). Prints it, naming the tensor, its type and the ggml
 * library, and returns CLI_EXIT_USAGE (the environment, not the file); -1 when the active path is
 * not ggml (the caller reports the status as it is). */
int cli_kernel_tensor_unavailable(const char *tensor_name, size_t name_len, int32_t type);

/* Prints "error: <message>" and a pointer to the usage to stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The same for an argument from the command line, shown escaped: "error: <what> '<arg>'". */
int cli_usage_error_arg(const char *command, const char *what, const char *arg);

/* --tensor and --exclude patterns that left no tensor: a usage error naming the pattern when
 * there is one ("no tensor<where> named 'x'", "... matches 'x*'"), else "no tensor<where> is
 * left by the --tensor and --exclude patterns". where is "" or " in either file". */
int cli_no_tensor_left(const char *command, const char *where, const cli_list *tensors,
                       size_t n_excludes);

/* "error: out of memory"; returns CLI_EXIT_USAGE. */
int cli_print_out_of_memory(void);

/* For a command that will compute SHA-256: -1 when libcrypto is loaded (cli/common/sha256.h),
 * else prints "error: <command>: <what failed and what to install>" and returns CLI_EXIT_USAGE
 * (the environment, not the input), before anything is written. */
int cli_need_sha256(const char *command);

/* A file that cannot be used, the path first: "error: cannot <verb> '<path>'[ (<label>)]: <why>",
 * path and why escaped. Returns CLI_EXIT_USAGE. */
int cli_path_error(const char *verb, const char *path, const char *label, const char *why);

/* An input of the command's own (a manifest, a policy file) opened for reading as the reader
 * opens files: a regular file only, so that a FIFO or a device in its place cannot hang the
 * command. The stream, or NULL after "error: cannot open the <what> '<path>': <why>" with
 * *code the exit status (CLI_EXIT_USAGE). */
FILE *cli_open_input(const char *what, const char *path, int *code);

/* Opens such an input (cli_open_input) and parses it with read(in, out, err): -1 with out
 * filled, or the exit status after the error line (CLI_EXIT_USAGE: whatever the input holds, a
 * bad one is the caller's to fix): cannot open or read it, out of memory, or malformed,
 * "error: malformed <what> <path>:<detail>" when located (the detail is "LINE:COLUMN: ...",
 * escaped already), else "error: malformed <what> '<path>': <detail>". */
typedef gs_status (*cli_input_reader)(FILE *in, void *out, gs_error *err);
int cli_read_input(const char *what, const char *path, bool located, cli_input_reader read,
                   void *out);

/* A file that could not be opened (or a split set, from path): the environment's failures
 * (GS_E_IO) name the file first, "error: cannot read '<path>'[ (<label>)]: open: <strerror>";
 * what the file's contents got wrong is the error line (cli_print_error), ending with
 * " (<label>: <path>)" when there is a label. Returns the exit code for the status. */
int cli_print_open_failure(const gs_error *err, const char *path, const char *label);

/* A read that failed while the file was being worked on (it changed, or the disk failed): the
 * file first (the part's name for a split set), then the status, offset and what:
 * "error: cannot read '<path>': <STATUS> at byte <offset>[ (<context>)]: <message>[: <detail>]".
 * Returns CLI_EXIT_USAGE: the environment, not the file's contents. */
int cli_print_read_error(const gs_error *err, const char *path, const char *label);

/* gs_options with the defaults and the chosen profile. */
void cli_options(gs_profile profile, gs_options *opts);

/* Standard output as the libraries' writers and the commands' own renderers see it: a gs_sink
 * (unbuffered by us: stdio buffers it), and a cli_out on it that the command finishes. */
void cli_stdout_sink(gs_sink *sink);
void cli_stdout_out(cli_out *out);

/* malloc that ends the program with "error: out of memory" (exit 2) instead of returning NULL:
 * for the CLI's own small buffers, where there is nothing sensible to print without them. */
void *cli_xmalloc(size_t size);

/* Flushes stdout; a failed write (full disk, closed pipe) is an I/O error: "error: cannot write
 * to standard output: <strerror>", exit 2. */
int cli_finish_output(int code);

#endif
