/* The CI gate of `ggufsafe diff`: which tensors and keys fail, and by which rule. With any
 * threshold or metadata rule the gate is active: it then also fails on tensors that vanished
 * (unless allowed), appeared (unless allowed) or cannot be compared (unless both sides are the
 * same bytes of one type); a shape mismatch fails whether it is active or not. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "diff_report.h"

unsigned diff_exceeds(const diff_thresholds *th, const diff_metrics *m)
{
    unsigned bits = 0;
    if (th->has_max_nmse && m->nmse > th->max_nmse) {
        bits |= DIFF_EXCEEDS_NMSE;
    }
    if (th->has_max_abs && m->max_abs > th->max_abs) {
        bits |= DIFF_EXCEEDS_ABS;
    }
    if (th->has_min_cos && (isnan(m->cosine) || m->cosine < th->min_cos)) {
        bits |= DIFF_EXCEEDS_COS;
    }
    return bits;
}

unsigned diff_exceeds_baseline(const diff_thresholds *th, const diff_metrics *base,
                               const diff_metrics *cand)
{
    unsigned bits = 0;
    if (th->has_max_ratio && diff_nmse_ratio(base->nmse, cand->nmse) > th->max_ratio) {
        bits |= DIFF_EXCEEDS_RATIO;
    }
    if (th->has_max_increase &&
        diff_nmse_increase(base->nmse, cand->nmse) > th->max_increase) {
        bits |= DIFF_EXCEEDS_INCREASE;
    }
    return bits;
}

const char *diff_rule_name(gs_diff_rule rule)
{
    static const char *const names[DIFF_RULES] = {
        "max_nmse", "max_abs", "min_cos", "max_nmse_ratio", "max_nmse_increase",
        "missing",  "extra",   "shape_mismatch", "not_comparable", "metadata"};
    return (unsigned)rule < DIFF_RULES ? names[rule] : NULL;
}

static bool push(diff_gate *g, gs_diff_rule rule, size_t index, double value, double limit)
{
    if (!cli_reserve((void **)&g->items, &g->cap, g->n + 1, sizeof *g->items)) {
        return false;
    }
    g->items[g->n++] = (diff_failure){rule, index, value, limit};
    g->count[rule]++;
    return true;
}

/* The threshold failures of a compared pair, in rule order. */
static bool push_thresholds(diff_gate *g, const diff_report *r, size_t i)
{
    const diff_pair *p = &r->pairs.items[i];
    const diff_thresholds *th = &r->th;
    unsigned bits = diff_exceeds(th, &p->m);
    bool ok = true;
    if (bits & DIFF_EXCEEDS_NMSE) {
        ok = ok && push(g, GS_DIFF_RULE_MAX_NMSE, i, p->m.nmse, th->max_nmse);
    }
    if (bits & DIFF_EXCEEDS_ABS) {
        ok = ok && push(g, GS_DIFF_RULE_MAX_ABS, i, p->m.max_abs, th->max_abs);
    }
    if (bits & DIFF_EXCEEDS_COS) {
        ok = ok && push(g, GS_DIFF_RULE_MIN_COS, i, p->m.cosine, th->min_cos);
    }
    const diff_pair *q = diff_row_baseline(r, i);
    if (q != NULL) {
        bits = diff_exceeds_baseline(th, &q->m, &p->m);
        if (bits & DIFF_EXCEEDS_RATIO) {
            ok = ok && push(g, GS_DIFF_RULE_MAX_NMSE_RATIO, i,
                            diff_nmse_ratio(q->m.nmse, p->m.nmse), th->max_ratio);
        }
        if (bits & DIFF_EXCEEDS_INCREASE) {
            ok = ok && push(g, GS_DIFF_RULE_MAX_NMSE_INCREASE, i,
                            diff_nmse_increase(q->m.nmse, p->m.nmse), th->max_increase);
        }
    }
    return ok;
}

/* Whether the metadata rules select the key of kvs item k. */
static gs_status key_selected(const diff_report *r, const diff_kv *d, bool *selected)
{
    const diff_rules *ru = &r->rules;
    *selected = false;
    if (!ru->fail_on_metadata && ru->keys.n_include == 0) {
        return GS_OK;
    }
    const gs_file *f = d->kind == DIFF_KV_ONLY_B ? cli_source_part(r->b, 0)
                                                 : cli_source_part(r->a, 0);
    gs_kv_info kv;
    if (gs_kv_info_at(f, d->kind == DIFF_KV_ONLY_B ? d->ib : d->ia, &kv) != GS_OK) {
        return GS_OK; /* an index from the file: not reached */
    }
    cli_name_filter keys = ru->keys;
    if (ru->fail_on_metadata) {
        keys.n_include = 0; /* every key, less the ignored ones */
    }
    return cli_filter_keeps(&keys, kv.key, selected);
}

gs_status diff_gate_build(diff_report *r)
{
    diff_gate *g = &r->gate;
    const diff_thresholds *th = &r->th;
    memset(g, 0, sizeof *g);
    g->active = th->has_max_nmse || th->has_max_abs || th->has_min_cos || th->has_max_ratio ||
                th->has_max_increase || r->rules.fail_on_metadata || r->rules.keys.n_include > 0;
    bool ok = true;
    for (size_t i = 0; i < r->pairs.n && ok; i++) {
        const diff_pair *p = &r->pairs.items[i];
        switch (p->kind) {
        case DIFF_PAIR_COMPARED:
            ok = push_thresholds(g, r, i);
            break;
        case DIFF_PAIR_SHAPE_MISMATCH:
            ok = push(g, GS_DIFF_RULE_SHAPE, i, 0, 0);
            break;
        case DIFF_PAIR_ONLY_A:
            if (g->active && !r->rules.allow_missing) {
                ok = push(g, GS_DIFF_RULE_MISSING, i, 0, 0);
            }
            break;
        case DIFF_PAIR_ONLY_B:
            if (g->active && !r->rules.allow_extra) {
                ok = push(g, GS_DIFF_RULE_EXTRA, i, 0, 0);
            }
            break;
        case DIFF_PAIR_NOT_DECODABLE:
            /* metadata only: not compared by request, no bytes read */
            if (g->active && !r->metadata_only && !p->same_bytes) {
                ok = push(g, GS_DIFF_RULE_NOT_COMPARABLE, i, 0, 0);
            }
            break;
        }
    }
    for (size_t k = 0; k < r->kvs.n && ok; k++) {
        bool selected;
        if (key_selected(r, &r->kvs.items[k], &selected) != GS_OK) {
            ok = false;
        } else if (selected) {
            ok = push(g, GS_DIFF_RULE_METADATA, k, 0, 0);
        }
    }
    if (!ok) {
        diff_gate_free(g);
        return GS_E_NO_MEMORY;
    }
    return GS_OK;
}

void diff_gate_free(diff_gate *g)
{
    free(g->items);
    g->items = NULL;
    g->n = g->cap = 0;
}
