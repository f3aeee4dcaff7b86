/* ggufsafe dequant FILE [--tensor GLOB]... [--exclude GLOB]... [--sha256] [-o FILE.f32] [--json]
 *                       [--profile strict|lenient] [--part-only]
 *
 * Decodes tensors to f32 with the active decoder path (GGUFSAFE_KERNEL=scalar|avx2|neon), in
 * bounded chunks:
 *   --sha256   one line per tensor in file order: "<sha256>  <name>  <type>", the hash of the
 *              little-endian f32 output with every NaN made 0x7FC00000 ("-" for integer and f64
 *              tensors, which have no f32 form)
 *   --out F    the raw little-endian f32 values (of the selected tensors, every decodable one by
 *              default, in file order, concatenated)
 *   default    per-tensor statistics: min, max, mean, NaN and Inf counts */
#include <errno.h>
#include <math.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_outfile.h"
#include "cli_source.h"
#include "commands.h"
#include "name_filter.h"
#include "open_notes.h"
#include "text_escape.h"
#include "text_out.h"

typedef struct dequant_args {
    cli_args base;
    const char *path;
    cli_list tensors, excludes;
    const char *out_path;
    bool sha256, json, part_only;
    int profile;
} dequant_args;

static const cli_operand operands[] = {{.name = "FILE", CLI_OPERAND(dequant_args, path)}};

static const cli_opt options[] = {
    {.name = "tensor", .arg = "GLOB", CLI_GLOBS(dequant_args, tensors),
     .help = "only tensors whose name is GLOB or matches it (fnmatch: * ? [..]; an exact name "
             "works as it is); with several, a tensor any of them matches (default: every "
             "tensor)"},
    {.name = "exclude", .arg = "GLOB", CLI_GLOBS(dequant_args, excludes),
     .help = "leave out tensors whose name is GLOB or matches it, whatever --tensor says"},
    {.name = "sha256", CLI_FLAG(dequant_args, sha256), .excludes = "json",
     .help = "per tensor: <sha256 of the f32 output, NaNs as 0x7FC00000>  <name>  <type> ('-' "
             "for integer and f64 tensors)"},
    {.name = "out", .letter = 'o', .arg = "FILE", CLI_PATH(dequant_args, out_path),
     .help = "write the little-endian f32 values there (the selected tensors, in file order, "
             "concatenated), only once every one is decoded"},
    CLI_OPT_JSON(dequant_args, json,
                 "statistics and hashes as JSON (" CLI_SCHEMA("dequant") ")"),
    CLI_OPT_PROFILE(dequant_args, profile, "strict (default) or lenient"),
    CLI_OPT_PART_ONLY(dequant_args, part_only, "decode that part alone"),
};

/* What one pass over a tensor's values accumulates. */
typedef struct tensor_pass {
    EVP_MD_CTX *md;
    FILE *out;
    uint64_t nan, inf;
    float min, max;
    double sum;
    uint64_t finite;
    int write_errno; /* the output file's write failed */
} tensor_pass;

static gs_status consume(void *ctx, const float *v, size_t n)
{
    tensor_pass *p = ctx;
    uint8_t le[4096];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, &v[i], 4);
        if (isnan(v[i])) {
            p->nan++;
            bits = 0x7FC00000u; /* the NaN rule: one canonical NaN */
        } else if (isinf(v[i])) {
            p->inf++;
        } else {
            if (p->finite == 0 || v[i] < p->min) {
                p->min = v[i];
            }
            if (p->finite == 0 || v[i] > p->max) {
                p->max = v[i];
            }
            p->sum += (double)v[i];
            p->finite++;
        }
        le[k++] = (uint8_t)bits;
        le[k++] = (uint8_t)(bits >> 8);
        le[k++] = (uint8_t)(bits >> 16);
        le[k++] = (uint8_t)(bits >> 24);
        if (k == sizeof le || i + 1 == n) {
            if (p->md != NULL) {
                EVP_DigestUpdate(p->md, le, k);
            }
            k = 0;
        }
    }
    if (p->out != NULL) {
        /* the raw output keeps every NaN payload: it is the decoder's exact output */
        uint8_t raw[4096];
        for (size_t i = 0; i < n;) {
            size_t m = 0;
            for (; i < n && m + 4 <= sizeof raw; i++, m += 4) {
                uint32_t bits;
                memcpy(&bits, &v[i], 4);
                raw[m] = (uint8_t)bits;
                raw[m + 1] = (uint8_t)(bits >> 8);
                raw[m + 2] = (uint8_t)(bits >> 16);
                raw[m + 3] = (uint8_t)(bits >> 24);
            }
            if (fwrite(raw, 1, m, p->out) != m) {
                p->write_errno = errno != 0 ? errno : EIO;
                return GS_E_IO;
            }
        }
    }
    return GS_OK;
}

