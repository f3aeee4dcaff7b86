/* The public face of comparison (include/ggufsafe_diff.h): opening each side as the commands do,
 * the comparison (metadata, pairing, chunked decoding on the shared work pool, the roll-ups, the
 * gate, the worst blocks), two-way and three-way, the results as data and the renderings. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "diff_compare.h"
#include "diff_report.h"

void gs_diff_options_init(gs_diff_options *opts)
{
    if (opts != NULL) {
        *opts = (gs_diff_options){.struct_size = sizeof *opts, .profile = GS_PROFILE_STRICT,
                                  .jobs = 1};
    }
}

/* A pattern list: no NULL array with a count, no NULL pattern. */
static bool patterns_ok(const char *const *list, size_t n)
{
    if (n > 0 && list == NULL) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (list[i] == NULL) {
            return false;
        }
    }
    return true;
}

static gs_status resolve(const gs_diff_options *given, gs_diff_options *o, gs_error *err)
{
    gs_diff_options_init(o);
    gs_status st = cli_take_options(o, sizeof *o, given,
                                    CLI_MIN_SIZE(gs_diff_options, progress_ctx),
                                    "gs_diff_options", err);
    if (st != GS_OK) {
        return st;
    }
    bool ok = o->profile == GS_PROFILE_STRICT || o->profile == GS_PROFILE_LENIENT;
    ok = ok && (!o->has_max_nmse || (isfinite(o->max_nmse) && o->max_nmse >= 0));
    ok = ok && (!o->has_max_abs || (isfinite(o->max_abs) && o->max_abs >= 0));
    ok = ok && (!o->has_min_cos || (isfinite(o->min_cos) && o->min_cos >= -1 && o->min_cos <= 1));
    ok = ok && patterns_ok(o->tensor_globs, o->n_tensor_globs) &&
         patterns_ok(o->exclude_globs, o->n_exclude_globs) &&
         patterns_ok(o->fail_on_keys, o->n_fail_on_keys) &&
         patterns_ok(o->ignore_keys, o->n_ignore_keys);
    ok = ok && (!o->has_max_nmse_ratio ||
                (isfinite(o->max_nmse_ratio) && o->max_nmse_ratio >= 0));
    ok = ok && (!o->has_max_nmse_increase || isfinite(o->max_nmse_increase));
    ok = ok && o->worst_blocks <= GS_DIFF_MAX_WORST;
    if (!ok) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "gs_diff_options: profile, a threshold, a count or a pattern list out "
                        "of range");
    }
    return GS_OK;
}

gs_status gs_diff_open(const char *path, const char *label, const gs_diff_options *opts,
                       gs_diff_input **out, gs_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (out == NULL || path == NULL) {
        return cli_null_argument(err);
    }
    gs_diff_options o;
    gs_status st = resolve(opts, &o, err);
    if (st != GS_OK) {
        return st;
    }
    gs_diff_input *in = calloc(1, sizeof *in);
    if (in == NULL || (in->path = cli_strndup(path, strlen(path))) == NULL) {
        free(in);
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_PART, (const uint8_t *)path,
                        strlen(path), "diff: opening");
    }
    cli_reader_options(&in->opts, o.profile);
    in->opts.metadata_only = o.metadata_only;
    cli_reader_types(&in->opts, o.type_defs, o.n_type_defs, o.decoders, o.n_decoders);
    st = cli_source_open(&in->src, path, o.part_only, &in->opts, label, err);
    if (st != GS_OK) {
        free(in->path);
        free(in);
        return st;
    }
    *out = in;
    return GS_OK;
}

void gs_diff_input_close(gs_diff_input *in)
{
    if (in != NULL) {
        cli_source_close(&in->src);
        free(in->path);
        free(in);
    }
}

/* Why pair p (of the baseline's list when base) could not be compared: its status, the tensor,
 * the side and its path. side 'A' is the reference, 'B' the pair's candidate, 'C' the baseline. */
static gs_status decode_failure(const diff_report *r, const diff_pair *p, char side,
                                gs_error *err)
{
    const diff_side *s = side == 'A' ? &p->a : &p->b;
    const char *label = side == 'A' ? "A" : "B", *path = side == 'A' ? r->path_a : r->path_b;
    if (r->three_way) {
        label = side == 'A' ? "REF" : (side == 'C' ? "A" : "B");
        path = side == 'C' ? r->path_base : path;
    }
    gs_tensor_info t;
    diff_side_info(s, &t);
    return gsi_fail(err, p->status, t.data_offset, GS_CONTEXT_TENSOR, (const uint8_t *)t.name.ptr,
                    t.name.len, "%s: %s", label, path);
}

