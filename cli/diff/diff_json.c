/* The JSON form of `ggufsafe diff`, described by conformance/schema/diff.schema.json. Tensors
 * appear in list order (A's file order, then what only B has), not worst first: a machine sorts
 * for itself, and a stable order diffs well. */
#include <math.h>

#include "diff_report.h"
#include "kv_value.h"
#include "report_header.h"

static void json_source(cli_json *j, const char *key, const char *path, const cli_source *s)
{
    cli_json_key(j, key);
    cli_json_begin_object(j);
    cli_json_key_cstring(j, "path", path);
    cli_json_key_cstring(j, "kind", s->split != NULL ? "split" : "file");
    cli_json_key_u64(j, "part_count", cli_source_parts(s));
    uint64_t tensors = 0;
    for (size_t i = 0; i < cli_source_parts(s); i++) {
        tensors += gs_tensor_count(cli_source_part(s, i));
    }
    cli_json_key_u64(j, "tensor_count", tensors);
    cli_json_key_u64(j, "kv_count", gs_kv_count(cli_source_part(s, 0)));
    cli_json_end_object(j);
}

static void json_patterns(cli_json *j, const char *key, const char *const *list, size_t n)
{
    cli_json_key(j, key);
    cli_json_begin_array(j);
    for (size_t i = 0; i < n; i++) {
        cli_json_cstring(j, list[i]);
    }
    cli_json_end_array(j);
}

/* The --tensor and --exclude patterns that chose the tensors (empty: every tensor). */
static void json_filters(cli_json *j, const cli_name_filter *f)
{
    cli_json_key(j, "filters");
    cli_json_begin_object(j);
    json_patterns(j, "tensor", f->include, f->n_include);
    json_patterns(j, "exclude", f->exclude, f->n_exclude);
    cli_json_end_object(j);
}

/* {"type": ..., "value": ...} for a scalar, {"type": "array", "elem_type", "count"} for an
 * array, and the element at `at` when has_at. */
static void json_value(cli_json *j, const gs_file *f, size_t i, bool has_at, uint64_t at)
{
    gs_kv_info kv;
    cli_json_begin_object(j);
    if (gs_kv_info_at(f, i, &kv) == GS_OK) {
        cli_json_key_cstring(j, "type", gs_value_type_name(kv.type));
        cli_value v;
        if (kv.type != GS_VALUE_ARRAY) {
            cli_json_key(j, "value");
            if (cli_read_scalar(f, i, kv.type, &v) == GS_OK) {
                cli_value_json(&v, j);
            } else {
                cli_json_null(j); /* validated at open: not reached */
            }
        } else {
            cli_json_key_cstring(j, "elem_type", gs_value_type_name(kv.elem_type));
            cli_json_key_u64(j, "count", kv.count);
            if (has_at) {
                cli_json_key(j, "element");
                if (at < kv.count && cli_read_element(f, i, kv.elem_type, at, &v) == GS_OK) {
                    cli_value_json(&v, j);
                } else {
                    cli_json_null(j); /* past the end of the shorter array */
                }
            }
        }
    }
    cli_json_end_object(j);
}

static void json_key_of(cli_json *j, const gs_file *f, size_t i)
{
    gs_kv_info kv;
    cli_json_key(j, "key");
    if (gs_kv_info_at(f, i, &kv) == GS_OK) {
        cli_json_string(j, kv.key.ptr, kv.key.len);
    } else {
        cli_json_null(j);
    }
}

