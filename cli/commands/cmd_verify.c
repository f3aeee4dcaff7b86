/* ggufsafe verify FILE MANIFEST [--jobs N] [--part-only] [--metadata-only]
 *
 * Checks a GGUF file (or split set) against a manifest written by ggufsafe hash and names every
 * key-value and tensor that changed, was added or is missing. The manifest is parsed as the
 * untrusted input it is. */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"
#include "ggufsafe_manifest.h"
#include "manifest_run.h"
#include "text_out.h"
#include "work_pool.h"

static const char usage[] =
    "usage: ggufsafe verify FILE MANIFEST [--jobs N] [--part-only] [--metadata-only]\n"
    "\n"
    "Checks a GGUF file (the whole split set, from its first part) against a manifest written\n"
    "by 'ggufsafe hash', and prints one line per difference:\n"
    "  changed|added|missing|damaged  kv|tensor|file  <name>  [what changed]\n"
    "Names are written as in the manifest (bytes outside 0x21..0x7E as \\xHH). The file is read\n"
    "leniently, so a damaged download still shows which keys and tensors differ.\n"
    "\n"
    "  --jobs N        threads (default: all cores)\n"
    "  --part-only     on <prefix>-00001-of-NNNNN.gguf, verify that part alone\n"
    "  --metadata-only the tensors whose data is not in the file are left out of what is\n"
    "                  compared (a manifest from 'hash --metadata-only' of a header-only copy)\n"
    "\n"
    "exit status: 0 the file matches, 1 it differs (or is not GGUF at all, or not readable as\n"
    "GGUF), 2 usage, I/O or environment error, or a malformed manifest\n";

static int run(int argc, char **argv)
{
    const char *paths[2] = {NULL, NULL};
    uint64_t jobs = work_pool_cpus();
    bool part_only = false, metadata_only = false, options_done = false;
    int n_paths = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (options_done || !cli_is_option(arg)) {
            if (n_paths == 2) {
                return cli_usage_error_arg("verify", "FILE and MANIFEST only; unexpected argument",
                                           arg);
            }
            paths[n_paths++] = arg;
            continue;
        }
        cli_match m = cli_match_jobs("verify", argc, argv, &i, &jobs);
        if (m == CLI_MATCH_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (m == CLI_MATCH_YES) {
            continue;
        }
        if (strcmp(arg, "--metadata-only") == 0) {
            metadata_only = true;
            continue;
        }
        const int code = cli_match_final("verify", usage, arg, &part_only, &options_done);
        if (code >= 0) {
            return code;
        }
    }
    if (n_paths < 2) {
        return cli_usage_error("verify", "FILE and MANIFEST needed");
    }
    /* The manifest first: a malformed one is a usage error, whatever the file holds. */
    FILE *in = fopen(paths[1], "r");
    if (in == NULL) {
        return cli_usage_error_arg("verify", "cannot open the manifest", paths[1]);
    }
    gs_manifest *want;
    gs_error err;
    gs_status st = gs_manifest_read(in, &want, &err);
    fclose(in);
    if (st == GS_E_NO_MEMORY) {
        return cli_print_failure(&err);
    }
    if (st != GS_OK) {
        cli_text t;
        cli_text_escape_cstr(&t, paths[1]);
        fprintf(stderr, "error: malformed manifest %s: %s\n", t.s, err.detail);
        return CLI_EXIT_USAGE;
    }
    gs_manifest *got;
    int code = cli_hash_path(paths[0], GS_MANIFEST_VERIFY, part_only, metadata_only, GS_PROFILE_LENIENT,
                             (unsigned)jobs, &got);
    if (code >= 0) {
        gs_manifest_free(want);
        return code;
    }
    gs_manifest_diff *diff;
    st = gs_manifest_compare(want, got, &diff, &err);
    if (st == GS_OK) {
        gs_sink out;
        cli_stdout_sink(&out);
        st = gs_manifest_diff_write(diff, &out, &err);
    }
    if (st == GS_E_NO_MEMORY) {
        gs_manifest_diff_free(diff);
        gs_manifest_free(want);
        gs_manifest_free(got);
        return cli_print_failure(&err);
    }
    size_t differences = gs_manifest_diff_count(diff);
    size_t kvs = 0, tensors = 0, n_parts = gs_manifest_part_count(got);
    for (size_t p = 0; p < n_parts; p++) {
        gs_manifest_part part = {.struct_size = sizeof part};
        if (gs_manifest_part_at(got, p, &part) == GS_OK) {
            kvs += part.kv_count;
            tensors += part.tensor_count;
        }
    }
    if (differences == 0) {
        printf("OK: %zu key-value%s, %zu tensor%s and the file%s match the manifest\n", kvs,
               kvs == 1 ? "" : "s", tensors, tensors == 1 ? "" : "s", n_parts > 1 ? "s" : "");
    } else {
        printf("FAILED: %zu difference%s from the manifest\n", differences,
               differences == 1 ? "" : "s");
    }
    gs_manifest_diff_free(diff);
    gs_manifest_free(want);
    gs_manifest_free(got);
    return cli_finish_output(differences == 0 ? CLI_EXIT_OK : CLI_EXIT_INVALID);
}

const cli_command cmd_verify = {
    "verify",
    "check a GGUF file against a manifest from 'hash', naming every difference",
    usage,
    run,
};
