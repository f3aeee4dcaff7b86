/* The report of ggml's view of one GGUF (oracle_report.h). */
#define _POSIX_C_SOURCE 200809L /* pread */
#include "oracle_report.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gsw_model.h"
#include "gsw_sha256.h"

/* Where tensor data is read from: a file by descriptor, or a buffer. */
typedef struct source {
    int fd;
    const uint8_t *data;
    uint64_t size;
} source;

static void put_hex(FILE *out, const char *s)
{
    if (s[0] == '\0') {
        fputc('-', out); /* an empty key or name still takes a field */
    }
    for (; *s != '\0'; s++) {
        fprintf(out, "%02x", (unsigned char)*s);
    }
}

static void sha_string(gsw_sha256 *s, const char *str)
{
    const uint64_t len = strlen(str);
    uint8_t le[8];
    for (int i = 0; i < 8; i++) {
        le[i] = (uint8_t)(len >> (8 * i));
    }
    gsw_sha256_bytes(s, le, sizeof le);
    gsw_sha256_bytes(s, str, (size_t)len);
}

static void report_kv(const gsx_ggml *g, const struct gguf_context *ctx, int64_t i, FILE *out)
{
    const int type = g->gguf_get_kv_type(ctx, i);
    const bool is_array = type == GSX_GGUF_ARRAY;
    const int elem = is_array ? g->gguf_get_arr_type(ctx, i) : type;
    const size_t n = is_array ? g->gguf_get_arr_n(ctx, i) : 1;
    gsw_sha256 *s = gsw_sha256_new();
    if (s == NULL) {
        return;
    }
    if (elem == GSX_GGUF_STRING) {
        for (size_t k = 0; k < n; k++) {
            sha_string(s, is_array ? g->gguf_get_arr_str(ctx, i, k) : g->gguf_get_val_str(ctx, i));
        }
    } else if (n > 0) {
        gsw_sha256_bytes(s, is_array ? g->gguf_get_arr_data(ctx, i) : g->gguf_get_val_data(ctx, i),
                      n * gsw_value_size((uint32_t)elem)); /* ggml's ids are the wire's */
    }
    char hex[65];
    gsw_sha256_finish(s, hex);
    fputs("kv ", out);
    put_hex(out, g->gguf_get_key(ctx, i));
    if (is_array) {
        fprintf(out, " %d %d %zu %s\n", type, elem, n, hex);
    } else {
        fprintf(out, " %d - 1 %s\n", type, hex);
    }
}

/* ggml's decoded output of one tensor's bytes, hashed; writes "-" or "outside" instead when
 * there is nothing to hash. */
static void tensor_hash(const gsx_ggml *g, const source *src, int type, uint64_t at,
                        uint64_t size, char hex[65])
{
    const gsx_type_traits *tr = type >= 0 && type < GSX_GGML_TYPE_COUNT
                                    ? g->lib.ggml_get_type_traits(type) : NULL;
    const gsx_to_float_fn fn = gsx_decoder(g, type);
    if (tr == NULL || tr->type_size == 0 || (fn == NULL && type != 0)) {
        snprintf(hex, 65, "-");
        return;
    }
    if (at > src->size || size > src->size - at) {
        snprintf(hex, 65, "outside");
        return;
    }
    const uint64_t n_blocks = size / tr->type_size;
    const uint64_t n_elems = n_blocks * (uint64_t)tr->blck_size;
    uint8_t *raw = malloc(size > 0 ? (size_t)size : 1);
    float *f = malloc(n_elems > 0 ? (size_t)n_elems * sizeof(float) : 1);
    if (raw == NULL || f == NULL) {
        snprintf(hex, 65, "nomem");
        free(raw);
        free(f);
        return;
    }
    /* A copy in both cases: blocks get malloc's alignment, as ggml's loader gives them. */
    if (src->fd >= 0) {
        size_t done = 0;
        while (done < size) {
            const ssize_t r = pread(src->fd, raw + done, (size_t)size - done,
                                    (off_t)(at + done));
            if (r <= 0) {
                break;
            }
            done += (size_t)r;
        }
        if (done < size) {
            snprintf(hex, 65, "outside");
            free(raw);
            free(f);
            return;
        }
    } else if (size > 0) {
        memcpy(raw, src->data + at, (size_t)size);
    }
    if (type == 0) {
        memcpy(f, raw, (size_t)n_elems * sizeof(float));
    } else if (n_elems > 0) {
        fn(raw, f, (int64_t)n_elems);
    }
    gsw_sha256_floats_hex(f, (size_t)n_elems, hex);
    free(raw);
    free(f);
}

