/* The HTML form of `ggufsafe diff` (--html): one self-contained page, inline CSS and SVG, no
 * script, no link, no href or src of any kind, nothing fetched. From the top: the gate's verdict
 * (a fixed-height header), the charts (NMSE per layer, one chart per role, both candidates in
 * three-way mode; NMSE against bits per weight, one point per tensor and candidate), the gate's
 * failures, then the roll-up tables. Deterministic bytes: no clock, no locale, numbers through
 * num_format.c, pixel coordinates as integers.
 *
 * The charts sit at fixed places on the page: the header is HTML_HEADER_H pixels high, and each
 * chart is an absolutely placed <svg class="chart"> whose data-left/data-top give its page
 * position, data-plot its plot area ("x y w h", SVG units = CSS pixels) and data-series the
 * colours of its series, so that a test can look at a screenshot without hard-coding pixels
 * (cli/tests/check_html_render.py).
 *
 * The NMSE axes are logarithmic (decades). An exact tensor (NMSE 0) is drawn on a floor line one
 * decade below the lowest decade shown, labelled "0"; a non-finite mismatch (NMSE Infinity) on a
 * ceiling line one decade above, labelled "inf". At most HTML_MAX_DECADES decades are shown: a
 * smaller NMSE is drawn on the lowest one.
 *
 * Size: every string from a file is cut to NAME_MAX_SRC bytes before it is escaped; at most
 * HTML_MAX_ROLE_CHARTS role charts and HTML_MAX_FAILURES failure lines are written (the rest
 * are counted); so the page is a few kilobytes plus a bounded number of bytes per compared
 * tensor (its points and its table rows), docs/diff.md gives the figures. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "diff_report.h"
#include "num_format.h"
#include "text_out.h"

#define NAME_MAX_SRC 64
#define PATH_MAX_SRC 256
#define HTML_MAX_ROLE_CHARTS 48
#define HTML_MAX_FAILURES 100
#define HTML_MAX_DECADES 24

#define HTML_PAGE_W 1200
#define HTML_HEADER_H 120
#define HTML_COLUMNS 3
#define HTML_CELL_W 400
#define HTML_CELL_H 260
#define HTML_SVG_W 390
#define HTML_SVG_H 250
#define HTML_PLOT_X 64
#define HTML_PLOT_Y 30
#define HTML_PLOT_W 312
#define HTML_PLOT_H 176

#define COLOR_B "#1f77b4" /* the candidate B */
#define COLOR_A "#ff7f0e" /* three-way: the baseline A */

/* ---- escaping ----------------------------------------------------------------------------- */

/* Bytes as HTML text (or an attribute value): escaped as the text report escapes them (controls
 * and invalid UTF-8 visible as \xHH, cut with an ellipsis), then & < > " ' as entities. */
static void html_bytes(cli_out *out, const void *src, size_t n, size_t max_src)
{
    char buf[4 * PATH_MAX_SRC + 8];
    if (max_src > PATH_MAX_SRC) {
        max_src = PATH_MAX_SRC;
    }
    size_t len = cli_escape_cut(buf, sizeof buf, src, n, max_src);
    size_t from = 0;
    for (size_t i = 0; i < len; i++) {
        const char *ent = NULL;
        switch (buf[i]) {
        case '&': ent = "&amp;"; break;
        case '<': ent = "&lt;"; break;
        case '>': ent = "&gt;"; break;
        case '"': ent = "&quot;"; break;
        case '\'': ent = "&#39;"; break;
        default: break;
        }
        if (ent != NULL) {
            cli_out_write(out, buf + from, i - from);
            cli_out_puts(out, ent);
            from = i + 1;
        }
    }
    cli_out_write(out, buf + from, len - from);
}

static void html_cstr(cli_out *out, const char *s, size_t max_src)
{
    html_bytes(out, s, strlen(s), max_src);
}

static void html_str(cli_out *out, gs_str s)
{
    html_bytes(out, s.ptr, s.len, NAME_MAX_SRC);
}

