/* ggufsafe certify FILE|DIR... [--profile strict|lenient] [--json | --sarif] [--deep] [--jobs N]
 *                       [--fail-on error|warning] [--part-only] [--metadata-only] [--policy FILE]
 *                       [--baseline REPORT]
 *                       [--max-depth N] [--max-entries N] [--uri-base DIR] [-o FILE] [-q]
 * ggufsafe certify --list-codes [--json] [-o FILE]
 *
 * Is this file sound, and exactly what is wrong with it: the reader's structural verdicts (in
 * diagnostic mode, so that every layout violation is reported, not only the first), byte
 * coverage, where the spec and llama.cpp disagree, metadata semantics, with --deep every block
 * of every tensor, and split-set consistency. The checks live in cli/certify/, behind
 * include/ggufsafe_certify.h: this file parses the arguments, draws the progress bar, prints the
 * report the library renders and picks the exit status. One FILE is today's report; several
 * paths, or a directory, are one run over them all (gs_certify_paths). */
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

#include "certify_codes.h"
#include "cli_common.h"
#include "cli_types.h"
#include "text_out.h"
#include "cli_outfile.h"
#include "commands.h"
#include "ggufsafe_certify.h"
#include "progress.h"
#include "text_out.h"
#include "work_pool.h"

typedef struct certify_args {
    cli_args base;
    cli_list paths;
    int profile, fail_on;
    uint64_t max_depth, max_entries;
    const char *uri_base, *policy, *baseline;
    bool json, sarif, deep, part_only, metadata_only, quiet, list_codes;
    uint64_t jobs;
    const char *output;
    cli_decoder_args decoders; /* --type, --plugin, --ggml */
} certify_args;

static const char *const fail_on_choices[] = {"error", "warning", NULL};
enum { FAIL_ON_ERROR, FAIL_ON_WARNING };

static const cli_operand operands[] = {{.name = "FILE", CLI_OPERANDS(certify_args, paths)}};

static const cli_opt options[] = {
    CLI_OPT_PROFILE(certify_args, profile,
                    "strict (default: the GGUF spec and llama.cpp's requirements) or lenient "
                    "(what memory-safe use needs); findings that do not break P are notes"),
    CLI_OPT_JSON(certify_args, json, "one JSON object (" CLI_SCHEMA("certify") ")"),
    {.name = "sarif", CLI_FLAG(certify_args, sarif), .excludes = "json",
     .help = "SARIF 2.1.0 for CI code scanning (the finding code is the rule id)"},
    {.name = "deep", CLI_FLAG(certify_args, deep),
     .help = "read every tensor block: scales as ggml_validate_row_data checks them, NaN and "
             "Inf in float tensors, per-tensor statistics (in the JSON)"},
    CLI_OPT_JOBS(certify_args, jobs,
                 "files certified at once, and threads for --deep (default: all cores); the "
                 "report does not depend on N"),
    {.name = "fail-on", .arg = "L", CLI_CHOICE(certify_args, fail_on, fail_on_choices),
     .help = "error (default) or warning: the lowest severity that fails"},
    CLI_OPT_PART_ONLY(certify_args, part_only, "certify that part alone"),
    {.name = "metadata-only", CLI_FLAG(certify_args, metadata_only),
     .help = "tensor data need not be in the file (a header-only copy, the start of a "
             "download): its absence is a note, everything else is certified"},
    {.name = "max-depth", .arg = "N",
     CLI_COUNT(certify_args, max_depth, 0, 1u << 16),
     .help = "directories below a DIR operand that are read (default 32); a deeper one is "
             "reported unreadable"},
    {.name = "max-entries", .arg = "N",
     CLI_COUNT(certify_args, max_entries, 1, UINT64_C(1) << 40),
     .help = "directory entries read in one run (default 100000); the walk stops there, "
             "reported unreadable"},
    {.name = "uri-base", .arg = "DIR", CLI_PATH(certify_args, uri_base),
     .help = "with --sarif, artifact URIs relative to DIR (default: the current directory, "
             "as code scanning wants the repository root)"},
    {.name = "policy", .arg = "FILE", CLI_PATH(certify_args, policy),
     .help = "rules 'ignore|warn|error CODE [GLOB]', one a line (GLOB on the key or tensor "
             "name; '#' comments): findings to drop, or to count as warnings or errors, before "
             "the verdict; the last matching rule decides; a malformed line is a usage error "
             "naming FILE:LINE:COLUMN"},
    {.name = "baseline", .arg = "REPORT", CLI_PATH(certify_args, baseline),
     .help = "an earlier 'certify --json' or '--sarif' report of these files: its findings stay "
             "in the report, marked, but count in no severity, so only new ones fail (matched "
             "by file and SARIF fingerprint: run from the same directory); a malformed one is "
             "a usage error naming REPORT:LINE:COLUMN"},
    CLI_OPT_OUTPUT(certify_args, output, 'o'),
    CLI_OPT_QUIET(certify_args, quiet),
    CLI_OPT_GGML(certify_args, decoders.ggml),
    {.name = "list-codes", CLI_FLAG(certify_args, list_codes), .flags = CLI_ALONE,
     .help = "list every finding code (code, severity, profiles it breaks, what it means) and "
             "exit; with --json as JSON (" CLI_SCHEMA("certify-codes") ")"},
    CLI_OPT_TYPES(certify_args, decoders.types),
    CLI_OPT_PLUGINS(certify_args, decoders.plugins, decoders.plugin_in_process,
                    decoders.plugin_timeout),
};

