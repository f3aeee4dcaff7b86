/* ggufsafe hash FILE [-o OUT] [--jobs N] [--profile strict|lenient] [--part-only]
 *                    [--metadata-only] [-q]
 *
 * A SHA-256 manifest of a GGUF file or split set (format in cli/manifest/manifest.h and
 * docs/manifests.md): the whole file's digest, one per key-value (its wire bytes) and one per
 * tensor (its data), in one streaming pass over the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_types.h"
#include "cli_outfile.h"
#include "commands.h"
#include "generate.h"
#include "ggufsafe_manifest.h"
#include "manifest_run.h"
#include "work_pool.h"

typedef struct hash_args {
    cli_args base;
    cli_list paths;
    const char *manifest, *manifest_dir;
    uint64_t jobs;
    int profile;
    bool part_only, metadata_only, quiet, json;
    cli_decoder_args decoders; /* --type, --plugin, --ggml */
} hash_args;

static const cli_operand operands[] = {{.name = "FILE", CLI_OPERANDS(hash_args, paths)}};

static const cli_opt options[] = {
    {.name = "manifest", .letter = 'o', .arg = "OUT", CLI_PATH(hash_args, manifest),
     .help = "write the manifest to OUT instead of standard output, only once every digest is "
             "known"},
    {.name = "manifest-dir", .arg = "DIR", CLI_PATH(hash_args, manifest_dir),
     .help = "one manifest per FILE, written to DIR/<file name>.manifest (a split set: named "
             "after the part given); needed for several files"},
    CLI_OPT_JOBS(hash_args, jobs, "threads (default: all cores): one reads, the others hash"),
    CLI_OPT_PROFILE(hash_args, profile, "strict (default) or lenient: which files are accepted"),
    CLI_OPT_PART_ONLY(hash_args, part_only, "hash that part alone"),
    {.name = "metadata-only", CLI_FLAG(hash_args, metadata_only),
     .help = "tensor data need not be in the file (a header-only copy): the manifest is that "
             "of the file as it is, the tensors without data left out"},
    CLI_OPT_QUIET(hash_args, quiet),
    /* refused with the reason, rather than as an unknown option */
    {.name = "json", CLI_FLAG(hash_args, json), .flags = CLI_HIDDEN},
    CLI_OPT_DECODERS(hash_args, decoders),
};

static void init(void *p)
{
    hash_args *a = p;
    a->jobs = work_pool_cpus();
}

/* ggufsafe-hash(1): the format, in brief (docs/manifests.md has it all). */
static void man_format(FILE *out)
{
    static const char *const lines[] = {
        "ggufsafe-manifest 2",
        "part I of N",
        "file SHA256 SIZE",
        "kv SHA256 KEY VALUE",
        "tensor SHA256 TYPE SHAPE NAME",
        "end",
    };
    static const char *const meanings[] = {
        "the format and its version (verify also reads version 1: digests, no values)",
        "starts the section of part I (from 1) of N; a single file is part 1 of 1",
        "the part's whole-file SHA-256, as sha256sum prints it, and its size in bytes",
        ("one per key-value, in file order: the SHA-256 of its exact wire bytes, then its value "
         "for verify to show (TYPE =VALUE, or array TYPE COUNT and the first 32 elements; "
         "strings cut at 64 bytes, marked ~)"),
        ("one per tensor, in file order: the SHA-256 of its data, its ggml type name and its "
         "dimensions, innermost first, comma-separated"),
        "the last line: a manifest without it was cut short",
    };
    cli_man_section(out, "MANIFEST FORMAT");
    cli_man_text(out, "Text, one record per line, fields separated by single spaces. In keys "
                      "and names every byte outside 0x21..0x7E, and the backslash, is written "
                      "\\xHH, so a name has exactly one spelling.");
    fputc('\n', out);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        fputs(".TP\n.B ", out);
        cli_man_text(out, lines[i]);
        fputc('\n', out);
        cli_man_text(out, meanings[i]);
        fputc('\n', out);
    }
}

