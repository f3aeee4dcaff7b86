/* The text form of `ggufsafe diff`: the two sources, metadata differences, tensors present on one
 * side only, shape mismatches, the compared tensors worst first (by NMSE), the model total and
 * the gate. Every key, string and tensor name goes through cli_text_escape. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "diff_report.h"
#include "kv_value.h"
#include "text_out.h"

#define VALUE_MAX_SRC 48 /* string values are cut to this with an ellipsis */
#define KEY_MAX_SRC 96
#define NAME_MAX_SRC 64  /* ggml's tensor name limit is 63 bytes */
#define NAME_COLUMN_MAX 48

/* Numbers for reading, not for round trips (the JSON has those): 6 significant digits. */
static const char *num(char buf[32], double v)
{
    if (isnan(v)) {
        return "NaN";
    }
    if (isinf(v)) {
        return v < 0 ? "-Infinity" : "Infinity";
    }
    snprintf(buf, 32, "%.6g", v);
    return buf;
}

/* The share of equal elements in percent, never shown as 100.00 or 0.00 unless it is. */
static const char *percent(char buf[16], uint64_t equal, uint64_t n)
{
    if (n == 0 || equal == n) {
        return "100.00";
    }
    if (equal == 0) {
        return "0.00";
    }
    double p = 100.0 * (double)equal / (double)n;
    if (p > 99.99) {
        return ">99.99";
    }
    if (p < 0.01) {
        return "<0.01";
    }
    snprintf(buf, 16, "%.2f", p);
    return buf;
}

static void print_source(cli_out *out, const char *label, const char *path, const cli_source *s)
{
    cli_text p;
    cli_text_escape_cstr(&p, path);
    size_t tensors = 0;
    for (size_t i = 0; i < cli_source_parts(s); i++) {
        tensors += gs_tensor_count(cli_source_part(s, i));
    }
    cli_out_printf(out, "%s: %s (", label, p.s);
    if (s->split != NULL) {
        cli_out_printf(out, "split set of %zu parts, ", cli_source_parts(s));
    }
    cli_out_printf(out, "%zu tensors, %zu metadata pairs)\n", tensors,
                   gs_kv_count(cli_source_part(s, 0)));
}

/* A scalar in full (strings quoted and cut), an array as [type; count]. */
static void value_text(const gs_file *f, size_t i, cli_text *t)
{
    gs_kv_info kv;
    if (gs_kv_info_at(f, i, &kv) != GS_OK) {
        cli_text_printf(t, "?");
        return;
    }
    if (kv.type == GS_VALUE_ARRAY) {
        cli_text_printf(t, "[%s; %" PRIu64 "]", gs_value_type_name(kv.elem_type), kv.count);
        return;
    }
    cli_value v;
    cli_text body;
    if (cli_read_scalar(f, i, kv.type, &v) != GS_OK) {
        cli_text_printf(t, "(unreadable)");
        return;
    }
    cli_value_text(&v, &body, VALUE_MAX_SRC);
    const char *q = v.kind == CLI_VALUE_STRING ? "\"" : "";
    cli_text_printf(t, "%s %s%s%s", gs_value_type_name(kv.type), q, body.s, q);
}

static void element_text(const gs_file *f, size_t i, uint64_t e, cli_text *t)
{
    gs_kv_info kv;
    cli_value v;
    if (gs_kv_info_at(f, i, &kv) != GS_OK || e >= kv.count ||
        cli_read_element(f, i, kv.elem_type, e, &v) != GS_OK) {
        cli_text_printf(t, "(none)");
        return;
    }
    cli_text body;
    cli_value_text(&v, &body, VALUE_MAX_SRC);
    const char *q = v.kind == CLI_VALUE_STRING ? "\"" : "";
    cli_text_printf(t, "%s%s%s", q, body.s, q);
}