static bool report(const gsx_ggml *g, struct gguf_context *ctx, struct ggml_context *mctx,
                   const source *src, unsigned flags, FILE *out)
{
    if (ctx == NULL) {
        fputs("rejected\nend\n", out);
        fflush(out);
        return false;
    }
    const int64_t n_kv = g->gguf_get_n_kv(ctx);
    const int64_t n_tensors = g->gguf_get_n_tensors(ctx);
    const size_t data_offset = g->gguf_get_data_offset(ctx);
    fprintf(out, "accepted version=%u n_kv=%lld n_tensors=%lld alignment=%zu data_offset=%zu\n",
            g->gguf_get_version(ctx), (long long)n_kv, (long long)n_tensors,
            g->gguf_get_alignment(ctx), data_offset);
    for (int64_t i = 0; (flags & GSX_REPORT_KV) && i < n_kv; i++) {
        report_kv(g, ctx, i, out);
    }
    for (int64_t i = 0; i < n_tensors; i++) {
        const int type = g->gguf_get_tensor_type(ctx, i);
        const int64_t *ne = g->gguf_get_tensor_ne(ctx, i);
        const uint64_t offset = g->gguf_get_tensor_offset(ctx, i);
        const uint64_t size = g->gguf_get_tensor_size(ctx, i);
        char hex[65] = "-";
        if (flags & GSX_REPORT_HASH) {
            /* offsets are relative to the data section; a wrap means "not in the file" */
            const uint64_t at = data_offset + offset;
            tensor_hash(g, src, type, at < offset ? UINT64_MAX : at, size, hex);
        }
        fputs("tensor ", out);
        put_hex(out, g->gguf_get_tensor_name(ctx, i));
        fprintf(out, " %d %lld %lld %lld %lld %llu %llu %s\n", type, (long long)ne[0],
                (long long)ne[1], (long long)ne[2], (long long)ne[3], (unsigned long long)offset,
                (unsigned long long)size, hex);
    }
    fputs("end\n", out);
    fflush(out);
    g->gguf_free(ctx);
    if (mctx != NULL) {
        g->ggml_free(mctx);
    }
    return true;
}

bool gsx_report_file(const gsx_ggml *g, const char *path, unsigned flags, FILE *out)
{
    struct ggml_context *mctx = NULL;
    const gsx_gguf_init_params params = {(flags & GSX_REPORT_LOAD) == 0, &mctx};
    struct gguf_context *ctx = g->gguf_init_from_file(path, params);
    source src = {-1, NULL, 0};
    if (ctx != NULL && (flags & GSX_REPORT_HASH)) {
        struct stat st;
        src.fd = open(path, O_RDONLY);
        if (src.fd >= 0 && fstat(src.fd, &st) == 0) {
            src.size = (uint64_t)st.st_size;
        }
    }
    const bool ok = report(g, ctx, mctx, &src, flags, out);
    if (src.fd >= 0) {
        close(src.fd);
    }
    return ok;
}

bool gsx_report_buffer(const gsx_ggml *g, const uint8_t *data, size_t size, unsigned flags,
                       FILE *out)
{
    struct ggml_context *mctx = NULL;
    const gsx_gguf_init_params params = {(flags & GSX_REPORT_LOAD) == 0, &mctx};
    struct gguf_context *ctx = g->gguf_init_from_buffer(data, size, params);
    const source src = {-1, data, size};
    return report(g, ctx, mctx, &src, flags, out);
}
