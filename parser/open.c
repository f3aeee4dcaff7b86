/* gs_open_file, gs_open_memory, gs_close: sources in, an immutable gs_file out. */
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "parse.h"
#include "refill.h"
#include "type_defs.h"

static const uint8_t *kv_name_at(const void *ctx, uint32_t i, uint64_t *len)
{
    const gs_file *f = ctx;
    *len = gsi_kv_key_len(&f->kvs[i]);
    return f->base + gsi_kv_key_off(&f->kvs[i]);
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

gs_status gsi_file_find(const gs_file *file, bool tensors, const char *name, size_t name_len,
                        size_t *index)
{
    if (file == NULL || (name == NULL && name_len > 0) || index == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    uint32_t rec;
    gsi_name_source names = tensors ? gsi_tensor_names(file) : gsi_kv_names(file);
    if (!gsi_index_find(tensors ? &file->tensor_index : &file->kv_index, &names,
                        (const uint8_t *)name, name_len, &rec)) {
        return GS_E_NOT_FOUND;
    }
    *index = rec;
    return GS_OK;
}

gs_status gsi_file_find_str(const gs_file *file, bool tensors, const char *name, size_t *index)
{
    return name == NULL ? GS_E_INVALID_ARGUMENT
                        : gsi_file_find(file, tensors, name, strlen(name), index);
}

/* Parses f->size bytes at f->base, or, with refill, as a refilling cursor reads them. */
static gs_status parse(gs_file *f, const gs_options *opts, gsi_refill *refill, gs_error *err)
{
    gsi_parser p = {
        .cur = {f->base, f->size, 0, f->size, NULL},
        .file = f,
        .limits = &opts->limits,
        .strict = opts->profile == GS_PROFILE_STRICT,
        .diagnostic = opts->diagnostic,
        .metadata_only = opts->metadata_only,
        .err = err,
        .alignment = GSI_DEFAULT_ALIGNMENT,
    };
    if (refill != NULL) {
        gsi_refill_start(refill, &p.cur, f, refill->fd);
    }
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
    if (st != GS_OK && p.diagnostic && f->n_findings > 0) {
        /* A failed diagnostic open reports what a normal open would: the first problem. */
        if (err != NULL) {
            *err = f->findings[0];
        }
        st = f->findings[0].status;
    }
    /* A read or copy that failed is the environment's failure, not the file's. */
    return refill != NULL ? gsi_refill_finish(refill, &p.cur, st, err) : st;
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

void gs_close(gs_file *file)
{
    if (file == NULL) {
        return;
    }
    free_tables(file);
    gsi_mem_free(&file->mem, file->meta_copy, file->meta_copy_len);
    gsi_file_types_free(file);
    gsi_source_close(&file->source, &file->mem);
    gsi_mem mem = file->mem;
    gsi_mem_free(&mem, file, sizeof *file);
}

/* Allocates the gs_file itself through the caller's allocator, charged to budget too when it is
 * not NULL (the parts of a split set). */
static gs_status new_file(const gs_options *opts, gsi_budget *budget, gs_file **out,
                          gs_error *err)
{
    gsi_mem mem;
    gsi_mem_init(&mem, &opts->allocator, opts->limits.max_metadata_memory);
    mem.shared = budget;
    gs_file *f = NULL;
    gs_status st = gsi_mem_calloc(&mem, 1, sizeof *f, (void **)&f);
    if (st != GS_OK) {
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "file object");
    }
    f->mem = mem;
    gsi_source_init(&f->source);
    gsi_index_init(&f->kv_index);
    gsi_index_init(&f->tensor_index);
    st = gsi_file_types_load(f, opts, err);
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
    return gsi_open_buffer(data, size, &o, NULL, out, err);
}

gs_status gsi_open_buffer(const void *data, size_t size, const gs_options *o, gsi_budget *budget,
                          gs_file **out, gs_error *err)
{
    *out = NULL;
    gs_file *f = NULL;
    gs_status st = new_file(o, budget, &f, err);
    if (st != GS_OK) {
        return st;
    }
    static const uint8_t empty[1] = {0};
    f->base = data != NULL ? data : empty;
    f->data_base = f->base;
    f->size = size;
    st = parse(f, o, NULL, err);
    if (st != GS_OK) {
        gs_close(f);
        return st;
    }
    *out = f;
    return GS_OK;
}

/* The file's bytes for the parse: the mapping, or (copy_metadata, reopen_for_data) a heap copy
 * read in one pass; tensor data through the mapping unless reopen_for_data maps nothing. */
static gs_status parse_source(gs_file *f, const gs_options *o, gs_error *err)
{
    static const uint8_t empty[1] = {0};
    char detail[GS_ERROR_TEXT_MAX] = {0};
    if (!o->reopen_for_data) {
        gs_status st = gsi_source_map(&f->source, detail, sizeof detail);
        if (st != GS_OK) {
            return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "%s", detail);
        }
    }
    f->data_base = f->source.map;
    if (!o->copy_metadata && !o->reopen_for_data) {
        f->base = f->source.map != NULL ? f->source.map : empty;
        return parse(f, o, NULL, err);
    }
    gsi_refill refill = {.fd = f->source.fd};
    return parse(f, o, &refill, err);
}

gs_status gsi_open_path(const char *path, const gs_options *o, const gsi_admission *admit,
                        gs_file **out, gs_error *err)
{
    *out = NULL;
    gs_file *f = NULL;
    gs_status st = new_file(o, admit != NULL ? admit->budget : NULL, &f, err);
    if (st != GS_OK) {
        return st;
    }
    char detail[GS_ERROR_TEXT_MAX] = {0};
    st = gsi_source_open(path, &f->source, detail, sizeof detail);
    if (st != GS_OK) {
        gs_close(f);
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "%s", detail);
    }
    f->size = f->source.id.size;
    if (admit != NULL && admit->check != NULL) {
        st = admit->check(admit->ctx, &f->source.id, err);
    }
    if (st == GS_OK) {
        st = parse_source(f, o, err);
    }
    if (st == GS_OK && o->reopen_for_data) {
        st = gsi_source_detach(&f->source, path, &f->mem);
        if (st != GS_OK) {
            gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "the path, kept to reopen it");
        }
    }
    if (st != GS_OK) {
        gs_close(f);
        return st;
    }
    *out = f;
    return GS_OK;
}

gs_status gs_open_file(const char *path, const gs_options *opts, gs_file **out, gs_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    gs_options o;
    gs_status st = gsi_open_path_args(path, out != NULL, opts, &o, err);
    return st != GS_OK ? st : gsi_open_path(path, &o, NULL, out, err);
}