static void print_key(cli_out *out, const gs_file *f, size_t i)
{
    gs_kv_info kv;
    cli_text key;
    if (gs_kv_info_at(f, i, &kv) == GS_OK) {
        cli_text_escape(&key, kv.key.ptr, kv.key.len, KEY_MAX_SRC);
    } else {
        cli_text_printf(&key, "?");
    }
    cli_text_print_padded(out, &key, 0);
}

static void print_metadata(cli_out *out, const diff_report *r)
{
    const gs_file *fa = cli_source_part(r->a, 0), *fb = cli_source_part(r->b, 0);
    const diff_kv_list *l = &r->kvs;
    cli_out_printf(out, "\nmetadata: %zu only in A, %zu only in B, %zu changed\n", l->only_a,
                   l->only_b, l->changed);
    for (size_t k = 0; k < l->n; k++) {
        const diff_kv *d = &l->items[k];
        cli_text va, vb;
        if (d->kind == DIFF_KV_ONLY_A || d->kind == DIFF_KV_ONLY_B) {
            bool in_a = d->kind == DIFF_KV_ONLY_A;
            const gs_file *f = in_a ? fa : fb;
            size_t i = in_a ? d->ia : d->ib;
            cli_out_puts(out, in_a ? "  only in A  " : "  only in B  ");
            print_key(out, f, i);
            value_text(f, i, &va);
            cli_out_printf(out, "  %s\n", va.s);
            continue;
        }
        cli_out_puts(out, "  changed     ");
        print_key(out, fa, d->ia);
        value_text(fa, d->ia, &va);
        value_text(fb, d->ib, &vb);
        cli_out_printf(out, "  %s -> %s", va.s, vb.s);
        if (d->has_first_diff) {
            element_text(fa, d->ia, d->first_diff, &va);
            element_text(fb, d->ib, d->first_diff, &vb);
            cli_out_printf(out, ", first difference at [%" PRIu64 "]: %s -> %s", d->first_diff,
                           va.s, vb.s);
        }
        cli_out_putc(out, '\n');
    }
}

static void shape_text(const gs_tensor_info *t, cli_text *out)
{
    char buf[128];
    size_t len = 0;
    buf[len++] = '[';
    for (uint32_t d = 0; d < t->n_dims && d < GS_MAX_DIMS; d++) {
        int n = snprintf(buf + len, sizeof buf - len, "%s%" PRIu64, d ? ", " : "", t->ne[d]);
        len += n > 0 ? (size_t)n : 0;
    }
    snprintf(buf + len, sizeof buf - len, "]");
    cli_text_printf(out, "%s", buf);
}

static void print_name(cli_out *out, const gs_tensor_info *t, size_t width)
{
    cli_text name;
    cli_text_escape(&name, t->name.ptr, t->name.len, NAME_MAX_SRC);
    cli_text_print_padded(out, &name, width);
}

static void print_unmatched(cli_out *out, const diff_report *r)
{
    const diff_pairs *p = &r->pairs;
    cli_out_printf(out,
            "\ntensors: %zu in A, %zu in B: %zu compared, %zu only in A, %zu only in B, "
            "%zu shape mismatches, %zu not compared\n",
            p->tensors_a, p->tensors_b, p->count[DIFF_PAIR_COMPARED], p->count[DIFF_PAIR_ONLY_A],
            p->count[DIFF_PAIR_ONLY_B], p->count[DIFF_PAIR_SHAPE_MISMATCH],
            p->count[DIFF_PAIR_NOT_DECODABLE]);
    for (size_t i = 0; i < p->n; i++) {
        const diff_pair *q = &p->items[i];
        gs_tensor_info ta, tb;
        cli_text sa, sb;
        switch (q->kind) {
        case DIFF_PAIR_COMPARED:
            break;
        case DIFF_PAIR_ONLY_A:
        case DIFF_PAIR_ONLY_B: {
            const diff_side *s = q->kind == DIFF_PAIR_ONLY_A ? &q->a : &q->b;
            diff_side_info(s, &ta);
            shape_text(&ta, &sa);
            cli_out_puts(out, q->kind == DIFF_PAIR_ONLY_A ? "  only in A      "
                                                          : "  only in B      ");
            print_name(out, &ta, 0);
            cli_out_printf(out, "  %s %s\n", gs_type_name(ta.type), sa.s);
            break;
        }
        case DIFF_PAIR_SHAPE_MISMATCH:
        case DIFF_PAIR_NOT_DECODABLE:
            diff_side_info(&q->a, &ta);
            diff_side_info(&q->b, &tb);
            shape_text(&ta, &sa);
            shape_text(&tb, &sb);
            if (q->kind == DIFF_PAIR_SHAPE_MISMATCH) {
                cli_out_puts(out, "  shape mismatch  ");
                print_name(out, &ta, 0);
                cli_out_printf(out, "  A %s %s, B %s %s\n", gs_type_name(ta.type), sa.s,
                               gs_type_name(tb.type), sb.s);
            } else {
                cli_out_puts(out, "  not compared    ");
                print_name(out, &ta, 0);
                cli_out_printf(out, "  A %s, B %s: %s\n", gs_type_name(ta.type),
                               gs_type_name(tb.type),
                               r->metadata_only ? "metadata only" : "no f32 form");
            }
            break;
        }
    }
}

