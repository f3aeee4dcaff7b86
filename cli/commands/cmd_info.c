/* ggufsafe info FILE [--json] [--profile strict|lenient] [--rows N] [--part-only]
 *                    [--metadata-only] [-o FILE]
 *
 * What a GGUF says about itself: header, metadata, tensor directory, parameter count,
 * quantization mix, layout, and whether the size its metadata predicts is the size on disk. The
 * first part of a split set is reported with the whole set unless --part-only. */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "cli_types.h"
#include "cli_outfile.h"
#include "cli_source.h"
#include "commands.h"
#include "info_model.h"
#include "open_notes.h"

#define DEFAULT_ROWS 6
#define MAX_ROWS (1u << 30)

typedef struct info_args {
    cli_args base;
    const char *ggml;
    const char *path;
    bool json, part_only, metadata_only;
    int profile;
    uint64_t rows;
    const char *output;
    cli_list types; /* --type */
} info_args;

static const cli_operand operands[] = {{.name = "FILE", CLI_OPERAND(info_args, path)}};

static const cli_opt options[] = {
    CLI_OPT_JSON(info_args, json, "one JSON object (" CLI_SCHEMA("info") ")"),
    CLI_OPT_PROFILE(info_args, profile,
                    "strict (default: GGUF spec and llama.cpp rules) or lenient"),
    {.name = "rows", .arg = "N", CLI_COUNT(info_args, rows, 0, MAX_ROWS),
     .help = "tensors shown at each end of the directory (default 6)"},
    CLI_OPT_PART_ONLY(info_args, part_only, "report that part alone instead of the whole split set"),
    {.name = "metadata-only", CLI_FLAG(info_args, metadata_only),
     .help = "tensor data need not be in the file (a header-only copy, the start of a "
             "download): tensors without it are listed as such"},
    CLI_OPT_OUTPUT(info_args, output, 'o'),
    CLI_OPT_TYPES(info_args, types),
    CLI_OPT_GGML(info_args, ggml),
};

static void init(void *p)
{
    info_args *a = p;
    a->rows = DEFAULT_ROWS;
}

/* Opens the file, or the whole set from its first part (cli_source), and writes the report. */
static int run(void *p)
{
    const info_args *a = p;
    int types_code = cli_types_use("info", &a->types);
    if (types_code >= 0) {
        return types_code;
    }
    int ggml_code = cli_load_ggml("info", a->ggml);
    if (ggml_code >= 0) {
        return ggml_code;
    }
    gs_options opts;
    cli_options((gs_profile)a->profile, &opts);
    opts.metadata_only = a->metadata_only;
    cli_outfile of;
    int code = cli_outfile_open(&of, a->output, &a->base);
    if (code >= 0) {
        return code;
    }
    cli_source src;
    gs_error err;
    if (cli_source_open(&src, a->path, a->part_only, &opts, NULL, &err) != GS_OK) {
        cli_outfile_abort(&of);
        code = cli_print_open_failure(&err, a->path, NULL);
        cli_open_notes(a->path, &err, &opts, "ggufsafe info --metadata-only");
        return code;
    }
    gs_sink sink;
    cli_outfile_sink(&of, &sink);
    cli_out out;
    (void)cli_out_init(&out, &sink);
    if (src.split != NULL && a->json) {
        info_json_split(&out, src.split, a->path, &opts);
    } else if (src.split != NULL) {
        info_text_split(&out, src.split, a->path, a->rows);
    } else if (a->json) {
        info_json_file(&out, src.file, a->path, &opts);
    } else {
        info_text_file(&out, src.file, a->path, a->rows);
    }
    cli_source_close(&src);
    if (cli_out_finish(&out, &err) == GS_E_NO_MEMORY) {
        cli_outfile_abort(&of);
        return cli_print_out_of_memory();
    }
    /* a failed write is the output file's to report */
    return cli_outfile_commit(&of, CLI_EXIT_OK);
}

const cli_command cmd_info = {
    .name = "info",
    .summary = "header, metadata, tensors, quantization mix and size check of a GGUF file",
    .description =
        "Reports a GGUF file's header, metadata, tensor directory, parameter count, quantization "
        "mix, data layout, and the file size its metadata predicts against the actual size.",
    .exit_status = "0 the file was read, 1 the file is invalid or not a GGUF file, 2 usage, I/O "
                   "or environment error",
    .operands = CLI_TABLE(operands),
    .options = CLI_TABLE(options),
    .args_size = sizeof(info_args),
    .init = init,
    .run = run,
};
