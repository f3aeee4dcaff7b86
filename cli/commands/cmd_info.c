/* ggufsafe info FILE [--json] [--profile strict|lenient] [--rows N] [--part-only]
 *                    [--metadata-only]
 *
 * What a GGUF says about itself: header, metadata, tensor directory, parameter count,
 * quantization mix, layout, and whether the size its metadata predicts is the size on disk. The
 * first part of a split set is reported with the whole set unless --part-only. */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "cli_source.h"
#include "commands.h"
#include "info_model.h"
#include "open_notes.h"

#define DEFAULT_ROWS 6
#define MAX_ROWS (1u << 30)

static const char usage[] =
    "usage: ggufsafe info FILE [--json] [--profile strict|lenient] [--rows N] [--part-only]\n"
    "                          [--metadata-only]\n"
    "\n"
    "Reports a GGUF file's header, metadata, tensor directory, parameter count, quantization\n"
    "mix, data layout, and the file size its metadata predicts against the actual size.\n"
    "\n"
    "  --json                 one JSON object (conformance/schema/info.schema.json)\n"
    "  --profile P            strict (default: GGUF spec and llama.cpp rules) or lenient\n"
    "  --rows N               tensors shown at each end of the directory (default 6)\n"
    "  --part-only            on <prefix>-00001-of-NNNNN.gguf, report that part alone\n"
    "                         instead of the whole split set\n"
    "  --metadata-only        tensor data need not be in the file (a header-only copy, the\n"
    "                         start of a download): tensors without it are listed as such\n"
    "\n"
    "exit status: 0 the file was read, 1 the file is invalid or not a GGUF file, 2 usage,\n"
    "I/O or environment error\n";

typedef struct info_args {
    cli_common common;
    uint64_t rows;
    bool part_only, metadata_only;
    const char *path;
} info_args;

/* Returns -1 to go on, or the exit code when parsing ends the command (--help, errors). */
static int parse_args(int argc, char **argv, info_args *a)
{
    cli_common_init(&a->common);
    a->rows = DEFAULT_ROWS;
    a->part_only = a->metadata_only = false;
    a->path = NULL;
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && cli_is_option(arg)) {
            const char *value;
            cli_match m = cli_match_common(&a->common, "info", argc, argv, &i);
            if (m == CLI_MATCH_NO) {
                m = cli_match_value("info", "--rows", argc, argv, &i, &value);
                if (m == CLI_MATCH_YES && !cli_parse_u64(value, MAX_ROWS, &a->rows)) {
                    m = CLI_MATCH_ERROR;
                    cli_usage_error_arg("info", "--rows needs a count, not", value);
                }
            }
            if (m == CLI_MATCH_ERROR) {
                return CLI_EXIT_USAGE;
            }
            if (m == CLI_MATCH_YES) {
                continue;
            }
            if (strcmp(arg, "--metadata-only") == 0) {
                a->metadata_only = true;
                continue;
            }
            const int code = cli_match_final("info", usage, arg, &a->part_only, &options_done);
            if (code >= 0) {
                return code;
            }
        } else if (a->path == NULL) {
            a->path = arg;
        } else {
            return cli_usage_error_arg("info", "one FILE only; unexpected argument", arg);
        }
    }
    if (a->path == NULL) {
        return cli_usage_error("info", "FILE missing");
    }
    return -1;
}

/* Opens the file, or the whole set from its first part (cli_source), and prints the report.
 * The report goes to stdout: a write failure is cli_finish_output's to report, a renderer out of
 * memory is ours. */
static int report(const info_args *a, const gs_options *opts)
{
    cli_source src;
    gs_error err;
    if (cli_source_open(&src, a->path, a->part_only, opts, NULL, &err) != GS_OK) {
        cli_print_error(&err);
        cli_open_notes(a->path, &err, opts, "ggufsafe info --metadata-only");
        return cli_exit_for_status(err.status);
    }
    cli_out out;
    cli_stdout_out(&out);
    if (src.split != NULL && a->common.json) {
        info_json_split(&out, src.split, a->path, opts);
    } else if (src.split != NULL) {
        info_text_split(&out, src.split, a->path, a->rows);
    } else if (a->common.json) {
        info_json_file(&out, src.file, a->path, opts);
    } else {
        info_text_file(&out, src.file, a->path, a->rows);
    }
    cli_source_close(&src);
    if (cli_out_finish(&out, &err) == GS_E_NO_MEMORY) {
        return cli_print_failure(&err);
    }
    return cli_finish_output(CLI_EXIT_OK);
}

static int run_info(int argc, char **argv)
{
    info_args a;
    int code = parse_args(argc, argv, &a);
    if (code >= 0) {
        return code;
    }
    gs_options opts;
    cli_options(&a.common, &opts);
    opts.metadata_only = a.metadata_only;
    return report(&a, &opts);
}

const cli_command cmd_info = {
    "info",
    "header, metadata, tensors, quantization mix and size check of a GGUF file",
    usage,
    run_info,
};