/* Worst first: larger NMSE, then larger max_abs, then file order (the pairs' order in their one
 * array, so the comparison needs no context: qsort has none in C11, and a global would make two
 * reports written at once race). NMSE is never NaN. */
static int worse_first(const void *x, const void *y)
{
    const diff_pair *p = *(const diff_pair *const *)x, *q = *(const diff_pair *const *)y;
    const diff_metrics *a = &p->m, *b = &q->m;
    if (a->nmse != b->nmse) {
        return a->nmse > b->nmse ? -1 : 1;
    }
    if (a->max_abs != b->max_abs) {
        return a->max_abs > b->max_abs ? -1 : 1;
    }
    return p < q ? -1 : (p > q ? 1 : 0);
}

static void print_exceeds(cli_out *out, unsigned bits)
{
    const char *sep = "";
    if (bits & DIFF_EXCEEDS_NMSE) {
        cli_out_printf(out, "%snmse", sep);
        sep = ",";
    }
    if (bits & DIFF_EXCEEDS_ABS) {
        cli_out_printf(out, "%smax-abs", sep);
        sep = ",";
    }
    if (bits & DIFF_EXCEEDS_COS) {
        cli_out_printf(out, "%smin-cos", sep);
    }
}

static void print_row(cli_out *out, const diff_report *r, const diff_pair *q, size_t name_col)
{
    gs_tensor_info ta, tb;
    diff_side_info(&q->a, &ta);
    diff_side_info(&q->b, &tb);
    const diff_metrics *m = &q->m;
    char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], blocks[48];
    snprintf(blocks, sizeof blocks, "%" PRIu64 "/%" PRIu64, m->changed_blocks,
             (m->n_elements + m->block_elems - 1) / m->block_elems);
    cli_out_puts(out, "  ");
    print_name(out, &ta, name_col);
    char pc[16];
    cli_out_printf(out, "  %-7s %-7s %12" PRIu64 " %12s %12s %12s %12s %8s %15s",
                   gs_type_name(ta.type), gs_type_name(tb.type), m->n_elements, num(b1, m->max_abs),
                   num(b2, m->rmse), num(b3, m->nmse), num(b4, m->cosine),
                   percent(pc, m->equal, m->n_elements), blocks);
    if (m->has_worst) {
        cli_out_printf(out, " %" PRIu64 " (rmse %s, max_abs %s)", m->worst_block,
                       num(b5, m->worst_rmse), num(b6, m->worst_max_abs));
    } else {
        cli_out_puts(out, " -");
    }
    unsigned bits = diff_exceeds(&r->th, m);
    if (bits != 0) {
        cli_out_puts(out, "  FAIL ");
        print_exceeds(out, bits);
    }
    cli_out_putc(out, '\n');
}