/* A number for reading: 4 significant digits, the non-finite ones named. */
static const char *num(char buf[CLI_NUM_BUF], double v)
{
    (void)cli_format_sig(buf, v, 4);
    return buf;
}

/* ---- the rows the charts draw ------------------------------------------------------------- */

typedef struct html_row {
    size_t row;          /* in pairs */
    gs_str name, role;   /* role: the name without "blk.N." (has_layer) */
    bool has_layer;
    uint64_t layer;
    double nmse_b, bpw_b;
    bool has_a;          /* three-way */
    double nmse_a, bpw_a;
} html_row;

/* The rows with a candidate comparison: every compared pair (two-way), or the rows compared on
 * both candidates (three-way, as the roll-ups count them). NULL with *n 0 when there is none. */
static html_row *collect_rows(const diff_report *r, size_t *n, bool *oom)
{
    *n = 0;
    *oom = false;
    size_t limit = r->three_way ? r->base_rows : r->pairs.n;
    if (limit == 0) {
        return NULL;
    }
    html_row *rows = cli_alloc_array(limit, sizeof *rows);
    if (rows == NULL) {
        *oom = true;
        return NULL;
    }
    for (size_t i = 0; i < limit; i++) {
        const diff_pair *p = &r->pairs.items[i];
        const diff_pair *q = r->three_way ? diff_row_baseline(r, i) : NULL;
        if (p->kind != DIFF_PAIR_COMPARED || (r->three_way && q == NULL)) {
            continue;
        }
        html_row *h = &rows[(*n)++];
        memset(h, 0, sizeof *h);
        gs_tensor_info t;
        diff_side_info(&p->a, &t);
        h->row = i;
        h->name = t.name;
        gs_str layer;
        h->has_layer = diff_split_name(t.name, &layer, &h->layer, &h->role);
        h->nmse_b = p->m.nmse;
        h->bpw_b = diff_pair_bpw(p);
        if (q != NULL) {
            h->has_a = true;
            h->nmse_a = q->m.nmse;
            h->bpw_a = diff_pair_bpw(q);
        }
    }
    return rows;
}

static bool same_str(gs_str x, gs_str y)
{
    return x.len == y.len && (x.len == 0 || memcmp(x.ptr, y.ptr, x.len) == 0);
}

/* ---- axes --------------------------------------------------------------------------------- */

/* A logarithmic NMSE axis: decades lo..hi, a floor line for 0 and a ceiling line for Infinity
 * when those occur. */
typedef struct log_axis {
    int lo, hi;          /* decades shown */
    bool floor, ceiling; /* a line for exact (0) values, one for Infinity */
    int bottom, top;     /* lo - floor, hi + ceiling: the axis's ends in decades */
} log_axis;

static void log_axis_add(log_axis *ax, bool *any, double v, double *min_pos, double *max_fin)
{
    if (v == 0) {
        ax->floor = true;
    } else if (isinf(v)) {
        ax->ceiling = true;
    } else if (v > 0) {
        if (!*any || v < *min_pos) {
            *min_pos = v;
        }
        if (!*any || v > *max_fin) {
            *max_fin = v;
        }
        *any = true;
    }
}

static void log_axis_finish(log_axis *ax, bool any, double min_pos, double max_fin)
{
    if (!any) {
        ax->lo = -1;
        ax->hi = 0;
    } else {
        ax->lo = (int)floor(log10(min_pos));
        ax->hi = (int)ceil(log10(max_fin));
    }
    if (ax->hi <= ax->lo) {
        ax->hi = ax->lo + 1;
    }
    if (ax->hi - ax->lo > HTML_MAX_DECADES) {
        ax->lo = ax->hi - HTML_MAX_DECADES;
    }
    ax->bottom = ax->lo - (ax->floor ? 1 : 0);
    ax->top = ax->hi + (ax->ceiling ? 1 : 0);
}

