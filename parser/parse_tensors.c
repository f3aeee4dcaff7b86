#include "checked_math.h"
#include "key_grammar.h"
#include "parse.h"
#include "type_defs.h"
#include "type_registry.h"
#include "utf8.h"

/* ggml keeps sizes in int64_t and size_t: anything above INT64_MAX is an overflow for it. */
#define GSI_MAX_SIZE ((uint64_t)INT64_MAX)

typedef struct shape_fields {
    uint64_t n_dims_at;
    uint64_t ne_at[GS_MAX_DIMS];
} shape_fields;

static gs_status fail_tensor(gsi_parser *p, gs_status st, uint64_t at, const gsi_tensor *t,
                             const char *what)
{
    return gsi_fail(p->err, st, at, GS_CONTEXT_TENSOR, p->file->base + t->name_off, t->name_len,
                    "%s", what);
}

/* Element count, byte size, strides and padded size, all with checked arithmetic. Nothing that
 * wraps gets through: ggml's open holes #27203 (nelements wraps to 0) and #26978 (the pad wraps)
 * both land here. */
static gs_status check_size(gsi_parser *p, gsi_tensor *t, const gsi_type_row *row,
                            const shape_fields *sf)
{
    uint64_t shape_at = t->n_dims > 0 ? sf->ne_at[0] : sf->n_dims_at;
    if (t->ne[0] % row->block_elems != 0) {
        return gsi_fail(p->err, GS_E_ROW_NOT_BLOCK_MULTIPLE, shape_at, GS_CONTEXT_TENSOR,
                        p->file->base + t->name_off, t->name_len,
                        "ne[0] = %llu, %s blocks hold %u elements", (unsigned long long)t->ne[0],
                        row->name, row->block_elems);
    }
    uint64_t n = 1;
    for (int j = 0; j < GS_MAX_DIMS; j++) {
        /* Detect and prevent integer overflow */
        if (gsi_checked_mul_u64(n, t->ne[j], &n) || n > GSI_MAX_SIZE) {
            return fail_tensor(p, GS_E_SIZE_OVERFLOW, shape_at, t, "element count");
        }
    }
    /* Strides: nb[1] = row bytes, nb[2] = nb[1]*ne[1], nb[3] = nb[2]*ne[2]; checked even when a
     * later dimension is 0 and the tensor is empty, because consumers compute them. */
    uint64_t nb = (t->ne[0] / row->block_elems);
    /* Detect and prevent integer overflow */
    if (gsi_checked_mul_u64(nb, row->block_bytes, &nb) || nb > GSI_MAX_SIZE) {
        return fail_tensor(p, GS_E_SIZE_OVERFLOW, shape_at, t, "row size");
    }
    for (int j = 1; j < GS_MAX_DIMS; j++) {
        /* Detect and prevent integer overflow */
        if (gsi_checked_mul_u64(nb, t->ne[j], &nb) || nb > GSI_MAX_SIZE) {
            return fail_tensor(p, GS_E_SIZE_OVERFLOW, shape_at, t, "stride or byte size");
        }
    }
    t->nbytes = nb;
    uint64_t padded;
    /* Detect and prevent integer overflow */
    if (gsi_checked_pad_u64(nb, p->alignment, &padded) || padded > GSI_MAX_SIZE) {
        return fail_tensor(p, GS_E_SIZE_OVERFLOW, shape_at, t, "padded byte size");
    }
    return GS_OK;
}

