/* ggufsafe dequant FILE [--tensor NAME] [--sha256] [--out FILE.f32] [--json]
 *                       [--profile strict|lenient] [--part-only]
 *
 * Decodes tensors to f32 with the active decoder path (GGUFSAFE_KERNEL=scalar|avx2|neon), in
 * bounded chunks:
 *   --sha256   one line per tensor in file order: "<sha256>  <name>  <type>", the hash of the
 *              little-endian f32 output with every NaN made 0x7FC00000 ("-" for integer and f64
 *              tensors, which have no f32 form)
 *   --out F    the raw little-endian f32 values (of --tensor, or of every decodable tensor in
 *              file order, concatenated)
 *   default    per-tensor statistics: min, max, mean, NaN and Inf counts */
#include <math.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_source.h"
#include "commands.h"
#include "open_notes.h"
#include "text_out.h"

static const char usage[] =
    "usage: ggufsafe dequant FILE [--tensor NAME] [--sha256] [--out FILE.f32] [--json]\n"
    "                             [--profile strict|lenient] [--part-only]\n"
    "\n"
    "Decodes tensors to f32, bit-exact with ggml's reference dequantizers, on the decoder path\n"
    "chosen by GGUFSAFE_KERNEL (scalar, avx2, neon; default: the best this CPU has).\n"
    "\n"
    "  --tensor NAME   only this tensor (default: every tensor)\n"
    "  --sha256        per tensor: <sha256 of the f32 output, NaNs as 0x7FC00000>  <name>  <type>\n"
    "                  ('-' for integer and f64 tensors)\n"
    "  --out FILE      write the little-endian f32 values there (every decodable tensor in file\n"
    "                  order, concatenated, unless --tensor)\n"
    "  --json          statistics and hashes as JSON (conformance/schema/dequant.schema.json)\n"
    "  default         per tensor: type, elements, min, max, mean, NaN and Inf counts\n"
    "\n"
    "exit status: 0 done, 1 the file is invalid or a tensor could not be read, 2 usage or I/O\n"
    "error, not a GGUF file, or the decoder path is unavailable\n";

typedef struct dequant_args {
    cli_common common;
    const char *path;
    const char *tensor;
    const char *out_path;
    bool sha256;
    bool part_only;
} dequant_args;

static int parse_args(int argc, char **argv, dequant_args *a)
{
    cli_common_init(&a->common);
    memset(&a->path, 0, sizeof *a - offsetof(dequant_args, path));
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (options_done || !cli_is_option(arg)) {
            if (a->path != NULL) {
                return cli_usage_error_arg("dequant", "one FILE only; unexpected argument", arg);
            }
            a->path = arg;
            continue;
        }
        cli_match m = cli_match_common(&a->common, "dequant", argc, argv, &i);
        if (m == CLI_MATCH_NO) {
            m = cli_match_value("dequant", "--tensor", argc, argv, &i, &a->tensor);
        }
        if (m == CLI_MATCH_NO) {
            m = cli_match_value("dequant", "--out", argc, argv, &i, &a->out_path);
        }
        if (m == CLI_MATCH_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (m == CLI_MATCH_YES) {
            continue;
        }
        if (strcmp(arg, "--sha256") == 0) {
            a->sha256 = true;
        } else {
            const int code = cli_match_final("dequant", usage, arg, &a->part_only, &options_done);
            if (code >= 0) {
                return code;
            }
        }
    }
    if (a->path == NULL) {
        return cli_usage_error("dequant", "FILE missing");
    }
    if (a->sha256 && a->common.json) {
        return cli_usage_error("dequant", "--sha256 and --json are exclusive (the JSON has hashes)");
    }
    return -1;
}