/* The SVG y of an NMSE (never NaN: the engine's NMSE is a number or Infinity). */
static long log_axis_y(const log_axis *ax, double v)
{
    double d;
    if (v == 0 || !(v > 0)) {
        d = ax->floor ? ax->bottom : ax->lo;
    } else if (isinf(v)) {
        d = ax->ceiling ? ax->top : ax->hi;
    } else {
        d = log10(v);
        d = d < ax->lo ? ax->lo : (d > ax->hi ? ax->hi : d);
    }
    double t = (d - ax->bottom) / (double)(ax->top - ax->bottom);
    return lround(HTML_PLOT_Y + HTML_PLOT_H - t * HTML_PLOT_H);
}

/* A linear axis over [lo, hi] with ticks every step. */
typedef struct lin_axis {
    double lo, hi, step;
} lin_axis;

static void lin_axis_make(lin_axis *ax, double lo, double hi)
{
    ax->lo = floor(lo);
    ax->hi = ceil(hi);
    if (ax->hi <= ax->lo) {
        ax->hi = ax->lo + 1;
    }
    double span = ax->hi - ax->lo, step = 1;
    while (span / step > 8) {
        step *= 2;
    }
    ax->step = step;
    ax->hi = ax->lo + ceil(span / step) * step;
}

static long lin_axis_x(const lin_axis *ax, double v)
{
    double t = (v - ax->lo) / (ax->hi - ax->lo);
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return lround(HTML_PLOT_X + t * HTML_PLOT_W);
}

/* ---- drawing ------------------------------------------------------------------------------ */

static void chart_begin(cli_out *out, size_t index, const char *kind, bool three_way)
{
    long left = (long)(index % HTML_COLUMNS) * HTML_CELL_W + 5;
    long top = (long)(index / HTML_COLUMNS) * HTML_CELL_H + 5;
    cli_out_printf(out,
                   "<svg class=\"chart\" data-chart=\"%s\" width=\"%d\" height=\"%d\" "
                   "viewBox=\"0 0 %d %d\" style=\"left:%ldpx;top:%ldpx\" data-left=\"%ld\" "
                   "data-top=\"%ld\" data-plot=\"%d %d %d %d\" data-series=\"%s\">\n",
                   kind, HTML_SVG_W, HTML_SVG_H, HTML_SVG_W, HTML_SVG_H, left, top, left,
                   top + HTML_HEADER_H, HTML_PLOT_X, HTML_PLOT_Y, HTML_PLOT_W, HTML_PLOT_H,
                   three_way ? COLOR_A " " COLOR_B : COLOR_B);
    cli_out_printf(out, "<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
                   HTML_PLOT_X, HTML_PLOT_Y, HTML_PLOT_W, HTML_PLOT_H);
}

static void legend(cli_out *out, bool three_way)
{
    int x = HTML_SVG_W - 10;
    if (three_way) {
        cli_out_printf(out,
                       "<text class=\"legend\" x=\"%d\" y=\"14\" text-anchor=\"end\">"
                       "<tspan fill=\"" COLOR_A "\">&#9632; A</tspan> "
                       "<tspan fill=\"" COLOR_B "\">&#9632; B</tspan></text>\n",
                       x);
    } else {
        cli_out_printf(out,
                       "<text class=\"legend\" x=\"%d\" y=\"14\" text-anchor=\"end\">"
                       "<tspan fill=\"" COLOR_B "\">&#9632; B</tspan></text>\n",
                       x);
    }
}

/* Decade lines and labels: 1e-6 ... (every k-th labelled when there are many), "0", "inf". */
static void y_ticks(cli_out *out, const log_axis *ax)
{
    int every = (ax->top - ax->bottom + 7) / 8;
    for (int d = ax->bottom; d <= ax->top; d++) {
        long y = lround(HTML_PLOT_Y + HTML_PLOT_H -
                        (double)(d - ax->bottom) / (ax->top - ax->bottom) * HTML_PLOT_H);
        bool is_floor = ax->floor && d == ax->bottom, is_ceiling = ax->ceiling && d == ax->top;
        cli_out_printf(out, "<line class=\"%s\" x1=\"%d\" x2=\"%d\" y1=\"%ld\" y2=\"%ld\"/>",
                       is_floor || is_ceiling ? "edge" : "grid", HTML_PLOT_X,
                       HTML_PLOT_X + HTML_PLOT_W, y, y);
        if (is_floor || is_ceiling || (d - ax->lo) % every == 0) {
            cli_out_printf(out, "<text x=\"%d\" y=\"%ld\" text-anchor=\"end\">", HTML_PLOT_X - 4,
                           y + 4);
            if (is_floor) {
                cli_out_puts(out, "0");
            } else if (is_ceiling) {
                cli_out_puts(out, "inf");
            } else {
                cli_out_printf(out, "1e%d", d);
            }
            cli_out_puts(out, "</text>");
        }
        cli_out_putc(out, '\n');
    }
}

