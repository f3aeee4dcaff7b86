/* ggufsafe hash FILE [--manifest OUT] [--jobs N] [--profile strict|lenient] [--part-only]
 *                    [--metadata-only]
 *
 * A SHA-256 manifest of a GGUF file or split set (format in cli/manifest/manifest.h and
 * docs/manifests.md): the whole file's digest, one per key-value (its wire bytes) and one per
 * tensor (its data), in one streaming pass over the file. */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"
#include "ggufsafe_manifest.h"
#include "manifest_run.h"
#include "work_pool.h"

static const char usage[] =
    "usage: ggufsafe hash FILE [--manifest OUT] [--jobs N] [--profile strict|lenient]\n"
    "                          [--part-only] [--metadata-only]\n"
    "\n"
    "Writes a SHA-256 manifest of a GGUF file (of the whole split set, from its first part):\n"
    "per part the whole file's digest (as sha256sum prints it), one line per key-value (its\n"
    "exact wire bytes: key, type, value) and one per tensor (its data, with type and shape).\n"
    "The manifest does not depend on the file's name or path; 'ggufsafe verify' checks a file\n"
    "against it. The file is read once, in order, without loading it into memory.\n"
    "\n"
    "  --manifest OUT  write the manifest to OUT instead of standard output\n"
    "  --jobs N        threads (default: all cores): one reads, the others hash\n"
    "  --profile P     strict (default) or lenient: which files are accepted\n"
    "  --part-only     on <prefix>-00001-of-NNNNN.gguf, hash that part alone\n"
    "  --metadata-only tensor data need not be in the file (a header-only copy): the manifest\n"
    "                  is that of the file as it is, the tensors without data left out\n"
    "\n"
    "exit status: 0 written, 1 the file is invalid or not a GGUF file, 2 usage, I/O or\n"
    "environment error (the file changed while it was hashed)\n";

static int run(int argc, char **argv)
{
    cli_common common;
    cli_common_init(&common);
    const char *path = NULL, *out_path = NULL;
    uint64_t jobs = work_pool_cpus();
    bool part_only = false, metadata_only = false, options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (options_done || !cli_is_option(arg)) {
            if (path != NULL) {
                return cli_usage_error_arg("hash", "one FILE only; unexpected argument", arg);
            }
            path = arg;
            continue;
        }
        if (strcmp(arg, "--metadata-only") == 0) {
            metadata_only = true;
            continue;
        }
        if (strcmp(arg, "--json") == 0) {
            return cli_usage_error("hash",
                                   "--json: the manifest is a text format (docs/manifests.md)");
        }
        cli_match m = cli_match_common(&common, "hash", argc, argv, &i);
        if (m == CLI_MATCH_NO) {
            m = cli_match_value("hash", "--manifest", argc, argv, &i, &out_path);
        }
        if (m == CLI_MATCH_NO) {
            m = cli_match_jobs("hash", argc, argv, &i, &jobs);
        }
        if (m == CLI_MATCH_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (m == CLI_MATCH_YES) {
            continue;
        }
        const int code = cli_match_final("hash", usage, arg, &part_only, &options_done);
        if (code >= 0) {
            return code;
        }
    }
    if (path == NULL) {
        return cli_usage_error("hash", "FILE missing");
    }
    gs_manifest *doc;
    int code = cli_hash_path(path, GS_MANIFEST_HASH, part_only, metadata_only, common.profile,
                             (unsigned)jobs, &doc);
    if (code >= 0) {
        return code;
    }
    /* Written only once every digest is known: a failed run leaves no partial manifest. */
    gs_sink sink;
    gs_error err;
    if (out_path != NULL) {
        FILE *out = fopen(out_path, "w");
        if (out == NULL) {
            gs_manifest_free(doc);
            return cli_usage_error_arg("hash", "cannot create", out_path);
        }
        gs_sink_file(&sink, out);
        gs_status st = gs_manifest_write(doc, &sink, &err);
        bool failed = st != GS_OK || ferror(out) != 0;
        failed |= fclose(out) != 0;
        gs_manifest_free(doc);
        if (st == GS_E_NO_MEMORY) {
            return cli_print_failure(&err);
        }
        if (failed) {
            return cli_usage_error_arg("hash", "cannot write", out_path);
        }
        return CLI_EXIT_OK;
    }
    cli_stdout_sink(&sink);
    gs_status st = gs_manifest_write(doc, &sink, &err);
    gs_manifest_free(doc);
    if (st == GS_E_NO_MEMORY) {
        return cli_print_failure(&err);
    }
    return cli_finish_output(CLI_EXIT_OK);
}

const cli_command cmd_hash = {
    "hash",
    "SHA-256 manifest of a GGUF file: the whole file, every key-value and tensor",
    usage,
    run,
};
