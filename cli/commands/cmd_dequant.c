/* ggufsafe dequant FILE [--tensor GLOB]... [--exclude GLOB]... [--sha256] [-o FILE.f32] [--json]
 *                       [-j N] [--profile strict|lenient] [--part-only] [-q]
 *
 * Decodes tensors to f32 with the active decoder path (GGUFSAFE_KERNEL=scalar|avx2|neon), in
 * bounded chunks, N tensors at a time on the shared work pool; what it prints is collected per
 * tensor and printed in file order, and --out is written at each tensor's own offset, so the
 * output is the same for every N:
 *   --sha256   one line per tensor in file order: "<sha256>  <name>  <type>", the hash of the
 *              little-endian f32 output with every NaN made 0x7FC00000 ("-" for integer and f64
 *              tensors, which have no f32 form)
 *   --out F    the raw little-endian f32 values (of the selected tensors, every decodable one by
 *              default, in file order, concatenated)
 *   default    per-tensor statistics: min, max, mean, NaN and Inf counts */
#define _XOPEN_SOURCE 700 /* pwrite */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_types.h"
#include "cli_outfile.h"
#include "cli_source.h"
#include "commands.h"
#include "fd_io.h"
#include "name_filter.h"
#include "open_notes.h"
#include "progress.h"
#include "sha256.h"
#include "text_escape.h"
#include "text_out.h"
#include "work_pool.h"

typedef struct dequant_args {
    cli_args base;
    const char *path;
    cli_list tensors, excludes;
    const char *out_path;
    bool sha256, json, part_only, quiet;
    int profile;
    uint64_t jobs;
    cli_decoder_args decoders; /* --type, --plugin, --ggml */
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
    CLI_OPT_JOBS(dequant_args, jobs,
                 "decode N tensors at a time (1..256, default: all cores); the same output for "
                 "any N (--out - writes in order from one thread)"),
    CLI_OPT_PROFILE(dequant_args, profile, "strict (default) or lenient"),
    CLI_OPT_PART_ONLY(dequant_args, part_only, "decode that part alone"),
    CLI_OPT_QUIET(dequant_args, quiet),
    CLI_OPT_DECODERS(dequant_args, decoders),
};

static void init(void *p)
{
    dequant_args *a = p;
    a->jobs = work_pool_cpus();
}

/* NaN and Inf counts, and the count, min, max and sum (in order) of the finite values. */
typedef struct value_stats {
    uint64_t nan, inf, finite;
    float min, max;
    double sum;
} value_stats;

/* What one pass over a tensor's values accumulates. */
typedef struct tensor_pass {
    cli_sha256 *md; /* NULL: no digest is shown (statistics, --out alone) */
    FILE *out;        /* written in order (one thread), or */
    int fd;           /* >= 0: written at offset (any thread) */
    uint64_t offset;
    value_stats st;
    int write_errno; /* the output file's write failed */
    bool digest_failed;
    bool stats; /* min, max, mean and counts are shown (statistics, --json) */
} tensor_pass;

static bool write_out(tensor_pass *p, const uint8_t *b, size_t n)
{
    if (p->fd < 0) {
        return fwrite(b, 1, n, p->out) == n;
    }
    gsi_fd_io io = {p->fd, GSI_FD_PWRITE, p->offset, NULL, NULL};
    const gsi_fd_result r = gsi_fd_all(&io, b, NULL, n);
    p->offset = io.offset;
    return r == GSI_FD_OK;
}

/* The f32 bits as they are written: little-endian. */
static uint32_t to_le32(uint32_t bits)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return __builtin_bswap32(bits);
#else
    return bits;
#endif
}

/* A NaN's bits, of any sign and payload: what the digest hashes as 0x7FC00000. Branch-free, so
 * that the canonical copy's loop vectorizes. */
static bool nan_bits(uint32_t bits)
{
    return (bits & 0x7FFFFFFFu) > 0x7F800000u;
}