static void json_metadata(cli_json *j, const diff_report *r)
{
    const gs_file *fa = cli_source_part(r->a, 0), *fb = cli_source_part(r->b, 0);
    static const char *const names[] = {"only_in_a", "only_in_b", "changed"};
    cli_json_key(j, "metadata");
    cli_json_begin_object(j);
    for (int kind = DIFF_KV_ONLY_A; kind <= DIFF_KV_CHANGED; kind++) {
        cli_json_key(j, names[kind]);
        cli_json_begin_array(j);
        for (size_t k = 0; k < r->kvs.n; k++) {
            const diff_kv *d = &r->kvs.items[k];
            if ((int)d->kind != kind) {
                continue;
            }
            cli_json_begin_object(j);
            if (d->kind == DIFF_KV_CHANGED) {
                json_key_of(j, fa, d->ia);
                cli_json_key(j, "a");
                json_value(j, fa, d->ia, d->has_first_diff, d->first_diff);
                cli_json_key(j, "b");
                json_value(j, fb, d->ib, d->has_first_diff, d->first_diff);
                if (d->has_first_diff) {
                    cli_json_key_u64(j, "first_difference", d->first_diff);
                }
            } else {
                const gs_file *f = d->kind == DIFF_KV_ONLY_A ? fa : fb;
                size_t i = d->kind == DIFF_KV_ONLY_A ? d->ia : d->ib;
                json_key_of(j, f, i);
                cli_json_key(j, "value");
                json_value(j, f, i, false, 0);
            }
            cli_json_end_object(j);
        }
        cli_json_end_array(j);
    }
    cli_json_end_object(j);
}

static void json_tensor_side(cli_json *j, const char *key, const diff_side *s)
{
    gs_tensor_info t;
    diff_side_info(s, &t);
    cli_json_key(j, key);
    cli_json_begin_object(j);
    cli_json_key_cstring(j, "type", gs_type_name(t.type));
    cli_json_key(j, "shape");
    cli_json_begin_inline_array(j);
    for (uint32_t d = 0; d < t.n_dims && d < GS_MAX_DIMS; d++) {
        cli_json_u64(j, t.ne[d]);
    }
    cli_json_end_array(j);
    cli_json_end_object(j);
}

static void json_name(cli_json *j, const diff_side *s)
{
    gs_tensor_info t;
    diff_side_info(s, &t);
    cli_json_key(j, "name");
    cli_json_string(j, t.name.ptr, t.name.len);
}

static void json_f64(cli_json *j, const char *key, double v)
{
    cli_json_key(j, key);
    cli_json_f64(j, v);
}

static void json_metrics(cli_json *j, const diff_report *r, size_t row)
{
    const diff_metrics *m = &r->pairs.items[row].m;
    cli_json_key_u64(j, "n_elements", m->n_elements);
    json_f64(j, "max_abs", m->max_abs);
    json_f64(j, "rmse", m->rmse);
    json_f64(j, "nmse", m->nmse);
    json_f64(j, "cosine", m->cosine);
    cli_json_key_u64(j, "equal", m->equal);
    json_f64(j, "equal_fraction", diff_equal_fraction(m));
    cli_json_key_u64(j, "nan_a", m->nan_a);
    cli_json_key_u64(j, "nan_b", m->nan_b);
    cli_json_key_u64(j, "inf_a", m->inf_a);
    cli_json_key_u64(j, "inf_b", m->inf_b);
    cli_json_key_u64(j, "nonfinite_mismatches", m->nonfinite_mismatches);
    cli_json_key_u64(j, "block_elems", m->block_elems);
    cli_json_key_u64(j, "blocks", (m->n_elements + m->block_elems - 1) / m->block_elems);
    cli_json_key_u64(j, "changed_blocks", m->changed_blocks);
    cli_json_key(j, "worst_block");
    if (m->has_worst) {
        cli_json_begin_object(j);
        cli_json_key_u64(j, "index", m->worst_block);
        cli_json_key_u64(j, "first_element", m->worst_block * m->block_elems);
        json_f64(j, "rmse", m->worst_rmse);
        json_f64(j, "max_abs", m->worst_max_abs);
        cli_json_end_object(j);
    } else {
        cli_json_null(j);
    }
    unsigned bits = diff_exceeds(&r->th, m) | diff_row_exceeds(r, row);
    cli_json_key(j, "exceeds");
    cli_json_begin_inline_array(j);
    if (bits & DIFF_EXCEEDS_NMSE) {
        cli_json_cstring(j, "max_nmse");
    }
    if (bits & DIFF_EXCEEDS_ABS) {
        cli_json_cstring(j, "max_abs");
    }
    if (bits & DIFF_EXCEEDS_COS) {
        cli_json_cstring(j, "min_cos");
    }
    if (bits & DIFF_EXCEEDS_RATIO) {
        cli_json_cstring(j, "max_nmse_ratio");
    }
    if (bits & DIFF_EXCEEDS_INCREASE) {
        cli_json_cstring(j, "max_nmse_increase");
    }
    cli_json_end_array(j);
    const diff_pair *p = &r->pairs.items[row];
    cli_json_key_u64(j, "bytes_b", diff_pair_bytes(p));
    json_f64(j, "bits_per_weight", diff_pair_bpw(p));
    const diff_pair *q = diff_row_baseline(r, row);
    if (q != NULL) {
        gs_tensor_info t;
        diff_side_info(&q->b, &t);
        cli_json_key(j, "baseline");
        cli_json_begin_object(j);
        cli_json_key_cstring(j, "type", gs_type_name(t.type));
        json_f64(j, "bits_per_weight", diff_pair_bpw(q));
        json_f64(j, "max_abs", q->m.max_abs);
        json_f64(j, "rmse", q->m.rmse);
        json_f64(j, "nmse", q->m.nmse);
        json_f64(j, "cosine", q->m.cosine);
        cli_json_end_object(j);
        json_f64(j, "nmse_ratio", diff_nmse_ratio(q->m.nmse, m->nmse));
        json_f64(j, "nmse_increase", diff_nmse_increase(q->m.nmse, m->nmse));
    }
}

