/* ggufsafe diff [REF] A B [--json] [--html FILE] [--tensor GLOB]... [--exclude GLOB]... [--max-nmse X] [--max-abs X]
 *                   [--min-cos X] [--allow-missing] [--allow-extra] [--fail-on-metadata]
 *                   [--fail-on-key GLOB]... [--ignore-key GLOB]... [--jobs N]
 *                   [--worst N] [--profile strict|lenient] [--part-only] [--metadata-only]
 *                   [--output FILE] [-q]
 *
 * The regression kit for quant formats: how far B (a candidate) is from A (the reference),
 * metadata and tensors, with per-tensor and per-block error and a CI gate. The comparison is
 * the library's (include/ggufsafe_diff.h, cli/diff/): this file parses the arguments, prints
 * what the library renders and picks the exit status. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_types.h"
#include "cli_outfile.h"
#include "commands.h"
#include "ggufsafe_diff.h"
#include "open_notes.h"
#include "progress.h"
#include "text_escape.h"
#include "text_out.h"
#include "work_pool.h"

typedef struct diff_args {
    cli_args base;
    const char *path_a;
    cli_list files; /* B, or A B (three-way: path_a is then REF) */
    bool json, part_only, metadata_only, quiet;
    cli_list tensors, excludes;
    cli_real max_nmse, max_abs, min_cos, max_ratio, max_increase;
    bool allow_missing, allow_extra, fail_on_metadata;
    cli_list fail_on_keys, ignore_keys;
    uint64_t jobs, worst;
    int profile;
    const char *output, *html;
    cli_decoder_args decoders; /* --type, --plugin, --ggml */
} diff_args;

static const cli_operand operands[] = {
    {.name = "A", CLI_OPERAND(diff_args, path_a), .synopsis = "[REF] A"},
    {.name = "B", CLI_OPERANDS(diff_args, files), .synopsis = "B"},
};

static const cli_opt options[] = {
    CLI_OPT_JSON(diff_args, json, "one JSON object (" CLI_SCHEMA("diff") ")"),
    {.name = "tensor", .arg = "GLOB", CLI_GLOBS(diff_args, tensors),
     .help = "only tensors whose name is GLOB or matches it (fnmatch: * ? [..]); with several, "
             "a tensor any of them matches"},
    {.name = "exclude", .arg = "GLOB", CLI_GLOBS(diff_args, excludes),
     .help = "leave out tensors whose name is GLOB or matches it, whatever --tensor says"},
    {.name = "max-nmse", .arg = "X", CLI_FLOAT(diff_args, max_nmse, 0, INFINITY),
     .help = "fail (exit 1) when a tensor's NMSE is above X"},
    {.name = "max-abs", .arg = "X", CLI_FLOAT(diff_args, max_abs, 0, INFINITY),
     .help = "fail when a tensor's max absolute error is above X"},
    {.name = "min-cos", .arg = "X", CLI_FLOAT(diff_args, min_cos, -1, 1),
     .help = "fail when a tensor's cosine similarity is below X (or NaN)"},
    {.name = "max-nmse-ratio", .arg = "X", CLI_FLOAT(diff_args, max_ratio, 0, INFINITY),
     .help = "three files: fail when a tensor's NMSE in B is above X times its NMSE in A (an "
             "exact A fails any X unless B is exact too)"},
    {.name = "max-nmse-increase", .arg = "X", CLI_FLOAT(diff_args, max_increase, -INFINITY,
                                                         INFINITY),
     .help = "three files: fail when a tensor's NMSE in B is above its NMSE in A plus X"},
    {.name = "allow-missing", CLI_FLAG(diff_args, allow_missing),
     .help = "with a gate, accept tensors that are in A but not in B"},
    {.name = "allow-extra", CLI_FLAG(diff_args, allow_extra),
     .help = "with a gate, accept tensors that are in B but not in A"},
    {.name = "fail-on-metadata", CLI_FLAG(diff_args, fail_on_metadata),
     .help = "fail on any metadata key only in A, only in B or changed (less --ignore-key)"},
    {.name = "fail-on-key", .arg = "GLOB", CLI_GLOBS(diff_args, fail_on_keys),
     .help = "fail when a metadata key matching GLOB is only on one side or changed"},
    {.name = "ignore-key", .arg = "GLOB", CLI_GLOBS(diff_args, ignore_keys),
     .help = "never fail on metadata keys matching GLOB"},
    {.name = "worst", .arg = "N", CLI_COUNT(diff_args, worst, 1, GS_DIFF_MAX_WORST),
     .help = "list the N worst blocks of the whole comparison (1..1000) with their values"},
    CLI_OPT_JOBS(diff_args, jobs,
                 "compare N tensors at a time (1..256, default: all cores); same output for "
                 "any N"),
    CLI_OPT_PROFILE(diff_args, profile, "strict (default) or lenient, for both files"),
    CLI_OPT_PART_ONLY(diff_args, part_only, "that part alone instead of the set"),
    {.name = "metadata-only", CLI_FLAG(diff_args, metadata_only),
     .help = "compare the metadata only (keys, tensor lists, types, shapes); no tensor data is "
             "read, and it need not be in the files"},
    {.name = "html", .letter = 'o', .arg = "FILE", CLI_PATH(diff_args, html),
     .help = "also write the comparison as one self-contained HTML page to FILE ('-': standard "
             "output, with the report then in --output FILE): the gate's verdict, NMSE per "
             "layer for each role, NMSE against bits per weight, the roll-up tables; inline SVG, "
             "no script, nothing fetched"},
    CLI_OPT_OUTPUT(diff_args, output, 0),
    CLI_OPT_QUIET(diff_args, quiet),
    CLI_OPT_DECODERS(diff_args, decoders),
};

