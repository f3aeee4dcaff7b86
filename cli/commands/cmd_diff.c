/* ggufsafe diff A B [--json] [--tensor GLOB] [--max-nmse X] [--max-abs X] [--min-cos X]
 *                   [--jobs N] [--profile strict|lenient] [--part-only] [--metadata-only]
 *
 * The regression kit for quant formats: how far B (a candidate) is from A (the reference),
 * metadata and tensors, with per-tensor and per-block error and a CI gate. The comparison is
 * the library's (include/ggufsafe_diff.h, cli/diff/): this file parses the arguments, prints
 * what the library renders and picks the exit status. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"
#include "ggufsafe_diff.h"
#include "open_notes.h"
#include "text_escape.h"
#include "text_out.h"

static const char usage[] =
    "usage: ggufsafe diff A B [--json] [--tensor GLOB] [--max-nmse X] [--max-abs X]\n"
    "                         [--min-cos X] [--jobs N] [--profile strict|lenient] [--part-only]\n"
    "                         [--metadata-only]\n"
    "\n"
    "Compares B with the reference A: metadata keys only in A, only in B, or changed; tensors\n"
    "present in one file only or with another shape (an error); and for every tensor in both\n"
    "with the same shape, both sides decoded to f32 (whatever their types) and compared:\n"
    "max absolute error, RMSE, NMSE = sum (a-b)^2 / sum a^2, cosine similarity, the share of\n"
    "equal elements, and the worst block counted in B's block size (1 element for F32/F16/BF16),\n"
    "with its RMSE. Tensors are listed worst first, then a total weighted by element count.\n"
    "\n"
    "  --json           one JSON object (conformance/schema/diff.schema.json)\n"
    "  --tensor GLOB    only tensors whose name matches GLOB (fnmatch: * ? [..])\n"
    "  --max-nmse X     fail (exit 1) when a tensor's NMSE is above X\n"
    "  --max-abs X      fail when a tensor's max absolute error is above X\n"
    "  --min-cos X      fail when a tensor's cosine similarity is below X (or NaN)\n"
    "  --jobs N         compare N tensors at a time (1..256, default 1); same output for any N\n"
    "  --profile P      strict (default) or lenient, for both files\n"
    "  --part-only      on <prefix>-00001-of-NNNNN.gguf, that part alone instead of the set\n"
    "  --metadata-only  compare the metadata only (keys, tensor lists, types, shapes); no\n"
    "                   tensor data is read, and it need not be in the files\n"
    "\n"
    "A NaN equals a NaN and an infinity the same infinity; any other pair with a NaN or an\n"
    "infinity makes the tensor's max_abs, RMSE and NMSE Infinity and its cosine NaN.\n"
    "\n"
    "exit status: 0 no tensor breaks a threshold, 1 a tensor breaks one, a shape differs, or a\n"
    "file is invalid or not a GGUF file, 2 usage, I/O or environment error\n";

typedef struct diff_thresholds {
    bool has_max_nmse, has_max_abs, has_min_cos;
    double max_nmse, max_abs, min_cos;
} diff_thresholds;

typedef struct diff_args {
    cli_common common;
    const char *path_a, *path_b;
    const char *glob;
    diff_thresholds th;
    uint64_t jobs;
    bool part_only, metadata_only;
} diff_args;

/* A threshold: a finite decimal number, >= 0 (a maximum) or from -1 to 1 (a cosine). */
static cli_match parse_threshold(const char *name, const char *value, bool cosine, bool *has,
                                 double *out)
{
    char *end;
    double v = strtod(value, &end);
    bool ok = value[0] != '\0' && *end == '\0' && isfinite(v);
    ok = ok && (cosine ? v >= -1 && v <= 1 : v >= 0);
    if (!ok) {
        cli_text t;
        cli_text_escape_cstr(&t, value);
        cli_usage_error("diff", "%s needs a number %s, not '%s'", name,
                        cosine ? "from -1 to 1" : ">= 0", t.s);
        return CLI_MATCH_ERROR;
    }
    *has = true;
    *out = v;
    return CLI_MATCH_YES;
}

/* The options that take a value; CLI_MATCH_NO when arg is none of them. */
static cli_match match_valued(diff_args *a, int argc, char **argv, int *i)
{
    const char *v;
    cli_match m = cli_match_value("diff", "--tensor", argc, argv, i, &a->glob);
    if (m != CLI_MATCH_NO) {
        return m;
    }
    if ((m = cli_match_value("diff", "--max-nmse", argc, argv, i, &v)) == CLI_MATCH_YES) {
        return parse_threshold("--max-nmse", v, false, &a->th.has_max_nmse, &a->th.max_nmse);
    }
    if (m == CLI_MATCH_NO &&
        (m = cli_match_value("diff", "--max-abs", argc, argv, i, &v)) == CLI_MATCH_YES) {
        return parse_threshold("--max-abs", v, false, &a->th.has_max_abs, &a->th.max_abs);
    }
    if (m == CLI_MATCH_NO &&
        (m = cli_match_value("diff", "--min-cos", argc, argv, i, &v)) == CLI_MATCH_YES) {
        return parse_threshold("--min-cos", v, true, &a->th.has_min_cos, &a->th.min_cos);
    }
    if (m == CLI_MATCH_NO) {
        m = cli_match_jobs("diff", argc, argv, i, &a->jobs);
    }
    return m;
}

