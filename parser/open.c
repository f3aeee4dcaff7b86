/* gs_open_file, gs_open_memory, gs_close: sources in, an immutable gs_file out. */
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "parse.h"

static const uint8_t *kv_name_at(const void *ctx, uint32_t i, uint64_t *len)
{
    const gs_file *f = ctx;
    *len = f->kvs[i].key_len;
    return f->base + f->kvs[i].key_off;
}

static const uint8_t *tensor_name_at(const void *ctx, uint32_t i, uint64_t *len)
{
    const gs_file *f = ctx;
    *len = f->tensors[i].name_len;
    return f->base + f->tensors[i].name_off;
}

gsi_name_source gsi_kv_names(const gs_file *f)
{
    return (gsi_name_source){f, kv_name_at};
}

gsi_name_source gsi_tensor_names(const gs_file *f)
{
    return (gsi_name_source){f, tensor_name_at};
}

/* Parses f->base[0..avail) of a file of f->size bytes. Sets *need_more when the parse wanted
 * bytes beyond avail that the file has (the result is then meaningless). */
static gs_status parse_prefix(gs_file *f, uint64_t avail, const gs_options *opts, gs_error *err,
                              bool *need_more)
{
    gsi_parser p = {
        .cur = {f->base, f->size, 0, avail, false},
        .file = f,
        .limits = &opts->limits,
        .strict = opts->profile == GS_PROFILE_STRICT,
        .diagnostic = opts->diagnostic,
        .metadata_only = opts->metadata_only,
        .err = err,
        .alignment = GSI_DEFAULT_ALIGNMENT,
    };
    f->profile = opts->profile;
    gs_status st = gsi_parse_header(&p);
    if (st == GS_OK) {
        st = gsi_parse_kvs(&p);
    }
    if (st == GS_OK) {
        st = gsi_parse_alignment(&p);
    }
    if (st == GS_OK) {
        st = gsi_parse_tensor_infos(&p);
    }
    if (st == GS_OK) {
        st = gsi_check_layout(&p);
    }
    *need_more = p.cur.need_more;
    if (st != GS_OK && p.diagnostic && f->n_findings > 0) {
        /* A failed diagnostic open reports what a normal open would: the first problem. */
        if (err != NULL) {
            *err = f->findings[0];
        }
        st = f->findings[0].status;
    }
    return st;
}

gs_status gsi_parse_file(gs_file *f, const gs_options *opts, gs_error *err)
{
    bool need_more;
    return parse_prefix(f, f->size, opts, err, &need_more);
}

static void free_tables(gs_file *f)
{
    gsi_mem_free(&f->mem, f->kvs, f->cap_kv * sizeof(gsi_kv));
    gsi_mem_free(&f->mem, f->tensors, f->cap_tensors * sizeof(gsi_tensor));
    gsi_mem_free(&f->mem, f->strings, f->cap_strings * sizeof(uint64_t));
    gsi_mem_free(&f->mem, f->findings, f->cap_findings * sizeof(gs_error));
    gsi_index_free(&f->kv_index, &f->mem);
    gsi_index_free(&f->tensor_index, &f->mem);
}

/* Back to the state of a fresh gs_file, for a parse over a longer prefix. */
static void reset_tables(gs_file *f)
{
    free_tables(f);
    f->kvs = NULL;
    f->tensors = NULL;
    f->strings = NULL;
    f->findings = NULL;
    f->n_kv = f->cap_kv = f->n_tensors = f->cap_tensors = 0;
    f->n_strings = f->cap_strings = f->n_findings = f->cap_findings = 0;
    gsi_index_init(&f->kv_index);
    gsi_index_init(&f->tensor_index);
    memset(&f->layout, 0, sizeof f->layout);
}

/* First prefix read by copy_metadata; doubled until the metadata fits (parse work <= 2x). */
#define COPY_FIRST_BYTES 4096u

/* copy_metadata: read a prefix with pread, parse it, and read a longer one while the parse needs
 * bytes beyond it. The file's size is the one it had when it was opened; a file that shrinks
 * meanwhile is reported as truncated where the read came up short. */
