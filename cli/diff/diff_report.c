#include "diff_report.h"

#include <math.h>

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

void diff_report_summarize(diff_report *r)
{
    diff_total_init(&r->total);
    r->failing = 0;
    for (size_t i = 0; i < r->pairs.n; i++) {
        const diff_pair *p = &r->pairs.items[i];
        if (p->kind != DIFF_PAIR_COMPARED) {
            continue;
        }
        diff_total_add(&r->total, &p->m);
        if (diff_exceeds(&r->th, &p->m) != 0) {
            r->failing++;
        }
    }
}

int diff_report_exit_code(const diff_report *r)
{
    return r->failing > 0 || r->pairs.count[DIFF_PAIR_SHAPE_MISMATCH] > 0 ? 1 : 0;
}

double diff_equal_fraction(const diff_metrics *m)
{
    return m->n_elements > 0 ? (double)m->equal / (double)m->n_elements : 1.0;
}
