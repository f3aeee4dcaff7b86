#include "diff_metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void diff_acc_init(diff_acc *acc, uint32_t block_elems)
{
    memset(acc, 0, sizeof *acc);
    acc->m.block_elems = block_elems > 0 ? block_elems : 1;
}

bool diff_block_worse(const diff_block_err *x, const diff_block_err *y)
{
    if (x->nonfinite != y->nonfinite) {
        return x->nonfinite;
    }
    if (!x->nonfinite && x->sse != y->sse) {
        return x->sse > y->sse;
    }
    return x->block < y->block;
}

/* The heap keeps its least bad block at the root: a new block enters when it is worse than the
 * root (blocks come in increasing order, so a tie keeps the earlier one). */
static void heap_down(diff_block_err *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, least = i;
        if (l < n && diff_block_worse(&h[least], &h[l])) {
            least = l;
        }
        if (r < n && diff_block_worse(&h[least], &h[r])) {
            least = r;
        }
        if (least == i) {
            return;
        }
        diff_block_err t = h[i];
        h[i] = h[least];
        h[least] = t;
        i = least;
    }
}

static void heap_offer(diff_block_err *h, size_t *n, size_t cap, const diff_block_err *e)
{
    if (cap == 0) {
        return;
    }
    if (*n < cap) {
        size_t i = (*n)++;
        h[i] = *e;
        while (i > 0 && diff_block_worse(&h[(i - 1) / 2], &h[i])) {
            diff_block_err t = h[i];
            h[i] = h[(i - 1) / 2];
            h[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
    } else if (diff_block_worse(e, &h[0])) {
        h[0] = *e;
        heap_down(h, *n, 0);
    }
}

static diff_block_err current_block(const diff_acc *acc)
{
    return (diff_block_err){acc->block, acc->block_sse, acc->block_max, acc->block_nonfinite};
}

/* Is the finished (or final partial) block the worst so far? Strictly worse only, so the first
 * of equal blocks stays. */
static void close_block(diff_acc *acc)
{
    if (acc->block_changed) {
        acc->m.changed_blocks++;
        if (acc->heap != NULL) {
            diff_block_err e = current_block(acc);
            heap_offer(acc->heap, &acc->heap_n, acc->heap_cap, &e);
        }
        bool worse;
        if (acc->block_nonfinite || acc->worst_nonfinite) {
            worse = acc->block_nonfinite && !acc->worst_nonfinite;
        } else {
            worse = !acc->m.has_worst || acc->block_sse > acc->worst_sse;
        }
        if (!acc->m.has_worst || worse) {
            acc->m.has_worst = true;
            acc->m.worst_block = acc->block;
            acc->worst_sse = acc->block_sse;
            acc->worst_nonfinite = acc->block_nonfinite;
            acc->m.worst_max_abs = acc->block_nonfinite ? INFINITY : acc->block_max;
        }
    }
    acc->block++;
    acc->in_block = 0;
    acc->block_sse = 0;
    acc->block_max = 0;
    acc->block_changed = false;
    acc->block_nonfinite = false;
}

void diff_acc_add(diff_acc *acc, const float *a, const float *b, size_t n)
{
    diff_metrics *m = &acc->m;
    for (size_t i = 0; i < n; i++) {
        const float x = a[i], y = b[i];
        bool equal;
        if (isfinite(x) && isfinite(y)) {
            const double xd = (double)x, yd = (double)y;
            const double d = xd - yd;
            const double ad = fabs(d);
            m->n_finite++;
            m->sse += d * d;
            m->energy_a += xd * xd;
            m->energy_b += yd * yd;
            m->dot += xd * yd;
            if (ad > m->max_abs) {
                m->max_abs = ad;
            }
            acc->block_sse += d * d;
            if (ad > acc->block_max) {
                acc->block_max = ad;
            }
            equal = x == y;
        } else {
            m->nan_a += isnan(x) ? 1u : 0u;
            m->nan_b += isnan(y) ? 1u : 0u;
            m->inf_a += isinf(x) ? 1u : 0u;
            m->inf_b += isinf(y) ? 1u : 0u;
            equal = (isnan(x) && isnan(y)) || x == y;
            if (!equal) {
                m->nonfinite_mismatches++;
                acc->block_nonfinite = true;
            }
        }
        if (equal) {
            m->equal++;
        } else {
            acc->block_changed = true;
        }
        m->n_elements++;
        if (++acc->in_block == m->block_elems) {
            close_block(acc);
        }
    }
}

void diff_acc_keep_worst(diff_acc *acc, diff_block_err *storage, size_t cap)
{
    acc->heap = cap > 0 ? storage : NULL;
    acc->heap_cap = cap;
    acc->heap_n = 0;
}

static int worst_first(const void *x, const void *y)
{
    const diff_block_err *a = x, *b = y;
    return diff_block_worse(a, b) ? -1 : (diff_block_worse(b, a) ? 1 : 0);
}

size_t diff_acc_worst(const diff_acc *acc, diff_block_err *out)
{
    if (acc->heap == NULL) {
        return 0;
    }
    size_t n = acc->heap_n;
    if (out != acc->heap) {
        memmove(out, acc->heap, n * sizeof *out);
    }
    if (acc->in_block > 0 && acc->block_changed) {
        diff_block_err e = current_block(acc);
        heap_offer(out, &n, acc->heap_cap, &e);
    }
    qsort(out, n, sizeof *out, worst_first);
    return n;
}

void diff_acc_finish(const diff_acc *acc, diff_metrics *out)
{
    diff_acc last = *acc;
    last.heap = NULL; /* the kept blocks are diff_acc_worst's */
    if (last.in_block > 0) {
        close_block(&last);
    }
    diff_metrics *m = &last.m;
    if (m->has_worst) {
        m->worst_rmse = last.worst_nonfinite
                            ? INFINITY
                            : sqrt(last.worst_sse / (double)m->block_elems);
    }
    if (m->nonfinite_mismatches > 0) {
        m->max_abs = INFINITY;
        m->rmse = INFINITY;
        m->nmse = INFINITY;
        m->cosine = NAN;
    } else {
        m->rmse = m->n_finite > 0 ? sqrt(m->sse / (double)m->n_finite) : 0.0;
        if (m->energy_a > 0) {
            m->nmse = m->sse / m->energy_a;
        } else {
            m->nmse = m->sse == 0 ? 0.0 : INFINITY;
        }
        if (m->energy_a == 0 && m->energy_b == 0) {
            m->cosine = 1.0;
        } else if (m->energy_a == 0 || m->energy_b == 0) {
            m->cosine = 0.0;
        } else {
            /* sqrt(x*x) == x exactly in IEEE arithmetic, so identical tensors give exactly 1 */
            double c = m->dot / sqrt(m->energy_a * m->energy_b);
            m->cosine = c > 1.0 ? 1.0 : (c < -1.0 ? -1.0 : c);
        }
    }
    *out = *m;
}

void diff_total_init(diff_total *t)
{
    memset(t, 0, sizeof *t);
}

void diff_total_add(diff_total *t, const diff_metrics *m)
{
    t->tensors++;
    t->n_elements += m->n_elements;
    t->n_finite += m->n_finite;
    t->equal += m->equal;
    t->nonfinite_mismatches += m->nonfinite_mismatches;
    t->sse += m->sse;
    if (m->max_abs > t->max_abs) {
        t->max_abs = m->max_abs;
    }
    if (m->n_elements > 0) { /* 0 * Infinity would be NaN */
        t->weighted_nmse += (double)m->n_elements * m->nmse;
        t->weighted_cosine += (double)m->n_elements * m->cosine;
    }
}

double diff_pooled_rmse(uint64_t nonfinite_mismatches, double sse, uint64_t n_finite)
{
    if (nonfinite_mismatches > 0) {
        return INFINITY;
    }
    return n_finite > 0 ? sqrt(sse / (double)n_finite) : 0.0;
}

double diff_total_rmse(const diff_total *t)
{
    return diff_pooled_rmse(t->nonfinite_mismatches, t->sse, t->n_finite);
}

double diff_total_nmse(const diff_total *t)
{
    return t->n_elements > 0 ? t->weighted_nmse / (double)t->n_elements : 0.0;
}

double diff_total_cosine(const diff_total *t)
{
    return t->n_elements > 0 ? t->weighted_cosine / (double)t->n_elements : 1.0;
}

double diff_total_equal_fraction(const diff_total *t)
{
    return t->n_elements > 0 ? (double)t->equal / (double)t->n_elements : 1.0;
}
