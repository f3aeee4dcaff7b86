#include "type_defs.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "abi_compat.h"
#include "checked_math.h"
#include "error.h"
#include "file_internal.h"

/* Names are printed and used as file-name parts (KAT and golden names): a conservative set. */
static bool name_ok(const char *name, size_t *len_out)
{
    if (name == NULL) {
        return false;
    }
    size_t n = 0;
    for (; n <= GS_TYPE_NAME_MAX && name[n] != '\0'; n++) {
        char c = name[n];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '.' || c == '-';
        if (!ok) {
            return false;
        }
    }
    *len_out = n;
    return n > 0 && n <= GS_TYPE_NAME_MAX;
}

/* A refused definition: GS_E_INVALID_ARGUMENT, offset = its index, context = its name. */
__attribute__((format(printf, 4, 5))) static gs_status
def_fail(gs_error *err, size_t index, const gs_type_def *d, const char *fmt, ...)
{
    const char *name = d != NULL ? d->name : NULL;
    size_t n = 0;
    while (name != NULL && n < 4096 && name[n] != '\0') {
        n++; /* a caller's string: only its head is shown */
    }
    va_list ap;
    va_start(ap, fmt);
    gs_status st = gsi_failv(err, GS_E_INVALID_ARGUMENT, index, GS_CONTEXT_NONE,
                             (const uint8_t *)name, n, fmt, ap);
    va_end(ap);
    return st;
}

/* One definition on its own: id, name and geometry. what: "type" or "decoder for type". */
static gs_status check_one(const gs_type_def *d, size_t index, const char *what, gs_error *err)
{
    size_t len;
    if (d->id < 0) {
        return def_fail(err, index, d, "%s id %d: negative", what, (int)d->id);
    }
    if (!name_ok(d->name, &len)) {
        return def_fail(err, index, d, "%s id %d: the name must be 1 to %u bytes of A-Z a-z 0-9 _ . -",
                        what, (int)d->id, GS_TYPE_NAME_MAX);
    }
    if (d->block_elems == 0 || d->block_bytes == 0) {
        return def_fail(err, index, d, "%s id %d: %u elements in %u bytes per block; both must be "
                        "nonzero", what, (int)d->id, d->block_elems, d->block_bytes);
    }
    if (d->block_elems > GS_TYPE_DEF_MAX_BLOCK_ELEMS) {
        return def_fail(err, index, d, "%s id %d: %u elements per block, at most %u", what,
                        (int)d->id, d->block_elems, GS_TYPE_DEF_MAX_BLOCK_ELEMS);
    }
    if (d->block_bytes > GS_TYPE_DEF_MAX_BLOCK_BYTES) {
        return def_fail(err, index, d, "%s id %d: %u bytes per block, at most %u", what,
                        (int)d->id, d->block_bytes, GS_TYPE_DEF_MAX_BLOCK_BYTES);
    }
    const gsi_type_row *b = gsi_type_lookup(d->id);
    if (!d->override_builtin && b != NULL) {
        return def_fail(err, index, d, "%s id %d is built in (%s): redefining it needs the "
                        "override flag", what, (int)d->id, b->name);
    }
    return GS_OK;
}

gs_status gs_type_defs_check(const gs_type_def *defs, size_t n_defs, gs_error *err)
{
    gsi_error_clear(err);
    if (n_defs > 0 && defs == NULL) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "type definitions are NULL");
    }
    if (n_defs > GS_TYPE_DEF_MAX) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "%zu type definitions, at most %u", n_defs, GS_TYPE_DEF_MAX);
    }
    for (size_t i = 0; i < n_defs; i++) {
        gs_status st = check_one(&defs[i], i, "type", err);
        if (st != GS_OK) {
            return st;
        }
        for (size_t j = 0; j < i; j++) {
            if (defs[j].id == defs[i].id) {
                return def_fail(err, i, &defs[i], "type id %d is defined twice (definitions %zu "
                                "and %zu)", (int)defs[i].id, j, i);
            }
        }
    }
    return GS_OK;
}

/* Definitions and decoders together (a decoder defines its type): checked as one set, except
 * that a decoder may serve an id a definition gives, with the same geometry. */
static gs_status check_all(const gs_options *o, gs_error *err)
{
    gs_status st = gs_type_defs_check(o->type_defs, o->n_type_defs, err);
    if (st != GS_OK) {
        return st;
    }
    if (o->n_decoders > 0 && o->decoders == NULL) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "decoders are NULL");
    }
    if (o->n_decoders > GS_TYPE_DEF_MAX) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "%zu decoders, at most %u", o->n_decoders, GS_TYPE_DEF_MAX);
    }
    for (size_t i = 0; i < o->n_decoders; i++) {
        const gs_decoder *d = &o->decoders[i];
        if (d->decode == NULL) {
            return def_fail(err, i, &d->type, "decoder %zu has no decode function", i);
        }
        st = check_one(&d->type, i, "decoder for type", err);
        if (st != GS_OK) {
            return st;
        }
        for (size_t j = 0; j < i; j++) {
            if (o->decoders[j].type.id == d->type.id) {
                return def_fail(err, i, &d->type, "type id %d has two decoders (%zu and %zu)",
                                (int)d->type.id, j, i);
            }
        }
        for (size_t j = 0; j < o->n_type_defs; j++) {
            const gs_type_def *t = &o->type_defs[j];
            if (t->id == d->type.id &&
                (t->block_elems != d->type.block_elems || t->block_bytes != d->type.block_bytes)) {
                return def_fail(err, i, &d->type,
                                "type id %d: the decoder's block (%u elements, %u bytes) differs "
                                "from its definition's (%u, %u)",
                                (int)d->type.id, d->type.block_elems, d->type.block_bytes,
                                t->block_elems, t->block_bytes);
            }
        }
    }
    return GS_OK;
}