static void json_tensors(cli_json *j, const diff_report *r)
{
    static const struct {
        diff_pair_kind kind;
        const char *name;
    } groups[] = {{DIFF_PAIR_COMPARED, "compared"},
                  {DIFF_PAIR_ONLY_A, "only_in_a"},
                  {DIFF_PAIR_ONLY_B, "only_in_b"},
                  {DIFF_PAIR_SHAPE_MISMATCH, "shape_mismatches"},
                  {DIFF_PAIR_NOT_DECODABLE, "not_compared"}};
    cli_json_key(j, "tensors");
    cli_json_begin_object(j);
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        cli_json_key(j, groups[g].name);
        cli_json_begin_array(j);
        for (size_t i = 0; i < r->pairs.n; i++) {
            const diff_pair *p = &r->pairs.items[i];
            if (p->kind != groups[g].kind) {
                continue;
            }
            cli_json_begin_object(j);
            json_name(j, p->kind == DIFF_PAIR_ONLY_B ? &p->b : &p->a);
            if (p->kind != DIFF_PAIR_ONLY_B) {
                json_tensor_side(j, "a", &p->a);
            }
            if (p->kind != DIFF_PAIR_ONLY_A) {
                json_tensor_side(j, "b", &p->b);
            }
            if (p->kind == DIFF_PAIR_COMPARED) {
                json_metrics(j, r, i);
            }
            cli_json_end_object(j);
        }
        cli_json_end_array(j);
    }
    cli_json_end_object(j);
}

static void json_total(cli_json *j, const diff_report *r)
{
    const diff_total *t = &r->total;
    cli_json_key(j, "total");
    cli_json_begin_object(j);
    cli_json_key_u64(j, "tensors", t->tensors);
    cli_json_key_u64(j, "n_elements", t->n_elements);
    json_f64(j, "max_abs", t->max_abs);
    json_f64(j, "rmse", diff_total_rmse(t));
    json_f64(j, "nmse", diff_total_nmse(t));
    json_f64(j, "cosine", diff_total_cosine(t));
    cli_json_key_u64(j, "equal", t->equal);
    json_f64(j, "equal_fraction", diff_total_equal_fraction(t));
    cli_json_key_u64(j, "nonfinite_mismatches", t->nonfinite_mismatches);
    cli_json_end_object(j);
}

