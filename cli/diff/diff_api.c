/* The public face of comparison (include/ggufsafe_diff.h): opening each side as the commands do,
 * the comparison (metadata, pairing, chunked decoding on the shared work pool, the roll-ups), the
 * results as data and the two renderings. */
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
         patterns_ok(o->exclude_globs, o->n_exclude_globs);
    if (!ok) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "gs_diff_options: profile, a threshold or a pattern list out of range");
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

typedef struct progress_adapter {
    gs_progress_fn fn;
    void *ctx;
} progress_adapter;

static void progress(void *ctx, uint64_t done, uint64_t total)
{
    const progress_adapter *a = ctx;
    gs_progress p = {sizeof p, 0, 1, done, total};
    a->fn(a->ctx, &p);
}

/* Why pair p could not be compared: its status, the tensor, the side and its path. */
static gs_status decode_failure(const diff_report *r, const diff_pair *p, gs_error *err)
{
    const diff_side *s = p->failed_side == 'A' ? &p->a : &p->b;
    gs_tensor_info t;
    diff_side_info(s, &t);
    return gsi_fail(err, p->status, t.data_offset, GS_CONTEXT_TENSOR, (const uint8_t *)t.name.ptr,
                    t.name.len,
                    "%c: %s", p->failed_side, p->failed_side == 'A' ? r->path_a : r->path_b);
}

/* Everything once both sides are open. */
static gs_status compare(diff_report *r, const gs_diff_options *o, gs_error *err)
{
    const cli_source *sa = r->a, *sb = r->b;
    gs_status st = diff_metadata(cli_source_part(sa, 0), sa->split != NULL,
                                 cli_source_part(sb, 0), sb->split != NULL, &r->kvs);
    if (st != GS_OK) {
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "reading the metadata");
    }
    if (diff_match(sa, sb, &r->filter, &r->pairs) != GS_OK) {
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "pairing tensors");
    }
    r->metadata_only = o->metadata_only;
    if (r->metadata_only) {
        /* nothing is decoded: what would be compared is not */
        for (size_t i = 0; i < r->pairs.n; i++) {
            if (r->pairs.items[i].kind == DIFF_PAIR_COMPARED) {
                r->pairs.items[i].kind = DIFF_PAIR_NOT_DECODABLE;
                r->pairs.count[DIFF_PAIR_COMPARED]--;
                r->pairs.count[DIFF_PAIR_NOT_DECODABLE]++;
            }
        }
    }
    progress_adapter pa = {o->progress, o->progress_ctx};
    size_t failed = diff_compare_pairs(&r->pairs, o->jobs, DIFF_CHUNK_ELEMS,
                                       o->progress != NULL ? progress : NULL, &pa);
    if (failed < r->pairs.n) {
        return decode_failure(r, &r->pairs.items[failed], err);
    }
    diff_report_summarize(r);
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
    r->path_a = a->path;
    r->path_b = b->path;
    r->a = &a->src;
    r->b = &b->src;
    r->opts = &a->opts;
    r->th = (diff_thresholds){o.has_max_nmse, o.has_max_abs, o.has_min_cos,
                              o.max_nmse,     o.max_abs,     o.min_cos};
    const cli_name_filter given = {o.tensor_globs, o.n_tensor_globs, o.exclude_globs,
                                   o.n_exclude_globs};
    if (cli_filter_copy(&r->filter, &given) != GS_OK) {
        gs_diff_free(d);
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "tensor patterns");
    }
    st = compare(r, &o, err);
    if (st != GS_OK) {
        gs_diff_free(d);
        return st;
    }
    *out = d;
    return GS_OK;
}

void gs_diff_free(gs_diff *d)
{
    if (d != NULL) {
        diff_pairs_free(&d->r.pairs);
        diff_kv_list_free(&d->r.kvs);
        cli_filter_free(&d->r.filter);
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

gs_status gs_diff_tensor_at(const gs_diff *d, size_t i, gs_diff_tensor *out)
{
    gs_status st = cli_index(d, i, d != NULL ? d->r.pairs.n : 0);
    if (st != GS_OK) {
        return st;
    }
    const diff_pair *p = &d->r.pairs.items[i];
    gs_diff_tensor v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    v.kind = (gs_diff_tensor_kind)p->kind;
    v.in_a = p->a.file != NULL;
    v.in_b = p->b.file != NULL;
    gs_tensor_info t;
    diff_side_info(v.in_a ? &p->a : &p->b, &t);
    v.name = t.name;
    if (v.in_a) {
        side_shape(&p->a, &v.type_a, &v.n_dims_a, v.ne_a);
    }
    if (v.in_b) {
        side_shape(&p->b, &v.type_b, &v.n_dims_b, v.ne_b);
    }
    if (p->kind == DIFF_PAIR_COMPARED) {
        const diff_metrics *m = &p->m;
        v.n_elements = m->n_elements;
        v.n_finite = m->n_finite;
        v.equal = m->equal;
        v.nan_a = m->nan_a;
        v.nan_b = m->nan_b;
        v.inf_a = m->inf_a;
        v.inf_b = m->inf_b;
        v.nonfinite_mismatches = m->nonfinite_mismatches;
        v.max_abs = m->max_abs;
        v.rmse = m->rmse;
        v.nmse = m->nmse;
        v.cosine = m->cosine;
        v.equal_fraction = diff_equal_fraction(m);
        v.block_elems = m->block_elems;
        v.blocks = (m->n_elements + m->block_elems - 1) / m->block_elems;
        v.changed_blocks = m->changed_blocks;
        v.has_worst = m->has_worst;
        v.worst_block = m->worst_block;
        v.worst_rmse = m->worst_rmse;
        v.worst_max_abs = m->worst_max_abs;
        v.exceeds = diff_exceeds(&d->r.th, m);
    }
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_diff_tensor, exceeds));
}

gs_status gs_diff_kv_at(const gs_diff *d, size_t i, gs_diff_kv *out)
{
    gs_status st = cli_index(d, i, d != NULL ? d->r.kvs.n : 0);
    if (st != GS_OK) {
        return st;
    }
    const diff_kv *k = &d->r.kvs.items[i];
    const gs_file *fa = cli_source_part(d->r.a, 0), *fb = cli_source_part(d->r.b, 0);
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

/* ---- renderings --------------------------------------------------------------------------- */

static gs_status write_with(void (*fn)(cli_out *, const diff_report *), const gs_diff *d,
                            const gs_sink *sink, gs_error *err)
{
    if (d == NULL) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0, "diff is NULL");
    }
    cli_out *out = cli_out_new(sink, err);
    if (out == NULL) {
        return GS_E_NO_MEMORY;
    }
    fn(out, &d->r);
    return cli_out_done(out, err);
}

gs_status gs_diff_write_text(const gs_diff *d, const gs_sink *sink, gs_error *err)
{
    return write_with(diff_text, d, sink, err);
}

gs_status gs_diff_write_json(const gs_diff *d, const gs_sink *sink, gs_error *err)
{
    return write_with(diff_json, d, sink, err);
}
