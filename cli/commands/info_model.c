#include "info_model.h"

#include <stdio.h>
#include <string.h>

#include "checked_math.h"

/* Sums of sizes from an opened file cannot wrap (every tensor lies inside the file, without
 * overlap), so saturation here is a belt for the braces, not a reachable path. */
static uint64_t add_saturating(uint64_t a, uint64_t b)
{
    uint64_t r;
    return gsi_checked_add_u64(a, b, &r) ? UINT64_MAX : r;
}

void info_summarize(const gs_file *file, info_summary *out)
{
    memset(out, 0, sizeof *out);
    size_t n_kv = gs_kv_count(file);
    for (size_t i = 0; i < n_kv; i++) {
        gs_kv_info kv;
        if (gs_kv_info_at(file, i, &kv) == GS_OK && kv.type == GS_VALUE_ARRAY) {
            out->n_arrays++;
        } else {
            out->n_scalars++;
        }
    }
    size_t n_tensors = gs_tensor_count(file);
    out->n_tensors = n_tensors;
    for (size_t i = 0; i < n_tensors; i++) {
        gs_tensor_info t;
        if (gs_tensor_info_at(file, i, &t) != GS_OK) {
            continue;
        }
        out->parameters = add_saturating(out->parameters, t.n_elements);
        out->tensor_bytes = add_saturating(out->tensor_bytes, t.size);
        /* An opened file only holds registry types; the check keeps the index honest anyway. */
        if ((unsigned)t.type < GS_TYPE_COUNT) {
            out->type_tensors[t.type]++;
            out->type_bytes[t.type] = add_saturating(out->type_bytes[t.type], t.size);
        }
    }
    gs_layout l;
    gs_file_layout(file, &l);
    out->predicted_size = l.predicted_size;
    out->actual_size = l.file_size;
    out->trailing_bytes = l.trailing_bytes;
    out->missing_tail_padding = l.missing_tail_padding;
    out->tensors_absent = l.tensors_outside;
    out->described_size = l.described_size;
    out->exact = l.predicted_size == l.file_size && l.tensors_outside == 0;
}

double info_share_percent(const info_summary *s, int32_t type)
{
    if (type < 0 || type >= GS_TYPE_COUNT || s->tensor_bytes == 0) {
        return 0.0;
    }
    return 100.0 * (double)s->type_bytes[type] / (double)s->tensor_bytes;
}

void info_summary_init_total(info_summary *total)
{
    memset(total, 0, sizeof *total);
    total->exact = true;
}

void info_summary_add(info_summary *total, const info_summary *part)
{
    total->n_scalars += part->n_scalars;
    total->n_arrays += part->n_arrays;
    total->n_tensors += part->n_tensors;
    total->parameters = add_saturating(total->parameters, part->parameters);
    total->tensor_bytes = add_saturating(total->tensor_bytes, part->tensor_bytes);
    for (int t = 0; t < GS_TYPE_COUNT; t++) {
        total->type_tensors[t] += part->type_tensors[t];
        total->type_bytes[t] = add_saturating(total->type_bytes[t], part->type_bytes[t]);
    }
    total->predicted_size = add_saturating(total->predicted_size, part->predicted_size);
    total->actual_size = add_saturating(total->actual_size, part->actual_size);
    total->trailing_bytes = add_saturating(total->trailing_bytes, part->trailing_bytes);
    total->missing_tail_padding =
        add_saturating(total->missing_tail_padding, part->missing_tail_padding);
    total->tensors_absent = add_saturating(total->tensors_absent, part->tensors_absent);
    total->described_size = add_saturating(total->described_size, part->described_size);
    total->exact = total->exact && part->exact;
}