static void init(void *p)
{
    diff_args *a = p;
    a->jobs = work_pool_cpus();
}

/* Prints why the comparison failed and returns the exit code (the environment 2, the file's
 * contents 1): a tensor that cannot be decoded (as `dequant` says it, with the side; a read
 * that failed names the file first), or metadata that cannot be read. */
static int compare_failure(const diff_args *a, const gs_error *err)
{
    gs_status st = err->status;
    if (st == GS_E_NO_MEMORY) {
        return cli_print_out_of_memory();
    }
    if (st == GS_E_DECODER_FAILED) {
        char what[GS_ERROR_TEXT_MAX + 16];
        snprintf(what, sizeof what, "tensor '%s'", err->context); /* escaped by the library */
        return cli_types_decoder_failure(what);
    }
    if (err->context_kind == GS_CONTEXT_TENSOR && st == GS_E_IO) {
        /* the detail is "<side>: <path>", the side A or B, or REF, A or B (ggufsafe_diff.h) */
        bool three = a->files.n == 2;
        const char *path = a->path_a, *label = three ? "REF" : "A";
        if (strncmp(err->detail, "B:", 2) == 0) {
            path = a->files.items[a->files.n - 1];
            label = "B";
        } else if (three && strncmp(err->detail, "A:", 2) == 0) {
            path = a->files.items[0];
            label = "A";
        }
        gs_error e = *err;
        e.detail[0] = '\0';
        return cli_print_read_error(&e, path, label);
    }
    fflush(stdout);
    if (err->context_kind == GS_CONTEXT_TENSOR) {
        char detail[4 * GS_ERROR_TEXT_MAX + 4]; /* "A: <path>": the path is from the command line */
        gsi_escape_text(detail, sizeof detail, (const uint8_t *)err->detail, strlen(err->detail));
        fprintf(stderr, "error: %s at byte %llu (%s): %s (%s)\n", gs_status_name(st),
                (unsigned long long)err->offset, err->context, gs_status_message(st), detail);
    } else {
        fprintf(stderr, "error: %s: %s: %s\n", gs_status_name(st), err->detail,
                gs_status_message(st));
    }
    return cli_exit_for_status(st);
}