/* Metadata only: nothing is decoded, so what would be compared is not. */
static void not_compared(diff_pairs *pairs)
{
    for (size_t i = 0; i < pairs->n; i++) {
        if (pairs->items[i].kind == DIFF_PAIR_COMPARED) {
            pairs->items[i].kind = DIFF_PAIR_NOT_DECODABLE;
            pairs->count[DIFF_PAIR_COMPARED]--;
            pairs->count[DIFF_PAIR_NOT_DECODABLE]++;
        }
    }
}

/* Everything once every side is open. */
static gs_status compare(diff_report *r, const gs_diff_options *o, gs_error *err)
{
    const cli_source *sa = r->a, *sb = r->b;
    gs_status st = diff_metadata(cli_source_part(sa, 0), sa->split != NULL,
                                 cli_source_part(sb, 0), sb->split != NULL, &r->kvs);
    if (st == GS_OK && r->three_way) {
        st = diff_metadata(cli_source_part(sa, 0), sa->split != NULL,
                           cli_source_part(r->base, 0), r->base->split != NULL, &r->base_kvs);
    }
    if (st != GS_OK) {
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "reading the metadata");
    }
    if (diff_match(sa, sb, &r->filter, &r->pairs) != GS_OK ||
        (r->three_way && diff_match(sa, r->base, &r->filter, &r->base_pairs) != GS_OK)) {
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "pairing tensors");
    }
    r->base_rows = r->three_way ? r->pairs.tensors_a : 0;
    r->metadata_only = o->metadata_only;
    if (r->metadata_only) {
        not_compared(&r->pairs);
        not_compared(&r->base_pairs);
    }
    cli_progress_relay pa = {o->progress, o->progress_ctx, 0, 1};
    diff_compare_plan plan = {&r->pairs, r->three_way ? &r->base_pairs : NULL, o->jobs,
                              DIFF_CHUNK_ELEMS, o->worst_blocks,
                              o->progress != NULL ? cli_progress_relay_update : NULL, &pa};
    bool in_base = false;
    /* metadata only: no tensor data is read, not even to see whether the bytes are the same */
    size_t failed = r->metadata_only ? r->pairs.n : diff_compare_run(&plan, &in_base);
    if (failed < r->pairs.n) {
        const diff_pair *p = in_base ? &r->base_pairs.items[failed] : &r->pairs.items[failed];
        return decode_failure(r, p, in_base && p->failed_side == 'B' ? 'C' : p->failed_side,
                              err);
    }
    if (diff_report_summarize(r) != GS_OK) {
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "the roll-ups");
    }
    size_t pair = 0;
    char side = 'A';
    st = diff_report_worst(r, &pair, &side);
    if (st == GS_E_NO_MEMORY) {
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "the worst blocks");
    }
    if (st != GS_OK) {
        diff_pair p = r->pairs.items[pair];
        if (side == 'C') {
            p.b = r->base_pairs.items[pair].b;
        }
        p.status = st;
        return decode_failure(r, &p, side, err);
    }
    return GS_OK;
}

static gs_status run(const gs_diff_input *ref, const gs_diff_input *base, const gs_diff_input *b,
                     const gs_diff_options *opts, gs_diff **out, gs_error *err)
{
    gs_diff_options o;
    gs_status st = resolve(opts, &o, err);
    if (st != GS_OK) {
        return st;
    }
    st = o.metadata_only ? GS_OK : cli_kernel_usable(err); /* nothing is decoded then */
    if (st != GS_OK) {
        return st;
    }
    gs_diff *d = calloc(1, sizeof *d);
    if (d == NULL) {
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "comparison");
    }
    diff_report *r = &d->r;
    r->three_way = base != NULL;
    r->path_a = ref->path;
    r->path_b = b->path;
    r->path_base = base != NULL ? base->path : NULL;
    r->a = &ref->src;
    r->b = &b->src;
    r->base = base != NULL ? &base->src : NULL;
    r->opts = &ref->opts;
    r->th = (diff_thresholds){o.has_max_nmse,       o.has_max_abs,         o.has_min_cos,
                              o.max_nmse,           o.max_abs,             o.min_cos,
                              base != NULL && o.has_max_nmse_ratio,
                              base != NULL && o.has_max_nmse_increase,
                              o.max_nmse_ratio,     o.max_nmse_increase};
    r->rules.allow_missing = o.allow_missing;
    r->rules.allow_extra = o.allow_extra;
    r->rules.fail_on_metadata = o.fail_on_metadata;
    r->keep_worst = o.worst_blocks;
    const cli_name_filter given = {o.tensor_globs, o.n_tensor_globs, o.exclude_globs,
                                   o.n_exclude_globs};
    const cli_name_filter keys = {o.fail_on_keys, o.n_fail_on_keys, o.ignore_keys,
                                  o.n_ignore_keys};
    if (cli_filter_copy(&r->filter, &given) != GS_OK ||
        cli_filter_copy(&r->rules.keys, &keys) != GS_OK) {
        gs_diff_free(d);
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "patterns");
    }
    st = compare(r, &o, err);
    if (st != GS_OK) {
        gs_diff_free(d);
        return st;
    }
    *out = d;
    return GS_OK;
}

