#include <stdarg.h>
#include <stdlib.h>

#include "checked_math.h"
#include "parse.h"

uint64_t gsi_tensor_offset_field(const gsi_tensor *t)
{
    return t->name_off + t->name_len + 4 + 8ull * t->n_dims + 4;
}

/* A layout violation at the tensor-info `offset` field of t (where every layout error points):
 * fails the open, or in diagnostic mode becomes a finding and the check goes on. Returns GS_OK
 * when the caller should continue. */
__attribute__((format(printf, 4, 5))) static gs_status
layout_problem(gsi_parser *p, gs_status st, const gsi_tensor *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gs_status r = gsi_problemv(p, st, gsi_tensor_offset_field(t), GS_CONTEXT_TENSOR,
                               p->file->base + t->name_off, t->name_len, fmt, ap);
    va_end(ap);
    return r;
}

/* Every tensor's [start, end) inside the file, with arithmetic that cannot wrap. In diagnostic
 * mode a tensor outside is marked and the check goes on; in metadata-only mode it is marked and
 * nothing is wrong. */
static gs_status check_in_file(gsi_parser *p, gsi_tensor *t, uint64_t data_offset)
{
    uint64_t start, end;
    /* Detect and prevent integer overflow */
    if (gsi_checked_add_u64(data_offset, t->offset, &start) ||
        gsi_checked_add_u64(start, t->nbytes, &end) || end > p->file->size) {
        t->outside = true;
        p->file->layout.tensors_outside++;
        if (p->metadata_only) {
            return GS_OK;
        }
        return layout_problem(p, GS_E_DATA_OUTSIDE_FILE, t,
                              "data at offset %llu + %llu bytes past the data section start lies "
                              "beyond the end of the file",
                              (unsigned long long)t->offset, (unsigned long long)t->nbytes);
    }
    return GS_OK;
}

/* strict: offsets must equal the running padded sum (ggml's rule): aligned, in order, no gaps,
 * no overlap, no aliasing. In diagnostic mode the sum resumes after each violation, so one bad
 * offset is reported once, not again for every tensor after it. */
static gs_status check_packed(gsi_parser *p, uint64_t data_offset)
{
    gs_file *f = p->file;
    uint64_t expected = 0;
    /* false after a tensor of an unknown type (diagnostic mode): its size is unknown, so the
       next offset starts the running sum again */
    bool known = true;
    for (size_t i = 0; i < f->n_tensors; i++) {
        gsi_tensor *t = &f->tensors[i];
        gs_status st = GS_OK;
        if (!known) {
            expected = t->offset;
        }
        known = !t->unknown_type;
        if (t->offset % p->alignment != 0) {
            st = layout_problem(p, GS_E_MISALIGNED_OFFSET, t, "offset %llu, alignment %llu",
                                (unsigned long long)t->offset, (unsigned long long)p->alignment);
        } else if (t->offset != expected) {
            st = layout_problem(p, GS_E_OFFSET_NOT_PACKED, t, "offset %llu, expected %llu",
                                (unsigned long long)t->offset, (unsigned long long)expected);
        }
        if (st == GS_OK) {
            st = check_in_file(p, t, data_offset);
        }
        if (st != GS_OK) {
            return st;
        }
        uint64_t padded;
        /* Detect and prevent integer overflow */
        if (gsi_checked_pad_u64(t->nbytes, p->alignment, &padded) ||
            gsi_checked_add_u64(t->offset, padded, &expected)) {
            /* only an offset already reported as wrong can get here */
            expected = UINT64_MAX;
        }
    }
    return GS_OK;
}

typedef struct span {
    uint64_t start, end;
    uint32_t index;
} span;

static int span_cmp(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->start != y->start) {
        return x->start < y->start ? -1 : 1;
    }
    return x->index < y->index ? -1 : (x->index > y->index);
}