static void print_nonfinite(cli_out *out, const diff_pair *q)
{
    const diff_metrics *m = &q->m;
    if (m->nan_a + m->nan_b + m->inf_a + m->inf_b == 0) {
        return;
    }
    gs_tensor_info ta;
    diff_side_info(&q->a, &ta);
    cli_out_puts(out, "  non-finite: ");
    print_name(out, &ta, 0);
    cli_out_printf(out,
            ": NaN %" PRIu64 " in A, %" PRIu64 " in B; Inf %" PRIu64 " in A, %" PRIu64
            " in B; %" PRIu64 " mismatched\n",
            m->nan_a, m->nan_b, m->inf_a, m->inf_b, m->nonfinite_mismatches);
}

static void print_compared(cli_out *out, const diff_report *r)
{
    const diff_pairs *p = &r->pairs;
    size_t n = p->count[DIFF_PAIR_COMPARED];
    if (n == 0) {
        return;
    }
    const diff_pair **order = cli_alloc_array(n, sizeof *order);
    if (order == NULL) {
        cli_out_fail(out, GS_E_NO_MEMORY);
        return;
    }
    size_t k = 0, name_col = 6;
    for (size_t i = 0; i < p->n; i++) {
        if (p->items[i].kind == DIFF_PAIR_COMPARED) {
            order[k++] = &p->items[i];
            gs_tensor_info t;
            cli_text name;
            diff_side_info(&p->items[i].a, &t);
            cli_text_escape(&name, t.name.ptr, t.name.len, NAME_MAX_SRC);
            if (name.width > name_col) {
                name_col = name.width;
            }
        }
    }
    if (name_col > NAME_COLUMN_MAX) {
        name_col = NAME_COLUMN_MAX;
    }
    qsort(order, n, sizeof *order, worse_first);
    cli_out_printf(out, "\ncompared tensors, worst first (A is the reference; blocks are B's)\n  ");
    cli_text head;
    cli_text_printf(&head, "tensor");
    cli_text_print_padded(out, &head, name_col);
    cli_out_printf(out, "  %-7s %-7s %12s %12s %12s %12s %12s %8s %15s %s\n", "A", "B", "elements",
                   "max_abs", "rmse", "nmse", "cosine", "equal%", "changed/blocks", "worst block");
    for (k = 0; k < n; k++) {
        print_row(out, r, order[k], name_col);
    }
    for (k = 0; k < n; k++) {
        print_nonfinite(out, order[k]);
    }
    free(order);
}

/* A roll-up group's name: the role or "blk.N" (escaped bytes of a tensor name), the type. */
static void group_name(const diff_group *g, int grouping, bool three_way, cli_text *t)
{
    if (grouping == DIFF_BY_TYPE && three_way) {
        cli_text_printf(t, "%s -> %s", gs_type_name(g->base_type), gs_type_name(g->type));
    } else {
        cli_text_escape(t, g->name.ptr, g->name.len, NAME_MAX_SRC);
    }
}

static void print_group(cli_out *out, const diff_report *r, const diff_group *g, const cli_text *name,
                        size_t col)
{
    char b1[32], b2[32], b3[32], b4[32], b5[32];
    cli_out_puts(out, "  ");
    cli_text_print_padded(out, name, col);
    cli_out_printf(out, " %7" PRIu64 " %12" PRIu64 " %7.4f %12s %12s %12s", g->s.tensors,
                   g->s.elements, diff_stats_bpw(&g->s), num(b1, diff_stats_nmse(&g->s)),
                   num(b2, diff_stats_cosine(&g->s)), num(b3, g->s.max_abs));
    if (r->three_way) {
        cli_out_printf(out, " %7.4f %12s %12s", diff_stats_bpw(&g->base),
                       num(b4, diff_stats_nmse(&g->base)), num(b5, diff_group_nmse_ratio(g)));
    }
    cli_out_putc(out, '\n');
}

/* Per role, per layer, per type and in total: the candidate's bits per weight next to its
 * pooled error (and, three-way, the baseline's and the ratio). */