/* Hashes path and writes its manifest to out (NULL: standard output): the exit code. */
static int hash_one(const hash_args *a, const char *path, const char *out)
{
    cli_outfile of;
    int code = cli_outfile_open(&of, out, &a->base);
    if (code >= 0) {
        return code;
    }
    gs_manifest *doc;
    code = cli_hash_path(path, GS_MANIFEST_HASH, a->part_only, a->metadata_only,
                         (gs_profile)a->profile, (unsigned)a->jobs, a->quiet, &doc);
    if (code >= 0) {
        cli_outfile_abort(&of);
        return code;
    }
    gs_sink sink;
    gs_error err;
    cli_outfile_sink(&of, &sink);
    gs_status st = gs_manifest_write(doc, &sink, &err);
    gs_manifest_free(doc);
    if (st == GS_E_NO_MEMORY) {
        cli_outfile_abort(&of);
        return cli_print_out_of_memory();
    }
    return cli_outfile_commit(&of, CLI_EXIT_OK);
}

static int run(void *p)
{
    const hash_args *a = p;
    int types_code = CLI_TYPES_LOAD_ALL("hash", &a->decoders);
    if (types_code >= 0) {
        return types_code;
    }
    if (a->json) {
        return cli_usage_error("hash", "--json: the manifest is a text format, not JSON (see "
                                       "MANIFEST FORMAT in ggufsafe-hash(1))");
    }
    if (a->manifest_dir == NULL && a->paths.n > 1) {
        return cli_usage_error("hash", "%zu files: give --manifest-dir DIR for one manifest per "
                                       "file",
                               a->paths.n);
    }
    if (a->manifest_dir != NULL && a->manifest != NULL) {
        return cli_usage_error("hash", "--manifest and --manifest-dir: give one");
    }
    int code = cli_need_sha256("hash");
    if (code >= 0) {
        return code;
    }
    if (a->manifest_dir == NULL) {
        return hash_one(a, a->paths.items[0], a->manifest);
    }
    code = cli_manifest_dir_check("hash", a->manifest_dir, a->paths.items, a->paths.n);
    if (code >= 0) {
        return code;
    }
    /* every file in turn, whatever the others gave: 2 if one could not be read, else 1 if one
     * is invalid, else 0 */
    bool unreadable = false, invalid = false;
    for (size_t i = 0; i < a->paths.n; i++) {
        char *out = cli_manifest_path(a->manifest_dir, a->paths.items[i]);
        if (out == NULL) {
            return cli_print_out_of_memory();
        }
        code = hash_one(a, a->paths.items[i], out);
        free(out);
        unreadable |= code == CLI_EXIT_USAGE;
        invalid |= code == CLI_EXIT_INVALID;
    }
    return unreadable ? CLI_EXIT_USAGE : invalid ? CLI_EXIT_INVALID : CLI_EXIT_OK;
}

const cli_command cmd_hash = {
    .name = "hash",
    .summary = "SHA-256 manifest of a GGUF file: the whole file, every key-value and tensor",
    .description =
        "Writes a SHA-256 manifest of a GGUF file (of the whole split set, from its first "
        "part): per part the whole file's digest (as sha256sum prints it), one line per "
        "key-value (its exact wire bytes: key, type, value) and one per tensor (its data, with "
        "type and shape). The manifest does not depend on the file's name or path; 'ggufsafe "
        "verify' checks a file against it. The file is read once, in order, without loading it "
        "into memory. With --manifest-dir DIR, each FILE's manifest is written to "
        "DIR/<file name>.manifest.",
    .exit_status = "0 written, 1 the file is invalid or not a GGUF file, 2 usage, I/O or "
                   "environment error (the file changed while it was hashed); with several "
                   "files 2 if any could not be read, else 1 if any is invalid, else 0",
    CLI_COMMAND_PARTS(hash_args, init, run),
    .man_sections = man_format,
};
