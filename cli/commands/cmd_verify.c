/* ggufsafe verify FILE MANIFEST [--json] [--tensors-only] [--jobs N] [--part-only]
 *                              [--metadata-only] [-o FILE] [-q]
 * ggufsafe verify --manifest-dir DIR FILE... [the same options]
 *
 * Checks a GGUF file (or split set) against a manifest written by ggufsafe hash and names every
 * key-value and tensor that changed, was added or is missing. The manifest is parsed as the
 * untrusted input it is. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
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
    cli_list operands;             /* FILE MANIFEST, or with --manifest-dir the files */
    const char *manifest_dir;
    const char *path, *manifest;   /* the file and manifest being verified */
    bool reported;                 /* report() wrote the file's report */
    uint64_t jobs;
    bool part_only, metadata_only, quiet, json, tensors_only;
    const char *output;
    cli_decoder_args decoders; /* --type, --plugin, --ggml */
} verify_args;

static const cli_operand operands[] = {
    {.name = "FILE", CLI_OPERANDS(verify_args, operands),
     .synopsis = "FILE MANIFEST|FILE..."},
};

static const cli_opt options[] = {
    CLI_OPT_JSON(verify_args, json, "one JSON object (" CLI_SCHEMA("verify") "; with "
                                    "--manifest-dir: " CLI_SCHEMA("verify-multi") ")"),
    {.name = "manifest-dir", .arg = "DIR", CLI_PATH(verify_args, manifest_dir),
     .help = "every operand is a FILE, checked against DIR/<file name>.manifest (as 'hash "
             "--manifest-dir' names them)"},
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
    CLI_OPT_DECODERS(verify_args, decoders),
};

static void init(void *p)
{
    verify_args *a = p;
    a->jobs = work_pool_cpus();
}

static gs_status manifest_reader(FILE *in, void *out, gs_error *err)
{
    return gs_manifest_read(in, out, err);
}

/* The manifest, parsed: a malformed or unreadable one is a usage error, whatever the file
 * holds. -1 with *out set, or the exit code. */
static int read_manifest(const char *path, gs_manifest **out)
{
    return cli_read_input("manifest", path, false, manifest_reader, out);
}

/* Whether a tensor of the file (got, as hashed) has a type this run cannot name: its type id
 * has no definition here (no --type, --plugin or --ggml), so its type reads "unknown". */
static bool has_undefined_type(const gs_manifest *got, size_t part, const gs_manifest_part *p)
{
    for (size_t i = p->kv_count; i < p->entry_count; i++) {
        gs_manifest_entry e = {.struct_size = sizeof e};
        if (gs_manifest_entry_at(got, part, i, &e) == GS_OK && e.kind == GS_MANIFEST_TENSOR &&
            strcmp(e.type, "unknown") == 0) {
            return true;
        }
    }
    return false;
}

/* The difference lines and the closing line ("OK: ...", "FAILED: ..."; not with --quiet), after
 * "<file>: " with --manifest-dir. */
