#include "diff_rollup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

void diff_stats_add(diff_stats *s, const diff_metrics *m, uint64_t bytes)
{
    s->tensors++;
    s->elements += m->n_elements;
    s->bytes += bytes;
    s->n_finite += m->n_finite;
    s->nonfinite_mismatches += m->nonfinite_mismatches;
    s->sse += m->sse;
    s->energy_a += m->energy_a;
    if (m->n_elements > 0) {
        s->weighted_cosine += (double)m->n_elements * m->cosine;
    }
    if (m->max_abs > s->max_abs) {
        s->max_abs = m->max_abs;
    }
}

double diff_stats_nmse(const diff_stats *s)
{
    if (s->nonfinite_mismatches > 0) {
        return INFINITY;
    }
    if (s->energy_a > 0) {
        return s->sse / s->energy_a;
    }
    return s->sse == 0 ? 0.0 : INFINITY;
}

double diff_stats_rmse(const diff_stats *s)
{
    return diff_pooled_rmse(s->nonfinite_mismatches, s->sse, s->n_finite);
}

double diff_stats_cosine(const diff_stats *s)
{
    return s->elements > 0 ? s->weighted_cosine / (double)s->elements : 1.0;
}

double diff_stats_bpw(const diff_stats *s)
{
    return s->elements > 0 ? (double)s->bytes * 8.0 / (double)s->elements : 0.0;
}

double diff_nmse_ratio(double base, double cand)
{
    if (cand == base) {
        return 1.0;
    }
    return base == 0 ? INFINITY : cand / base;
}

double diff_nmse_increase(double base, double cand)
{
    return cand == base ? 0.0 : cand - base;
}

bool diff_split_name(gs_str name, gs_str *layer, uint64_t *n, gs_str *role)
{
    *role = name;
    const char *p = name.ptr;
    if (name.len < 7 || memcmp(p, "blk.", 4) != 0) {
        return false;
    }
    size_t i = 4;
    uint64_t v = 0;
    while (i < name.len && i < 13 && p[i] >= '0' && p[i] <= '9') {
        v = v * 10 + (uint64_t)(p[i] - '0');
        i++;
    }
    if (i == 4 || i + 1 >= name.len || p[i] != '.') {
        return false;
    }
    *layer = (gs_str){p, i};
    *n = v;
    *role = (gs_str){p + i + 1, name.len - i - 1};
    return true;
}

/* A row's place in one grouping: its key and its row (for ties and the order of groups). */
typedef struct member {
    gs_str key;
    uint64_t layer;
    int32_t type, base_type;
    size_t row;
} member;

static int str_cmp(gs_str x, gs_str y)
{
    size_t n = x.len < y.len ? x.len : y.len;
    int c = n > 0 ? memcmp(x.ptr, y.ptr, n) : 0;
    if (c != 0) {
        return c;
    }
    return x.len < y.len ? -1 : (x.len > y.len ? 1 : 0);
}

static int by_key(const member *x, const member *y, int grouping)
{
    if (grouping == DIFF_BY_TYPE) {
        if (x->type != y->type) {
            return x->type < y->type ? -1 : 1;
        }
        if (x->base_type != y->base_type) {
            return x->base_type < y->base_type ? -1 : 1;
        }
        return 0;
    }
    if (grouping == DIFF_BY_LAYER && x->layer != y->layer) {
        return x->layer < y->layer ? -1 : 1;
    }
    return str_cmp(x->key, y->key);
}

/* By the grouping's key, then by row. */
static int by_key_row(const void *a, const void *b, int grouping)
{
    const member *x = a, *y = b;
    int c = by_key(x, y, grouping);
    return c != 0 ? c : (x->row < y->row ? -1 : (x->row > y->row ? 1 : 0));
}

static int cmp_role(const void *a, const void *b) { return by_key_row(a, b, DIFF_BY_ROLE); }
static int cmp_layer(const void *a, const void *b) { return by_key_row(a, b, DIFF_BY_LAYER); }
static int cmp_type(const void *a, const void *b) { return by_key_row(a, b, DIFF_BY_TYPE); }

/* Groups in order of their first row (roles, types); layers stay in N order. */
static int by_first(const void *a, const void *b)
{
    const diff_group *x = a, *y = b;
    return x->first < y->first ? -1 : (x->first > y->first ? 1 : 0);
}