/* True when the tensors with data lie in file order, each starting at or after the end of the
 * one before: then none overlap, and no sorted copy is needed. Every file strict accepts is laid
 * out so, which keeps lenient within the memory strict needs (strict accepts => lenient accepts,
 * under any max_metadata_memory). */
static bool in_order_disjoint(const gs_file *f)
{
    uint64_t end = 0;
    for (size_t i = 0; i < f->n_tensors; i++) {
        const gsi_tensor *t = &f->tensors[i];
        if (t->nbytes == 0 || t->outside) {
            continue;
        }
        if (t->offset < end) {
            return false;
        }
        end = t->offset + t->nbytes;
    }
    return true;
}

/* lenient: any order and any gaps, but inside the file and without two tensors sharing bytes. */
static gs_status check_unpacked(gsi_parser *p, uint64_t data_offset)
{
    gs_file *f = p->file;
    size_t n = 0;
    for (size_t i = 0; i < f->n_tensors; i++) {
        gs_status st = check_in_file(p, &f->tensors[i], data_offset);
        if (st != GS_OK) {
            return st;
        }
        if (f->tensors[i].nbytes > 0 && !f->tensors[i].outside) {
            n++;
        }
    }
    if (n < 2 || in_order_disjoint(f)) {
        return GS_OK;
    }
    span *spans;
    gs_status st = gsi_mem_alloc(&f->mem, n * sizeof(span), (void **)&spans);
    if (st != GS_OK) {
        return gsi_fail(p->err, st, f->layout.tensor_info_end, GS_CONTEXT_NONE, NULL, 0,
                        "overlap check of %zu tensors", n);
    }
    size_t k = 0;
    for (size_t i = 0; i < f->n_tensors; i++) {
        const gsi_tensor *t = &f->tensors[i];
        if (t->nbytes > 0 && !t->outside) {
            spans[k++] = (span){t->offset, t->offset + t->nbytes, (uint32_t)i};
        }
    }
    qsort(spans, n, sizeof(span), span_cmp);
    /* Sorted by start, the first overlap is always between neighbours; in diagnostic mode the
     * furthest end is carried so that every tensor overlapping an earlier one is reported. */
    st = GS_OK;
    size_t reach = 0; /* the span reaching furthest so far */
    for (size_t i = 1; i < n && st == GS_OK; i++) {
        if (spans[i].start < spans[reach].end) {
            const span *later = spans[i].index > spans[reach].index ? &spans[i] : &spans[reach];
            const span *other = later == &spans[i] ? &spans[reach] : &spans[i];
            st = layout_problem(p, GS_E_TENSOR_OVERLAP, &f->tensors[later->index],
                                "shares bytes with tensor %llu (offset %llu)",
                                (unsigned long long)other->index,
                                (unsigned long long)f->tensors[other->index].offset);
        }
        if (spans[i].end > spans[reach].end) {
            reach = i;
        }
    }
    gsi_mem_free(&f->mem, spans, n * sizeof(span));
    return st;
}

/* The size the complete file has: the data section's start plus the furthest padded tensor end,
 * over every tensor, those whose data is not in the file included (what a download cut short
 * was meant to be). UINT64_MAX when a crafted offset makes it overflow. */
static uint64_t described_size(const gs_file *f, uint64_t data_offset, uint32_t alignment)
{
    uint64_t size = data_offset;
    for (size_t i = 0; i < f->n_tensors; i++) {
        const gsi_tensor *t = &f->tensors[i];
        uint64_t end;
        /* Detect and prevent integer overflow */
        if (gsi_checked_add_u64(t->offset, t->nbytes, &end) ||
            gsi_checked_pad_u64(end, alignment, &end) ||
            gsi_checked_add_u64(data_offset, end, &end)) {
            return UINT64_MAX;
        }
        if (end > size) {
            size = end;
        }
    }
    return size;
}