/* NaN is the one value unequal to itself; or-ed, not branched on, so that the loop vectorizes. */
static inline __attribute__((always_inline)) bool any_nan_loop(const float *v, size_t n)
{
    int seen = 0;
    for (size_t i = 0; i < n; i++) {
        seen |= v[i] != v[i];
    }
    return seen != 0;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The same loop eight lanes wide where the CPU has AVX2: 2 GiB of f32 checked in 36 ms instead
 * of 58 with SSE2 (a chunk is checked while it is in the L2 cache, before it is hashed). */
__attribute__((target("avx2"))) static bool any_nan_avx2(const float *v, size_t n)
{
    return any_nan_loop(v, n);
}

static bool any_nan(const float *v, size_t n)
{
    return __builtin_cpu_supports("avx2") ? any_nan_avx2(v, n) : any_nan_loop(v, n);
}
#else
static bool any_nan(const float *v, size_t n)
{
    return any_nan_loop(v, n);
}
#endif

/* The digest's input: every value little-endian, every NaN the canonical 0x7FC00000. A loop of
 * its own: interleaved with the statistics it cost more than SHA-256 itself. */
static void digest_values(tensor_pass *p, const float *v, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* A chunk without a NaN is its own digest input, hashed where it lies (a NaN-free model is
     * the common case: the copy below was a third of what dequant --sha256 spent beside
     * SHA-256). */
    if (!any_nan(v, n)) {
        if (!cli_sha256_update(p->md, v, n * 4)) {
            p->digest_failed = true;
        }
        return;
    }
#endif
    uint32_t le[1024];
    for (size_t i = 0; i < n;) {
        size_t m = n - i < 1024 ? n - i : 1024;
        for (size_t j = 0; j < m; j++) {
            uint32_t bits;
            memcpy(&bits, &v[i + j], 4);
            bits = nan_bits(bits) ? 0x7FC00000u : bits;
            le[j] = to_le32(bits);
        }
        if (!cli_sha256_update(p->md, le, m * 4)) {
            p->digest_failed = true;
        }
        i += m;
    }
}

/* min, max, the sum (in order: the mean is the same whatever the chunking) and the counts. */
static void value_statistics(value_stats *s, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i])) {
            s->nan++;
        } else if (isinf(v[i])) {
            s->inf++;
        } else {
            if (s->finite == 0 || v[i] < s->min) {
                s->min = v[i];
            }
            if (s->finite == 0 || v[i] > s->max) {
                s->max = v[i];
            }
            s->sum += (double)v[i];
            s->finite++;
        }
    }
}

