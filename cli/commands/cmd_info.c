/* ggufsafe info FILE|DIR... [--json] [--profile strict|lenient] [--rows N] [--part-only]
 *                    [--metadata-only] [--max-depth N] [--max-entries N] [-o FILE]
 *
 * What a GGUF says about itself: header, metadata, tensor directory, parameter count,
 * quantization mix, layout, and whether the size its metadata predicts is the size on disk. The
 * first part of a split set is reported with the whole set unless --part-only. Several paths,
 * or a directory (walked as certify walks it: gs_certify_walk), are one report: each file's in
 * turn, with --json one object {"files": [...], "summary": {...}}. */
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

#include "ggufsafe_certify.h"
#include "text_out.h"

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
    cli_list paths;
    bool json, part_only, metadata_only;
    int profile;
    uint64_t rows, max_depth, max_entries;
    const char *output;
    cli_decoder_args decoders; /* --type, --plugin, --ggml */
} info_args;

static const cli_operand operands[] = {{.name = "FILE", CLI_OPERANDS(info_args, paths)}};

static const cli_opt options[] = {
    CLI_OPT_JSON(info_args, json, "one JSON object (" CLI_SCHEMA("info") "; several paths: "
                                  CLI_SCHEMA("info-multi") ")"),
    CLI_OPT_PROFILE(info_args, profile,
                    "strict (default: GGUF spec and llama.cpp rules) or lenient"),
    {.name = "rows", .arg = "N", CLI_COUNT(info_args, rows, 0, MAX_ROWS),
     .help = "tensors shown at each end of the directory (default 6)"},
    CLI_OPT_PART_ONLY(info_args, part_only, "report that part alone instead of the whole split set"),
    {.name = "metadata-only", CLI_FLAG(info_args, metadata_only),
     .help = "tensor data need not be in the file (a header-only copy, the start of a "
             "download): tensors without it are listed as such"},
    {.name = "max-depth", .arg = "N", CLI_COUNT(info_args, max_depth, 0, 1u << 16),
     .help = "directories below a DIR operand that are read (default 32); a deeper one is "
             "reported unreadable"},
    {.name = "max-entries", .arg = "N", CLI_COUNT(info_args, max_entries, 1, UINT64_C(1) << 40),
     .help = "directory entries read in one run (default 100000); the walk stops there, "
             "reported unreadable"},
    CLI_OPT_OUTPUT(info_args, output, 'o'),
    CLI_OPT_DECODERS(info_args, decoders),
};

static void init(void *p)
{
    info_args *a = p;
    a->rows = DEFAULT_ROWS;
    a->max_depth = GS_CERTIFY_WALK_MAX_DEPTH;
    a->max_entries = GS_CERTIFY_WALK_MAX_ENTRIES;
}

/* ---- several paths ---------------------------------------------------------------------- */

typedef struct many {
    const info_args *a;
    const gs_options *opts;
    cli_out *out;
    cli_json j;
    uint64_t files, read, invalid, unreadable, skipped;
} many;

/* A path that gave no report: stderr (as one file would say it) and, with --json, an element
 * {"path", "status", "reason"}. */
static void problem(many *m, const char *path, const char *status, const char *reason)
{
    if (m->a->json) {
        cli_json_begin_object(&m->j);
        cli_json_key(&m->j, "path");
        cli_json_cstring(&m->j, path);
        cli_json_key_cstring(&m->j, "status", status);
        cli_json_key(&m->j, "reason");
        cli_json_cstring(&m->j, reason);
        cli_json_end_object(&m->j);
    }
}

static void one(many *m, const char *path, bool part_only)
{
    cli_source src;
    gs_error err;
    if (cli_source_open(&src, path, part_only, m->opts, "file", &err) != GS_OK) {
        int code = cli_print_open_failure(&err, path, NULL);
        char why[GS_ERROR_TEXT_MAX + 64];
        snprintf(why, sizeof why, "%s: %s", gs_status_name(err.status),
                 err.detail[0] != '\0' ? err.detail : gs_status_message(err.status));
        if (code == CLI_EXIT_INVALID) {
            m->invalid++;
            problem(m, path, "invalid", why);
        } else {
            m->unreadable++;
            problem(m, path, "unreadable", why);
        }
        return;
    }
    m->read++;
    if (m->a->json) {
        if (src.split != NULL) {
            info_json_split_value(&m->j, src.split, path, m->opts);
        } else {
            info_json_file_value(&m->j, src.file, path, m->opts);
        }
    } else {
        if (m->files > 0) {
            cli_out_putc(m->out, '\n');
        }
        if (src.split != NULL) {
            info_text_split(m->out, src.split, path, m->a->rows);
        } else {
            info_text_file(m->out, src.file, path, m->a->rows);
        }
    }
    m->files++;
    cli_source_close(&src);
}