static void print_rollups(cli_out *out, const diff_report *r)
{
    const diff_rollups *ru = &r->rollups;
    if (ru->total.s.tensors == 0) {
        return;
    }
    size_t col = 8;
    for (int g = 0; g < DIFF_GROUPINGS; g++) {
        for (size_t i = 0; i < ru->n[g]; i++) {
            cli_text t;
            group_name(&ru->groups[g][i], g, r->three_way, &t);
            col = t.width > col ? t.width : col;
        }
    }
    col = col > NAME_COLUMN_MAX ? NAME_COLUMN_MAX : col;
    cli_out_printf(out, "\nroll-ups of the compared tensors (bpw: bits per weight of %s; errors "
                        "pooled: nmse = group SSE / group energy of the reference, cosine "
                        "weighted by elements)\n",
                   r->three_way ? "each candidate" : "B");
    for (int g = 0; g < DIFF_GROUPINGS; g++) {
        if (ru->n[g] == 0) {
            continue;
        }
        cli_text head;
        cli_text_printf(&head, "by %s", diff_grouping_name(g));
        cli_out_puts(out, "  ");
        cli_text_print_padded(out, &head, col);
        cli_out_printf(out, " %7s %12s %7s %12s %12s %12s", "tensors", "elements",
                       r->three_way ? "B bpw" : "bpw", r->three_way ? "B nmse" : "nmse",
                       "cosine", "max_abs");
        if (r->three_way) {
            cli_out_printf(out, " %7s %12s %12s", "A bpw", "A nmse", "B/A nmse");
        }
        cli_out_putc(out, '\n');
        for (size_t i = 0; i < ru->n[g]; i++) {
            cli_text t;
            group_name(&ru->groups[g][i], g, r->three_way, &t);
            print_group(out, r, &ru->groups[g][i], &t, col);
        }
    }
    cli_text t;
    cli_text_printf(&t, "total");
    print_group(out, r, &ru->total, &t, col);
}

/* Three-way rows, worst ratio first, then list order. */
typedef struct ratio_row {
    size_t row;
    double ratio;
} ratio_row;

static int worse_ratio_first(const void *x, const void *y)
{
    const ratio_row *a = x, *b = y;
    if (a->ratio != b->ratio) {
        return a->ratio > b->ratio ? -1 : 1;
    }
    return a->row < b->row ? -1 : (a->row > b->row ? 1 : 0);
}

static void print_three_way_row(cli_out *out, const diff_report *r, size_t i, size_t name_col)
{
    const diff_pair *p = &r->pairs.items[i], *q = diff_row_baseline(r, i);
    gs_tensor_info ta, tq, tb;
    diff_side_info(&p->a, &ta);
    diff_side_info(&q->b, &tq);
    diff_side_info(&p->b, &tb);
    char b1[32], b2[32], b3[32], b4[32];
    cli_out_puts(out, "  ");
    print_name(out, &ta, name_col);
    cli_out_printf(out, "  %-7s %-7s %7.4f %7.4f %12s %12s %12s %12s", gs_type_name(tq.type),
                   gs_type_name(tb.type), diff_pair_bpw(q), diff_pair_bpw(p),
                   num(b1, q->m.nmse), num(b2, p->m.nmse),
                   num(b3, diff_nmse_ratio(q->m.nmse, p->m.nmse)),
                   num(b4, diff_nmse_increase(q->m.nmse, p->m.nmse)));
    unsigned bits = diff_row_exceeds(r, i);
    if (bits != 0) {
        cli_out_puts(out, "  FAIL ");
        cli_out_puts(out, (bits & DIFF_EXCEEDS_RATIO) && (bits & DIFF_EXCEEDS_INCREASE)
                              ? "nmse-ratio,nmse-increase"
                              : ((bits & DIFF_EXCEEDS_RATIO) ? "nmse-ratio" : "nmse-increase"));
    }
    cli_out_putc(out, '\n');
}