gs_status gs_diff_compare(const gs_diff_input *a, const gs_diff_input *b,
                          const gs_diff_options *opts, gs_diff **out, gs_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (out == NULL || a == NULL || b == NULL) {
        return cli_null_argument(err);
    }
    return run(a, NULL, b, opts, out, err);
}

gs_status gs_diff_compare3(const gs_diff_input *ref, const gs_diff_input *a,
                           const gs_diff_input *b, const gs_diff_options *opts, gs_diff **out,
                           gs_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (out == NULL || ref == NULL || a == NULL || b == NULL) {
        return cli_null_argument(err);
    }
    return run(ref, a, b, opts, out, err);
}

void gs_diff_free(gs_diff *d)
{
    if (d != NULL) {
        diff_report_free(&d->r);
        free(d);
    }
}

/* ---- results ------------------------------------------------------------------------------ */

gs_status gs_diff_get_summary(const gs_diff *d, gs_diff_summary *out)
{
    if (d == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    const diff_report *r = &d->r;
    const diff_total *t = &r->total;
    gs_diff_summary v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    v.tensors_a = r->pairs.tensors_a;
    v.tensors_b = r->pairs.tensors_b;
    v.compared = r->pairs.count[DIFF_PAIR_COMPARED];
    v.only_a = r->pairs.count[DIFF_PAIR_ONLY_A];
    v.only_b = r->pairs.count[DIFF_PAIR_ONLY_B];
    v.shape_mismatches = r->pairs.count[DIFF_PAIR_SHAPE_MISMATCH];
    v.not_compared = r->pairs.count[DIFF_PAIR_NOT_DECODABLE];
    v.metadata_only = r->metadata_only;
    v.kv_only_a = r->kvs.only_a;
    v.kv_only_b = r->kvs.only_b;
    v.kv_changed = r->kvs.changed;
    v.failing = r->failing;
    v.passed = diff_report_exit_code(r) == 0;
    v.n_elements = t->n_elements;
    v.equal = t->equal;
    v.nonfinite_mismatches = t->nonfinite_mismatches;
    v.max_abs = t->max_abs;
    v.rmse = diff_total_rmse(t);
    v.nmse = diff_total_nmse(t);
    v.cosine = diff_total_cosine(t);
    v.equal_fraction = diff_total_equal_fraction(t);
    v.tensor_count = r->pairs.n;
    v.kv_count = r->kvs.n;
    v.three_way = r->three_way;
    v.gate_active = r->gate.active;
    v.gate_failure_count = r->gate.n;
    v.baseline_tensor_count = r->three_way ? r->base_pairs.n : 0;
    v.baseline_kv_count = r->three_way ? r->base_kvs.n : 0;
    v.worst_count = r->n_worst;
    for (int g = 0; g < DIFF_GROUPINGS; g++) {
        v.rollup_count[g] = r->rollups.n[g];
    }
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_diff_summary, kv_count));
}

static void side_shape(const diff_side *s, int32_t *type, uint32_t *n_dims, uint64_t ne[])
{
    gs_tensor_info t;
    diff_side_info(s, &t);
    *type = t.type;
    *n_dims = t.n_dims;
    memcpy(ne, t.ne, sizeof t.ne);
}

