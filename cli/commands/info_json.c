/* The JSON form of `ggufsafe info`, described by conformance/schema/info.schema.json: every KV
 * (arrays with a bounded head), every tensor, the layout, parameters, quantization mix and the
 * size check; for a split set the same per part plus the set's totals. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_source.h"
#include "info_model.h"
#include "kv_value.h"

/* Elements shown of each array: enough to recognise a vocabulary, bounded for huge ones. */
#define ARRAY_HEAD 8

static void json_metadata_entry(cli_json *j, const gs_file *f, size_t i, const gs_kv_info *kv)
{
    cli_json_begin_object(j);
    cli_json_key(j, "key");
    cli_json_string(j, kv->key.ptr, kv->key.len);
    cli_json_key_cstring(j, "type", gs_value_type_name(kv->type));
    cli_json_key_u64(j, "offset", kv->offset);
    if (kv->type != GS_VALUE_ARRAY) {
        cli_value v;
        cli_json_key(j, "value");
        if (cli_read_scalar(f, i, kv->type, &v) == GS_OK) {
            cli_value_json(&v, j);
        } else {
            cli_json_null(j); /* the reader validated it at open: not reached */
        }
    } else {
        cli_json_key_cstring(j, "elem_type", gs_value_type_name(kv->elem_type));
        cli_json_key_u64(j, "count", kv->count);
        cli_json_key(j, "head");
        cli_json_begin_inline_array(j);
        for (uint64_t e = 0; e < kv->count && e < ARRAY_HEAD; e++) {
            cli_value v;
            if (cli_read_element(f, i, kv->elem_type, e, &v) == GS_OK) {
                cli_value_json(&v, j);
            } else {
                cli_json_null(j);
            }
        }
        cli_json_end_array(j);
    }
    cli_json_end_object(j);
}

static void json_tensor(cli_json *j, const gs_file *f, const gs_tensor_info *t)
{
    cli_json_begin_object(j);
    cli_json_key(j, "name");
    cli_json_string(j, t->name.ptr, t->name.len);
    cli_json_key_u64(j, "n_dims", t->n_dims);
    cli_json_key(j, "shape");
    cli_json_begin_inline_array(j);
    for (uint32_t d = 0; d < t->n_dims && d < GS_MAX_DIMS; d++) {
        cli_json_u64(j, t->ne[d]);
    }
    cli_json_end_array(j);
    cli_json_key_cstring(j, "type", gs_file_type_name(f, (int32_t)t->type));
    cli_json_key(j, "type_id");
    cli_json_i64(j, t->type);
    cli_json_key_u64(j, "n_elements", t->n_elements);
    cli_json_key_u64(j, "offset", t->offset);
    cli_json_key_u64(j, "data_offset", t->data_offset);
    cli_json_key_u64(j, "size", t->size);
    cli_json_key_bool(j, "data_in_file", t->data_in_file);
    cli_json_end_object(j);
}

static void json_layout(cli_json *j, const gs_layout *l)
{
    cli_json_key(j, "layout");
    cli_json_begin_object(j);
    cli_json_key_u64(j, "file_size", l->file_size);
    cli_json_key_u64(j, "kv_end", l->kv_end);
    cli_json_key_u64(j, "tensor_info_end", l->tensor_info_end);
    cli_json_key_u64(j, "alignment", l->alignment);
    cli_json_key_u64(j, "data_offset", l->data_offset);
    cli_json_key_u64(j, "data_end", l->data_end);
    cli_json_key_u64(j, "predicted_size", l->predicted_size);
    cli_json_key_u64(j, "trailing_bytes", l->trailing_bytes);
    cli_json_key_u64(j, "missing_tail_padding", l->missing_tail_padding);
    cli_json_key_u64(j, "header_padding_nonzero", l->header_padding_nonzero);
    cli_json_key_u64(j, "first_nonzero_padding", l->first_nonzero_padding);
    cli_json_key_u64(j, "tensors_outside", l->tensors_outside);
    cli_json_key(j, "described_size");
    if (l->described_size == UINT64_MAX) {
        cli_json_null(j); /* a crafted offset: no complete file has it */
    } else {
        cli_json_u64(j, l->described_size);
    }
    cli_json_end_object(j);
}