/* B against A, both against REF: the tensors compared on both candidates. */
static void print_three_way(cli_out *out, const diff_report *r)
{
    if (!r->three_way) {
        return;
    }
    ratio_row *rows = cli_alloc_array(r->base_rows > 0 ? r->base_rows : 1, sizeof *rows);
    if (rows == NULL) {
        cli_out_fail(out, GS_E_NO_MEMORY);
        return;
    }
    size_t n = 0, name_col = 6;
    for (size_t i = 0; i < r->base_rows; i++) {
        const diff_pair *q = diff_row_baseline(r, i);
        if (q == NULL) {
            continue;
        }
        const diff_pair *p = &r->pairs.items[i];
        rows[n++] = (ratio_row){i, diff_nmse_ratio(q->m.nmse, p->m.nmse)};
        gs_tensor_info t;
        cli_text name;
        diff_side_info(&p->a, &t);
        cli_text_escape(&name, t.name.ptr, t.name.len, NAME_MAX_SRC);
        name_col = name.width > name_col ? name.width : name_col;
    }
    name_col = name_col > NAME_COLUMN_MAX ? NAME_COLUMN_MAX : name_col;
    cli_out_printf(out, "\nB against A (%zu tensors compared on both; nmse against REF), worst "
                        "ratio first\n  ",
                   n);
    cli_text head;
    cli_text_printf(&head, "tensor");
    cli_text_print_padded(out, &head, name_col);
    cli_out_printf(out, "  %-7s %-7s %7s %7s %12s %12s %12s %12s\n", "A", "B", "A bpw", "B bpw",
                   "A nmse", "B nmse", "B/A nmse", "B-A nmse");
    qsort(rows, n, sizeof *rows, worse_ratio_first);
    for (size_t k = 0; k < n; k++) {
        print_three_way_row(out, r, rows[k].row, name_col);
    }
    free(rows);
}

static void print_values(cli_out *out, const char *label, const float *v, uint32_t n)
{
    char b[32];
    cli_out_printf(out, "      %-4s", label);
    for (uint32_t i = 0; i < n; i++) {
        cli_out_printf(out, " %s", num(b, (double)v[i]));
    }
    cli_out_putc(out, '\n');
}

/* --worst N: the worst blocks of the whole comparison with their values. */
static void print_worst(cli_out *out, const diff_report *r)
{
    if (r->keep_worst == 0) {
        return;
    }
    cli_out_printf(out, "\nworst blocks (%zu of --worst %zu; in B's blocks, by RMSE over the block)\n",
                   r->n_worst, r->keep_worst);
    for (size_t i = 0; i < r->n_worst; i++) {
        const diff_worst *w = &r->worst[i];
        gs_tensor_info t;
        diff_side_info(&r->pairs.items[w->pair].a, &t);
        char b1[32], b2[32], b3[32], b4[32];
        cli_out_printf(out, "  %zu. ", i + 1);
        print_name(out, &t, 0);
        cli_out_printf(out, " block %" PRIu64 " (elements %" PRIu64 "..%" PRIu64 "): rmse %s, "
                            "max_abs %s",
                       w->e.block, w->first, w->first + w->n - 1, num(b1, diff_worst_rmse(w)),
                       num(b2, w->e.nonfinite ? INFINITY : w->e.max_abs));
        if (w->base != NULL) {
            cli_out_printf(out, "; A: rmse %s, max_abs %s", num(b3, w->base_rmse),
                           num(b4, w->base_max_abs));
        }
        cli_out_putc(out, '\n');
        print_values(out, r->three_way ? "REF" : "A", w->ref, w->n);
        if (w->base != NULL) {
            print_values(out, "A", w->base, w->n);
        }
        print_values(out, "B", w->cand, w->n);
    }
}

static void print_patterns(cli_out *out, const char *option, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cli_text t;
        cli_text_escape_cstr(&t, list[i]);
        cli_out_printf(out, " --%s '%s'", option, t.s);
    }
}

