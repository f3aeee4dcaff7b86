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

static void print_total_and_gate(cli_out *out, const diff_report *r)
{
    const diff_total *t = &r->total;
    char b1[32], b2[32], b3[32], b4[32], pc[16];
    cli_out_printf(out,
            "\ntotal: %" PRIu64 " tensors, %" PRIu64 " elements: max_abs %s, rmse %s, "
            "nmse %s, cosine %s (nmse and cosine weighted by elements), equal %s%%\n",
            t->tensors, t->n_elements, num(b1, t->max_abs), num(b2, diff_total_rmse(t)),
            num(b3, diff_total_nmse(t)), num(b4, diff_total_cosine(t)),
            percent(pc, t->equal, t->n_elements));
    const diff_thresholds *th = &r->th;
    if (!th->has_max_nmse && !th->has_max_abs && !th->has_min_cos) {
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
        cli_out_printf(out, ": %zu tensors fail", r->failing);
    }
    size_t shapes = r->pairs.count[DIFF_PAIR_SHAPE_MISMATCH];
    if (shapes > 0) {
        cli_out_printf(out, "; %zu shape mismatches", shapes);
    }
    cli_out_printf(out, "; %s\n", diff_report_exit_code(r) == 0 ? "PASS" : "FAIL");
}

static void print_patterns(cli_out *out, const char *option, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cli_text t;
        cli_text_escape_cstr(&t, list[i]);
        cli_out_printf(out, " --%s '%s'", option, t.s);
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
    print_source(out, "A", r->path_a, r->a);
    print_source(out, "B", r->path_b, r->b);
    print_filter(out, &r->filter);
    print_metadata(out, r);
    print_unmatched(out, r);
    print_compared(out, r);
    print_total_and_gate(out, r);
}