static void tensor_of(const diff_report *r, const diff_pair *p, const diff_pair *base,
                      gs_diff_tensor *v)
{
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->kind = (gs_diff_tensor_kind)p->kind;
    v->in_a = p->a.file != NULL;
    v->in_b = p->b.file != NULL;
    gs_tensor_info t;
    diff_side_info(v->in_a ? &p->a : &p->b, &t);
    v->name = t.name;
    if (v->in_a) {
        side_shape(&p->a, &v->type_a, &v->n_dims_a, v->ne_a);
    }
    if (v->in_b) {
        side_shape(&p->b, &v->type_b, &v->n_dims_b, v->ne_b);
        v->bytes_b = diff_pair_bytes(p);
    }
    v->same_bytes = p->kind == DIFF_PAIR_NOT_DECODABLE && p->same_bytes;
    if (p->kind != DIFF_PAIR_COMPARED) {
        return;
    }
    const diff_metrics *m = &p->m;
    v->n_elements = m->n_elements;
    v->n_finite = m->n_finite;
    v->equal = m->equal;
    v->nan_a = m->nan_a;
    v->nan_b = m->nan_b;
    v->inf_a = m->inf_a;
    v->inf_b = m->inf_b;
    v->nonfinite_mismatches = m->nonfinite_mismatches;
    v->max_abs = m->max_abs;
    v->rmse = m->rmse;
    v->nmse = m->nmse;
    v->cosine = m->cosine;
    v->equal_fraction = diff_equal_fraction(m);
    v->block_elems = m->block_elems;
    v->blocks = (m->n_elements + m->block_elems - 1) / m->block_elems;
    v->changed_blocks = m->changed_blocks;
    v->has_worst = m->has_worst;
    v->worst_block = m->worst_block;
    v->worst_rmse = m->worst_rmse;
    v->worst_max_abs = m->worst_max_abs;
    v->exceeds = diff_exceeds(&r->th, m);
    v->bits_per_weight = diff_pair_bpw(p);
    if (base != NULL) {
        v->has_baseline = true;
        v->baseline_nmse = base->m.nmse;
        v->baseline_max_abs = base->m.max_abs;
        v->baseline_rmse = base->m.rmse;
        v->baseline_cosine = base->m.cosine;
        v->nmse_ratio = diff_nmse_ratio(base->m.nmse, m->nmse);
        v->nmse_increase = diff_nmse_increase(base->m.nmse, m->nmse);
        v->exceeds |= diff_exceeds_baseline(&r->th, &base->m, m);
    }
}

gs_status gs_diff_tensor_at(const gs_diff *d, size_t i, gs_diff_tensor *out)
{
    gs_status st = cli_index(d, i, d != NULL ? d->r.pairs.n : 0);
    if (st != GS_OK) {
        return st;
    }
    gs_diff_tensor v;
    tensor_of(&d->r, &d->r.pairs.items[i], diff_row_baseline(&d->r, i), &v);
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_diff_tensor, exceeds));
}

gs_status gs_diff_baseline_tensor_at(const gs_diff *d, size_t i, gs_diff_tensor *out)
{
    gs_status st = cli_index(d, i, d != NULL && d->r.three_way ? d->r.base_pairs.n : 0);
    if (st != GS_OK) {
        return st;
    }
    /* the baseline's own comparison with REF: its thresholds, no ratio */
    gs_diff_tensor v;
    tensor_of(&d->r, &d->r.base_pairs.items[i], NULL, &v);
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_diff_tensor, exceeds));
}

static gs_status kv_of(const diff_kv_list *l, const cli_source *a, const cli_source *b, size_t i,
                       gs_diff_kv *out)
{
    const diff_kv *k = &l->items[i];
    const gs_file *fa = cli_source_part(a, 0), *fb = cli_source_part(b, 0);
    gs_diff_kv v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    v.kind = (gs_diff_kv_kind)k->kind;
    v.file_a = k->kind != DIFF_KV_ONLY_B ? fa : NULL;
    v.file_b = k->kind != DIFF_KV_ONLY_A ? fb : NULL;
    v.index_a = v.file_a != NULL ? k->ia : 0;
    v.index_b = v.file_b != NULL ? k->ib : 0;
    gs_kv_info kv;
    if (gs_kv_info_at(v.file_a != NULL ? v.file_a : v.file_b,
                      v.file_a != NULL ? v.index_a : v.index_b, &kv) == GS_OK) {
        v.key = kv.key;
    }
    v.has_first_difference = k->has_first_diff;
    v.first_difference = k->first_diff;
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_diff_kv, first_difference));
}

gs_status gs_diff_kv_at(const gs_diff *d, size_t i, gs_diff_kv *out)
{
    gs_status st = cli_index(d, i, d != NULL ? d->r.kvs.n : 0);
    return st != GS_OK ? st : kv_of(&d->r.kvs, d->r.a, d->r.b, i, out);
}

gs_status gs_diff_baseline_kv_at(const gs_diff *d, size_t i, gs_diff_kv *out)
{
    gs_status st = cli_index(d, i, d != NULL && d->r.three_way ? d->r.base_kvs.n : 0);
    return st != GS_OK ? st : kv_of(&d->r.base_kvs, d->r.a, d->r.base, i, out);
}

/* ---- the gate, roll-ups, worst blocks ------------------------------------------------------ */

const char *gs_diff_rule_name(gs_diff_rule rule)
{
    return diff_rule_name(rule);
}