static void fill(gsi_ext_type *e, const gs_type_def *d)
{
    memset(e, 0, sizeof *e);
    e->id = d->id;
    size_t n = strlen(d->name); /* checked: at most GS_TYPE_NAME_MAX */
    memcpy(e->name, d->name, n);
    e->row.name = e->name;
    e->row.block_elems = d->block_elems;
    e->row.block_bytes = d->block_bytes;
    e->row.status = GS_TYPE_LIVE;
    e->row.decodable = false;
    /* an override with the registry's own geometry (ggml's decoders for a built-in type, the
     * ggml kernel child) is that type with another decoder: it keeps the registry's answer */
    const gsi_type_row *b = gsi_type_lookup(d->id);
    e->row.quantized = b != NULL && b->block_elems == d->block_elems &&
                               b->block_bytes == d->block_bytes
                           ? b->quantized
                           : true;
}

gs_status gsi_file_types_load(gs_file *f, const gs_options *o, gs_error *err)
{
    f->ext_types = NULL;
    f->n_ext_types = 0;
    if (o->n_type_defs == 0 && o->n_decoders == 0) {
        return GS_OK;
    }
    gs_status st = check_all(o, err);
    if (st != GS_OK) {
        return st;
    }
    size_t n = o->n_type_defs + o->n_decoders; /* at most 2 * GS_TYPE_DEF_MAX */
    gsi_ext_type *es;
    st = gsi_mem_calloc(&f->mem, n, sizeof *es, (void **)&es);
    if (st != GS_OK) {
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "caller-defined types");
    }
    size_t k = 0;
    for (size_t i = 0; i < o->n_type_defs; i++) {
        fill(&es[k++], &o->type_defs[i]);
    }
    for (size_t i = 0; i < o->n_decoders; i++) {
        const gs_decoder *d = &o->decoders[i];
        gsi_ext_type *e = NULL;
        for (size_t j = 0; j < k; j++) {
            if (es[j].id == d->type.id) {
                e = &es[j]; /* same geometry (checked): the definition gets the decoder */
            }
        }
        if (e == NULL) {
            e = &es[k++];
            fill(e, &d->type);
        }
        e->decode = d->decode;
        e->ctx = d->ctx;
        e->row.decodable = true;
        if (d->source != NULL) {
            snprintf(e->source, sizeof e->source, "%s", d->source);
        }
    }
    /* by id (at most 512 entries), for the binary search of every lookup */
    for (size_t i = 1; i < k; i++) {
        gsi_ext_type tmp = es[i];
        size_t j = i;
        for (; j > 0 && es[j - 1].id > tmp.id; j--) {
            es[j] = es[j - 1];
        }
        es[j] = tmp;
    }
    for (size_t i = 0; i < k; i++) {
        es[i].row.name = es[i].name; /* moved by the sort */
    }
    f->ext_types = es;
    f->n_ext_types = k;
    f->cap_ext_types = n;
    return GS_OK;
}

void gsi_file_types_free(gs_file *f)
{
    gsi_mem_free(&f->mem, f->ext_types, f->cap_ext_types * sizeof(gsi_ext_type));
    f->ext_types = NULL;
    f->n_ext_types = 0;
}

const gsi_ext_type *gsi_file_ext_type(const gs_file *f, int32_t id)
{
    if (f == NULL || f->n_ext_types == 0) {
        return NULL;
    }
    size_t lo = 0, hi = f->n_ext_types;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->ext_types[mid].id == id) {
            return &f->ext_types[mid];
        }
        if (f->ext_types[mid].id < id) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

const gsi_type_row *gsi_file_type_row(const gs_file *f, int32_t id)
{
    const gsi_ext_type *e = gsi_file_ext_type(f, id);
    return e != NULL ? &e->row : gsi_type_lookup(id);
}

gs_status gs_file_type_info_sized(const gs_file *file, int32_t type, gs_type_info *out,
                                  size_t out_size)
{
    const gsi_ext_type *e = gsi_file_ext_type(file, type);
    if (e == NULL) {
        return gs_type_get_info_sized(type, out, out_size);
    }
    if (out == NULL || out_size < GSI_TYPE_INFO_SIZE_0_1_0) {
        return GS_E_INVALID_ARGUMENT;
    }
    gs_type_info info;
    memset(&info, 0, sizeof info);
    info.name = e->name;
    info.block_elems = e->row.block_elems;
    info.block_bytes = e->row.block_bytes;
    info.status = GS_TYPE_LIVE;
    info.decodable = e->row.decodable;
    info.quantized = e->row.quantized;
    gsi_copy_sized(out, out_size, &info, sizeof info);
    return GS_OK;
}

const char *gs_file_type_name(const gs_file *file, int32_t type)
{
    const gsi_ext_type *e = gsi_file_ext_type(file, type);
    return e != NULL ? e->name : gs_type_name(type);
}