/* What one pass over a tensor's values accumulates. */
typedef struct tensor_pass {
    EVP_MD_CTX *md;
    FILE *out;
    uint64_t nan, inf;
    float min, max;
    double sum;
    uint64_t finite;
    bool write_failed;
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
                p->write_failed = true;
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

/* Prints why decoding failed and returns the exit code. */
static int decode_failure(gs_status st, const gs_tensor_info *t)
{
    cli_text name;
    cli_text_escape(&name, t->name.ptr, t->name.len, 256);
    if (st == GS_E_KERNEL_UNAVAILABLE && cli_kernel_unavailable() >= 0) {
        return CLI_EXIT_USAGE;
    }
    fprintf(stderr, "error: %s at byte %llu (%s): %s\n", gs_status_name(st),
            (unsigned long long)t->data_offset, name.s, gs_status_message(st));
    return st == GS_E_IO || st == GS_E_NO_MEMORY ? CLI_EXIT_USAGE : CLI_EXIT_INVALID;
}

typedef struct run_state {
    const dequant_args *a;
    FILE *out;
    cli_json json;
    size_t matched;
} run_state;

static int one_tensor(run_state *rs, const gs_file *f, size_t i)
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
            if (p.write_failed) {
                fprintf(stderr, "error: cannot write %s\n", a->out_path);
                return CLI_EXIT_USAGE;
            }
            return decode_failure(st, &t);
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
    if (a->common.json) {
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

static int run(int argc, char **argv)
{
    dequant_args a;
    int code = parse_args(argc, argv, &a);
    if (code >= 0) {
        return code;
    }
    gs_options opts;
    cli_options(&a.common, &opts);
    cli_source src;
    gs_error err;
    if (cli_source_open(&src, a.path, a.part_only, &opts, NULL, &err) != GS_OK) {
        cli_print_error(&err);
        cli_open_notes(a.path, &err, &opts, NULL);
        return cli_exit_for_status(err.status);
    }
    run_state rs = {.a = &a};
    cli_out json_out;
    if (a.out_path != NULL) {
        rs.out = fopen(a.out_path, "wb");
        if (rs.out == NULL) {
            cli_source_close(&src);
            return cli_usage_error_arg("dequant", "cannot create", a.out_path);
        }
    }
    if (a.common.json) {
        cli_stdout_out(&json_out);
        cli_json_init(&rs.json, &json_out);
        cli_json_begin_object(&rs.json);
        cli_json_report_header(&rs.json, "dequant", &opts);
        bool usable;
        cli_json_key_cstring(&rs.json, "kernel", gs_kernel_name(gs_active_kernel(&usable)));
        cli_json_key(&rs.json, "tensors");
        cli_json_begin_array(&rs.json);
    } else if (!a.sha256 && a.out_path == NULL) {
        bool usable;
        printf("decoder path: %s\n", gs_kernel_name(gs_active_kernel(&usable)));
    }
    code = -1;
    for (size_t part = 0; part < cli_source_parts(&src) && code < 0; part++) {
        const gs_file *f = cli_source_part(&src, part);
        for (size_t i = 0; i < gs_tensor_count(f) && code < 0; i++) {
            if (a.tensor != NULL) {
                gs_tensor_info t;
                gs_tensor_info_at(f, i, &t);
                if (t.name.len != strlen(a.tensor) ||
                    memcmp(t.name.ptr, a.tensor, t.name.len) != 0) {
                    continue;
                }
            }
            rs.matched++;
            code = one_tensor(&rs, f, i);
        }
    }
    if (a.common.json) {
        if (code < 0) {
            cli_json_end_array(&rs.json);
            cli_json_end_object(&rs.json);
            cli_json_finish(&rs.json);
        }
        (void)cli_out_finish(&json_out, NULL); /* a failed write: cli_finish_output says so */
    }
    if (rs.out != NULL && fclose(rs.out) != 0 && code < 0) {
        fprintf(stderr, "error: cannot write %s\n", a.out_path);
        code = CLI_EXIT_USAGE;
    }
    cli_source_close(&src);
    if (code >= 0) {
        return code;
    }
    if (a.tensor != NULL && rs.matched == 0) {
        return cli_usage_error_arg("dequant", "no tensor named", a.tensor);
    }
    return cli_finish_output(CLI_EXIT_OK);
}

const cli_command cmd_dequant = {
    "dequant",
    "decode tensors to f32 (bit-exact with ggml), with SHA-256 per tensor or raw output",
    usage,
    run,
};