gs_status gs_diff_failure_at(const gs_diff *d, size_t i, gs_diff_failure *out)
{
    gs_status st = cli_index(d, i, d != NULL ? d->r.gate.n : 0);
    if (st != GS_OK) {
        return st;
    }
    const diff_report *r = &d->r;
    const diff_failure *f = &r->gate.items[i];
    gs_diff_failure v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    v.rule = f->rule;
    v.index = f->index;
    v.value = f->value;
    v.limit = f->limit;
    if (f->rule == GS_DIFF_RULE_METADATA) {
        gs_diff_kv kv = {.struct_size = sizeof kv};
        if (kv_of(&r->kvs, r->a, r->b, f->index, &kv) == GS_OK) {
            v.subject = kv.key;
        }
    } else {
        const diff_pair *p = &r->pairs.items[f->index];
        gs_tensor_info t;
        diff_side_info(p->a.file != NULL ? &p->a : &p->b, &t);
        v.subject = t.name;
    }
    return cli_copy_out(out, &v, sizeof v, sizeof v);
}

static void stats_of(const diff_stats *s, gs_diff_stats *v)
{
    v->tensors = s->tensors;
    v->elements = s->elements;
    v->bytes = s->bytes;
    v->bits_per_weight = diff_stats_bpw(s);
    v->nmse = diff_stats_nmse(s);
    v->rmse = diff_stats_rmse(s);
    v->cosine = diff_stats_cosine(s);
    v->max_abs = s->nonfinite_mismatches > 0 ? INFINITY : s->max_abs;
    v->nonfinite_mismatches = s->nonfinite_mismatches;
}

gs_status gs_diff_rollup_at(const gs_diff *d, gs_diff_grouping grouping, size_t i,
                            gs_diff_rollup *out)
{
    if (d == NULL || out == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    const diff_rollups *ru = &d->r.rollups;
    const diff_group *g;
    if (i == SIZE_MAX) {
        g = &ru->total;
    } else {
        if ((unsigned)grouping >= DIFF_GROUPINGS) {
            return GS_E_INVALID_ARGUMENT;
        }
        gs_status st = cli_index(d, i, ru->n[grouping]);
        if (st != GS_OK) {
            return st;
        }
        g = &ru->groups[grouping][i];
    }
    gs_diff_rollup v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    v.grouping = grouping;
    v.name = g->name;
    v.layer = g->layer;
    v.type = g->type;
    v.baseline_type = g->base_type;
    stats_of(&g->s, &v.stats);
    if (d->r.three_way) {
        stats_of(&g->base, &v.baseline);
        v.nmse_ratio = diff_group_nmse_ratio(g);
    }
    return cli_copy_out(out, &v, sizeof v, sizeof v);
}

gs_status gs_diff_worst_at(const gs_diff *d, size_t i, gs_diff_block *out)
{
    gs_status st = cli_index(d, i, d != NULL ? d->r.n_worst : 0);
    if (st != GS_OK) {
        return st;
    }
    const diff_worst *w = &d->r.worst[i];
    gs_tensor_info t;
    diff_side_info(&d->r.pairs.items[w->pair].a, &t);
    gs_diff_block v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    v.tensor = w->pair;
    v.name = t.name;
    v.block = w->e.block;
    v.first_element = w->first;
    v.n = w->n;
    v.rmse = diff_worst_rmse(w);
    v.max_abs = w->e.nonfinite ? INFINITY : w->e.max_abs;
    v.ref = w->ref;
    v.candidate = w->cand;
    v.baseline = w->base;
    v.baseline_rmse = w->base_rmse;
    v.baseline_max_abs = w->base_max_abs;
    return cli_copy_out(out, &v, sizeof v, sizeof v);
}

/* ---- renderings --------------------------------------------------------------------------- */

static gs_status write_with(void (*fn)(cli_out *, const diff_report *), const gs_diff *d,
                            const gs_sink *sink, gs_error *err)
{
    gs_status st;
    cli_out *out = cli_out_open(d != NULL, "diff", sink, &st, err);
    if (out != NULL) {
        fn(out, &d->r);
    }
    return cli_out_close(out, st, err);
}

gs_status gs_diff_write_text(const gs_diff *d, const gs_sink *sink, gs_error *err)
{
    return write_with(diff_text, d, sink, err);
}

gs_status gs_diff_write_json(const gs_diff *d, const gs_sink *sink, gs_error *err)
{
    return write_with(diff_json, d, sink, err);
}

gs_status gs_diff_write_html(const gs_diff *d, const gs_sink *sink, gs_error *err)
{
    return write_with(diff_html, d, sink, err);
}