static void init(void *p)
{
    certify_args *a = p;
    a->jobs = work_pool_cpus();
    a->max_depth = GS_CERTIFY_WALK_MAX_DEPTH;
    a->max_entries = GS_CERTIFY_WALK_MAX_ENTRIES;
}

/* --list-codes: only --json and --output go with it. */
static int list_codes(const certify_args *a)
{
    static const char *const file_options[] = {"profile",     "sarif",        "deep",
                                               "jobs",        "fail-on",      "part-only",
                                               "quiet",       "metadata-only", "max-depth",
                                               "max-entries", "uri-base",     "policy",
                                               "baseline"};
    for (size_t i = 0; i < sizeof file_options / sizeof file_options[0]; i++) {
        if (cli_given(&a->base, file_options[i])) {
            return cli_usage_error("certify", "--%s does not go with --list-codes",
                                   file_options[i]);
        }
    }
    cli_outfile of;
    int code = cli_outfile_open(&of, a->output, &a->base);
    if (code >= 0) {
        return code;
    }
    if (certify_codes_write(&of, a->json) != GS_OK) {
        cli_outfile_abort(&of);
        return cli_print_out_of_memory();
    }
    return cli_outfile_commit(&of, CLI_EXIT_OK);
}

/* Opens --output, then starts the progress bar: -1, or the exit code. */
static int begin_report(const certify_args *a, const char *label, cli_outfile *of, progress *bar)
{
    int code = cli_outfile_open(of, a->output, &a->base);
    if (code < 0) {
        progress_init(bar, label, a->quiet);
    }
    return code;
}

/* Several paths, or a directory: one run, one report, the summary table at its end (text) or
 * on standard error (JSON, SARIF; not with -q). */
