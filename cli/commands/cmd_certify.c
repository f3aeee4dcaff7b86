/* ggufsafe certify FILE [--profile strict|lenient] [--json | --sarif] [--deep] [--jobs N]
 *                       [--fail-on error|warning] [--part-only] [--metadata-only]
 *
 * Is this file sound, and exactly what is wrong with it: the reader's structural verdicts (in
 * diagnostic mode, so that every layout violation is reported, not only the first), byte
 * coverage, where the spec and llama.cpp disagree, metadata semantics, with --deep every block
 * of every tensor, and split-set consistency. The checks live in cli/certify/, behind
 * include/ggufsafe_certify.h: this file parses the arguments, draws the progress bar, prints the
 * report the library renders and picks the exit status. */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"
#include "ggufsafe_certify.h"
#include "progress.h"
#include "work_pool.h"

static const char usage[] =
    "usage: ggufsafe certify FILE [--profile strict|lenient] [--json | --sarif] [--deep]\n"
    "                             [--jobs N] [--fail-on error|warning] [--part-only]\n"
    "                             [--metadata-only]\n"
    "\n"
    "Certifies a GGUF file (or, from its first part, a whole split set): structure, byte\n"
    "coverage, spec and llama.cpp divergences, metadata semantics, chat-template risk,\n"
    "split-set consistency and, with --deep, every block of every tensor. The report starts\n"
    "with the verdict in one sentence, then the root cause; each finding has a stable code\n"
    "(docs/certify.md), a severity, the byte offset, the key or tensor, which readers it\n"
    "affects and a hint saying what to do. A file that is not GGUF (a Git LFS pointer, an\n"
    "error page, safetensors, an archive...) is named as what it is.\n"
    "\n"
    "  --profile P     strict (default: the GGUF spec and llama.cpp's requirements) or lenient\n"
    "                  (what memory-safe use needs); findings that do not break P are notes\n"
    "  --json          one JSON object (conformance/schema/certify.schema.json)\n"
    "  --sarif         SARIF 2.1.0 for CI code scanning (the finding code is the rule id)\n"
    "  --deep          read every tensor block: scales as ggml_validate_row_data checks them,\n"
    "                  NaN and Inf in float tensors, per-tensor statistics (in the JSON)\n"
    "  --jobs N        threads for --deep (default: all cores); the report does not depend on N\n"
    "  --fail-on L     error (default) or warning: the lowest severity that fails\n"
    "  --part-only     on <prefix>-00001-of-NNNNN.gguf, certify that part alone\n"
    "  --metadata-only tensor data need not be in the file (a header-only copy, the start of\n"
    "                  a download): its absence is a note, everything else is certified\n"
    "\n"
    "exit status: 0 certified, 1 the file is bad (at least one error, or warning with\n"
    "--fail-on warning; a file that is not GGUF), 2 usage, I/O or environment error (the\n"
    "file could not be read, or changed while it was read)\n";

typedef struct certify_args {
    cli_common common;
    const char *path;
    bool sarif, deep, part_only, fail_on_warning, metadata_only;
    uint64_t jobs;
} certify_args;

static int parse_args(int argc, char **argv, certify_args *a)
{
    cli_common_init(&a->common);
    a->path = NULL;
    a->sarif = a->deep = a->part_only = a->fail_on_warning = a->metadata_only = false;
    a->jobs = work_pool_cpus();
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (options_done || !cli_is_option(arg)) {
            if (a->path != NULL) {
                return cli_usage_error_arg("certify", "one FILE only; unexpected argument", arg);
            }
            a->path = arg;
            continue;
        }
        const char *value;
        cli_match m = cli_match_common(&a->common, "certify", argc, argv, &i);
        if (m == CLI_MATCH_NO) {
            m = cli_match_jobs("certify", argc, argv, &i, &a->jobs);
        }
        if (m == CLI_MATCH_NO) {
            m = cli_match_value("certify", "--fail-on", argc, argv, &i, &value);
            if (m == CLI_MATCH_YES) {
                if (strcmp(value, "warning") == 0) {
                    a->fail_on_warning = true;
                } else if (strcmp(value, "error") == 0) {
                    a->fail_on_warning = false;
                } else {
                    return cli_usage_error_arg("certify",
                                               "--fail-on must be error or warning, not", value);
                }
            }
        }
        if (m == CLI_MATCH_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (m == CLI_MATCH_YES) {
            continue;
        }
        if (strcmp(arg, "--sarif") == 0) {
            a->sarif = true;
        } else if (strcmp(arg, "--deep") == 0) {
            a->deep = true;
        } else if (strcmp(arg, "--metadata-only") == 0) {
            a->metadata_only = true;
        } else {
            const int code = cli_match_final("certify", usage, arg, &a->part_only, &options_done);
            if (code >= 0) {
                return code;
            }
        }
    }
    if (a->path == NULL) {
        return cli_usage_error("certify", "FILE missing");
    }
    if (a->sarif && a->common.json) {
        return cli_usage_error("certify", "--json and --sarif are exclusive");
    }
    return -1;
}

static int run(int argc, char **argv)
{
    certify_args a;
    int code = parse_args(argc, argv, &a);
    if (code >= 0) {
        return code;
    }
    if (a.deep) {
        bool usable;
        gs_kernel k = gs_active_kernel(&usable);
        if (!usable) {
            fprintf(stderr, "error: GS_E_KERNEL_UNAVAILABLE: decoder path '%s' (GGUFSAFE_KERNEL) "
                            "is not available on this CPU or build\n", gs_kernel_name(k));
            return CLI_EXIT_USAGE;
        }
    }
    progress bar;
    progress_init(&bar, "certify --deep");
    gs_certify_options opt;
    gs_certify_options_init(&opt);
    opt.profile = a.common.profile;
    opt.deep = a.deep;
    opt.jobs = (unsigned)a.jobs;
    opt.part_only = a.part_only;
    opt.metadata_only = a.metadata_only;
    opt.fail_on = a.fail_on_warning ? GS_CERTIFY_WARNING : GS_CERTIFY_ERROR;
    opt.progress = progress_event;
    opt.progress_ctx = &bar;
    gs_certify *report;
    gs_error err;
    gs_status st = gs_certify_path(a.path, &opt, &report, &err);
    progress_done(&bar);
    if (st != GS_OK) {
        return cli_print_failure(&err);
    }
    gs_sink out;
    cli_stdout_sink(&out);
    st = a.common.json ? gs_certify_write_json(report, &out, &err)
         : a.sarif     ? gs_certify_write_sarif(report, &out, &err)
                       : gs_certify_write_text(report, &out, &err);
    gs_certify_summary sum = {.struct_size = sizeof sum};
    (void)gs_certify_get_summary(report, &sum);
    gs_certify_free(report);
    if (st == GS_E_NO_MEMORY) {
        return cli_print_failure(&err);
    }
    if (sum.read_failed) {
        /* the report says where; it is not a verdict on a file that held still */
        int exit_code = cli_finish_output(CLI_EXIT_USAGE);
        fprintf(stderr, "error: the file could not be read to its end while it was certified "
                        "(it changed, or a read failed): certify it again when nothing writes "
                        "to it\n");
        return exit_code;
    }
    return cli_finish_output(sum.verdict.certified ? CLI_EXIT_OK : CLI_EXIT_INVALID);
}

const cli_command cmd_certify = {
    "certify",
    "is this GGUF file (or split set) sound, and what is wrong with it; text, JSON, SARIF",
    usage,
    run,
};
