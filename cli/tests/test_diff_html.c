/* The HTML page of `ggufsafe diff --html` (cli/diff/diff_html.c), through the public writer
 * gs_diff_write_html and through the command: exact bytes of small pages, names from the file
 * escaped (markup, quotes, controls, invalid UTF-8), the same bytes for the same inputs (and
 * for any --jobs), nothing that runs or fetches (no <script, no href or src, no http: or //),
 * the charts' coordinates in their attributes, and the command's -o/--html handling. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "cli_test.h"
#include "diff_test_util.h"
#include "ggufsafe_diff.h"
#include "gsw_model.h"

/* The page of gs_diff_compare (two paths) or gs_diff_compare3 (three), NUL-terminated. */
static char *page_of(const char *ref, const char *a, const char *b, const gs_diff_options *o)
{
    gs_diff_input *in[3] = {NULL, NULL, NULL};
    gs_error err;
    const char *paths[3] = {ref, a, b};
    size_t n = b != NULL ? 3 : 2;
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(gs_diff_open(paths[i], NULL, o, &in[i], &err), GS_OK, "%s", err.detail);
    }
    gs_diff *d;
    gs_status st = n == 3 ? gs_diff_compare3(in[0], in[1], in[2], o, &d, &err)
                          : gs_diff_compare(in[0], in[1], o, &d, &err);
    cr_assert_eq(st, GS_OK, "%s", err.detail);
    sink_buffer page = {NULL, 0};
    gs_sink sink;
    gs_sink_init(&sink, sink_collect, &page);
    cr_assert_eq(gs_diff_write_html(d, &sink, &err), GS_OK, "%s", err.detail);
    gs_diff_free(d);
    for (size_t i = 0; i < n; i++) {
        gs_diff_input_close(in[i]);
    }
    return page.data;
}

/* ref.gguf, q8_0.gguf and q4_0.gguf of gs_diff_html_inputs with that many layers, in s. */
static void make_inputs(dt_scratch *s, const char *layers)
{
    const char *gen = getenv("GS_HTML_INPUTS");
    cr_assert_not_null(gen, "GS_HTML_INPUTS is not set: run through ctest");
    const char *argv[] = {gen, s->dir, layers, NULL};
    run_result g;
    cr_assert(run_program(argv, &g));
    cr_assert_eq(g.status, 0, "%s", g.err);
    run_result_free(&g);
}

/* Nothing that runs, links or fetches. */
static void expect_inert(const char *page)
{
    cr_expect_null(strstr(page, "<script"));
    cr_expect_null(strstr(page, "http:"));
    cr_expect_null(strstr(page, "https:"));
    cr_expect_null(strstr(page, "href"));
    cr_expect_null(strstr(page, "src="));
    cr_expect_null(strstr(page, "url("));
    cr_expect_null(strstr(page, "//"));
    cr_expect_null(strstr(page, "<link"));
    cr_expect_null(strstr(page, "<img"));
    cr_expect_null(strstr(page, "<iframe"));
}

/* A file of one F32 tensor named name ([32] values v0 .. v0+31, the element at `bump` + delta). */
static void one_tensor(const char *path, const char *name, size_t name_len, float delta)
{
    gsw_model m;
    llama_model(&m);
    float v[32];
    for (int i = 0; i < 32; i++) {
        v[i] = (float)(i + 1);
    }
    v[3] += delta;
    uint64_t ne[1] = {32};
    gsw_tensor *t = gsw_add_tensor_n(&m, name, name_len, 1, ne, GS_TYPE_F32);
    gsw_tensor_set_data(t, v, sizeof v);
    cr_assert(dt_save(&m, path));
    gsw_model_free(&m);
}

/* The page's bytes after its style sheet, exactly, for one exact tensor: the header, one
 * chart (the scatter; the tensor has no layer), the roll-up tables. */

DT_SCRATCH_SUITE(diff_html);