static void x_ticks(cli_out *out, const lin_axis *ax, const char *label)
{
    for (double v = ax->lo; v <= ax->hi + ax->step / 2; v += ax->step) {
        long x = lin_axis_x(ax, v);
        char b[CLI_NUM_BUF];
        (void)cli_format_sig(b, v, 10);
        cli_out_printf(out,
                       "<line class=\"tick\" x1=\"%ld\" x2=\"%ld\" y1=\"%d\" y2=\"%d\"/>"
                       "<text x=\"%ld\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                       x, x, HTML_PLOT_Y + HTML_PLOT_H, HTML_PLOT_Y + HTML_PLOT_H + 4, x,
                       HTML_PLOT_Y + HTML_PLOT_H + 16, b);
    }
    cli_out_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                   HTML_PLOT_X + HTML_PLOT_W / 2, HTML_SVG_H - 8, label);
    cli_out_printf(out,
                   "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">"
                   "NMSE</text>\n",
                   HTML_PLOT_Y + HTML_PLOT_H / 2, HTML_PLOT_Y + HTML_PLOT_H / 2);
}

/* A point: a filled square on whole pixels, 5 wide for B and 9 for the baseline A, drawn
 * first, so that where both fall on one place (two exact tensors) a ring of A shows round B. */
static void marker(cli_out *out, long x, long y, bool baseline, gs_str name, double nmse,
                   double bpw)
{
    char b1[CLI_NUM_BUF], b2[CLI_NUM_BUF];
    int half = baseline ? 4 : 2;
    cli_out_printf(out, "<rect x=\"%ld\" y=\"%ld\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>",
                   x - half, y - half, 2 * half + 1, 2 * half + 1, baseline ? COLOR_A : COLOR_B);
    html_str(out, name);
    cli_out_printf(out, ": nmse %s, %s bpw</title></rect>\n", num(b1, nmse), num(b2, bpw));
}

typedef struct layer_point {
    uint64_t layer;
    size_t k; /* in the rows */
} layer_point;

static int by_layer(const void *x, const void *y)
{
    const layer_point *a = x, *b = y;
    if (a->layer != b->layer) {
        return a->layer < b->layer ? -1 : 1;
    }
    return a->k < b->k ? -1 : (a->k > b->k ? 1 : 0);
}

static void series_line(cli_out *out, const html_row *rows, const layer_point *pts, size_t n,
                        const lin_axis *xa, const log_axis *ya, bool baseline)
{
    const char *color = baseline ? COLOR_A : COLOR_B;
    if (n > 1) {
        cli_out_printf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
                       color);
        for (size_t i = 0; i < n; i++) {
            const html_row *h = &rows[pts[i].k];
            cli_out_printf(out, "%s%ld,%ld", i ? " " : "", lin_axis_x(xa, (double)h->layer),
                           log_axis_y(ya, baseline ? h->nmse_a : h->nmse_b));
        }
        cli_out_puts(out, "\"/>\n");
    }
    for (size_t i = 0; i < n; i++) {
        const html_row *h = &rows[pts[i].k];
        double v = baseline ? h->nmse_a : h->nmse_b;
        marker(out, lin_axis_x(xa, (double)h->layer), log_axis_y(ya, v), baseline, h->name, v,
               baseline ? h->bpw_a : h->bpw_b);
    }
}

