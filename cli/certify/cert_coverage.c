/* Byte coverage: every byte of a part is header, metadata, tensor info, zero padding, or the
 * data of exactly one tensor. Reports truncation (naming the first tensor whose data is
 * missing), trailing bytes, gaps between tensors, and padding that is not zero. Tensor data is
 * never read: only the padding and gap bytes, through gs_file_read in bounded chunks. Overlaps
 * are the lenient reader's finding (reader.GS_E_TENSOR_OVERLAP) and are not repeated here. */
#include <stdlib.h>
#include <string.h>

#include "cert.h"
#include "checked_math.h"
#include "spans.h"

/* Non-zero padding bytes of one part, and where the first one is. */
typedef struct pad_scan {
    uint64_t nonzero;
    uint64_t first;
    size_t after_tensor; /* SIZE_MAX: before the data section */
    gs_status read_status;
    uint64_t read_offset;
} pad_scan;

#define PAD_CHUNK 65536

/* Counts the non-zero bytes in [from, to) (clamped to the file by the caller). */
static void scan_zero(const gs_file *f, uint64_t from, uint64_t to, size_t after, pad_scan *ps)
{
    uint8_t buf[PAD_CHUNK];
    while (from < to && ps->read_status == GS_OK) {
        size_t n = to - from < PAD_CHUNK ? (size_t)(to - from) : PAD_CHUNK;
        gs_status st = gs_file_read(f, from, buf, n);
        if (st != GS_OK) {
            ps->read_status = st;
            ps->read_offset = from;
            return;
        }
        for (size_t i = 0; i < n; i++) {
            if (buf[i] != 0) {
                if (ps->nonzero == 0) {
                    ps->first = from + i;
                    ps->after_tensor = after;
                }
                ps->nonzero++;
            }
        }
        from += n;
    }
}

static uint64_t pad_up(uint64_t x, uint64_t base, uint32_t align)
{
    uint64_t rel = x - base, padded;
    /* Detect and prevent integer overflow */
    if (gsi_checked_pad_u64(rel, align, &padded) || gsi_checked_add_u64(base, padded, &padded)) {
        return UINT64_MAX;
    }
    return padded;
}

/* The first tensor, in file order, whose data is not (entirely) in the file: the file is cut
 * short (layout.truncated), or, in a metadata-only run, its data is simply absent (one note,
 * layout.data_absent). True when there is one (the bytes after the last complete tensor are
 * then a torn tensor, not trailing bytes). */
static bool truncation(cert_run *r, uint32_t p)
{
    const gs_file *f = r->parts[p].file;
    const gs_layout *l = &r->parts[p].layout;
    size_t n = gs_tensor_count(f), missing = 0, first = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        gs_tensor_info t;
        gs_tensor_info_at(f, i, &t);
        if (!t.data_in_file || l->data_offset > l->file_size) {
            missing++;
            if (first == SIZE_MAX) {
                first = i;
            }
        }
    }
    if (first == SIZE_MAX) {
        return false;
    }
    gs_tensor_info t;
    gs_tensor_info_at(f, first, &t);
    char described[64] = "";
    if (l->described_size != UINT64_MAX) {
        snprintf(described, sizeof described, " of the %llu its header describes",
                 (unsigned long long)l->described_size);
    }
    if (r->opt.metadata_only) {
        cert_add(&r->findings, "layout.data_absent", p, l->file_size, CERT_SUBJECT_TENSOR,
                 t.name.ptr, t.name.len,
                 "%zu of %zu tensors have no data in this file (it ends at byte %llu%s); the "
                 "first is tensor %zu (data at %llu, %llu bytes); their data was not checked",
                 missing, n, (unsigned long long)l->file_size, described, first,
                 (unsigned long long)t.data_offset, (unsigned long long)t.size);
        return true;
    }
    cert_add(&r->findings, "layout.truncated", p, l->file_size, CERT_SUBJECT_TENSOR, t.name.ptr,
             t.name.len,
             "the file ends at byte %llu%s; tensor %zu of %zu (data at %llu, %llu bytes) is the "
             "first of %zu whose data is missing",
             (unsigned long long)l->file_size, described, first, n,
             (unsigned long long)t.data_offset, (unsigned long long)t.size, missing);
    return true;
}