static bool entry(void *ctx, const gs_certify_walk_entry *e)
{
    many *m = ctx;
    switch (e->kind) {
    case GS_CERTIFY_WALK_FILE:
    case GS_CERTIFY_WALK_SET:
        one(m, e->path, m->a->part_only);
        break;
    case GS_CERTIFY_WALK_ORPHAN:
        one(m, e->path, true); /* its part 1 is not there: the part alone */
        break;
    case GS_CERTIFY_WALK_SKIPPED:
        m->skipped++;
        problem(m, e->path, "skipped", e->reason);
        break;
    case GS_CERTIFY_WALK_UNREADABLE: {
        m->unreadable++;
        cli_path_error("read", e->path, NULL, e->reason);
        problem(m, e->path, "unreadable", e->reason);
        break;
    }
    }
    return m->out->status == GS_OK;
}

static int run_many(const info_args *a, const gs_options *opts, cli_outfile *of)
{
    gs_sink sink;
    cli_outfile_sink(of, &sink);
    cli_out out;
    (void)cli_out_init(&out, &sink);
    many m = {.a = a, .opts = opts, .out = &out};
    if (a->json) {
        cli_json_init(&m.j, &out);
        cli_json_begin_object(&m.j);
        cli_json_report_header(&m.j, "info", opts);
        cli_json_key(&m.j, "files");
        cli_json_begin_array(&m.j);
    }
    gs_certify_walk_options wo;
    gs_certify_walk_options_init(&wo);
    wo.max_depth = (unsigned)a->max_depth;
    wo.max_entries = a->max_entries;
    gs_error err;
    gs_status st = gs_certify_walk(a->paths.items, a->paths.n, &wo, entry, &m, &err);
    int exit_code = m.unreadable > 0 ? CLI_EXIT_USAGE
                    : m.invalid > 0  ? CLI_EXIT_INVALID
                                     : CLI_EXIT_OK;
    if (a->json) {
        cli_json_end_array(&m.j);
        cli_json_key(&m.j, "summary");
        cli_json_begin_object(&m.j);
        cli_json_key_u64(&m.j, "files", m.files);
        cli_json_key_u64(&m.j, "invalid", m.invalid);
        cli_json_key_u64(&m.j, "unreadable", m.unreadable);
        cli_json_key_u64(&m.j, "skipped", m.skipped);
        cli_json_key_u64(&m.j, "exit_code", (uint64_t)exit_code);
        cli_json_end_object(&m.j);
        cli_json_end_object(&m.j);
        cli_json_finish(&m.j);
    }
    if (st != GS_OK) {
        (void)cli_out_finish(&out, &err);
        cli_outfile_abort(of);
        return st == GS_E_NO_MEMORY ? cli_print_out_of_memory() : cli_print_failure(&err);
    }
    if (cli_out_finish(&out, &err) == GS_E_NO_MEMORY) {
        cli_outfile_abort(of);
        return cli_print_out_of_memory();
    }
    return cli_outfile_commit(of, exit_code);
}

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Opens the file, or the whole set from its first part (cli_source), and writes the report. */
static int run(void *p)
{
    const info_args *a = p;
    int types_code = CLI_TYPES_LOAD_ALL("info", &a->decoders);
    if (types_code >= 0) {
        return types_code;
    }
    gs_options opts;
    cli_options((gs_profile)a->profile, &opts);
    opts.metadata_only = a->metadata_only;
    cli_outfile of;
    int code = cli_outfile_open(&of, a->output, &a->base);
    if (code >= 0) {
        return code;
    }
    const char *path = a->paths.items[0];
    if (a->paths.n > 1 || is_directory(path)) {
        return run_many(a, &opts, &of);
    }
    cli_source src;
    gs_error err;
    if (cli_source_open(&src, path, a->part_only, &opts, NULL, &err) != GS_OK) {
        cli_outfile_abort(&of);
        code = cli_print_open_failure(&err, path, NULL);
        cli_open_notes(path, &err, &opts, "ggufsafe info --metadata-only");
        return code;
    }
    gs_sink sink;
    cli_outfile_sink(&of, &sink);
    cli_out out;
    (void)cli_out_init(&out, &sink);
    if (src.split != NULL && a->json) {
        info_json_split(&out, src.split, path, &opts);
    } else if (src.split != NULL) {
        info_text_split(&out, src.split, path, a->rows);
    } else if (a->json) {
        info_json_file(&out, src.file, path, &opts);
    } else {
        info_text_file(&out, src.file, path, a->rows);
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
        "mix, data layout, and the file size its metadata predicts against the actual size. "
        "Several paths, or a directory (every regular *.gguf file below it, split sets "
        "grouped, as certify walks it), are one report: each file's in turn (--json: "
        "{\"files\": [...], \"summary\": {...}}, " CLI_SCHEMA("info-multi") ").",
    .exit_status = "0 the file was read, 1 the file is invalid or not a GGUF file, 2 usage, I/O "
                   "or environment error; with several paths: 2 when any path could not be "
                   "read, else 1 when any file is invalid, else 0",
    .operands = CLI_TABLE(operands),
    .options = CLI_TABLE(options),
    .args_size = sizeof(info_args),
    .init = init,
    .run = run,
};