static int parse_args(int argc, char **argv, diff_args *a)
{
    memset(a, 0, sizeof *a);
    cli_common_init(&a->common);
    a->jobs = 1;
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (options_done || !cli_is_option(arg)) {
            if (a->path_a == NULL) {
                a->path_a = arg;
            } else if (a->path_b == NULL) {
                a->path_b = arg;
            } else {
                return cli_usage_error_arg("diff", "two files only; unexpected argument", arg);
            }
            continue;
        }
        cli_match m = cli_match_common(&a->common, "diff", argc, argv, &i);
        if (m == CLI_MATCH_NO) {
            m = match_valued(a, argc, argv, &i);
        }
        if (m == CLI_MATCH_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (m == CLI_MATCH_YES) {
            continue;
        }
        if (strcmp(arg, "--metadata-only") == 0) {
            a->metadata_only = true;
            continue;
        }
        const int code = cli_match_final("diff", usage, arg, &a->part_only, &options_done);
        if (code >= 0) {
            return code;
        }
    }
    if (a->path_b == NULL) {
        return cli_usage_error("diff", "two files needed: A (the reference) and B");
    }
    return -1;
}

/* Prints why the comparison failed and returns the exit code (the environment 2, the file's
 * contents 1): a tensor that cannot be decoded (as `dequant` says it, with the side), or
 * metadata that cannot be read. */
static int compare_failure(const gs_error *err)
{
    gs_status st = err->status;
    if (st == GS_E_NO_MEMORY) {
        return cli_print_failure(err);
    }
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

/* Everything after the files are open. */
static int compare(const diff_args *a, const gs_diff_options *o, const gs_diff_input *sa,
                   const gs_diff_input *sb)
{
    gs_diff *d;
    gs_error err;
    gs_status st = gs_diff_compare(sa, sb, o, &d, &err);
    if (st != GS_OK) {
        return compare_failure(&err);
    }
    gs_diff_summary sum = {.struct_size = sizeof sum};
    (void)gs_diff_get_summary(d, &sum);
    int code;
    if (a->glob != NULL && sum.tensor_count == 0) {
        code = cli_usage_error_arg("diff", "no tensor in either file matches", a->glob);
    } else {
        gs_sink out;
        cli_stdout_sink(&out);
        st = a->common.json ? gs_diff_write_json(d, &out, &err) : gs_diff_write_text(d, &out, &err);
        code = st == GS_E_NO_MEMORY
                   ? cli_print_failure(&err)
                   : cli_finish_output(sum.passed ? CLI_EXIT_OK : CLI_EXIT_INVALID);
    }
    gs_diff_free(d);
    return code;
}

static int run_diff(int argc, char **argv)
{
    diff_args a;
    int code = parse_args(argc, argv, &a);
    if (code >= 0) {
        return code;
    }
    code = a.metadata_only ? -1 : cli_kernel_unavailable(); /* nothing is decoded then */
    if (code >= 0) {
        return code;
    }
    gs_diff_options o;
    gs_diff_options_init(&o);
    o.profile = a.common.profile;
    o.part_only = a.part_only;
    o.metadata_only = a.metadata_only;
    o.tensor_glob = a.glob;
    o.jobs = (unsigned)a.jobs;
    o.has_max_nmse = a.th.has_max_nmse;
    o.has_max_abs = a.th.has_max_abs;
    o.has_min_cos = a.th.has_min_cos;
    o.max_nmse = a.th.max_nmse;
    o.max_abs = a.th.max_abs;
    o.min_cos = a.th.min_cos;
    gs_diff_input *sa, *sb;
    gs_error err;
    gs_options ro;
    cli_options(&a.common, &ro);
    ro.metadata_only = a.metadata_only;
    if (gs_diff_open(a.path_a, "A", &o, &sa, &err) != GS_OK) {
        code = cli_print_failure(&err);
        cli_open_notes(a.path_a, &err, &ro, "ggufsafe diff --metadata-only");
        return code;
    }
    if (gs_diff_open(a.path_b, "B", &o, &sb, &err) != GS_OK) {
        gs_diff_input_close(sa);
        code = cli_print_failure(&err);
        cli_open_notes(a.path_b, &err, &ro, "ggufsafe diff --metadata-only");
        return code;
    }
    code = compare(&a, &o, sa, sb);
    gs_diff_input_close(sa);
    gs_diff_input_close(sb);
    return code;
}

const cli_command cmd_diff = {
    "diff",
    "per-tensor and per-block error of B against a reference A, with a CI gate",
    usage,
    run_diff,
};
