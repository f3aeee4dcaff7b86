#include "diff_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "diff_compare.h"

const diff_pair *diff_row_baseline(const diff_report *r, size_t i)
{
    if (!r->three_way || i >= r->base_rows || r->pairs.items[i].kind != DIFF_PAIR_COMPARED) {
        return NULL;
    }
    const diff_pair *q = &r->base_pairs.items[i];
    return q->kind == DIFF_PAIR_COMPARED ? q : NULL;
}

unsigned diff_row_exceeds(const diff_report *r, size_t i)
{
    const diff_pair *q = diff_row_baseline(r, i);
    return q != NULL ? diff_exceeds_baseline(&r->th, &q->m, &r->pairs.items[i].m) : 0;
}

uint64_t diff_pair_bytes(const diff_pair *p)
{
    gs_tensor_info t;
    diff_side_info(&p->b, &t);
    return t.size;
}

double diff_pair_bpw(const diff_pair *p)
{
    gs_tensor_info t;
    diff_side_info(&p->b, &t);
    return t.n_elements > 0 ? (double)t.size * 8.0 / (double)t.n_elements : 0.0;
}

gs_status diff_report_summarize(diff_report *r)
{
    diff_total_init(&r->total);
    r->failing = 0;
    for (size_t i = 0; i < r->pairs.n; i++) {
        const diff_pair *p = &r->pairs.items[i];
        if (p->kind != DIFF_PAIR_COMPARED) {
            continue;
        }
        diff_total_add(&r->total, &p->m);
        if (diff_exceeds(&r->th, &p->m) != 0 || diff_row_exceeds(r, i) != 0) {
            r->failing++;
        }
    }
    gs_status st = diff_rollups_build(&r->pairs, r->three_way ? &r->base_pairs : NULL,
                                      r->base_rows, &r->rollups);
    return st == GS_OK ? diff_gate_build(r) : st;
}

/* A candidate block of the merge: pair i's j-th worst. */
typedef struct ranked {
    size_t pair;
    diff_block_err e;
    uint32_t block_elems;
} ranked;

static int worst_first(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    /* across tensors, by RMSE (block sizes differ), then list order, then block */
    if (a->e.nonfinite != b->e.nonfinite) {
        return a->e.nonfinite ? -1 : 1;
    }
    if (!a->e.nonfinite) {
        double ra = sqrt(a->e.sse / (double)a->block_elems);
        double rb = sqrt(b->e.sse / (double)b->block_elems);
        if (ra != rb) {
            return ra > rb ? -1 : 1;
        }
    }
    if (a->pair != b->pair) {
        return a->pair < b->pair ? -1 : 1;
    }
    return a->e.block < b->e.block ? -1 : (a->e.block > b->e.block ? 1 : 0);
}

static uint32_t block_of(const diff_side *s)
{
    gs_tensor_info t;
    gs_type_info k;
    diff_side_info(s, &t);
    gs_file_type_info(s->file, t.type, &k);
    return k.block_elems > 0 ? k.block_elems : 1;
}

/* The values [first, first + n) of side s, decoded from the whole blocks of `step` elements
 * around them (step a multiple of the side's block size). */
static gs_status values_of(const diff_side *s, uint64_t first, uint32_t n, size_t step,
                           uint64_t total, float *scratch, float *out)
{
    uint64_t from = first / step * step;
    uint64_t to = (first + n + step - 1) / step * step;
    if (to > total) {
        to = total;
    }
    gs_status st = gs_tensor_dequantize_range(s->file, s->index, from, scratch,
                                              (size_t)(to - from));
    if (st == GS_OK) {
        memcpy(out, scratch + (first - from), n * sizeof *out);
    }
    return st;
}