static gs_status parse_one_tensor(gsi_parser *p, uint64_t index)
{
    gsi_cursor *c = &p->cur;
    gs_file *f = p->file;
    uint64_t at = c->pos;

    const uint8_t *name = NULL;
    uint64_t name_len = 0;
    gs_status st = gsi_read_record_string(p, "name", "tensor info", index, &name, &name_len);
    if (st != GS_OK) {
        return st;
    }
    st = gsi_check_tensor_name(name, name_len, false);
    if (st != GS_OK) {
        return gsi_fail(p->err, st, at, GS_CONTEXT_TENSOR, name, name_len,
                        "tensor info %llu, name of %llu bytes", (unsigned long long)index,
                        (unsigned long long)name_len);
    }
    st = p->strict ? gsi_check_tensor_name(name, name_len, true) : GS_OK;
    if (st != GS_OK) {
        st = gsi_problem(p, st, at, GS_CONTEXT_TENSOR, name, name_len,
                         "tensor info %llu, name of %llu bytes", (unsigned long long)index,
                         (unsigned long long)name_len);
        if (st != GS_OK) {
            return st;
        }
        /* diagnostic mode: a name too long may also not be UTF-8, a problem of its own */
        if (name_len > GSI_MAX_NAME_BYTES && !gsi_utf8_valid(name, (size_t)name_len)) {
            st = gsi_problem(p, GS_E_INVALID_UTF8, at, GS_CONTEXT_TENSOR, name, name_len,
                             "tensor info %llu, name of %llu bytes",
                             (unsigned long long)index, (unsigned long long)name_len);
            if (st != GS_OK) {
                return st;
            }
        }
    }

    gs_status mst = gsi_mem_reserve(&f->mem, (void **)&f->tensors, &f->cap_tensors,
                                    f->n_tensors + 1, sizeof(gsi_tensor));
    if (mst != GS_OK) {
        return gsi_fail(p->err, mst, at, GS_CONTEXT_TENSOR, name, name_len, "tensor table");
    }
    gsi_tensor *t = &f->tensors[f->n_tensors];
    memset(t, 0, sizeof *t);
    t->info_off = at;
    t->name_off = at + 8;
    t->name_len = name_len;

    bool dup;
    uint32_t earlier;
    gsi_name_source names = gsi_tensor_names(f);
    mst = gsi_index_insert(&f->tensor_index, &f->mem, &names, name, name_len,
                           (uint32_t)f->n_tensors, &dup, &earlier);
    if (mst != GS_OK) {
        return fail_tensor(p, mst, at, t, "tensor index");
    }
    if (dup) {
        return gsi_fail(p->err, GS_E_DUPLICATE_TENSOR_NAME, at, GS_CONTEXT_TENSOR, name, name_len,
                        "first defined at byte %llu",
                        (unsigned long long)f->tensors[earlier].info_off);
    }
    f->n_tensors++;
    /* From here on reads may refill and move the bytes: the name is found again by offset. */

    shape_fields sf;
    sf.n_dims_at = c->pos;
    if (!gsi_cur_u32(c, &t->n_dims)) {
        return fail_tensor(p, GS_E_TRUNCATED, sf.n_dims_at, t, "n_dims");
    }
    if (t->n_dims > GS_MAX_DIMS) {
        return gsi_fail(p->err, GS_E_TOO_MANY_DIMS, sf.n_dims_at, GS_CONTEXT_TENSOR,
                        f->base + t->name_off, name_len, "n_dims = %u", t->n_dims);
    }
    for (uint32_t j = 0; j < GS_MAX_DIMS; j++) {
        t->ne[j] = 1;
    }
    for (uint32_t j = 0; j < t->n_dims; j++) {
        sf.ne_at[j] = c->pos;
        if (!gsi_cur_u64(c, &t->ne[j])) {
            return fail_tensor(p, GS_E_TRUNCATED, sf.ne_at[j], t, "dimension");
        }
        if (t->ne[j] > (uint64_t)INT64_MAX) {
            return gsi_fail(p->err, GS_E_NEGATIVE_DIM, sf.ne_at[j], GS_CONTEXT_TENSOR,
                            f->base + t->name_off, name_len, "ne[%u] = %lld", j,
                            (long long)(int64_t)t->ne[j]);
        }
    }
    uint64_t type_at = c->pos;
    uint32_t raw_type;
    if (!gsi_cur_u32(c, &raw_type)) {
        return fail_tensor(p, GS_E_TRUNCATED, type_at, t, "type");
    }
    t->type = (int32_t)raw_type;
    const gsi_type_row *row = gsi_file_type_row(f, t->type);
    if (row == NULL) {
        /* diagnostic mode: a finding, and the tensor stays listed without a size (the layout
           checks what its offset allows) */
        st = gsi_problem(p, GS_E_UNKNOWN_TENSOR_TYPE, type_at, GS_CONTEXT_TENSOR,
                         f->base + t->name_off, name_len,
                         "type id %d, neither built in nor defined by the caller", t->type);
        if (st != GS_OK) {
            return st;
        }
        t->unknown_type = true;
        uint64_t n_elems = 1;
        for (int j = 0; j < GS_MAX_DIMS; j++) {
            /* Detect and prevent integer overflow */
            if (gsi_checked_mul_u64(n_elems, t->ne[j], &n_elems) || n_elems > GSI_MAX_SIZE) {
                return fail_tensor(p, GS_E_SIZE_OVERFLOW, type_at, t, "element count");
            }
        }
        uint64_t unknown_offset_at = c->pos;
        if (!gsi_cur_u64(c, &t->offset)) {
            return fail_tensor(p, GS_E_TRUNCATED, unknown_offset_at, t, "offset");
        }
        return GS_OK;
    }
    if (!gsi_type_is_usable(row)) {
        return gsi_fail(p->err, GS_E_REMOVED_TENSOR_TYPE, type_at, GS_CONTEXT_TENSOR,
                        f->base + t->name_off, name_len, "type id %d (%s)", t->type, row->name);
    }
    st = check_size(p, t, row, &sf);
    if (st != GS_OK) {
        return st;
    }
    uint64_t offset_at = c->pos;
    if (!gsi_cur_u64(c, &t->offset)) {
        return fail_tensor(p, GS_E_TRUNCATED, offset_at, t, "offset");
    }
    return GS_OK;
}

gs_status gsi_parse_tensor_infos(gsi_parser *p)
{
    /* Re-check the count against what is left now that the KVs are consumed. */
    uint64_t rem = gsi_cur_remaining(&p->cur);
    uint64_t min_bytes;
    /* Detect and prevent integer overflow */
    if (gsi_checked_mul_u64(p->n_tensors_declared, GSI_MIN_TENSOR_INFO_BYTES, &min_bytes) ||
        min_bytes > rem) {
        return gsi_fail(p->err, GS_E_COUNT_EXCEEDS_FILE, 8, GS_CONTEXT_HEADER, NULL, 0,
                        "%llu tensor infos need at least %u bytes each; %llu remain after the "
                        "key-value section",
                        (unsigned long long)p->n_tensors_declared, GSI_MIN_TENSOR_INFO_BYTES,
                        (unsigned long long)rem);
    }
    for (uint64_t i = 0; i < p->n_tensors_declared; i++) {
        gs_status st = parse_one_tensor(p, i);
        if (st != GS_OK) {
            return st;
        }
    }
    p->file->layout.tensor_info_end = p->cur.pos;
    return GS_OK;
}