/* parameters, tensor_bytes, quantization_mix and size_check: shared by a file and a set. */
static void json_totals(cli_json *j, const info_summary *s)
{
    cli_json_key_u64(j, "parameters", s->parameters);
    cli_json_key_u64(j, "tensor_bytes", s->tensor_bytes);
    cli_json_key(j, "quantization_mix");
    cli_json_begin_array(j);
    for (size_t i = 0; i < s->n_mix; i++) {
        const info_mix_entry *e = &s->mix[i];
        cli_json_begin_object(j);
        cli_json_key_cstring(j, "type", e->name);
        cli_json_key(j, "type_id");
        cli_json_i64(j, e->type);
        cli_json_key_u64(j, "tensors", e->tensors);
        cli_json_key_u64(j, "bytes", e->bytes);
        cli_json_key(j, "share_percent");
        cli_json_f64(j, info_share_percent(s, e->bytes));
        cli_json_end_object(j);
    }
    cli_json_end_array(j);
    cli_json_key_cstring(j, "size_check", s->exact ? "EXACT" : "MISMATCH");
}

/* The members describing one file, written into the currently open object. */
static void json_file_members(cli_json *j, const gs_file *f, const char *path)
{
    cli_json_key(j, "path");
    cli_json_cstring(j, path);
    cli_json_key_u64(j, "version", gs_file_version(f));
    cli_json_key_u64(j, "kv_count", gs_kv_count(f));
    cli_json_key_u64(j, "tensor_count", gs_tensor_count(f));

    cli_json_key(j, "metadata");
    cli_json_begin_array(j);
    for (size_t i = 0; i < gs_kv_count(f); i++) {
        gs_kv_info kv;
        if (gs_kv_info_at(f, i, &kv) == GS_OK) {
            json_metadata_entry(j, f, i, &kv);
        }
    }
    cli_json_end_array(j);

    cli_json_key(j, "tensors");
    cli_json_begin_array(j);
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        if (gs_tensor_info_at(f, i, &t) == GS_OK) {
            json_tensor(j, f, &t);
        }
    }
    cli_json_end_array(j);

    gs_layout l;
    gs_file_layout(f, &l);
    json_layout(j, &l);
    info_summary s;
    info_summarize(f, &s);
    json_totals(j, &s);
}

void info_json_file_value(cli_json *j, const gs_file *file, const char *path,
                          const gs_options *opts)
{
    cli_json_begin_object(j);
    cli_json_report_header(j, "info", opts);
    cli_json_key_cstring(j, "kind", "file");
    json_file_members(j, file, path);
    cli_json_end_object(j);
}

void info_json_file(cli_out *out, const gs_file *file, const char *path, const gs_options *opts)
{
    cli_json j;
    cli_json_init(&j, out);
    info_json_file_value(&j, file, path, opts);
    cli_json_finish(&j);
}

void info_json_split(cli_out *out, const gs_split *split, const char *path, const gs_options *opts)
{
    cli_json j;
    cli_json_init(&j, out);
    info_json_split_value(&j, split, path, opts);
    cli_json_finish(&j);
}

void info_json_split_value(cli_json *j, const gs_split *split, const char *path,
                           const gs_options *opts)
{
    size_t n = gs_split_part_count(split);
    size_t cap = strlen(path) + 1;
    char *part_path = cli_xmalloc(cap);
    info_summary total;
    info_summary_init_total(&total);

    cli_json_begin_object(j);
    cli_json_report_header(j, "info", opts);
    cli_json_key_cstring(j, "kind", "split");
    cli_json_key(j, "path");
    cli_json_cstring(j, path);
    cli_json_key_u64(j, "part_count", n);
    cli_json_key_u64(j, "tensor_count", gs_split_tensor_count(split));
    cli_json_key(j, "parts");
    cli_json_begin_array(j);
    for (size_t i = 0; i < n; i++) {
        const gs_file *f = gs_split_part(split, i);
        if (f == NULL) {
            continue;
        }
        cli_source_part_path(part_path, cap, path, i);
        cli_json_begin_object(j);
        json_file_members(j, f, part_path);
        cli_json_end_object(j);
        info_summary s;
        info_summarize(f, &s);
        info_summary_add(&total, &s);
    }
    cli_json_end_array(j);
    free(part_path);
    cli_json_key_u64(j, "file_size", total.actual_size);
    cli_json_key_u64(j, "predicted_size", total.predicted_size);
    json_totals(j, &total);
    cli_json_end_object(j);
}