/* Everything after the files are open; base is NULL unless three files were given. */
static int compare(const diff_args *a, const gs_diff_options *o, const gs_diff_input *ref,
                   const gs_diff_input *base, const gs_diff_input *cand, cli_outfile *of,
                   cli_outfile *hf, progress *bar)
{
    gs_diff *d;
    gs_error err;
    gs_status st = base != NULL ? gs_diff_compare3(ref, base, cand, o, &d, &err)
                                : gs_diff_compare(ref, cand, o, &d, &err);
    progress_done(bar);
    if (st != GS_OK) {
        return compare_failure(a, &err);
    }
    gs_diff_summary sum = {.struct_size = sizeof sum};
    (void)gs_diff_get_summary(d, &sum);
    int code;
    if ((a->tensors.n > 0 || a->excludes.n > 0) && sum.tensor_count == 0) {
        code = cli_no_tensor_left("diff", base != NULL ? " in any file" : " in either file",
                                  &a->tensors, a->excludes.n);
    } else {
        gs_sink out;
        cli_outfile_sink(of, &out);
        st = a->json ? gs_diff_write_json(d, &out, &err) : gs_diff_write_text(d, &out, &err);
        if (st == GS_OK && hf != NULL) {
            gs_sink page;
            cli_outfile_sink(hf, &page);
            st = gs_diff_write_html(d, &page, &err);
        }
        /* a sink's own failure shows when its file is committed */
        code = st == GS_E_NO_MEMORY ? cli_print_out_of_memory()
                                    : (sum.passed ? CLI_EXIT_OK : CLI_EXIT_INVALID);
    }
    gs_diff_free(d);
    return code;
}

static void set_options(const diff_args *a, gs_diff_options *o, progress *bar)
{
    gs_diff_options_init(o);
    o->profile = (gs_profile)a->profile;
    o->part_only = a->part_only;
    o->metadata_only = a->metadata_only;
    o->tensor_globs = a->tensors.items;
    o->n_tensor_globs = a->tensors.n;
    o->exclude_globs = a->excludes.items;
    o->n_exclude_globs = a->excludes.n;
    o->jobs = (unsigned)a->jobs;
    o->has_max_nmse = a->max_nmse.given;
    o->has_max_abs = a->max_abs.given;
    o->has_min_cos = a->min_cos.given;
    o->max_nmse = a->max_nmse.value;
    o->max_abs = a->max_abs.value;
    o->min_cos = a->min_cos.value;
    o->has_max_nmse_ratio = a->max_ratio.given;
    o->max_nmse_ratio = a->max_ratio.value;
    o->has_max_nmse_increase = a->max_increase.given;
    o->max_nmse_increase = a->max_increase.value;
    o->allow_missing = a->allow_missing;
    o->allow_extra = a->allow_extra;
    o->fail_on_metadata = a->fail_on_metadata;
    o->fail_on_keys = a->fail_on_keys.items;
    o->n_fail_on_keys = a->fail_on_keys.n;
    o->ignore_keys = a->ignore_keys.items;
    o->n_ignore_keys = a->ignore_keys.n;
    o->worst_blocks = (size_t)a->worst;
    const cli_types *ct = cli_types_current();
    o->type_defs = ct->defs;
    o->n_type_defs = ct->n_defs;
    o->decoders = ct->decoders;
    o->n_decoders = ct->n_decoders;
    o->progress = progress_event;
    o->progress_ctx = bar;
}