static gs_status consume(void *ctx, const float *v, size_t n)
{
    tensor_pass *p = ctx;
    if (p->md != NULL) {
        digest_values(p, v, n);
    }
    if (p->stats) {
        value_statistics(&p->st, v, n);
    }
    if (p->out != NULL || p->fd >= 0) {
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
            if (!write_out(p, raw, m)) {
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

/* One selected tensor: where it is, where its values go in --out, and what decoding found. */
typedef struct tensor_job {
    const gs_file *f;
    size_t part, index;
    uint64_t out_offset;  /* of its values in --out */
    gs_status status;     /* GS_OK, or why decoding (or writing) failed */
    int write_errno;      /* --out's write failed */
    bool no_digest;       /* libcrypto could not compute SHA-256 (or is absent) */
    char digest[65];      /* "-" without an f32 form */
    value_stats st;
} tensor_job;

typedef struct run_state {
    const dequant_args *a;
    FILE *out;  /* --out written in order, from one thread */
    int out_fd; /* >= 0: --out written at each tensor's offset, from any thread */
    cli_json json;
    bool split; /* a split set: a failed read names the part's file */
    tensor_job *jobs;
    size_t n_jobs;
    pthread_mutex_t mu;
    size_t failed;        /* the lowest failed job so far (under mu); later ones are skipped */
    uint64_t done, total; /* elements decoded, for the progress bar (under mu) */
    progress *bar;
} run_state;

/* Prints why decoding tensor t of part `part` failed and returns the exit code: a read that
 * failed names the file first. */
static int decode_failure(const run_state *rs, gs_status st, const gs_tensor_info *t,
                          size_t part)
{
    if (st == GS_E_KERNEL_UNAVAILABLE && cli_kernel_unavailable() >= 0) {
        return CLI_EXIT_USAGE;
    }
    if (st == GS_E_KERNEL_UNAVAILABLE) {
        const int code = cli_kernel_tensor_unavailable(t->name.ptr, t->name.len, (int32_t)t->type);
        if (code >= 0) {
            return code;
        }
    }
    if (st == GS_E_NO_MEMORY) {
        return cli_print_out_of_memory();
    }
    if (st == GS_E_DECODER_FAILED) {
        cli_text name;
        cli_text_escape(&name, t->name.ptr, t->name.len, 200);
        char what[sizeof name.s + 16];
        snprintf(what, sizeof what, "tensor '%s'", name.s);
        return cli_types_decoder_failure(what); /* the plugin's failure, exit 2 */
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

static void decode_job(void *ctx, size_t item, unsigned worker)
{
    (void)worker;
    run_state *rs = ctx;
    tensor_job *job = &rs->jobs[item];
    pthread_mutex_lock(&rs->mu);
    bool skip = item > rs->failed;
    pthread_mutex_unlock(&rs->mu);
    strcpy(job->digest, "-");
    gs_tensor_info t;
    gs_type_info ti;
    if (skip || gs_tensor_info_at(job->f, job->index, &t) != GS_OK ||
        gs_file_type_info(job->f, t.type, &ti) != GS_OK || !ti.decodable) {
        return;
    }
    tensor_pass p = {0};
    p.out = rs->out;
    p.fd = rs->out_fd;
    p.offset = job->out_offset;
    /* the digest costs more than decoding: only where it is printed */
    bool digest = rs->a->sha256 || rs->a->json;
    p.md = digest ? cli_sha256_new() : NULL;
    p.stats = rs->a->json || (!rs->a->sha256 && rs->a->out_path == NULL);
    if (digest && p.md == NULL) {
        job->no_digest = true;
        job->status = GS_E_NO_MEMORY;
    } else {
        job->status = cli_decode_chunks(job->f, job->index, consume, &p);
    }
    if (job->status == GS_OK && digest) {
        uint8_t md[CLI_SHA256_BYTES];
        if (p.digest_failed || !cli_sha256_final(p.md, md)) {
            job->no_digest = true;
        } else {
            hex(md, job->digest);
        }
    }
    cli_sha256_free(p.md);
    job->write_errno = p.write_errno;
    job->st = p.st;
    pthread_mutex_lock(&rs->mu);
    if (job->status != GS_OK && item < rs->failed) {
        rs->failed = item;
    }
    rs->done += t.n_elements;
    progress_update(rs->bar, rs->done, rs->total);
    pthread_mutex_unlock(&rs->mu);
}

/* Prints one decoded tensor (or why it failed: the exit code, else -1). */
static int print_job(run_state *rs, const tensor_job *job)
{
    gs_tensor_info t;
    gs_tensor_info_at(job->f, job->index, &t);
    gs_type_info ti;
    gs_file_type_info(job->f, t.type, &ti);
    const dequant_args *a = rs->a;
    if (job->no_digest) {
        const char *why = cli_sha256_problem();
        fprintf(stderr, "error: %s\n", why != NULL ? why : "libcrypto could not compute SHA-256");
        return CLI_EXIT_USAGE;
    }
    if (job->status != GS_OK) {
        if (job->write_errno != 0) {
            return cli_path_error("write", a->out_path, NULL, strerror(job->write_errno));
        }
        return decode_failure(rs, job->status, &t, job->part);
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
            cli_json_cstring(j, job->digest);
        } else {
            cli_json_null(j);
        }
        if (ti.decodable) {
            cli_json_key(j, "min");
            job->st.finite ? cli_json_f32(j, job->st.min) : cli_json_null(j);
            cli_json_key(j, "max");
            job->st.finite ? cli_json_f32(j, job->st.max) : cli_json_null(j);
            cli_json_key(j, "mean");
            job->st.finite ? cli_json_f64(j, job->st.sum / (double)job->st.finite)
                           : cli_json_null(j);
            cli_json_key_u64(j, "nan_count", job->st.nan);
            cli_json_key_u64(j, "inf_count", job->st.inf);
        }
        cli_json_end_object(j);
    } else if (a->sha256) {
        printf("%s  %s  %s\n", job->digest, name.s, ti.name);
    } else if (a->out_path == NULL) {
        if (!ti.decodable) {
            printf("%-40s %-8s %12llu  (no f32 form)\n", name.s, ti.name,
                   (unsigned long long)t.n_elements);
        } else if (job->st.finite == 0) {
            printf("%-40s %-8s %12llu  no finite values, %llu NaN, %llu Inf\n", name.s, ti.name,
                   (unsigned long long)t.n_elements, (unsigned long long)job->st.nan,
                   (unsigned long long)job->st.inf);
        } else {
            printf("%-40s %-8s %12llu  min %-13.6g max %-13.6g mean %-13.6g NaN %llu Inf %llu\n",
                   name.s, ti.name, (unsigned long long)t.n_elements, (double)job->st.min,
                   (double)job->st.max, job->st.sum / (double)job->st.finite,
                   (unsigned long long)job->st.nan, (unsigned long long)job->st.inf);
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

/* The selected tensors in file order, each with its offset in --out; NULL on no memory. */
static tensor_job *select_jobs(const cli_source *src, const cli_name_filter *filter, size_t *n,
                               size_t *decodable, uint64_t *elements)
{
    size_t count = 0;
    for (size_t part = 0; part < cli_source_parts(src); part++) {
        const gs_file *f = cli_source_part(src, part);
        for (size_t i = 0; i < gs_tensor_count(f); i++) {
            count += selected(filter, f, i);
        }
    }
    tensor_job *jobs = calloc(count > 0 ? count : 1, sizeof *jobs); /* calloc checks the product */
    if (jobs == NULL) {
        return NULL;
    }
    size_t k = 0;
    uint64_t offset = 0;
    *decodable = 0;
    *elements = 0;
    for (size_t part = 0; part < cli_source_parts(src); part++) {
        const gs_file *f = cli_source_part(src, part);
        for (size_t i = 0; i < gs_tensor_count(f); i++) {
            if (!selected(filter, f, i)) {
                continue;
            }
            gs_tensor_info t;
            gs_type_info ti;
            gs_tensor_info_at(f, i, &t);
            gs_file_type_info(f, t.type, &ti);
            memset(&jobs[k], 0, sizeof jobs[k]);
            jobs[k] = (tensor_job){.f = f, .part = part, .index = i, .out_offset = offset};
            if (ti.decodable) {
                (*decodable)++;
                *elements += t.n_elements;
                offset += t.n_elements * 4; /* n_elements * 4 fits: the file holds the data */
            }
            k++;
        }
    }
    *n = k;
    return jobs;
}

/* --out or --tensor chose tensors of which none has an f32 form: a usage error naming them. */
static int nothing_to_decode(const run_state *rs)
{
    const dequant_args *a = rs->a;
    char list[256] = "";
    size_t len = 0;
    for (size_t k = 0; k < rs->n_jobs && len + 80 < sizeof list; k++) {
        gs_tensor_info t;
        gs_tensor_info_at(rs->jobs[k].f, rs->jobs[k].index, &t);
        cli_text name;
        cli_text_escape(&name, t.name.ptr, t.name.len, 48);
        int w = snprintf(list + len, sizeof list - len, "%s%s %s", k ? ", " : "", name.s,
                         gs_file_type_name(rs->jobs[k].f, t.type));
        len += w > 0 ? (size_t)w : 0;
    }
    if (rs->n_jobs > 0 && len + 80 >= sizeof list) {
        snprintf(list + len, sizeof list - len, ", ...");
    }
    return cli_usage_error("dequant",
                           "%s selects only tensors without an f32 form (%s): nothing to %s; "
                           "--sha256 lists them with '-'",
                           a->out_path != NULL ? "--out" : "--tensor", list,
                           a->out_path != NULL ? "write" : "decode");
}

static int run(void *args)
{
    const dequant_args *a = args;
    int types_code = CLI_TYPES_LOAD_ALL("dequant", &a->decoders);
    if (types_code >= 0) {
        return types_code;
    }
    if (a->out_path != NULL && strcmp(a->out_path, "-") == 0 && (a->sha256 || a->json)) {
        return cli_usage_error("dequant", "--out - and --%s would both write to standard output",
                               a->sha256 ? "sha256" : "json");
    }
    if (a->sha256 || a->json) {
        int need = cli_need_sha256("dequant");
        if (need >= 0) {
            return need;
        }
    }
    gs_options opts;
    cli_options((gs_profile)a->profile, &opts);
    cli_source src;
    gs_error err;
    if (cli_source_open(&src, a->path, a->part_only, &opts, NULL, &err) != GS_OK) {
        int code = cli_print_open_failure(&err, a->path, NULL);
        cli_open_notes(a->path, &err, &opts, NULL);
        return code;
    }
    const cli_name_filter filter = {a->tensors.items, a->tensors.n, a->excludes.items,
                                    a->excludes.n};
    run_state rs = {.a = a, .out_fd = -1, .split = src.split != NULL};
    size_t decodable;
    rs.jobs = select_jobs(&src, &filter, &rs.n_jobs, &decodable, &rs.total);
    if (rs.jobs == NULL) {
        cli_source_close(&src);
        return cli_print_out_of_memory();
    }
    int code = -1;
    /* patterns that leave nothing, or nothing decodable to write, are refused before anything
     * is printed or created */
    if (rs.n_jobs == 0 && cli_filter_active(&filter)) {
        code = cli_no_tensor_left("dequant", "", &a->tensors, a->excludes.n);
    } else if (rs.n_jobs > 0 && decodable == 0 && !a->sha256 && !a->json &&
               (a->out_path != NULL || a->tensors.n > 0)) {
        code = nothing_to_decode(&rs);
    }
    cli_outfile of = {0};
    if (code < 0 && a->out_path != NULL) {
        code = cli_outfile_open(&of, a->out_path, &a->base);
    }
    if (code >= 0) {
        free(rs.jobs);
        cli_source_close(&src);
        return code;
    }
    unsigned jobs = (unsigned)a->jobs;
    if (of.f != NULL && of.tmp != NULL) {
        fflush(of.f);
        rs.out_fd = fileno(of.f); /* a new regular file: each tensor at its own offset */
    } else if (of.f != NULL) {
        rs.out = of.f; /* standard output, a device or a FIFO: in order, one thread */
        jobs = 1;
    }
    progress bar;
    progress_init(&bar, "dequant", a->quiet);
    bar.elements = true;
    rs.bar = &bar;
    rs.failed = rs.n_jobs;
    pthread_mutex_init(&rs.mu, NULL);
    work_pool_run(jobs, rs.n_jobs, decode_job, &rs);
    pthread_mutex_destroy(&rs.mu);
    progress_done(&bar);
    cli_out json_out;
    if (a->json) {
        json_begin(&rs, &json_out, &opts);
    } else if (!a->sha256 && a->out_path == NULL) {
        bool usable;
        printf("decoder path: %s\n", gs_kernel_name(gs_active_kernel(&usable)));
    }
    for (size_t k = 0; k < rs.n_jobs && code < 0; k++) {
        code = print_job(&rs, &rs.jobs[k]);
    }
    if (a->json) {
        if (code < 0) {
            cli_json_end_array(&rs.json);
            cli_json_end_object(&rs.json);
            cli_json_finish(&rs.json);
        }
        (void)cli_out_finish(&json_out, NULL); /* a failed write: cli_finish_output says so */
    }
    free(rs.jobs);
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
        "By default it prints, per tensor: type, elements, min, max, mean, NaN and Inf counts. "
        "--out or --tensor choosing only tensors without an f32 form (i8..i64, f64) is a usage "
        "error; --sha256 and --json list them (the digest '-' or null). A progress bar is drawn "
        "on a terminal, never with -q.",
    .exit_status = "0 done, 1 the file is invalid or not a GGUF file, or a tensor could not be "
                   "read, 2 usage, I/O or environment error, no tensor left by the patterns, or "
                   "the decoder path is unavailable",
    CLI_COMMAND_PARTS(dequant_args, init, run),
    .decodes = true,
};