static gs_status parse_copied(gs_file *f, const gs_options *opts, gs_error *err)
{
    uint64_t avail = f->size < COPY_FIRST_BYTES ? f->size : COPY_FIRST_BYTES;
    for (;;) {
        size_t len = (size_t)avail; /* <= the mapping's length, a size_t */
        uint8_t *buf = NULL;
        gs_status st = len > 0 ? gsi_mem_alloc(&f->mem, len, (void **)&buf) : GS_OK;
        if (st != GS_OK) {
            return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "metadata copy of %zu bytes",
                            len);
        }
        st = len > 0 ? gsi_source_pread(&f->source, 0, buf, len) : GS_OK;
        if (st != GS_OK) {
            gsi_mem_free(&f->mem, buf, len);
            return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0,
                            "the file shrank while its metadata was read");
        }
        static const uint8_t empty[1] = {0};
        f->base = buf != NULL ? buf : empty;
        f->meta_copy = buf;
        f->meta_copy_len = len;
        bool need_more;
        st = parse_prefix(f, avail, opts, err, &need_more);
        if (!need_more || avail == f->size) {
            return st;
        }
        reset_tables(f);
        gsi_mem_free(&f->mem, buf, len);
        f->meta_copy = NULL;
        f->meta_copy_len = 0;
        avail = f->size - avail < avail ? f->size : 2 * avail;
    }
}

void gs_close(gs_file *file)
{
    if (file == NULL) {
        return;
    }
    free_tables(file);
    gsi_mem_free(&file->mem, file->meta_copy, file->meta_copy_len);
    gsi_source_unmap(&file->source);
    gsi_mem mem = file->mem;
    gsi_mem_free(&mem, file, sizeof *file);
}

/* Allocates the gs_file itself through the caller's allocator. */
static gs_status new_file(const gs_options *opts, gs_file **out, gs_error *err)
{
    gsi_mem mem;
    gsi_mem_init(&mem, &opts->allocator, opts->limits.max_metadata_memory);
    gs_file *f;
    gs_status st = gsi_mem_calloc(&mem, 1, sizeof *f, (void **)&f);
    if (st != GS_OK) {
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "file object");
    }
    f->mem = mem;
    f->source = (gsi_source){-1, NULL, 0};
    gsi_index_init(&f->kv_index);
    gsi_index_init(&f->tensor_index);
    *out = f;
    return GS_OK;
}

static gs_status finish_open(gs_file *f, const gs_options *opts, gs_file **out, gs_error *err)
{
    f->data_base = f->base;
    gs_status st = opts->copy_metadata && f->source.fd >= 0 ? parse_copied(f, opts, err)
                                                            : gsi_parse_file(f, opts, err);
    if (st != GS_OK) {
        gs_close(f);
        return st;
    }
    *out = f;
    return GS_OK;
}

gs_status gs_open_memory(const void *data, size_t size, const gs_options *opts, gs_file **out,
                         gs_error *err)
{
    gsi_error_clear(err);
    if (out == NULL) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0, "out is NULL");
    }
    *out = NULL;
    if (data == NULL && size > 0) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0, "data is NULL");
    }
    gs_options o;
    if (gsi_options_resolve(opts, &o) != GS_OK) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0, "options");
    }
    gs_file *f;
    gs_status st = new_file(&o, &f, err);
    if (st != GS_OK) {
        return st;
    }
    static const uint8_t empty[1] = {0};
    f->base = data != NULL ? data : empty;
    f->size = size;
    return finish_open(f, &o, out, err);
}

gs_status gs_open_file(const char *path, const gs_options *opts, gs_file **out, gs_error *err)
{
    gsi_error_clear(err);
    if (out == NULL || path == NULL) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "path or out is NULL");
    }
    *out = NULL;
    gs_options o;
    if (gsi_options_resolve(opts, &o) != GS_OK) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0, "options");
    }
    gs_file *f;
    gs_status st = new_file(&o, &f, err);
    if (st != GS_OK) {
        return st;
    }
    char detail[GS_ERROR_TEXT_MAX] = {0};
    const uint8_t *base;
    uint64_t size;
    st = gsi_source_map(path, &f->source, &base, &size, detail, sizeof detail);
    if (st != GS_OK) {
        gs_close(f);
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "%s", detail);
    }
    static const uint8_t empty[1] = {0};
    f->base = base != NULL ? base : empty;
    f->size = size;
    return finish_open(f, &o, out, err);
}