gs_status gsi_check_layout(gsi_parser *p)
{
    gs_file *f = p->file;
    gs_layout *l = &f->layout;
    l->file_size = f->size;
    l->alignment = p->alignment;
    uint64_t info_end = l->tensor_info_end;
    uint64_t data_offset;
    /* Detect and prevent integer overflow */
    if (gsi_checked_pad_u64(info_end, p->alignment, &data_offset)) {
        return gsi_fail(p->err, GS_E_SIZE_OVERFLOW, info_end, GS_CONTEXT_NONE, NULL, 0,
                        "data section start");
    }
    l->data_offset = data_offset;
    /* ggml requires the padding before the data section whenever there are tensors (not in
     * metadata-only mode: a file of metadata may end anywhere after its tensor infos). */
    if (f->n_tensors > 0 && data_offset > f->size && !p->metadata_only) {
        gs_status st = gsi_problem(p, GS_E_TRUNCATED, info_end, GS_CONTEXT_NONE, NULL, 0,
                                   "padding to the %u-byte aligned data section at %llu",
                                   p->alignment, (unsigned long long)data_offset);
        if (st != GS_OK) {
            return st;
        }
    }
    uint64_t pad_end = data_offset < f->size ? data_offset : f->size;
    /* The padding is read too (and with it every byte before the data section is in memory). */
    if (!gsi_cur_reach(&p->cur, pad_end)) {
        return gsi_fail(p->err, GS_E_TRUNCATED, p->cur.avail, GS_CONTEXT_NONE, NULL, 0,
                        "padding before the data section");
    }
    for (uint64_t i = info_end; i < pad_end; i++) {
        if (f->base[i] != 0) {
            if (l->header_padding_nonzero == 0) {
                l->first_nonzero_padding = i;
            }
            l->header_padding_nonzero++;
        }
    }

    gs_status st = p->strict ? check_packed(p, data_offset) : check_unpacked(p, data_offset);
    if (st != GS_OK) {
        return st;
    }

    /* What ggml's writer would have produced: every tensor padded, the last one included. */
    uint64_t data_end = data_offset;
    uint64_t predicted = data_offset;
    l->described_size = described_size(f, data_offset, p->alignment);
    for (size_t i = 0; i < f->n_tensors; i++) {
        const gsi_tensor *t = &f->tensors[i];
        if (t->outside) {
            continue; /* no place in the file: reported already, or metadata-only */
        }
        uint64_t end = data_offset + t->offset + t->nbytes; /* in the file: cannot wrap */
        uint64_t padded;
        /* Detect and prevent integer overflow */
        if (gsi_checked_pad_u64(end - data_offset, p->alignment, &padded) ||
            gsi_checked_add_u64(data_offset, padded, &padded)) {
            return gsi_fail(p->err, GS_E_SIZE_OVERFLOW, gsi_tensor_offset_field(t),
                            GS_CONTEXT_TENSOR, f->base + t->name_off, t->name_len,
                            "padded end %llu + %llu", (unsigned long long)t->offset,
                            (unsigned long long)t->nbytes);
        }
        if (end > data_end) {
            data_end = end;
        }
        if (padded > predicted) {
            predicted = padded;
        }
    }
    /* A tensor of an unknown type (diagnostic mode) that starts last may own every byte after
     * its offset: nothing after it is counted as trailing. */
    const gsi_tensor *last = NULL;
    for (size_t i = 0; i < f->n_tensors; i++) {
        const gsi_tensor *t = &f->tensors[i];
        if (!t->outside && (last == NULL || t->offset >= last->offset)) {
            last = t;
        }
    }
    if (last != NULL && last->unknown_type && f->size > predicted) {
        predicted = f->size;
        data_end = f->size;
    }
    l->data_end = data_end;
    l->predicted_size = predicted;
    l->trailing_bytes = f->size > predicted ? f->size - predicted : 0;
    l->missing_tail_padding = predicted > f->size ? predicted - f->size : 0;
    return GS_OK;
}