static void json_stats(cli_json *j, const diff_stats *s)
{
    cli_json_key_u64(j, "tensors", s->tensors);
    cli_json_key_u64(j, "elements", s->elements);
    cli_json_key_u64(j, "bytes", s->bytes);
    json_f64(j, "bits_per_weight", diff_stats_bpw(s));
    json_f64(j, "nmse", diff_stats_nmse(s));
    json_f64(j, "rmse", diff_stats_rmse(s));
    json_f64(j, "cosine", diff_stats_cosine(s));
    json_f64(j, "max_abs", s->max_abs);
    cli_json_key_u64(j, "nonfinite_mismatches", s->nonfinite_mismatches);
}

static void json_group(cli_json *j, const diff_report *r, const diff_group *g, int grouping)
{
    cli_json_begin_object(j);
    if (grouping == DIFF_BY_ROLE) {
        cli_json_key(j, "role");
        cli_json_string(j, g->name.ptr, g->name.len);
    } else if (grouping == DIFF_BY_LAYER) {
        cli_json_key(j, "layer");
        cli_json_string(j, g->name.ptr, g->name.len);
        cli_json_key_u64(j, "index", g->layer);
    } else if (grouping == DIFF_BY_TYPE) {
        cli_json_key_cstring(j, "type", gs_type_name(g->type));
        if (r->three_way) {
            cli_json_key_cstring(j, "baseline_type", gs_type_name(g->base_type));
        }
    }
    json_stats(j, &g->s);
    if (r->three_way) {
        cli_json_key(j, "baseline");
        cli_json_begin_object(j);
        json_stats(j, &g->base);
        cli_json_end_object(j);
        json_f64(j, "nmse_ratio", diff_group_nmse_ratio(g));
    }
    cli_json_end_object(j);
}

static void json_rollups(cli_json *j, const diff_report *r)
{
    static const char *const keys[DIFF_GROUPINGS] = {"by_role", "by_layer", "by_type"};
    const diff_rollups *ru = &r->rollups;
    cli_json_key(j, "rollups");
    cli_json_begin_object(j);
    for (int g = 0; g < DIFF_GROUPINGS; g++) {
        cli_json_key(j, keys[g]);
        cli_json_begin_array(j);
        for (size_t i = 0; i < ru->n[g]; i++) {
            json_group(j, r, &ru->groups[g][i], g);
        }
        cli_json_end_array(j);
    }
    cli_json_key(j, "total");
    json_group(j, r, &ru->total, DIFF_GROUPINGS);
    cli_json_end_object(j);
}

static void json_values(cli_json *j, const char *key, const float *v, uint32_t n)
{
    cli_json_key(j, key);
    cli_json_begin_inline_array(j);
    for (uint32_t i = 0; i < n; i++) {
        cli_json_f64(j, (double)v[i]);
    }
    cli_json_end_array(j);
}

static void json_worst(cli_json *j, const diff_report *r)
{
    cli_json_key(j, "worst_blocks");
    cli_json_begin_array(j);
    for (size_t i = 0; i < r->n_worst; i++) {
        const diff_worst *w = &r->worst[i];
        cli_json_begin_object(j);
        json_name(j, &r->pairs.items[w->pair].a);
        cli_json_key_u64(j, "block", w->e.block);
        cli_json_key_u64(j, "first_element", w->first);
        cli_json_key_u64(j, "elements", w->n);
        json_f64(j, "rmse", diff_worst_rmse(w));
        json_f64(j, "max_abs", w->e.nonfinite ? INFINITY : w->e.max_abs);
        json_values(j, "ref", w->ref, w->n);
        json_values(j, "candidate", w->cand, w->n);
        if (w->base != NULL) {
            json_values(j, "baseline", w->base, w->n);
            json_f64(j, "baseline_rmse", w->base_rmse);
            json_f64(j, "baseline_max_abs", w->base_max_abs);
        }
        cli_json_end_object(j);
    }
    cli_json_end_array(j);
}

