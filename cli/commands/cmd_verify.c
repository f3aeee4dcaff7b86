/* ggufsafe verify FILE MANIFEST [--json] [--tensors-only] [--jobs N] [--part-only]
 *                              [--metadata-only] [-o FILE] [-q]
 *
 * Checks a GGUF file (or split set) against a manifest written by ggufsafe hash and names every
 * key-value and tensor that changed, was added or is missing. The manifest is parsed as the
 * untrusted input it is. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_types.h"
#include "cli_outfile.h"
#include "commands.h"
#include "ggufsafe_manifest.h"
#include "manifest_run.h"
#include "open_regular.h"
#include "text_out.h"
#include "work_pool.h"

typedef struct verify_args {
    cli_args base;
    const char *path, *manifest;
    uint64_t jobs;
    bool part_only, metadata_only, quiet, json, tensors_only;
    const char *output;
    cli_list types; /* --type */
} verify_args;

static const cli_operand operands[] = {
    {.name = "FILE", CLI_OPERAND(verify_args, path)},
    {.name = "MANIFEST", CLI_OPERAND(verify_args, manifest)},
};

static const cli_opt options[] = {
    CLI_OPT_JSON(verify_args, json, "one JSON object (" CLI_SCHEMA("verify") ")"),
    {.name = "tensors-only", CLI_FLAG(verify_args, tensors_only),
     .help = "pass when every tensor's type, shape and data are unchanged, whatever the "
             "metadata (edited keys and the whole-file digest are not compared)"},
    CLI_OPT_JOBS(verify_args, jobs, "threads (default: all cores)"),
    CLI_OPT_PART_ONLY(verify_args, part_only, "verify that part alone"),
    {.name = "metadata-only", CLI_FLAG(verify_args, metadata_only),
     .help = "the tensors whose data is not in the file are left out of what is compared (a "
             "manifest from 'hash --metadata-only' of a header-only copy)"},
    CLI_OPT_OUTPUT(verify_args, output, 'o'),
    CLI_OPT_QUIET(verify_args, quiet),
    CLI_OPT_TYPES(verify_args, types),
};

static void init(void *p)
{
    verify_args *a = p;
    a->jobs = work_pool_cpus();
}

/* The manifest, parsed: a malformed or unreadable one is a usage error, whatever the file
 * holds. -1 with *out set, or the exit code. */