Test(diff_html, exact_bytes_of_a_small_page)
{
    const char *a = dt_scratch_path(&scratch, "a.gguf"), *b = dt_scratch_path(&scratch, "b.gguf");
    one_tensor(a, "w", 1, 0);
    one_tensor(b, "w", 1, 0);
    gs_diff_options o;
    gs_diff_options_init(&o);
    char *page = page_of(a, b, NULL, &o);
    const char *body = strstr(page, "</style>\n</head>\n<body>\n");
    cr_assert_not_null(body);
    body += strlen("</style>\n</head>\n<body>\n");
    char want[8192];
    snprintf(want, sizeof want,
             "<header>\n<h1>ggufsafe diff <span class=\"verdict pass\">PASS</span></h1>\n"
             "<p class=\"gate\">gate: no thresholds: 0 failures (0 tensors over a threshold)</p>\n"
             "<p class=\"src\">A (reference): %s</p>\n<p class=\"src\">B: %s</p>\n</header>\n"
             "<div class=\"charts\" data-width=\"1200\" data-height=\"260\" "
             "style=\"height:260px\">\n"
             "<svg class=\"chart\" data-chart=\"bpw\" width=\"390\" height=\"250\" "
             "viewBox=\"0 0 390 250\" style=\"left:5px;top:5px\" data-left=\"5\" "
             "data-top=\"125\" data-plot=\"64 30 312 176\" data-series=\"#1f77b4\">\n"
             "<rect class=\"plot\" x=\"64\" y=\"30\" width=\"312\" height=\"176\"/>\n"
             "<text class=\"title\" x=\"10\" y=\"14\">NMSE against bits per weight, per "
             "tensor</text>\n"
             "<text class=\"legend\" x=\"380\" y=\"14\" text-anchor=\"end\"><tspan "
             "fill=\"#1f77b4\">&#9632; B</tspan></text>\n"
             "<line class=\"edge\" x1=\"64\" x2=\"376\" y1=\"206\" y2=\"206\"/><text x=\"60\" "
             "y=\"210\" text-anchor=\"end\">0</text>\n"
             "<line class=\"grid\" x1=\"64\" x2=\"376\" y1=\"118\" y2=\"118\"/><text x=\"60\" "
             "y=\"122\" text-anchor=\"end\">1e-1</text>\n"
             "<line class=\"grid\" x1=\"64\" x2=\"376\" y1=\"30\" y2=\"30\"/><text x=\"60\" "
             "y=\"34\" text-anchor=\"end\">1e0</text>\n"
             "<line class=\"tick\" x1=\"64\" x2=\"64\" y1=\"206\" y2=\"210\"/><text x=\"64\" "
             "y=\"222\" text-anchor=\"middle\">32</text>\n"
             "<line class=\"tick\" x1=\"376\" x2=\"376\" y1=\"206\" y2=\"210\"/><text x=\"376\" "
             "y=\"222\" text-anchor=\"middle\">33</text>\n"
             "<text x=\"220\" y=\"242\" text-anchor=\"middle\">bits per weight</text>\n"
             "<text x=\"14\" y=\"118\" text-anchor=\"middle\" transform=\"rotate(-90 14 118)\">"
             "NMSE</text>\n"
             "<rect x=\"62\" y=\"204\" width=\"5\" height=\"5\" fill=\"#1f77b4\"><title>w: nmse 0, "
             "32 bpw</title></rect>\n"
             "</svg>\n</div>\n<h2>Roll-ups</h2>\n",
             a, b);
    cr_assert_eq(strncmp(body, want, strlen(want)), 0, "got:\n%.3000s\nwant:\n%s", body, want);
    /* no layer: no role chart, no gate failures */
    cr_expect_eq(dt_count(page, "<svg"), 1);
    cr_expect_null(strstr(page, "Gate failures"));
    cr_expect_not_null(strstr(page, "<h3>By role</h3>\n<table>\n<tr><th>role</th>"
                                    "<th>tensors</th><th>elements</th><th>bpw</th><th>nmse</th>"
                                    "<th>cosine</th><th>max_abs</th></tr>\n"
                                    "<tr><td>w</td><td class=\"n\">1</td><td class=\"n\">32</td>"
                                    "<td class=\"n\">32</td><td class=\"n\">0</td>"
                                    "<td class=\"n\">1</td><td class=\"n\">0</td></tr>\n"
                                    "<tr class=\"total\"><td>total</td><td class=\"n\">1</td>"
                                    "<td class=\"n\">32</td><td class=\"n\">32</td>"
                                    "<td class=\"n\">0</td><td class=\"n\">1</td>"
                                    "<td class=\"n\">0</td></tr>\n</table>\n"));
    const char *end = "</table>\n</body>\n</html>\n";
    cr_expect_eq(strcmp(page + strlen(page) - strlen(end), end), 0);
    expect_inert(page);
    free(page);
}

