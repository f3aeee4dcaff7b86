/* ggufsafe diff A B [--json] [--tensor GLOB] [--max-nmse X] [--max-abs X] [--min-cos X]
 *                   [--jobs N] [--profile strict|lenient] [--part-only]
 *
 * The regression kit for quant formats: how far B (a candidate) is from A (the reference),
 * metadata and tensors, with per-tensor and per-block error and a CI gate. The work is split
 * into diff_meta (metadata), diff_match (pairing tensors), diff_compare (chunked decoding on
 * threads), diff_metrics (the error definitions) and diff_text / diff_json (reports). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_source.h"
#include "commands.h"
#include "diff_compare.h"
#include "diff_report.h"
#include "text_out.h"

static const char usage[] =
    "usage: ggufsafe diff A B [--json] [--tensor GLOB] [--max-nmse X] [--max-abs X]\n"
    "                         [--min-cos X] [--jobs N] [--profile strict|lenient] [--part-only]\n"
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
    "\n"
    "A NaN equals a NaN and an infinity the same infinity; any other pair with a NaN or an\n"
    "infinity makes the tensor's max_abs, RMSE and NMSE Infinity and its cosine NaN.\n"
    "\n"
    "exit status: 0 no tensor breaks a threshold, 1 a tensor breaks one, a shape differs, or a\n"
    "file is invalid, 2 usage or I/O error or not a GGUF file\n";

typedef struct diff_args {
    cli_common common;
    const char *path_a, *path_b;
    const char *glob;
    diff_thresholds th;
    uint64_t jobs;
    bool part_only;
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

/* Prints why decoding a tensor failed and returns the exit code (as `dequant` does). */
static int decode_failure(const diff_pair *p, const diff_args *a)
{
    const diff_side *s = p->failed_side == 'A' ? &p->a : &p->b;
    gs_tensor_info t;
    diff_side_info(s, &t);
    cli_text name, path;
    cli_text_escape(&name, t.name.ptr, t.name.len, 256);
    cli_text_escape_cstr(&path, p->failed_side == 'A' ? a->path_a : a->path_b);
    gs_status st = p->status;
    fprintf(stderr, "error: %s at byte %llu (%s): %s (%c: %s)\n", gs_status_name(st),
            (unsigned long long)t.data_offset, name.s, gs_status_message(st), p->failed_side,
            path.s);
    return cli_exit_for_status(st); /* the environment 2, the file's contents 1 */
}

/* GGUFSAFE_KERNEL naming a path this CPU lacks (or none) is refused before any work, as in
 * `dequant`: never silently replaced. */
static int kernel_unavailable(void)
{
    bool usable;
    gs_kernel k = gs_active_kernel(&usable);
    if (usable) {
        return -1;
    }
    if (k == GS_KERNEL_AUTO) {
        cli_text env;
        const char *v = getenv("GGUFSAFE_KERNEL");
        cli_text_escape_cstr(&env, v != NULL ? v : "");
        fprintf(stderr, "error: %s: GGUFSAFE_KERNEL='%s' names no decoder path (scalar, avx2, "
                        "neon)\n", gs_status_name(GS_E_KERNEL_UNAVAILABLE), env.s);
    } else {
        fprintf(stderr, "error: %s: decoder path '%s' (GGUFSAFE_KERNEL) is not available on this "
                        "CPU or build\n", gs_status_name(GS_E_KERNEL_UNAVAILABLE),
                gs_kernel_name(k));
    }
    return CLI_EXIT_USAGE;
}

static int out_of_memory(void)
{
    fprintf(stderr, "error: out of memory\n");
    return CLI_EXIT_USAGE;
}

/* Everything after the files are open. */
static int compare(const diff_args *a, const gs_options *opts, const cli_source *sa,
                   const cli_source *sb)
{
    diff_report r;
    memset(&r, 0, sizeof r);
    r.path_a = a->path_a;
    r.path_b = a->path_b;
    r.a = sa;
    r.b = sb;
    r.opts = opts;
    r.th = a->th;
    gs_status st = diff_metadata(cli_source_part(sa, 0), sa->split != NULL,
                                 cli_source_part(sb, 0), sb->split != NULL, &r.kvs);
    if (st != GS_OK) {
        fprintf(stderr, "error: %s: reading the metadata: %s\n", gs_status_name(st),
                gs_status_message(st));
        return cli_exit_for_status(st);
    }
    if (diff_match(sa, sb, a->glob, &r.pairs) != GS_OK) {
        diff_kv_list_free(&r.kvs);
        return out_of_memory();
    }
    int code = -1;
    if (a->glob != NULL && r.pairs.n == 0) {
        code = cli_usage_error_arg("diff", "no tensor in either file matches", a->glob);
    }
    if (code < 0) {
        size_t failed = diff_compare_pairs(&r.pairs, (unsigned)a->jobs, DIFF_CHUNK_ELEMS);
        if (failed < r.pairs.n) {
            code = decode_failure(&r.pairs.items[failed], a);
        }
    }
    if (code < 0) {
        diff_report_summarize(&r);
        if (a->common.json) {
            diff_json(stdout, &r);
        } else {
            diff_text(stdout, &r);
        }
        code = cli_finish_output(diff_report_exit_code(&r));
    }
    diff_pairs_free(&r.pairs);
    diff_kv_list_free(&r.kvs);
    return code;
}

static int run_diff(int argc, char **argv)
{
    diff_args a;
    int code = parse_args(argc, argv, &a);
    if (code >= 0) {
        return code;
    }
    code = kernel_unavailable();
    if (code >= 0) {
        return code;
    }
    gs_options opts;
    cli_options(&a.common, &opts);
    cli_source sa, sb;
    code = cli_source_open_as(&sa, a.path_a, a.part_only, &opts, "A");
    if (code >= 0) {
        return code;
    }
    code = cli_source_open_as(&sb, a.path_b, a.part_only, &opts, "B");
    if (code >= 0) {
        cli_source_close(&sa);
        return code;
    }
    code = compare(&a, &opts, &sa, &sb);
    cli_source_close(&sa);
    cli_source_close(&sb);
    return code;
}

const cli_command cmd_diff = {
    "diff",
    "per-tensor and per-block error of B against a reference A, with a CI gate",
    usage,
    run_diff,
};