static gs_status fill_values(diff_report *r, diff_worst *w, char *side)
{
    const diff_pair *p = &r->pairs.items[w->pair];
    const diff_pair *q = diff_row_baseline(r, w->pair);
    gs_tensor_info t;
    diff_side_info(&p->a, &t);
    size_t step = block_of(&p->a);
    step = diff_lcm(step, block_of(&p->b));
    if (q != NULL) {
        step = diff_lcm(step, block_of(&q->b));
    }
    float *scratch = cli_alloc_array(step + w->n + step, sizeof *scratch);
    w->ref = cli_alloc_array(w->n, sizeof *w->ref);
    w->cand = cli_alloc_array(w->n, sizeof *w->cand);
    w->base = q != NULL ? cli_alloc_array(w->n, sizeof *w->base) : NULL;
    gs_status st = GS_OK;
    if (scratch == NULL || w->ref == NULL || w->cand == NULL || (q != NULL && w->base == NULL)) {
        st = GS_E_NO_MEMORY;
    }
    if (st == GS_OK) {
        *side = 'A';
        st = values_of(&p->a, w->first, w->n, step, t.n_elements, scratch, w->ref);
    }
    if (st == GS_OK) {
        *side = 'B';
        st = values_of(&p->b, w->first, w->n, step, t.n_elements, scratch, w->cand);
    }
    if (st == GS_OK && q != NULL) {
        *side = 'C';
        st = values_of(&q->b, w->first, w->n, step, t.n_elements, scratch, w->base);
        if (st == GS_OK) {
            /* A's error over B's block, as B's is measured */
            diff_acc acc;
            diff_metrics m;
            diff_acc_init(&acc, w->n);
            diff_acc_add(&acc, w->ref, w->base, w->n);
            diff_acc_finish(&acc, &m);
            w->base_max_abs = m.max_abs;
            w->base_rmse = m.nonfinite_mismatches > 0 ? INFINITY
                                                      : sqrt(m.sse / (double)w->block_elems);
        }
    }
    free(scratch);
    return st;
}

gs_status diff_report_worst(diff_report *r, size_t *pair, char *side)
{
    if (r->keep_worst == 0) {
        return GS_OK;
    }
    size_t total = 0;
    for (size_t i = 0; i < r->pairs.n; i++) {
        total += r->pairs.items[i].n_worst;
    }
    ranked *all = cli_alloc_array(total, sizeof *all);
    if (all == NULL) {
        return GS_E_NO_MEMORY;
    }
    size_t k = 0;
    for (size_t i = 0; i < r->pairs.n; i++) {
        const diff_pair *p = &r->pairs.items[i];
        for (size_t j = 0; j < p->n_worst; j++) {
            all[k++] = (ranked){i, p->worst[j], p->m.block_elems};
        }
    }
    qsort(all, total, sizeof *all, worst_first);
    size_t n = total < r->keep_worst ? total : r->keep_worst;
    r->worst = n > 0 ? calloc(n, sizeof *r->worst) : NULL;
    if (n > 0 && r->worst == NULL) {
        free(all);
        return GS_E_NO_MEMORY;
    }
    gs_status st = GS_OK;
    for (size_t i = 0; i < n && st == GS_OK; i++) {
        diff_worst *w = &r->worst[i];
        const diff_pair *p = &r->pairs.items[all[i].pair];
        w->pair = all[i].pair;
        w->e = all[i].e;
        w->block_elems = all[i].block_elems;
        w->first = w->e.block * w->block_elems;
        uint64_t left = p->m.n_elements - w->first;
        w->n = left < w->block_elems ? (uint32_t)left : w->block_elems;
        r->n_worst = i + 1;
        *pair = w->pair;
        st = fill_values(r, w, side);
    }
    free(all);
    return st;
}

double diff_worst_rmse(const diff_worst *w)
{
    return w->e.nonfinite ? INFINITY : sqrt(w->e.sse / (double)w->block_elems);
}

int diff_report_exit_code(const diff_report *r)
{
    return r->gate.n > 0 ? 1 : 0;
}

double diff_equal_fraction(const diff_metrics *m)
{
    return m->n_elements > 0 ? (double)m->equal / (double)m->n_elements : 1.0;
}

void diff_report_free(diff_report *r)
{
    for (size_t i = 0; i < r->n_worst; i++) {
        free(r->worst[i].ref);
        free(r->worst[i].cand);
        free(r->worst[i].base);
    }
    free(r->worst);
    diff_pairs_free(&r->pairs);
    diff_pairs_free(&r->base_pairs);
    diff_kv_list_free(&r->kvs);
    diff_kv_list_free(&r->base_kvs);
    cli_filter_free(&r->filter);
    cli_filter_free(&r->rules.keys);
    diff_rollups_free(&r->rollups);
    diff_gate_free(&r->gate);
}