static void hex(const unsigned char *md, char out[65])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = digits[md[i] >> 4];
        out[2 * i + 1] = digits[md[i] & 15];
    }
    out[64] = '\0';
}

typedef struct run_state {
    const dequant_args *a;
    FILE *out;
    cli_json json;
    bool split; /* a split set: a failed read names the part's file */
} run_state;

/* Prints why decoding tensor t of part `part` failed and returns the exit code: a read that
 * failed names the file first. */
static int decode_failure(const run_state *rs, gs_status st, const gs_tensor_info *t,
                          size_t part)
{
    if (st == GS_E_KERNEL_UNAVAILABLE && cli_kernel_unavailable() >= 0) {
        return CLI_EXIT_USAGE;
    }
    if (st == GS_E_NO_MEMORY) {
        return cli_print_out_of_memory();
    }
    gs_error err = {.status = st, .offset = t->data_offset, .context_kind = GS_CONTEXT_TENSOR};
    gsi_escape_text(err.context, sizeof err.context, (const uint8_t *)t->name.ptr, t->name.len);
    if (st != GS_E_IO && st != GS_E_FILE_CHANGED) {
        cli_print_error(&err);
        return CLI_EXIT_INVALID;
    }
    const char *path = rs->a->path;
    char *part_path = NULL;
    if (rs->split) {
        size_t cap = strlen(path) + 1;
        part_path = cli_xmalloc(cap);
        cli_source_part_path(part_path, cap, path, part);
    }
    int code = cli_print_read_error(&err, part_path != NULL ? part_path : path, NULL);
    free(part_path);
    return code;
}

static int one_tensor(run_state *rs, const gs_file *f, size_t part, size_t i)
{
    gs_tensor_info t;
    gs_tensor_info_at(f, i, &t);
    gs_type_info ti;
    gs_type_get_info(t.type, &ti);
    const dequant_args *a = rs->a;
    tensor_pass p = {0};
    p.out = rs->out;
    if (ti.decodable) {
        p.md = EVP_MD_CTX_new();
        if (p.md == NULL || EVP_DigestInit_ex(p.md, EVP_sha256(), NULL) != 1) {
            fprintf(stderr, "error: libcrypto could not start SHA-256\n");
            EVP_MD_CTX_free(p.md);
            return CLI_EXIT_USAGE;
        }
        gs_status st = cli_decode_chunks(f, i, consume, &p);
        if (st != GS_OK) {
            EVP_MD_CTX_free(p.md);
            if (p.write_errno != 0) {
                return cli_path_error("write", a->out_path, NULL, strerror(p.write_errno));
            }
            return decode_failure(rs, st, &t, part);
        }
    }
    char digest[65] = "-";
    if (p.md != NULL) {
        unsigned char md[32];
        unsigned len = 0;
        EVP_DigestFinal_ex(p.md, md, &len);
        EVP_MD_CTX_free(p.md);
        hex(md, digest);
    }
    cli_text name;
    cli_text_escape(&name, t.name.ptr, t.name.len, SIZE_MAX);
    if (a->json) {
        cli_json *j = &rs->json;
        cli_json_begin_object(j);
        cli_json_key(j, "name");
        cli_json_string(j, t.name.ptr, t.name.len);
        cli_json_key_cstring(j, "type", ti.name);
        cli_json_key_u64(j, "n_elements", t.n_elements);
        cli_json_key_bool(j, "decodable", ti.decodable);
        cli_json_key(j, "sha256");
        if (ti.decodable) {
            cli_json_cstring(j, digest);
        } else {
            cli_json_null(j);
        }
        if (ti.decodable) {
            cli_json_key(j, "min");
            p.finite ? cli_json_f32(j, p.min) : cli_json_null(j);
            cli_json_key(j, "max");
            p.finite ? cli_json_f32(j, p.max) : cli_json_null(j);
            cli_json_key(j, "mean");
            p.finite ? cli_json_f64(j, p.sum / (double)p.finite) : cli_json_null(j);
            cli_json_key_u64(j, "nan_count", p.nan);
            cli_json_key_u64(j, "inf_count", p.inf);
        }
        cli_json_end_object(j);
    } else if (a->sha256) {
        printf("%s  %s  %s\n", digest, name.s, ti.name);
    } else if (a->out_path == NULL) {
        if (!ti.decodable) {
            printf("%-40s %-8s %12llu  (no f32 form)\n", name.s, ti.name,
                   (unsigned long long)t.n_elements);
        } else if (p.finite == 0) {
            printf("%-40s %-8s %12llu  no finite values, %llu NaN, %llu Inf\n", name.s, ti.name,
                   (unsigned long long)t.n_elements, (unsigned long long)p.nan,
                   (unsigned long long)p.inf);
        } else {
            printf("%-40s %-8s %12llu  min %-13.6g max %-13.6g mean %-13.6g NaN %llu Inf %llu\n",
                   name.s, ti.name, (unsigned long long)t.n_elements, (double)p.min,
                   (double)p.max, p.sum / (double)p.finite, (unsigned long long)p.nan,
                   (unsigned long long)p.inf);
        }
    }
    return -1;
}