static int report(verify_args *a, const gs_manifest *want, const gs_manifest *got,
                  cli_outfile *of)
{
    gs_manifest_diff *diff;
    gs_error err;
    a->reported = true;
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
    bool undefined_type = false;
    for (size_t p = 0; p < n_parts; p++) {
        gs_manifest_part part = {.struct_size = sizeof part};
        if (gs_manifest_part_at(got, p, &part) == GS_OK) {
            kvs += part.kv_count;
            tensors += part.tensor_count;
            undefined_type =
                undefined_type || (differences > 0 && has_undefined_type(got, p, &part));
        }
    }
    if (undefined_type && !a->quiet) {
        fprintf(stderr, "hint: a tensor's type has no definition in this run: define it with "
                        "--type ID:NAME:BLOCK_ELEMENTS:BLOCK_BYTES, or load its decoder with "
                        "--plugin PATH or --ggml PATH, as when the manifest was written\n");
    }
    if (!a->quiet && !a->json && a->manifest_dir != NULL) {
        cli_text t;
        cli_text_escape_cstr(&t, a->path);
        fprintf(of->f, "%s: ", t.s);
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

/* One file against one manifest (want, or NULL: read it from a->manifest; freed either way), the
 * report to of: the exit code. */
static int verify_one(verify_args *a, gs_manifest *want, cli_outfile *of)
{
    a->reported = false;
    int code = want != NULL ? -1 : read_manifest(a->manifest, &want);
    if (code >= 0) {
        return code;
    }
    gs_manifest *got;
    code = cli_hash_path(a->path, GS_MANIFEST_VERIFY, a->part_only, a->metadata_only,
                         GS_PROFILE_LENIENT, (unsigned)a->jobs, a->quiet, &got);
    if (code < 0) {
        code = report(a, want, got, of);
        gs_manifest_free(got);
    }
    gs_manifest_free(want);
    return code;
}

/* A file that gave no report, as an element of "files" (verify-multi.schema.json). */
static void problem_json(cli_outfile *of, const verify_args *a, int code)
{
    gs_sink sink;
    cli_outfile_sink(of, &sink);
    cli_out out;
    (void)cli_out_init(&out, &sink);
    cli_json j;
    cli_json_init(&j, &out);
    cli_json_begin_object(&j);
    cli_json_key_cstring(&j, "path", a->path);
    cli_json_key_cstring(&j, "manifest", a->manifest);
    cli_json_key_cstring(&j, "problem", code == CLI_EXIT_INVALID ? "invalid" : "unreadable");
    cli_json_key_cstring(&j, "reason", code == CLI_EXIT_INVALID
                                           ? "not GGUF, or not readable as GGUF (see stderr)"
                                           : "the file or its manifest could not be read, or "
                                             "the manifest is malformed (see stderr)");
    cli_json_end_object(&j);
    cli_json_finish(&j);
    (void)cli_out_finish(&out, NULL);
}

/* --manifest-dir DIR FILE...: each file against DIR/<its name>.manifest, whatever the others
 * gave; 2 if one could not be read, else 1 if one differs (or is invalid), else 0. */
static int verify_many(verify_args *a, cli_outfile *of)
{
    size_t n = a->operands.n, matched = 0, differ = 0, invalid = 0, unreadable = 0;
    if (a->json) {
        fputs("{\n\"command\": \"verify\",\n\"files\": [\n", of->f);
    }
    for (size_t i = 0; i < n; i++) {
        char *mpath = cli_manifest_path(a->manifest_dir, a->operands.items[i]);
        if (mpath == NULL) {
            return cli_print_out_of_memory();
        }
        a->path = a->operands.items[i];
        a->manifest = mpath;
        if (a->json && i > 0) {
            fputs(",\n", of->f);
        }
        int code = verify_one(a, NULL, of);
        if (code == CLI_EXIT_OK) {
            matched++;
        } else if (code == CLI_EXIT_INVALID && a->reported) {
            differ++;
        } else if (code == CLI_EXIT_INVALID) {
            invalid++;
        } else {
            unreadable++;
        }
        if (a->json && !a->reported) {
            problem_json(of, a, code);
        }
        a->manifest = NULL;
        free(mpath);
    }
    int code = unreadable > 0 ? CLI_EXIT_USAGE
               : differ + invalid > 0 ? CLI_EXIT_INVALID
                                      : CLI_EXIT_OK;
    if (a->json) {
        fprintf(of->f,
                "],\n\"summary\": {\"files\": %zu, \"matched\": %zu, \"differ\": %zu, "
                "\"invalid\": %zu, \"unreadable\": %zu, \"exit_code\": %d}\n}\n",
                n, matched, differ, invalid, unreadable, code);
    } else if (!a->quiet && n > 1) {
        fprintf(of->f, "%zu files: %zu match, %zu differ, %zu invalid, %zu unreadable\n", n,
                matched, differ, invalid, unreadable);
    }
    return code;
}

static int run(void *p)
{
    verify_args *a = p;
    int types_code = CLI_TYPES_LOAD_ALL("verify", &a->decoders);
    if (types_code >= 0) {
        return types_code;
    }
    if (a->manifest_dir == NULL && a->operands.n < 2) {
        return cli_usage_error("verify", "MANIFEST missing (or give --manifest-dir DIR)");
    }
    if (a->manifest_dir == NULL && a->operands.n > 2) {
        return cli_usage_error_arg("verify",
                                   "FILE and MANIFEST only (several files: --manifest-dir DIR); "
                                   "unexpected argument",
                                   a->operands.items[2]);
    }
    int code = cli_need_sha256("verify");
    if (code >= 0) {
        return code;
    }
    if (a->manifest_dir != NULL) {
        code = cli_manifest_dir_check("verify", a->manifest_dir, a->operands.items,
                                      a->operands.n);
        if (code >= 0) {
            return code;
        }
    } else {
        a->path = a->operands.items[0];
        a->manifest = a->operands.items[1];
        /* the manifest is read before the output is created: a malformed one is exit 2
         * whatever the file holds, and leaves no output behind */
    }
    gs_manifest *want = NULL;
    if (a->manifest_dir == NULL) {
        code = read_manifest(a->manifest, &want);
        if (code >= 0) {
            return code;
        }
    }
    cli_outfile of;
    code = cli_outfile_open(&of, a->output, &a->base);
    if (code >= 0) {
        gs_manifest_free(want);
        return code;
    }
    code = a->manifest_dir != NULL ? verify_many(a, &of) : verify_one(a, want, &of);
    if (code == CLI_EXIT_OK || code == CLI_EXIT_INVALID ||
        (a->manifest_dir != NULL && code == CLI_EXIT_USAGE)) {
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
        "weights alone; --json prints one object. With --manifest-dir DIR every operand is a "
        "file, checked against DIR/<file name>.manifest (as 'hash --manifest-dir' writes "
        "them), with a closing line per file and a summary.",
    .exit_status = "0 the file matches, 1 it differs (or is not GGUF at all, or not readable "
                   "as GGUF), 2 usage, I/O or environment error, or a malformed manifest; with "
                   "--manifest-dir 2 if any file or manifest could not be read, else 1 if any "
                   "differs, else 0",
    CLI_COMMAND_PARTS(verify_args, init, run),
};