static void json_threshold(cli_json *j, const char *key, bool has, double v)
{
    cli_json_key(j, key);
    if (has) {
        cli_json_f64(j, v);
    } else {
        cli_json_null(j);
    }
}

static void json_failure(cli_json *j, const diff_report *r, const diff_failure *f)
{
    cli_json_begin_object(j);
    cli_json_key_cstring(j, "rule", diff_rule_name(f->rule));
    if (f->rule == GS_DIFF_RULE_METADATA) {
        const diff_kv *d = &r->kvs.items[f->index];
        bool in_b = d->kind == DIFF_KV_ONLY_B;
        json_key_of(j, cli_source_part(in_b ? r->b : r->a, 0), in_b ? d->ib : d->ia);
    } else {
        const diff_pair *p = &r->pairs.items[f->index];
        cli_json_key(j, "tensor");
        gs_tensor_info t;
        diff_side_info(p->a.file != NULL ? &p->a : &p->b, &t);
        cli_json_string(j, t.name.ptr, t.name.len);
    }
    if (f->rule <= GS_DIFF_RULE_MAX_NMSE_INCREASE) {
        json_f64(j, "value", f->value);
        json_f64(j, "limit", f->limit);
    }
    cli_json_end_object(j);
}

static void json_gate(cli_json *j, const diff_report *r)
{
    const diff_rules *ru = &r->rules;
    cli_json_key(j, "gate");
    cli_json_begin_object(j);
    json_threshold(j, "max_nmse", r->th.has_max_nmse, r->th.max_nmse);
    json_threshold(j, "max_abs", r->th.has_max_abs, r->th.max_abs);
    json_threshold(j, "min_cos", r->th.has_min_cos, r->th.min_cos);
    cli_json_key_u64(j, "failing_tensors", r->failing);
    cli_json_key_u64(j, "shape_mismatches", r->pairs.count[DIFF_PAIR_SHAPE_MISMATCH]);
    cli_json_key_bool(j, "passed", diff_report_exit_code(r) == 0);
    json_threshold(j, "max_nmse_ratio", r->th.has_max_ratio, r->th.max_ratio);
    json_threshold(j, "max_nmse_increase", r->th.has_max_increase, r->th.max_increase);
    cli_json_key_bool(j, "active", r->gate.active);
    cli_json_key_bool(j, "allow_missing", ru->allow_missing);
    cli_json_key_bool(j, "allow_extra", ru->allow_extra);
    cli_json_key_bool(j, "fail_on_metadata", ru->fail_on_metadata);
    json_patterns(j, "fail_on_keys", ru->keys.include, ru->keys.n_include);
    json_patterns(j, "ignore_keys", ru->keys.exclude, ru->keys.n_exclude);
    cli_json_key(j, "failures");
    cli_json_begin_array(j);
    for (size_t i = 0; i < r->gate.n; i++) {
        json_failure(j, r, &r->gate.items[i]);
    }
    cli_json_end_array(j);
    cli_json_end_object(j);
}

void diff_json(cli_out *out, const diff_report *r)
{
    cli_json j;
    cli_json_init(&j, out);
    cli_json_begin_object(&j);
    cli_json_report_header(&j, "diff", r->opts);
    bool usable;
    cli_json_key_cstring(&j, "kernel", gs_kernel_name(gs_active_kernel(&usable)));
    cli_json_key_bool(&j, "metadata_only", r->metadata_only);
    json_source(&j, "a", r->path_a, r->a);
    json_source(&j, "b", r->path_b, r->b);
    if (r->three_way) {
        json_source(&j, "baseline", r->path_base, r->base);
    }
    json_filters(&j, &r->filter);
    json_metadata(&j, r);
    json_tensors(&j, r);
    json_total(&j, r);
    json_rollups(&j, r);
    json_worst(&j, r);
    json_gate(&j, r);
    cli_json_end_object(&j);
    cli_json_finish(&j);
}
