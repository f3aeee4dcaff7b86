#include <stdlib.h>

#include "checked_math.h"
#include "parse.h"

uint64_t gsi_tensor_offset_field(const gsi_tensor *t)
{
    return t->name_off + t->name_len + 4 + 8ull * t->n_dims + 4;
}

/* Layout failures point at the tensor-info `offset` field of the tensor concerned. */
__attribute__((format(printf, 4, 5))) static gs_status
fail_layout(gsi_parser *p, gs_status st, const gsi_tensor *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gsi_failv(p->err, st, gsi_tensor_offset_field(t), GS_CONTEXT_TENSOR,
              p->file->base + t->name_off, t->name_len, fmt, ap);
    va_end(ap);
    return st;
}

/* Every tensor's [start, end) inside the file, with arithmetic that cannot wrap. */
static gs_status check_in_file(gsi_parser *p, const gsi_tensor *t, uint64_t data_offset,
                               uint64_t *end_out)
{
    uint64_t start, end;
    /* Detect and prevent integer overflow */
    if (gsi_checked_add_u64(data_offset, t->offset, &start) ||
        gsi_checked_add_u64(start, t->nbytes, &end) || end > p->file->size) {
        return fail_layout(p, GS_E_DATA_OUTSIDE_FILE, t,
                           "data at offset %llu + %llu bytes past the data section start lies "
                           "beyond the end of the file",
                           (unsigned long long)t->offset, (unsigned long long)t->nbytes);
    }
    *end_out = end;
    return GS_OK;
}

/* strict: offsets must equal the running padded sum (ggml's rule): aligned, in order, no gaps,
 * no overlap, no aliasing. */
static gs_status check_packed(gsi_parser *p, uint64_t data_offset)
{
    gs_file *f = p->file;
    uint64_t expected = 0;
    for (size_t i = 0; i < f->n_tensors; i++) {
        const gsi_tensor *t = &f->tensors[i];
        if (t->offset % p->alignment != 0) {
            return fail_layout(p, GS_E_MISALIGNED_OFFSET, t, "offset %llu, alignment %llu",
                               (unsigned long long)t->offset, (unsigned long long)p->alignment);
        }
        if (t->offset != expected) {
            return fail_layout(p, GS_E_OFFSET_NOT_PACKED, t, "offset %llu, expected %llu",
                               (unsigned long long)t->offset, (unsigned long long)expected);
        }
        uint64_t end;
        gs_status st = check_in_file(p, t, data_offset, &end);
        if (st != GS_OK) {
            return st;
        }
        uint64_t padded;
        /* Detect and prevent integer overflow */
        if (gsi_checked_pad_u64(t->nbytes, p->alignment, &padded) ||
            gsi_checked_add_u64(expected, padded, &expected)) {
            return fail_layout(p, GS_E_SIZE_OVERFLOW, t, "running size %llu + %llu",
                               (unsigned long long)expected, (unsigned long long)t->nbytes);
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

/* lenient: any order and any gaps, but inside the file and without two tensors sharing bytes. */
static gs_status check_unpacked(gsi_parser *p, uint64_t data_offset)
{
    gs_file *f = p->file;
    size_t n = 0;
    for (size_t i = 0; i < f->n_tensors; i++) {
        uint64_t end;
        gs_status st = check_in_file(p, &f->tensors[i], data_offset, &end);
        if (st != GS_OK) {
            return st;
        }
        if (f->tensors[i].nbytes > 0) {
            n++;
        }
    }
    if (n < 2) {
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
        if (t->nbytes > 0) {
            spans[k++] = (span){t->offset, t->offset + t->nbytes, (uint32_t)i};
        }
    }
    qsort(spans, n, sizeof(span), span_cmp);
    /* Sorted by start, the first overlap is always between neighbours. */
    st = GS_OK;
    for (size_t i = 1; i < n; i++) {
        if (spans[i].start < spans[i - 1].end) {
            const span *later = spans[i].index > spans[i - 1].index ? &spans[i] : &spans[i - 1];
            const span *other = later == &spans[i] ? &spans[i - 1] : &spans[i];
            st = fail_layout(p, GS_E_TENSOR_OVERLAP, &f->tensors[later->index],
                             "shares bytes with tensor %llu (offset %llu)",
                             (unsigned long long)other->index,
                             (unsigned long long)f->tensors[other->index].offset);
            break;
        }
    }
    gsi_mem_free(&f->mem, spans, n * sizeof(span));
    return st;
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
    /* ggml requires the padding before the data section whenever there are tensors. */
    if (f->n_tensors > 0 && data_offset > f->size) {
        return gsi_fail(p->err, GS_E_TRUNCATED, info_end, GS_CONTEXT_NONE, NULL, 0,
                        "padding to the %u-byte aligned data section at %llu", p->alignment,
                        (unsigned long long)data_offset);
    }
    uint64_t pad_end = data_offset < f->size ? data_offset : f->size;
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
    for (size_t i = 0; i < f->n_tensors; i++) {
        const gsi_tensor *t = &f->tensors[i];
        uint64_t end = data_offset + t->offset + t->nbytes; /* in the file: cannot wrap */
        uint64_t padded;
        /* Detect and prevent integer overflow */
        if (gsi_checked_pad_u64(end - data_offset, p->alignment, &padded) ||
            gsi_checked_add_u64(data_offset, padded, &padded)) {
            return fail_layout(p, GS_E_SIZE_OVERFLOW, t, "padded end %llu + %llu",
                               (unsigned long long)t->offset, (unsigned long long)t->nbytes);
        }
        if (end > data_end) {
            data_end = end;
        }
        if (padded > predicted) {
            predicted = padded;
        }
    }
    l->data_end = data_end;
    l->predicted_size = predicted;
    l->trailing_bytes = f->size > predicted ? f->size - predicted : 0;
    l->missing_tail_padding = predicted > f->size ? predicted - f->size : 0;
    return GS_OK;
}