static int run_many(const certify_args *a, const gs_certify_options *opt)
{
    cli_outfile of;
    progress bar;
    int code = begin_report(a, "certify", &of, &bar);
    if (code >= 0) {
        return code;
    }
    gs_certify_batch_options bo;
    gs_certify_batch_options_init(&bo);
    bo.format = a->json    ? GS_CERTIFY_FORMAT_JSON
                : a->sarif ? GS_CERTIFY_FORMAT_SARIF
                           : GS_CERTIFY_FORMAT_TEXT;
    bo.jobs = (unsigned)a->jobs;
    bo.walk.max_depth = (unsigned)a->max_depth;
    bo.walk.max_entries = a->max_entries;
    bo.uri_base = a->uri_base;
    bo.progress = progress_event;
    bo.progress_ctx = &bar;
    gs_sink table;
    gs_sink_file(&table, stderr);
    bo.table = a->quiet ? NULL : &table;
    gs_sink out;
    cli_outfile_sink(&of, &out);
    gs_certify_batch_summary sum = {.struct_size = sizeof sum};
    gs_error err;
    gs_status st = gs_certify_paths(a->paths.items, a->paths.n, opt, &bo, &out, &sum, &err);
    progress_done(&bar);
    if (st != GS_OK) {
        cli_outfile_abort(&of);
        return st == GS_E_NO_MEMORY ? cli_print_out_of_memory() : cli_print_failure(&err);
    }
    return cli_outfile_commit(&of, sum.exit_code);
}

static gs_status policy_reader(FILE *in, void *out, gs_error *err)
{
    return gs_certify_policy_read(in, out, err);
}

/* --policy FILE, parsed: a malformed or unreadable one is a usage error naming FILE:LINE:COL.
 * -1 with *out set, or the exit code. */
static int read_policy(const char *path, gs_certify_policy **out)
{
    return cli_read_input("policy", path, true, policy_reader, out);
}

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static gs_status baseline_reader(FILE *in, void *out, gs_error *err)
{
    return gs_certify_baseline_read(in, out, err);
}

/* --baseline REPORT, parsed, as --policy is. -1 with *out set, or the exit code. */
static int read_baseline(const char *path, gs_certify_baseline **out)
{
    return cli_read_input("baseline", path, true, baseline_reader, out);
}

static int run_paths(const certify_args *a, const gs_certify_policy *policy,
                     const gs_certify_baseline *baseline);

static int run(void *p)
{
    const certify_args *a = p;
    const cli_decoder_args *d = &a->decoders;
    int types_code = cli_types_use("certify", &d->types);
    if (types_code >= 0) {
        return types_code;
    }
    types_code =
        cli_types_load_plugins("certify", &d->plugins, d->plugin_in_process, d->plugin_timeout);
    if (types_code >= 0) {
        return types_code;
    }
    if (a->list_codes) {
        return run_paths(a, NULL, NULL);
    }
    gs_certify_policy *policy = NULL;
    gs_certify_baseline *baseline = NULL;
    int code = a->policy != NULL ? read_policy(a->policy, &policy) : -1;
    if (code < 0 && a->baseline != NULL) {
        code = read_baseline(a->baseline, &baseline);
    }
    if (code < 0) {
        code = run_paths(a, policy, baseline);
    }
    gs_certify_policy_free(policy);
    gs_certify_baseline_free(baseline);
    return code;
}