static void print_total(cli_out *out, const diff_report *r)
{
    const diff_total *t = &r->total;
    char b1[32], b2[32], b3[32], b4[32], pc[16];
    cli_out_printf(out,
            "\ntotal: %" PRIu64 " tensors, %" PRIu64 " elements: max_abs %s, rmse %s, "
            "nmse %s, cosine %s (nmse and cosine weighted by elements), equal %s%%\n",
            t->tensors, t->n_elements, num(b1, t->max_abs), num(b2, diff_total_rmse(t)),
            num(b3, diff_total_nmse(t)), num(b4, diff_total_cosine(t)),
            percent(pc, t->equal, t->n_elements));
}

static void print_key_patterns(cli_out *out, const diff_rules *ru)
{
    if (ru->fail_on_metadata) {
        cli_out_puts(out, " --fail-on-metadata");
    }
    print_patterns(out, "fail-on-key", ru->keys.include, ru->keys.n_include);
    if (ru->fail_on_metadata || ru->keys.n_include > 0) {
        print_patterns(out, "ignore-key", ru->keys.exclude, ru->keys.n_exclude);
    }
}

/* "gate: --max-nmse 0.01 --allow-missing: 2 tensors fail; 1 missing; FAIL" */
static void print_gate_line(cli_out *out, const diff_report *r)
{
    const diff_thresholds *th = &r->th;
    const diff_gate *g = &r->gate;
    char b1[32];
    if (!g->active) {
        cli_out_puts(out, "gate: no thresholds");
    } else {
        cli_out_puts(out, "gate:");
        if (th->has_max_nmse) {
            cli_out_printf(out, " --max-nmse %s", num(b1, th->max_nmse));
        }
        if (th->has_max_abs) {
            cli_out_printf(out, " --max-abs %s", num(b1, th->max_abs));
        }
        if (th->has_min_cos) {
            cli_out_printf(out, " --min-cos %s", num(b1, th->min_cos));
        }
        if (th->has_max_ratio) {
            cli_out_printf(out, " --max-nmse-ratio %s", num(b1, th->max_ratio));
        }
        if (th->has_max_increase) {
            cli_out_printf(out, " --max-nmse-increase %s", num(b1, th->max_increase));
        }
        if (r->rules.allow_missing) {
            cli_out_puts(out, " --allow-missing");
        }
        if (r->rules.allow_extra) {
            cli_out_puts(out, " --allow-extra");
        }
        print_key_patterns(out, &r->rules);
        cli_out_printf(out, ": %zu tensors fail", r->failing);
    }
    static const struct {
        gs_diff_rule rule;
        const char *what;
    } counts[] = {{GS_DIFF_RULE_SHAPE, "shape mismatches"},
                  {GS_DIFF_RULE_MISSING, "missing in B"},
                  {GS_DIFF_RULE_EXTRA, "extra in B"},
                  {GS_DIFF_RULE_NOT_COMPARABLE, "not comparable"},
                  {GS_DIFF_RULE_METADATA, "metadata differences"}};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        if (g->count[counts[k].rule] > 0) {
            cli_out_printf(out, "; %zu %s", g->count[counts[k].rule], counts[k].what);
        }
    }
    cli_out_printf(out, "; %s\n", diff_report_exit_code(r) == 0 ? "PASS" : "FAIL");
}

