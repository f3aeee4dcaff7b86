/* The caller-defined types of a command line (--type, repeatable on every command), and later
 * the decoders of --plugin: parsed, checked as one set, and kept for the run of the one command
 * a process runs, so that every open the command makes (cli_options, and the engines' options
 * through cli_types_current) gets them. */
#ifndef GGUFSAFE_CLI_TYPES_H
#define GGUFSAFE_CLI_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_opts.h"
#include "ggufsafe.h"
#include "type_spec.h"

typedef struct cli_types {
    gs_type_def defs[GS_TYPE_DEF_MAX];
    size_t n_defs;
    gs_decoder decoders[GS_TYPE_DEF_MAX];
    size_t n_decoders;
} cli_types;

/* Parses and checks every --type value into the command's set: -1, or the exit code after a
 * usage error naming the value (CLI_EXIT_USAGE). */
int cli_types_use(const char *command, const cli_list *specs);

/* Loads every --plugin (in a child process re-executing this binary, unless in_process; hang
 * timeout in ms, 0: the default) and adds its decoders to the command's set: -1, or the exit
 * code after the error line naming the plugin (CLI_EXIT_USAGE: the environment). The plugins
 * stay loaded until the process exits. */
int cli_types_load_plugins(const char *command, const cli_list *paths, bool in_process,
                           uint64_t timeout_ms);

/* Everything a decoding command's decoder options ask for, in order: the --type definitions
 * (cli_types_use), the --plugin decoders (cli_types_load_plugins) and --ggml's (cli_load_ggml,
 * path NULL when absent): -1, or the exit code of the first that failed. */
int cli_types_load_all(const char *command, const cli_list *specs, const cli_list *plugin_paths,
                       const char *ggml, bool in_process, uint64_t timeout_ms);
/* cli_types_load_all with the options CLI_OPT_DECODERS put in d. */
#define CLI_TYPES_LOAD_ALL(command, d)                                                            \
    cli_types_load_all((command), &(d)->types, &(d)->plugins, (d)->ggml, (d)->plugin_in_process, \
                       (d)->plugin_timeout)

/* After a decode failed with GS_E_DECODER_FAILED: the error line naming the plugin, what
 * happened and `what` was decoded (already escaped: "tensor 'w'"). Returns CLI_EXIT_USAGE. */
int cli_types_decoder_failure(const char *what);

/* The command's set (empty until cli_types_use). */
const cli_types *cli_types_current(void);

/* ggml's new types (gs_ggml_decoders of the library at path, loaded already) decoded by a child
 * that this program runs as `__plugin-host --ggml path` (gs_plugin_open_ggml); with kernel
 * (GGUFSAFE_KERNEL=ggml), `__plugin-host --ggml-kernel path` (gs_plugin_open_ggml_kernel): the
 * registry's types ggml converts as well, and the new types only when new_types. Added to the
 * set like a plugin's: -1, or the exit code after the error line. */
int cli_types_load_ggml_child(const char *command, const char *path, bool kernel, bool new_types,
                              uint64_t timeout_ms);

/* Appends decoders from another source (the loaded ggml's new types) to the command's set:
 * -1, or the exit code after a usage error (too many). An id --type defines keeps --type's
 * geometry; the reader refuses an entry whose geometry differs from it. */
int cli_types_add_decoders(const char *command, const gs_decoder *d, size_t n);

/* The set into the reader's options (cli_options does it). */
void cli_types_apply(gs_options *opts);

#endif