static int run_paths(const certify_args *a, const gs_certify_policy *policy,
                     const gs_certify_baseline *baseline)
{
    if (a->list_codes) {
        return list_codes(a);
    }
    /* without --deep nothing is decoded: no child to start */
    const cli_decoder_args *d = &a->decoders;
    int ggml_code =
        cli_load_ggml("certify", d->ggml, d->plugin_in_process || !a->deep, d->plugin_timeout);
    if (ggml_code >= 0) {
        return ggml_code;
    }
    if (a->deep) {
        int code = cli_kernel_unavailable();
        if (code >= 0) {
            return code;
        }
    }
    gs_certify_options opt;
    gs_certify_options_init(&opt);
    opt.profile = (gs_profile)a->profile;
    opt.deep = a->deep;
    opt.jobs = (unsigned)a->jobs;
    opt.part_only = a->part_only;
    opt.metadata_only = a->metadata_only;
    opt.policy = policy;
    opt.baseline = baseline;
    const cli_types *ct = cli_types_current();
    opt.type_defs = ct->defs;
    opt.n_type_defs = ct->n_defs;
    opt.decoders = ct->decoders;
    opt.n_decoders = ct->n_decoders;
    opt.fail_on = a->fail_on == FAIL_ON_WARNING ? GS_CERTIFY_WARNING : GS_CERTIFY_ERROR;
    const char *path = a->paths.items[0];
    if (a->paths.n > 1 || is_directory(path)) {
        return run_many(a, &opt);
    }
    cli_outfile of;
    progress bar;
    int code = begin_report(a, "certify --deep", &of, &bar);
    if (code >= 0) {
        return code;
    }
    opt.progress = progress_event;
    opt.progress_ctx = &bar;
    gs_certify *report;
    gs_error err;
    gs_status st = gs_certify_path(path, &opt, &report, &err);
    progress_done(&bar);
    if (st != GS_OK) {
        cli_outfile_abort(&of);
        if (st == GS_E_DECODER_FAILED) {
            cli_text v;
            cli_text_escape_cstr(&v, path);
            char what[sizeof v.s + 64];
            snprintf(what, sizeof what, "the tensor data at byte %llu of '%s' (--deep)",
                     (unsigned long long)err.offset, v.s);
            return cli_types_decoder_failure(what);
        }
        return cli_print_open_failure(&err, path, NULL);
    }
    gs_sink out;
    cli_outfile_sink(&of, &out);
    st = a->json    ? gs_certify_write_json(report, &out, &err)
         : a->sarif ? gs_certify_write_sarif(report, &out, &err)
                    : gs_certify_write_text(report, &out, &err);
    gs_certify_summary sum = {.struct_size = sizeof sum};
    (void)gs_certify_get_summary(report, &sum);
    gs_certify_free(report);
    if (st == GS_E_NO_MEMORY) {
        cli_outfile_abort(&of);
        return cli_print_out_of_memory();
    }
    if (sum.read_failed) {
        /* the report says where; it is not a verdict on a file that held still */
        code = cli_outfile_commit(&of, CLI_EXIT_USAGE);
        fprintf(stderr, "error: the file could not be read to its end while it was certified "
                        "(it changed, or a read failed): certify it again when nothing writes "
                        "to it\n");
        return code;
    }
    return cli_outfile_commit(&of, sum.verdict.certified ? CLI_EXIT_OK : CLI_EXIT_INVALID);
}

const cli_command cmd_certify = {
    .name = "certify",
    .summary = "is this GGUF file (or split set) sound, and what is wrong with it; text, JSON, "
               "SARIF",
    .description =
        "Certifies a GGUF file (or, from its first part, a whole split set): structure, byte "
        "coverage, spec and llama.cpp divergences, metadata semantics, chat-template risk, "
        "split-set consistency and, with --deep, every block of every tensor. The report starts "
        "with the verdict in one sentence, then the root cause; each finding has a stable code "
        "('ggufsafe certify --list-codes' and ggufsafe-certify(1) list them), a severity, the "
        "byte offset, the key or tensor, which readers it affects and a hint saying what to do. "
        "A file that is not GGUF (a Git LFS pointer, an error page, safetensors, an archive...) "
        "is named as what it is. Several paths, or a directory (every regular *.gguf file below "
        "it, split sets grouped and certified from their part 1, links to directories, FIFOs, "
        "devices and sockets skipped), are one run: one report (--json: {\"files\": [...], "
        "\"summary\": {...}}, " CLI_SCHEMA("certify-multi")
        "; --sarif: one run with every file) and a closing table of file, verdict, errors and "
        "warnings.",
    .exit_status = "0 certified, 1 the file is bad (at least one error, or warning with "
                   "--fail-on warning; a file that is not GGUF), 2 usage, I/O or environment "
                   "error (the file could not be read, or changed while it was read); with "
                   "several paths: 2 when any path could not be read, else 1 when any file is not "
                   "certified or not GGUF, else 0",
    CLI_COMMAND_PARTS(certify_args, init, run),
    .man_sections = certify_codes_man,
    .decodes = true,
};