static int read_manifest(const char *path, gs_manifest **out)
{
    /* opened as the reader opens files: a FIFO or a device in its place cannot hang verify */
    int fd;
    struct stat st;
    char why[GS_ERROR_TEXT_MAX];
    if (gsi_open_regular(path, &fd, &st, why, sizeof why) != GS_OK) {
        return cli_path_error("open the manifest", path, NULL, why);
    }
    FILE *in = fdopen(fd, "r");
    if (in == NULL) {
        int e = errno;
        close(fd);
        return cli_path_error("open the manifest", path, NULL, strerror(e));
    }
    gs_error err;
    gs_status status = gs_manifest_read(in, out, &err);
    fclose(in);
    if (status == GS_E_NO_MEMORY) {
        return cli_print_out_of_memory();
    }
    if (status == GS_E_IO) {
        return cli_path_error("read the manifest", path, NULL, err.detail);
    }
    if (status != GS_OK) {
        fflush(stdout);
        cli_text t, d;
        cli_text_escape_cstr(&t, path);
        cli_text_escape_cstr(&d, err.detail);
        fprintf(stderr, "error: malformed manifest '%s': %s\n", t.s, d.s);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* The difference lines and the closing line ("OK: ...", "FAILED: ..."; not with --quiet). */
static int report(const verify_args *a, const gs_manifest *want, const gs_manifest *got,
                  cli_outfile *of)
{
    gs_manifest_diff *diff;
    gs_error err;
    gs_manifest_compare_options co;
    gs_manifest_compare_options_init(&co);
    co.tensors_only = a->tensors_only;
    gs_status st = gs_manifest_compare_with(want, got, &co, &diff, &err);
    if (st != GS_OK) {
        return cli_print_failure(&err);
    }
    gs_sink out;
    cli_outfile_sink(of, &out);
    st = a->json ? gs_manifest_diff_write_json(diff, got, a->path, a->manifest, a->tensors_only,
                                               &out, &err)
                 : gs_manifest_diff_write(diff, &out, &err);
    if (st == GS_E_NO_MEMORY) {
        gs_manifest_diff_free(diff);
        return cli_print_out_of_memory();
    }
    size_t differences = gs_manifest_diff_count(diff);
    gs_manifest_diff_free(diff);
    size_t kvs = 0, tensors = 0, n_parts = gs_manifest_part_count(got);
    for (size_t p = 0; p < n_parts; p++) {
        gs_manifest_part part = {.struct_size = sizeof part};
        if (gs_manifest_part_at(got, p, &part) == GS_OK) {
            kvs += part.kv_count;
            tensors += part.tensor_count;
        }
    }
    if (a->quiet || a->json) {
        /* the difference lines (or the JSON) are the report */
    } else if (differences == 0 && a->tensors_only) {
        fprintf(of->f, "OK: %zu tensor%s match the manifest (type, shape and data; the metadata "
                       "was not compared)\n",
                tensors, tensors == 1 ? "" : "s");
    } else if (differences == 0) {
        fprintf(of->f, "OK: %zu key-value%s, %zu tensor%s and the file%s match the manifest\n",
                kvs, kvs == 1 ? "" : "s", tensors, tensors == 1 ? "" : "s", n_parts > 1 ? "s" : "");
    } else {
        fprintf(of->f, "FAILED: %zu difference%s from the manifest\n", differences,
                differences == 1 ? "" : "s");
    }
    return differences == 0 ? CLI_EXIT_OK : CLI_EXIT_INVALID;
}

static int run(void *p)
{
    const verify_args *a = p;
    int types_code = cli_types_use("verify", &a->types);
    if (types_code >= 0) {
        return types_code;
    }
    int code = cli_need_sha256("verify");
    if (code >= 0) {
        return code;
    }
    gs_manifest *want;
    code = read_manifest(a->manifest, &want);
    if (code >= 0) {
        return code;
    }
    cli_outfile of;
    code = cli_outfile_open(&of, a->output, &a->base);
    if (code >= 0) {
        gs_manifest_free(want);
        return code;
    }
    gs_manifest *got;
    code = cli_hash_path(a->path, GS_MANIFEST_VERIFY, a->part_only, a->metadata_only,
                         GS_PROFILE_LENIENT, (unsigned)a->jobs, a->quiet, &got);
    if (code < 0) {
        code = report(a, want, got, &of);
        gs_manifest_free(got);
    }
    gs_manifest_free(want);
    if (code == CLI_EXIT_OK || code == CLI_EXIT_INVALID) {
        return cli_outfile_commit(&of, code);
    }
    cli_outfile_abort(&of);
    return code;
}

const cli_command cmd_verify = {
    .name = "verify",
    .summary = "check a GGUF file against a manifest from 'hash', naming every difference",
    .description =
        "Checks a GGUF file (the whole split set, from its first part) against a manifest "
        "written by 'ggufsafe hash', and prints one line per difference:\n"
        "\n"
        "  changed|added|missing|damaged|renamed  kv|tensor|file  <name>  [what changed]\n"
        "\n"
        "Names are written as in the manifest (bytes outside 0x21..0x7E as \\xHH). The file is "
        "read leniently, so a damaged download still shows which keys and tensors differ. A "
        "closing line says OK or FAILED. A tensor found under another name with the same type, shape "
        "and data (the only such pair) is 'renamed ... from <old name>'. --tensors-only checks the "
        "weights alone; --json prints one object.",
    .exit_status = "0 the file matches, 1 it differs (or is not GGUF at all, or not readable "
                   "as GGUF), 2 usage, I/O or environment error, or a malformed manifest",
    .operands = CLI_TABLE(operands),
    .options = CLI_TABLE(options),
    .args_size = sizeof(verify_args),
    .init = init,
    .run = run,
};