/* One role's NMSE per layer: x the layer number (the same range in every chart), y log NMSE. */
static void role_chart(cli_out *out, const diff_report *r, size_t index, gs_str role,
                       const html_row *rows, const layer_point *pts, size_t n,
                       const lin_axis *xa)
{
    log_axis ya = {0};
    bool any = false;
    double lo = 0, hi = 0;
    for (size_t i = 0; i < n; i++) {
        log_axis_add(&ya, &any, rows[pts[i].k].nmse_b, &lo, &hi);
        if (r->three_way) {
            log_axis_add(&ya, &any, rows[pts[i].k].nmse_a, &lo, &hi);
        }
    }
    log_axis_finish(&ya, any, lo, hi);
    chart_begin(out, index, "layers", r->three_way);
    cli_out_puts(out, "<text class=\"title\" x=\"10\" y=\"14\">NMSE per layer: ");
    html_str(out, role);
    cli_out_puts(out, "</text>\n");
    legend(out, r->three_way);
    y_ticks(out, &ya);
    x_ticks(out, xa, "layer (blk.N)");
    if (r->three_way) {
        series_line(out, rows, pts, n, xa, &ya, true);
    }
    series_line(out, rows, pts, n, xa, &ya, false);
    cli_out_puts(out, "</svg>\n");
}

/* NMSE against bits per weight, one point per tensor (and per candidate in three-way). */
static void bpw_chart(cli_out *out, const diff_report *r, const html_row *rows, size_t n)
{
    log_axis ya = {0};
    bool any = false;
    double lo = 0, hi = 0, bmin = 0, bmax = 0;
    for (size_t k = 0; k < n; k++) {
        const html_row *h = &rows[k];
        log_axis_add(&ya, &any, h->nmse_b, &lo, &hi);
        bmin = k == 0 || h->bpw_b < bmin ? h->bpw_b : bmin;
        bmax = k == 0 || h->bpw_b > bmax ? h->bpw_b : bmax;
        if (h->has_a) {
            log_axis_add(&ya, &any, h->nmse_a, &lo, &hi);
            bmin = h->bpw_a < bmin ? h->bpw_a : bmin;
            bmax = h->bpw_a > bmax ? h->bpw_a : bmax;
        }
    }
    log_axis_finish(&ya, any, lo, hi);
    lin_axis xa;
    lin_axis_make(&xa, bmin, bmax);
    chart_begin(out, 0, "bpw", r->three_way);
    cli_out_puts(out, "<text class=\"title\" x=\"10\" y=\"14\">NMSE against bits per weight, "
                      "per tensor</text>\n");
    legend(out, r->three_way);
    y_ticks(out, &ya);
    x_ticks(out, &xa, "bits per weight");
    for (int pass = r->three_way ? 0 : 1; pass < 2; pass++) {
        for (size_t k = 0; k < n; k++) {
            const html_row *h = &rows[k];
            double v = pass == 0 ? h->nmse_a : h->nmse_b, b = pass == 0 ? h->bpw_a : h->bpw_b;
            marker(out, lin_axis_x(&xa, b), log_axis_y(&ya, v), pass == 0, h->name, v, b);
        }
    }
    cli_out_puts(out, "</svg>\n");
}

/* The charts block: the scatter first, then a chart per role that has layer tensors, in the
 * roll-up's role order, three to a row. */