/* Markup, quotes, a control byte and invalid UTF-8 in a tensor name: as text, never as markup. */
Test(diff_html, names_from_the_file_are_escaped)
{
    const char *a = dt_scratch_path(&scratch, "a.gguf"), *b = dt_scratch_path(&scratch, "b.gguf");
    static const char name[] = "blk.1.<script>&\"'\x01\xff";
    one_tensor(a, name, sizeof name - 1, 0);
    one_tensor(b, name, sizeof name - 1, 0.5f);
    gs_diff_options o;
    gs_diff_options_init(&o);
    o.profile = GS_PROFILE_LENIENT; /* strict refuses such names */
    o.has_max_nmse = true;
    o.max_nmse = 0;
    char *page = page_of(a, b, NULL, &o);
    const char *esc = "&lt;script&gt;&amp;&quot;&#39;\\x01\\xff";
    /* in the role chart's title, the roll-up rows (role, layer) and the failure and points */
    cr_expect_geq(dt_count(page, esc), 4, "%s", page);
    cr_expect_null(strstr(page, "<script"));
    cr_expect_null(strstr(page, "\x01"));
    cr_expect_null(strstr(page, "\xff"));
    static const char *const fragments[] = {
        "<span class=\"verdict fail\">FAIL</span>",
        ("<p class=\"gate\">gate: --max-nmse 0: 1 failure (1 tensor "
         "over a threshold)</p>\n"),
        ("<tr><td>max_nmse</td><td>blk.1.&lt;script&gt;&amp;"
         "&quot;&#39;\\x01\\xff</td>"),
        "data-chart=\"layers\"",
    };
    CLI_EXPECT_ALL_IN(page, fragments);
    expect_inert(page);
    free(page);
}

/* A three-way page of a generated model, twice and with 4 threads: the same bytes; both
 * candidates' series in every chart; the charts' places on the grid. */
Test(diff_html, three_way_is_deterministic_and_draws_both_candidates)
{
    make_inputs(&scratch, "4");
    const char *ref = dt_scratch_path(&scratch, "ref.gguf"), *q8 = dt_scratch_path(&scratch, "q8_0.gguf"),
               *q4 = dt_scratch_path(&scratch, "q4_0.gguf");
    gs_diff_options o;
    gs_diff_options_init(&o);
    o.has_max_nmse_ratio = true;
    o.max_nmse_ratio = 1;
    char *p1 = page_of(ref, q8, q4, &o);
    char *p2 = page_of(ref, q8, q4, &o);
    o.jobs = 4;
    char *p3 = page_of(ref, q8, q4, &o);
    cr_expect_str_eq(p1, p2);
    cr_expect_str_eq(p1, p3);
    /* the scatter and one chart per role with layers (attn_q, attn_v, ffn_up, ffn_down,
     * attn_norm), both candidates' colours in each */
    cr_expect_eq(dt_count(p1, "<svg class=\"chart\""), 6);
    cr_expect_eq(dt_count(p1, "data-series=\"#ff7f0e #1f77b4\""), 6);
    cr_expect_eq(dt_count(p1, "data-chart=\"layers\""), 5);
    static const char *const fragments[] = {
        "data-height=\"520\" style=\"height:520px\"",
        ("style=\"left:405px;top:265px\" data-left=\"405\" "
         "data-top=\"385\""),
        ">NMSE per layer: attn_norm.weight</text>",
    };
    CLI_EXPECT_ALL_IN(p1, fragments);
    /* exact attn_norm on both sides: the 9-pixel A square under the 5-pixel B one, both on the
     * floor line */
    cr_expect_not_null(strstr(p1, "width=\"9\" height=\"9\" fill=\"#ff7f0e\"><title>"
                                  "blk.0.attn_norm.weight: nmse 0, 32 bpw</title>"));
    /* Q4_0 is worse than Q8_0 everywhere: the gate fails, with the ratio table */
    static const char *const fragments2[] = {
        "<span class=\"verdict fail\">FAIL</span>",
        "<td>max_nmse_ratio</td>",
        "<th>A bpw</th><th>A nmse</th><th>B/A nmse</th>",
        "<td>q8_0 &#8594; q4_0</td>",
    };
    CLI_EXPECT_ALL_IN(p1, fragments2);
    expect_inert(p1);
    free(p1);
    free(p2);
    free(p3);
}