static void report_padding(cert_run *r, uint32_t p, const pad_scan *ps)
{
    const gs_file *f = r->parts[p].file;
    if (ps->read_status != GS_OK) {
        r->read_failed = true;
        cert_read_failed(r, p, ps->read_status, ps->read_offset,
                         "the file changed while its padding bytes were read");
        return;
    }
    if (ps->nonzero == 0) {
        return;
    }
    if (ps->after_tensor == SIZE_MAX) {
        cert_add(&r->findings, "layout.padding_nonzero", p, ps->first, CERT_SUBJECT_NONE, NULL, 0,
                 "%llu padding bytes are not zero, the first at byte %llu (before the data "
                 "section)",
                 (unsigned long long)ps->nonzero, (unsigned long long)ps->first);
        return;
    }
    gs_tensor_info t;
    gs_tensor_info_at(f, ps->after_tensor, &t);
    cert_add(&r->findings, "layout.padding_nonzero", p, ps->first, CERT_SUBJECT_TENSOR,
             t.name.ptr, t.name.len,
             "%llu padding bytes are not zero, the first at byte %llu (after this tensor's data)",
             (unsigned long long)ps->nonzero, (unsigned long long)ps->first);
}

static void cover_part(cert_run *r, uint32_t p)
{
    const gs_file *f = r->parts[p].file;
    const gs_layout *l = &r->parts[p].layout;
    const uint64_t size = l->file_size;
    pad_scan ps = {.read_status = GS_OK, .after_tensor = SIZE_MAX};
    /* Before the data section: the reader counted these while parsing the mapping. */
    if (l->header_padding_nonzero > 0) {
        ps.nonzero = l->header_padding_nonzero;
        ps.first = l->first_nonzero_padding;
    }
    bool truncated = truncation(r, p);

    size_t n = gs_tensor_count(f), k = 0;
    cli_span *spans = cert_alloc(r, n, sizeof *spans);
    if (spans == NULL) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        gs_tensor_info t;
        gs_tensor_info_at(f, i, &t);
        gs_type_info ti;
        bool unknown = gs_file_type_info(f, t.type, &ti) != GS_OK; /* compat.unknown_type */
        if (t.data_in_file && (t.size > 0 || unknown)) {
            spans[k++] = (cli_span){t.data_offset, unknown ? UINT64_MAX : t.data_offset + t.size,
                                    i};
        }
    }
    cli_spans_sort(spans, k);
    /* A tensor of an unknown type has no known size: it owns the bytes up to the next tensor's
     * data (or the end of the file), so they are neither a gap nor padding. */
    for (size_t s = 0; s < k; s++) {
        if (spans[s].end == UINT64_MAX) {
            uint64_t next = s + 1 < k ? spans[s + 1].start : size;
            spans[s].end = next > spans[s].start ? next : spans[s].start;
        }
    }
    uint64_t cursor = l->data_offset < size ? l->data_offset : size;
    size_t prev = SIZE_MAX;
    for (size_t s = 0; s < k && ps.read_status == GS_OK; s++) {
        if (spans[s].start < cursor) {
            if (spans[s].end > cursor) {
                cursor = spans[s].end; /* overlap: the reader's finding */
                prev = spans[s].index;
            }
            continue;
        }
        uint64_t pad_end = prev == SIZE_MAX ? cursor : pad_up(cursor, l->data_offset, l->alignment);
        if (pad_end > spans[s].start) {
            pad_end = spans[s].start;
        }
        scan_zero(f, cursor, pad_end, prev, &ps);
        if (spans[s].start > pad_end) {
            gs_tensor_info t;
            gs_tensor_info_at(f, spans[s].index, &t);
            cert_add(&r->findings, "layout.gap", p, pad_end, CERT_SUBJECT_TENSOR, t.name.ptr,
                     t.name.len, "%llu bytes at %llu belong to no tensor and are not padding "
                     "(before this tensor's data)",
                     (unsigned long long)(spans[s].start - pad_end), (unsigned long long)pad_end);
        }
        cursor = spans[s].end;
        prev = spans[s].index;
    }
    /* After the last tensor: its padding, as far as the file goes. */
    if (prev != SIZE_MAX && ps.read_status == GS_OK) {
        uint64_t pad_end = pad_up(cursor, l->data_offset, l->alignment);
        scan_zero(f, cursor, pad_end < size ? pad_end : size, prev, &ps);
    }
    free(spans);
    report_padding(r, p, &ps);
    if (l->trailing_bytes > 0 && !truncated) {
        cert_add(&r->findings, "layout.trailing_bytes", p, l->predicted_size, CERT_SUBJECT_NONE,
                 NULL, 0, "%llu bytes after the end of the data (the layout ends at byte %llu, "
                 "the file at %llu)",
                 (unsigned long long)l->trailing_bytes, (unsigned long long)l->predicted_size,
                 (unsigned long long)size);
    }
}

void cert_check_coverage(cert_run *r)
{
    for (uint32_t p = 0; p < r->n_parts; p++) {
        if (r->parts[p].file != NULL) {
            cover_part(r, p);
        }
    }
}