/* Whether the filter keeps tensor i of f. */
static bool selected(const cli_name_filter *filter, const gs_file *f, size_t i)
{
    gs_tensor_info t;
    bool keep = false;
    if (gs_tensor_info_at(f, i, &t) == GS_OK && cli_filter_keeps(filter, t.name, &keep) != GS_OK) {
        exit(cli_print_out_of_memory());
    }
    return keep;
}

static void json_begin(run_state *rs, cli_out *out, const gs_options *opts)
{
    cli_stdout_out(out);
    cli_json_init(&rs->json, out);
    cli_json_begin_object(&rs->json);
    cli_json_report_header(&rs->json, "dequant", opts);
    bool usable;
    cli_json_key_cstring(&rs->json, "kernel", gs_kernel_name(gs_active_kernel(&usable)));
    cli_json_key(&rs->json, "tensors");
    cli_json_begin_array(&rs->json);
}

static int run(void *args)
{
    const dequant_args *a = args;
    if (a->out_path != NULL && strcmp(a->out_path, "-") == 0 && (a->sha256 || a->json)) {
        return cli_usage_error("dequant", "--out - and --%s would both write to standard output",
                               a->sha256 ? "sha256" : "json");
    }
    gs_options opts;
    cli_options((gs_profile)a->profile, &opts);
    cli_outfile of = {0};
    if (a->out_path != NULL) {
        int code = cli_outfile_open(&of, a->out_path, &a->base);
        if (code >= 0) {
            return code;
        }
    }
    cli_source src;
    gs_error err;
    if (cli_source_open(&src, a->path, a->part_only, &opts, NULL, &err) != GS_OK) {
        cli_outfile_abort(&of);
        int code = cli_print_open_failure(&err, a->path, NULL);
        cli_open_notes(a->path, &err, &opts, NULL);
        return code;
    }
    const cli_name_filter filter = {a->tensors.items, a->tensors.n, a->excludes.items,
                                    a->excludes.n};
    /* patterns that leave nothing are refused before anything is printed */
    size_t selected_count = 0;
    for (size_t part = 0; part < cli_source_parts(&src); part++) {
        const gs_file *f = cli_source_part(&src, part);
        for (size_t i = 0; i < gs_tensor_count(f); i++) {
            selected_count += selected(&filter, f, i);
        }
    }
    if (selected_count == 0 && cli_filter_active(&filter)) {
        cli_source_close(&src);
        cli_outfile_abort(&of);
        return cli_no_tensor_left("dequant", "", &a->tensors, a->excludes.n);
    }
    run_state rs = {.a = a, .out = of.f, .split = src.split != NULL};
    cli_out json_out;
    if (a->json) {
        json_begin(&rs, &json_out, &opts);
    } else if (!a->sha256 && a->out_path == NULL) {
        bool usable;
        printf("decoder path: %s\n", gs_kernel_name(gs_active_kernel(&usable)));
    }
    int code = -1;
    for (size_t part = 0; part < cli_source_parts(&src) && code < 0; part++) {
        const gs_file *f = cli_source_part(&src, part);
        for (size_t i = 0; i < gs_tensor_count(f) && code < 0; i++) {
            if (selected(&filter, f, i)) {
                code = one_tensor(&rs, f, part, i);
            }
        }
    }
    if (a->json) {
        if (code < 0) {
            cli_json_end_array(&rs.json);
            cli_json_end_object(&rs.json);
            cli_json_finish(&rs.json);
        }
        (void)cli_out_finish(&json_out, NULL); /* a failed write: cli_finish_output says so */
    }
    cli_source_close(&src);
    if (code >= 0) {
        cli_outfile_abort(&of);
        return code;
    }
    code = cli_outfile_commit(&of, CLI_EXIT_OK);
    return code == CLI_EXIT_OK ? cli_finish_output(code) : code;
}

const cli_command cmd_dequant = {
    .name = "dequant",
    .summary = "decode tensors to f32 (bit-exact with ggml), with SHA-256 per tensor or raw output",
    .description =
        "Decodes tensors to f32, bit-exact with ggml's reference dequantizers, on the decoder "
        "path chosen by GGUFSAFE_KERNEL (scalar, avx2, neon; default: the best this CPU has). "
        "By default it prints, per tensor: type, elements, min, max, mean, NaN and Inf counts.",
    .exit_status = "0 done, 1 the file is invalid or not a GGUF file, or a tensor could not be read, 2 "
                   "usage, I/O or environment error, no tensor left by the patterns, or the decoder "
                   "path is unavailable",
    .operands = CLI_TABLE(operands),
    .options = CLI_TABLE(options),
    .args_size = sizeof(dequant_args),
    .run = run,
    .decodes = true,
};