/* 80 layers, 401 tensors: a page of bounded size (docs/diff.md quotes it). */
Test(diff_html, size_of_an_80_layer_page)
{
    make_inputs(&scratch, "80");
    gs_diff_options o;
    gs_diff_options_init(&o);
    char *two = page_of(dt_scratch_path(&scratch, "ref.gguf"), dt_scratch_path(&scratch, "q4_0.gguf"), NULL,
                        &o);
    char *three = page_of(dt_scratch_path(&scratch, "ref.gguf"), dt_scratch_path(&scratch, "q8_0.gguf"),
                          dt_scratch_path(&scratch, "q4_0.gguf"), &o);
    size_t n2 = strlen(two), n3 = strlen(three);
    cr_log_info("80 layers, 401 tensors: two-way page %zu bytes, three-way %zu bytes", n2, n3);
    /* a few kilobytes plus at most 600 bytes per tensor and candidate */
    cr_expect_lt(n2, 16384 + 401 * 600, "%zu", n2);
    cr_expect_lt(n3, 16384 + 2 * 401 * 600, "%zu", n3);
    free(two);
    free(three);
}

/* The command: -o is --html; the report still goes to standard output; a page and a report on
 * standard output together, or in one file, are usage errors. */
Test(diff_html, the_command_writes_the_page)
{
    const char *a = dt_scratch_path(&scratch, "a.gguf"), *b = dt_scratch_path(&scratch, "b.gguf"),
               *page = dt_scratch_path(&scratch, "page.html"), *rep = dt_scratch_path(&scratch, "r.txt");
    one_tensor(a, "w", 1, 0);
    one_tensor(b, "w", 1, 0.25f);
    run_result r;
    CLI_RUN(r, 0, "diff", a, b, "-o", page);
    cr_expect(contains(r.out, "gate: no thresholds; PASS"), "%s", r.out);
    size_t len;
    char *html = read_file(page, &len);
    cr_assert_not_null(html);
    gs_diff_options o;
    gs_diff_options_init(&o);
    char *direct = page_of(a, b, NULL, &o);
    cr_expect_eq(len, strlen(direct));
    cr_expect_eq(memcmp(html, direct, len), 0, "the command's page is the library's");
    free(direct);
    free(html);
    run_result_free(&r);
    CLI_RUN(r, 2, "diff", a, b, "--html", "-");
    cr_expect(contains(r.err, "--html - writes the page to standard output"), "%s", r.err);
    run_result_free(&r);
    CLI_RUN(r, 2, "diff", a, b, "--html", rep, "--output", rep);
    cr_expect(contains(r.err, "--html and --output name the same file"), "%s", r.err);
    run_result_free(&r);
    CLI_RUN(r, 1, "diff", a, b, "--max-nmse", "0", "--html", "-", "--output", rep);
    cr_expect(contains(r.out, "<span class=\"verdict fail\">FAIL</span>"));
    run_result_free(&r);
    CLI_RUN(r, 2, "diff", a, b, "--html", page, "-o", page);
    cr_expect(contains(r.err, "given twice") || contains(r.err, "twice"), "%s", r.err);
    run_result_free(&r);
    cr_assert(run_cli(&r, "diff", a, b, "--html", a, NULL));
    cr_expect_eq(r.status, 2, "an input named as the page is refused");
    run_result_free(&r);
}