static void charts(cli_out *out, const diff_report *r)
{
    size_t n = 0;
    bool oom;
    html_row *rows = collect_rows(r, &n, &oom);
    if (oom) {
        cli_out_fail(out, GS_E_NO_MEMORY);
        return;
    }
    if (n == 0) {
        cli_out_puts(out, "<p class=\"note\">No tensor was compared: nothing to draw.</p>\n");
        return;
    }
    layer_point *pts = cli_alloc_array(n, sizeof *pts);
    if (pts == NULL) {
        free(rows);
        cli_out_fail(out, GS_E_NO_MEMORY);
        return;
    }
    /* one range of layers for every chart, so that they line up */
    bool any_layer = false;
    uint64_t lmin = 0, lmax = 0;
    for (size_t k = 0; k < n; k++) {
        if (rows[k].has_layer) {
            lmin = !any_layer || rows[k].layer < lmin ? rows[k].layer : lmin;
            lmax = !any_layer || rows[k].layer > lmax ? rows[k].layer : lmax;
            any_layer = true;
        }
    }
    lin_axis xa;
    lin_axis_make(&xa, (double)lmin, (double)lmax);
    /* which roles get a chart: those with layer tensors, at most HTML_MAX_ROLE_CHARTS */
    const diff_rollups *ru = &r->rollups;
    size_t with_layers = 0;
    for (size_t g = 0; g < ru->n[DIFF_BY_ROLE]; g++) {
        bool has = false;
        for (size_t k = 0; k < n && !has; k++) {
            has = rows[k].has_layer && same_str(rows[k].role, ru->groups[DIFF_BY_ROLE][g].name);
        }
        with_layers += has ? 1 : 0;
    }
    size_t charted = with_layers < HTML_MAX_ROLE_CHARTS ? with_layers : HTML_MAX_ROLE_CHARTS;
    size_t skipped = with_layers - charted;
    size_t cells = 1 + charted;
    size_t height = (cells + HTML_COLUMNS - 1) / HTML_COLUMNS * HTML_CELL_H;
    cli_out_printf(out, "<div class=\"charts\" data-width=\"%d\" data-height=\"%zu\" "
                        "style=\"height:%zupx\">\n",
                   HTML_PAGE_W, height, height);
    bpw_chart(out, r, rows, n);
    size_t index = 1;
    for (size_t g = 0; g < ru->n[DIFF_BY_ROLE]; g++) {
        gs_str role = ru->groups[DIFF_BY_ROLE][g].name;
        size_t m = 0;
        for (size_t k = 0; k < n; k++) {
            if (rows[k].has_layer && same_str(rows[k].role, role)) {
                pts[m++] = (layer_point){rows[k].layer, k};
            }
        }
        if (m == 0) {
            continue;
        }
        if (index > HTML_MAX_ROLE_CHARTS) {
            break;
        }
        qsort(pts, m, sizeof *pts, by_layer);
        role_chart(out, r, index++, role, rows, pts, m, &xa);
    }
    cli_out_puts(out, "</div>\n");
    if (skipped > 0) {
        cli_out_printf(out, "<p class=\"note\">%zu more roles with layers are not drawn (at most "
                            "%d charts); the roll-up tables list them all.</p>\n",
                       skipped, HTML_MAX_ROLE_CHARTS);
    }
    free(pts);
    free(rows);
}

/* ---- the verdict and the gate ------------------------------------------------------------- */

static void threshold(cli_out *out, const char *option, double v)
{
    char b[CLI_NUM_BUF];
    (void)cli_format_f64(b, v);
    cli_out_printf(out, " --%s %s", option, b);
}

static void header(cli_out *out, const diff_report *r)
{
    bool pass = diff_report_exit_code(r) == 0;
    const diff_thresholds *th = &r->th;
    cli_out_printf(out, "<header>\n<h1>ggufsafe diff <span class=\"verdict %s\">%s</span></h1>\n",
                   pass ? "pass" : "fail", pass ? "PASS" : "FAIL");
    cli_out_puts(out, "<p class=\"gate\">gate:");
    if (!r->gate.active) {
        cli_out_puts(out, " no thresholds");
    }
    if (th->has_max_nmse) {
        threshold(out, "max-nmse", th->max_nmse);
    }
    if (th->has_max_abs) {
        threshold(out, "max-abs", th->max_abs);
    }
    if (th->has_min_cos) {
        threshold(out, "min-cos", th->min_cos);
    }
    if (th->has_max_ratio) {
        threshold(out, "max-nmse-ratio", th->max_ratio);
    }
    if (th->has_max_increase) {
        threshold(out, "max-nmse-increase", th->max_increase);
    }
    if (r->rules.allow_missing) {
        cli_out_puts(out, " --allow-missing");
    }
    if (r->rules.allow_extra) {
        cli_out_puts(out, " --allow-extra");
    }
    if (r->rules.fail_on_metadata) {
        cli_out_puts(out, " --fail-on-metadata");
    }
    cli_out_printf(out, ": %zu failure%s (%zu tensor%s over a threshold)</p>\n", r->gate.n,
                   r->gate.n == 1 ? "" : "s", r->failing, r->failing == 1 ? "" : "s");
    static const char *const labels[] = {"REF", "A", "B"};
    const char *paths[3] = {r->path_a, r->three_way ? r->path_base : r->path_b, r->path_b};
    size_t n = r->three_way ? 3 : 2;
    for (size_t i = 0; i < n; i++) {
        cli_out_printf(out, "<p class=\"src\">%s: ",
                       r->three_way ? labels[i] : (i == 0 ? "A (reference)" : "B"));
        html_cstr(out, paths[i], PATH_MAX_SRC);
        cli_out_puts(out, "</p>\n");
    }
    cli_out_puts(out, "</header>\n");
}