static uint64_t cand_bytes(const diff_pair *p)
{
    gs_tensor_info t;
    diff_side_info(&p->b, &t);
    return t.size;
}

static gs_status group(const diff_pairs *pairs, const diff_pairs *base, member *m, size_t n,
                       int grouping, diff_rollups *out)
{
    static int (*const cmp[DIFF_GROUPINGS])(const void *, const void *) = {cmp_role, cmp_layer,
                                                                            cmp_type};
    qsort(m, n, sizeof *m, cmp[grouping]);
    diff_group *g = cli_alloc_array(n, sizeof *g);
    if (g == NULL) {
        return GS_E_NO_MEMORY;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || by_key(&m[i - 1], &m[i], grouping) != 0) {
            memset(&g[k], 0, sizeof g[k]);
            g[k].name = m[i].key;
            g[k].layer = m[i].layer;
            g[k].type = m[i].type;
            g[k].base_type = m[i].base_type;
            g[k].first = m[i].row;
            k++;
        }
        const diff_pair *p = &pairs->items[m[i].row];
        diff_stats_add(&g[k - 1].s, &p->m, cand_bytes(p));
        if (base != NULL) {
            const diff_pair *q = &base->items[m[i].row];
            diff_stats_add(&g[k - 1].base, &q->m, cand_bytes(q));
        }
    }
    if (grouping != DIFF_BY_LAYER) {
        qsort(g, k, sizeof *g, by_first);
    }
    out->groups[grouping] = g;
    out->n[grouping] = k;
    return GS_OK;
}

gs_status diff_rollups_build(const diff_pairs *pairs, const diff_pairs *base, size_t rows,
                             diff_rollups *out)
{
    memset(out, 0, sizeof *out);
    size_t n = base != NULL ? rows : pairs->n;
    member *m = cli_alloc_array(n, sizeof *m);
    if (m == NULL) {
        return GS_E_NO_MEMORY;
    }
    gs_status st = GS_OK;
    for (int grouping = 0; grouping < DIFF_GROUPINGS && st == GS_OK; grouping++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            const diff_pair *p = &pairs->items[i];
            const diff_pair *q = base != NULL ? &base->items[i] : NULL;
            if (p->kind != DIFF_PAIR_COMPARED || (q != NULL && q->kind != DIFF_PAIR_COMPARED)) {
                continue;
            }
            gs_tensor_info ta, tb;
            diff_side_info(&p->a, &ta);
            diff_side_info(&p->b, &tb);
            member e = {.row = i, .type = tb.type, .base_type = -1};
            gs_str layer = {NULL, 0}, role;
            uint64_t no = 0;
            bool in_layer = diff_split_name(ta.name, &layer, &no, &role);
            if (grouping == DIFF_BY_LAYER && !in_layer) {
                continue;
            }
            if (q != NULL) {
                gs_tensor_info tq;
                diff_side_info(&q->b, &tq);
                e.base_type = tq.type;
            }
            if (grouping == DIFF_BY_TYPE) {
                const char *name = gs_type_name(tb.type);
                e.key = (gs_str){name, strlen(name)};
            } else {
                e.key = grouping == DIFF_BY_ROLE ? role : layer;
                e.layer = no;
            }
            if (grouping == DIFF_BY_ROLE) {
                diff_stats_add(&out->total.s, &p->m, cand_bytes(p));
                if (q != NULL) {
                    diff_stats_add(&out->total.base, &q->m, cand_bytes(q));
                }
            }
            m[k++] = e;
        }
        st = group(pairs, base, m, k, grouping, out);
    }
    free(m);
    if (st != GS_OK) {
        diff_rollups_free(out);
    }
    return st;
}

void diff_rollups_free(diff_rollups *r)
{
    for (int g = 0; g < DIFF_GROUPINGS; g++) {
        free(r->groups[g]);
    }
    memset(r, 0, sizeof *r);
}

const char *diff_grouping_name(int grouping)
{
    static const char *const names[DIFF_GROUPINGS] = {"role", "layer", "type"};
    return grouping >= 0 && grouping < DIFF_GROUPINGS ? names[grouping] : "total";
}

double diff_group_nmse_ratio(const diff_group *g)
{
    return diff_nmse_ratio(diff_stats_nmse(&g->base), diff_stats_nmse(&g->s));
}