static int run_diff(void *p)
{
    const diff_args *a = p;
    int types_code = CLI_TYPES_LOAD_ALL("diff", &a->decoders);
    if (types_code >= 0) {
        return types_code;
    }
    if (a->files.n > 2) {
        return cli_usage_error("diff", "diff takes two files (A B) or three (REF A B), not %zu",
                               a->files.n + 1);
    }
    if (a->files.n == 1 && (a->max_ratio.given || a->max_increase.given)) {
        return cli_usage_error("diff", "--%s compares two candidates: give three files (REF A B)",
                               a->max_ratio.given ? "max-nmse-ratio" : "max-nmse-increase");
    }
    int code = a->metadata_only ? -1 : cli_kernel_unavailable(); /* nothing is decoded then */
    if (code >= 0) {
        return code;
    }
    bool html_stdout = a->html != NULL && strcmp(a->html, "-") == 0;
    if (html_stdout && (a->output == NULL || strcmp(a->output, "-") == 0)) {
        return cli_usage_error("diff", "--html - writes the page to standard output: give the "
                                       "report a file with --output FILE");
    }
    if (a->html != NULL && a->output != NULL && strcmp(a->html, a->output) == 0) {
        return cli_usage_error("diff", "--html and --output name the same file");
    }
    cli_outfile of, hf;
    code = cli_outfile_open(&of, a->output, &a->base);
    if (code >= 0) {
        return code;
    }
    if (a->html != NULL) {
        code = cli_outfile_open(&hf, a->html, &a->base);
        if (code >= 0) {
            cli_outfile_abort(&of);
            return code;
        }
    }
    cli_outfile *hfp = a->html != NULL ? &hf : NULL;
    progress bar;
    progress_init(&bar, "diff", a->quiet);
    bar.elements = true;
    gs_diff_options o;
    set_options(a, &o, &bar);
    bool three = a->files.n == 2;
    const char *paths[3] = {a->path_a, a->files.items[0], three ? a->files.items[1] : NULL};
    const char *labels[3] = {three ? "REF" : "A", three ? "A" : "B", "B"};
    gs_diff_input *in[3] = {NULL, NULL, NULL};
    gs_error err;
    gs_options ro; /* how the files were opened, for what to say when one cannot be */
    cli_options((gs_profile)a->profile, &ro);
    ro.metadata_only = a->metadata_only;
    code = -1;
    for (size_t k = 0; k < (three ? 3u : 2u) && code < 0; k++) {
        if (gs_diff_open(paths[k], NULL, &o, &in[k], &err) != GS_OK) {
            code = cli_print_open_failure(&err, paths[k], labels[k]);
            cli_open_notes(paths[k], &err, &ro, "ggufsafe diff --metadata-only");
        }
    }
    if (code < 0) {
        code = three ? compare(a, &o, in[0], in[1], in[2], &of, hfp, &bar)
                     : compare(a, &o, in[0], NULL, in[1], &of, hfp, &bar);
    }
    for (size_t k = 0; k < 3; k++) {
        gs_diff_input_close(in[k]);
    }
    progress_done(&bar);
    if (code == CLI_EXIT_OK || code == CLI_EXIT_INVALID) {
        int done = cli_outfile_commit(&of, code);
        if (hfp == NULL) {
            return done;
        }
        if (done != code) {
            cli_outfile_abort(hfp);
            return done;
        }
        return cli_outfile_commit(hfp, code);
    }
    cli_outfile_abort(&of);
    if (hfp != NULL) {
        cli_outfile_abort(hfp);
    }
    return code;
}

const cli_command cmd_diff = {
    .name = "diff",
    .summary = "per-tensor and per-block error of B against a reference A, with a CI gate",
    .description =
        "Compares B with the reference A: metadata keys only in A, only in B, or changed; "
        "tensors present in one file only or with another shape (an error); and for every "
        "tensor in both with the same shape, both sides decoded to f32 (whatever their types) "
        "and compared: max absolute error, RMSE, NMSE = sum (a-b)^2 / sum a^2, cosine "
        "similarity, the share of equal elements, and the worst block counted in B's block "
        "size (1 element for F32/F16/BF16), with its RMSE. Tensors are listed worst first, then "
        "a total weighted by element count. The report names the --tensor and --exclude "
        "patterns that applied. With a threshold or a metadata rule the gate also fails on a "
        "tensor only in A (unless --allow-missing), only in B (unless --allow-extra), or without "
        "an f32 form on a side (unless both sides have one type and identical bytes), and the "
        "report lists each failure with its rule. With three files, REF A B, the baseline A and "
        "the candidate B are each compared with REF and the report gives both errors and their "
        "ratio per tensor and per roll-up (is B no worse than A?); --max-nmse-ratio and "
        "--max-nmse-increase gate B against A, the other thresholds apply to B. --html FILE "
        "also writes the comparison as one self-contained HTML page (docs/diff.md): the "
        "verdict, NMSE per layer for each role and against bits per weight, the roll-ups.",
    .notes = "A NaN equals a NaN and an infinity the same infinity; any other pair with a NaN or "
             "an infinity makes the tensor's max_abs, RMSE and NMSE Infinity and its cosine NaN.",
    .exit_status = "0 the gate passed, 1 it failed (a threshold, a shape, a missing, extra or "
                   "incomparable tensor, a gated metadata key) or a file is invalid or not a "
                   "GGUF file, 2 usage, I/O or environment error, or no tensor left by the "
                   "patterns",
    CLI_COMMAND_PARTS(diff_args, init, run_diff),
    .decodes = true,
};