static void failures(cli_out *out, const diff_report *r)
{
    if (r->gate.n == 0) {
        return;
    }
    cli_out_printf(out, "<h2>Gate failures (%zu)</h2>\n<table>\n<tr><th>rule</th><th>tensor or "
                        "key</th><th>value</th><th>limit</th></tr>\n",
                   r->gate.n);
    size_t shown = r->gate.n < HTML_MAX_FAILURES ? r->gate.n : HTML_MAX_FAILURES;
    for (size_t i = 0; i < shown; i++) {
        const diff_failure *f = &r->gate.items[i];
        cli_out_printf(out, "<tr><td>%s</td><td>", diff_rule_name(f->rule));
        if (f->rule != GS_DIFF_RULE_METADATA) {
            const diff_pair *p = &r->pairs.items[f->index];
            gs_tensor_info t;
            diff_side_info(p->a.file != NULL ? &p->a : &p->b, &t);
            html_str(out, t.name);
        } else {
            const diff_kv *d = &r->kvs.items[f->index];
            const gs_file *kf = cli_source_part(d->kind == DIFF_KV_ONLY_B ? r->b : r->a, 0);
            gs_kv_info kv;
            if (gs_kv_info_at(kf, d->kind == DIFF_KV_ONLY_B ? d->ib : d->ia, &kv) == GS_OK) {
                html_bytes(out, kv.key.ptr, kv.key.len, NAME_MAX_SRC);
            }
        }
        bool has_value = f->rule <= GS_DIFF_RULE_MAX_NMSE_INCREASE;
        char b1[CLI_NUM_BUF], b2[CLI_NUM_BUF];
        cli_out_printf(out, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td></tr>\n",
                       has_value ? num(b1, f->value) : "", has_value ? num(b2, f->limit) : "");
    }
    cli_out_puts(out, "</table>\n");
    if (shown < r->gate.n) {
        cli_out_printf(out, "<p class=\"note\">%zu more failures: see the text or JSON "
                            "report.</p>\n",
                       r->gate.n - shown);
    }
}

/* ---- the roll-up tables ------------------------------------------------------------------- */

static void group_row(cli_out *out, const diff_report *r, const diff_group *g, int grouping,
                      bool total)
{
    char b1[CLI_NUM_BUF], b2[CLI_NUM_BUF], b3[CLI_NUM_BUF], b4[CLI_NUM_BUF], b5[CLI_NUM_BUF];
    cli_out_puts(out, total ? "<tr class=\"total\"><td>total" : "<tr><td>");
    if (!total) {
        if (grouping == DIFF_BY_TYPE && r->three_way) {
            cli_out_printf(out, "%s &#8594; %s", gs_type_name(g->base_type),
                           gs_type_name(g->type));
        } else {
            html_str(out, g->name);
        }
    }
    cli_format_count(b5, g->s.elements);
    cli_out_printf(out,
                   "</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%s</td>"
                   "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
                   "<td class=\"n\">%s</td>",
                   g->s.tensors, b5, num(b1, diff_stats_bpw(&g->s)),
                   num(b2, diff_stats_nmse(&g->s)), num(b3, diff_stats_cosine(&g->s)),
                   num(b4, g->s.max_abs));
    if (r->three_way) {
        cli_out_printf(out, "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>",
                       num(b1, diff_stats_bpw(&g->base)), num(b2, diff_stats_nmse(&g->base)),
                       num(b3, diff_group_nmse_ratio(g)));
    }
    cli_out_puts(out, "</tr>\n");
}

