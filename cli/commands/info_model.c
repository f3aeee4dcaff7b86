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

/* Adds tensors and bytes to the mix's entry of type, inserted in id order when new. */
static void mix_add(info_summary *s, int32_t type, const char *name, uint64_t tensors,
                    uint64_t bytes)
{
    size_t lo = 0, hi = s->n_mix;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->mix[mid].type < type) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == s->n_mix || s->mix[lo].type != type) {
        if (s->n_mix == INFO_MIX_MAX) {
            return; /* more distinct types than a file can define: not reachable */
        }
        memmove(&s->mix[lo + 1], &s->mix[lo], (s->n_mix - lo) * sizeof s->mix[0]);
        s->mix[lo] = (info_mix_entry){type, name, 0, 0};
        s->n_mix++;
    }
    s->mix[lo].tensors += tensors;
    s->mix[lo].bytes = add_saturating(s->mix[lo].bytes, bytes);
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
        /* registry types and the caller's (--type, --plugin, --ggml), by the file's name */
        mix_add(out, (int32_t)t.type, gs_file_type_name(file, (int32_t)t.type), 1, t.size);
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

double info_share_percent(const info_summary *s, uint64_t bytes)
{
    if (s->tensor_bytes == 0) {
        return 0.0;
    }
    return 100.0 * (double)bytes / (double)s->tensor_bytes;
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
    for (size_t i = 0; i < part->n_mix; i++) {
        const info_mix_entry *e = &part->mix[i];
        mix_add(total, e->type, e->name, e->tensors, e->bytes);
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