/* Why one failure failed, and what accepts it when something can. */
static void print_failure(cli_out *out, const diff_report *r, const diff_failure *f)
{
    char b1[32], b2[32];
    cli_text subject, rule;
    gs_tensor_info ta, tb;
    const diff_pair *p = f->rule != GS_DIFF_RULE_METADATA ? &r->pairs.items[f->index] : NULL;
    if (p != NULL) {
        diff_side_info(p->a.file != NULL ? &p->a : &p->b, &ta);
        cli_text_escape(&subject, ta.name.ptr, ta.name.len, NAME_MAX_SRC);
    } else {
        const diff_kv *d = &r->kvs.items[f->index];
        const gs_file *kf = cli_source_part(d->kind == DIFF_KV_ONLY_B ? r->b : r->a, 0);
        gs_kv_info kv;
        if (gs_kv_info_at(kf, d->kind == DIFF_KV_ONLY_B ? d->ib : d->ia, &kv) == GS_OK) {
            cli_text_escape(&subject, kv.key.ptr, kv.key.len, KEY_MAX_SRC);
        } else {
            cli_text_printf(&subject, "?");
        }
    }
    cli_text_printf(&rule, "%s", diff_rule_name(f->rule));
    cli_out_puts(out, "  ");
    cli_text_print_padded(out, &rule, 18);
    cli_out_printf(out, "  %s: ", subject.s);
    switch (f->rule) {
    case GS_DIFF_RULE_MAX_NMSE:
    case GS_DIFF_RULE_MAX_ABS:
    case GS_DIFF_RULE_MAX_NMSE_RATIO:
    case GS_DIFF_RULE_MAX_NMSE_INCREASE:
        cli_out_printf(out, "%s > %s\n", num(b1, f->value), num(b2, f->limit));
        break;
    case GS_DIFF_RULE_MIN_COS:
        cli_out_printf(out, "%s < %s\n", num(b1, f->value), num(b2, f->limit));
        break;
    case GS_DIFF_RULE_MISSING:
        cli_out_puts(out, "in A, not in B (--allow-missing accepts tensors only in A)\n");
        break;
    case GS_DIFF_RULE_EXTRA:
        cli_out_puts(out, "in B, not in A (--allow-extra accepts tensors only in B)\n");
        break;
    case GS_DIFF_RULE_SHAPE: {
        cli_text sa, sb;
        diff_side_info(&p->b, &tb);
        shape_text(&ta, &sa);
        shape_text(&tb, &sb);
        cli_out_printf(out, "A %s, B %s\n", sa.s, sb.s);
        break;
    }
    case GS_DIFF_RULE_NOT_COMPARABLE:
        diff_side_info(&p->b, &tb);
        cli_out_printf(out, "A %s, B %s: no f32 form, and not the same type and bytes\n",
                       gs_type_name(ta.type), gs_type_name(tb.type));
        break;
    case GS_DIFF_RULE_METADATA: {
        static const char *const kinds[] = {"only in A", "only in B", "changed"};
        cli_out_printf(out, "%s (--ignore-key accepts it)\n", kinds[r->kvs.items[f->index].kind]);
        break;
    }
    }
}

static void print_total_and_gate(cli_out *out, const diff_report *r)
{
    print_total(out, r);
    print_gate_line(out, r);
    for (size_t i = 0; i < r->gate.n; i++) {
        print_failure(out, r, &r->gate.items[i]);
    }
}

/* Which tensors the report covers, when not all: "filter: --tensor 'blk.*' --exclude '*norm*'". */
static void print_filter(cli_out *out, const cli_name_filter *f)
{
    if (!cli_filter_active(f)) {
        return;
    }
    cli_out_puts(out, "filter:");
    print_patterns(out, "tensor", f->include, f->n_include);
    print_patterns(out, "exclude", f->exclude, f->n_exclude);
    cli_out_putc(out, '\n');
}

void diff_text(cli_out *out, const diff_report *r)
{
    if (r->three_way) {
        print_source(out, "REF", r->path_a, r->a);
        print_source(out, "A", r->path_base, r->base);
        print_source(out, "B", r->path_b, r->b);
        cli_out_puts(out, "three-way: B against REF first (REF is \"A\" in those tables), then "
                          "B against the baseline A, both measured against REF\n");
    } else {
        print_source(out, "A", r->path_a, r->a);
        print_source(out, "B", r->path_b, r->b);
    }
    print_filter(out, &r->filter);
    print_metadata(out, r);
    print_unmatched(out, r);
    print_compared(out, r);
    print_three_way(out, r);
    print_rollups(out, r);
    print_worst(out, r);
    print_total_and_gate(out, r);
}