static void rollups(cli_out *out, const diff_report *r)
{
    const diff_rollups *ru = &r->rollups;
    if (ru->total.s.tensors == 0) {
        return;
    }
    cli_out_printf(out, "<h2>Roll-ups</h2>\n<p class=\"note\">bpw: bits per weight of %s; "
                        "errors pooled over the group (nmse = group SSE / group energy of the "
                        "reference), cosine weighted by elements.</p>\n",
                   r->three_way ? "each candidate" : "B");
    for (int g = 0; g < DIFF_GROUPINGS; g++) {
        if (ru->n[g] == 0) {
            continue;
        }
        cli_out_printf(out, "<h3>By %s</h3>\n<table>\n<tr><th>%s</th><th>tensors</th>"
                            "<th>elements</th><th>%s</th><th>%s</th><th>cosine</th>"
                            "<th>max_abs</th>",
                       diff_grouping_name(g), diff_grouping_name(g), r->three_way ? "B bpw" : "bpw",
                       r->three_way ? "B nmse" : "nmse");
        if (r->three_way) {
            cli_out_puts(out, "<th>A bpw</th><th>A nmse</th><th>B/A nmse</th>");
        }
        cli_out_puts(out, "</tr>\n");
        for (size_t i = 0; i < ru->n[g]; i++) {
            group_row(out, r, &ru->groups[g][i], g, false);
        }
        group_row(out, r, &ru->total, g, true);
        cli_out_puts(out, "</table>\n");
    }
}

/* ---- the page ----------------------------------------------------------------------------- */

static const char style[] =
    "body{margin:0;font-family:'DejaVu Sans',sans-serif;font-size:13px;color:#222;"
    "background:#fff;min-width:1200px}\n"
    "header{height:120px;overflow:hidden;box-sizing:border-box;margin:0;padding:8px 16px;"
    "border-bottom:1px solid #ccc}\n"
    "h1{font-size:20px;margin:0 0 6px 0}\n"
    "h2{font-size:16px;margin:18px 16px 6px 16px}\n"
    "h3{font-size:14px;margin:12px 16px 4px 16px}\n"
    "p{margin:2px 0}\n"
    "p.src,p.gate{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}\n"
    "p.note{margin:4px 16px;color:#555}\n"
    ".verdict{padding:1px 8px;border-radius:3px;color:#fff}\n"
    ".pass{background:#2e7d32}\n"
    ".fail{background:#c62828}\n"
    ".charts{position:relative;width:1200px;margin:0;padding:0}\n"
    "svg.chart{position:absolute;display:block;background:#fff}\n"
    "svg.chart text{font-size:11px;fill:#333}\n"
    "svg.chart text.title{font-size:12px;font-weight:bold}\n"
    "svg.chart rect.plot{fill:#fff;stroke:#999;stroke-width:1}\n"
    "svg.chart line.grid{stroke:#e4e4e4;stroke-width:1}\n"
    "svg.chart line.edge{stroke:#bbb;stroke-width:1;stroke-dasharray:3 3}\n"
    "svg.chart line.tick{stroke:#999;stroke-width:1}\n"
    "table{border-collapse:collapse;margin:0 16px}\n"
    "td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}\n"
    "td.n{text-align:right;font-family:'DejaVu Sans Mono',monospace}\n"
    "tr.total td{font-weight:bold}\n";

void diff_html(cli_out *out, const diff_report *r)
{
    cli_out_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<title>ggufsafe diff: ");
    html_cstr(out, r->path_b, PATH_MAX_SRC);
    cli_out_printf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
    header(out, r);
    charts(out, r);
    failures(out, r);
    rollups(out, r);
    cli_out_puts(out, "</body>\n</html>\n");
}
