/* The certification, manifest and diff libraries through their public headers only, as a program
 * or a binding calls them: the sample file certified, hashed, written, parsed back, verified and
 * compared with itself; the accessors' bounds and struct sizes; a sink that fails. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "cli_test.h"
#include "ggufsafe_certify.h"
#include "ggufsafe_diff.h"
#include "ggufsafe_manifest.h"

static char *sample_path(void)
{
    const char *root = getenv("GS_SOURCE_DIR");
    cr_assert_not_null(root, "GS_SOURCE_DIR is not set: run through ctest");
    return path_join(root, "conformance/samples/ggml-written.gguf");
}

static int refuse(void *ctx, const void *data, size_t n)
{
    (void)ctx;
    (void)data;
    (void)n;
    return ENOSPC;
}

/* A sink that collects what a writer gives into *buf, empty first (the caller frees buf->data). */
static gs_sink collecting(sink_buffer *buf)
{
    *buf = (sink_buffer){NULL, 0};
    gs_sink sink;
    gs_sink_init(&sink, sink_collect, buf);
    return sink;
}

Test(library_api, certify)
{
    char *path = sample_path();
    gs_certify_options o;
    gs_certify_options_init(&o);
    o.deep = true;
    gs_certify *r;
    gs_error err;
    cr_assert_eq(gs_certify_path(path, &o, &r, &err), GS_OK, "%s", err.detail);
    gs_certify_summary s = {.struct_size = sizeof s};
    cr_assert_eq(gs_certify_get_summary(r, &s), GS_OK);
    cr_expect(s.verdict.certified);
    cr_expect_str_eq(s.kind, "model");
    cr_expect(s.architecture.ptr != NULL && s.architecture.len == 5 &&
              memcmp(s.architecture.ptr, "llama", 5) == 0);
    cr_expect_eq(s.part_count, 1);
    cr_expect_eq(s.stats_count, 33);
    cr_expect_eq(s.verdict.counts[GS_CERTIFY_INFO], s.finding_count);

    gs_certify_part p = {.struct_size = sizeof p};
    cr_assert_eq(gs_certify_part_at(r, 0, &p), GS_OK);
    cr_expect_eq(p.state, GS_CERTIFY_PART_READ);
    cr_expect_str_eq(p.label, "ggml-written.gguf");
    cr_expect_eq(p.tensor_count, 33);
    cr_expect_eq(gs_certify_part_at(r, 1, &p), GS_E_OUT_OF_RANGE);

    gs_certify_finding f = {.struct_size = sizeof f};
    cr_assert_eq(gs_certify_finding_at(r, 0, &f), GS_OK);
    gs_certify_code row = {.struct_size = sizeof row};
    cr_expect_eq(gs_certify_code_find(f.code, &row), GS_OK, "%s", f.code);
    cr_expect_eq(f.effective, GS_CERTIFY_INFO);
    cr_expect_eq(gs_certify_finding_at(r, s.finding_count, &f), GS_E_OUT_OF_RANGE);

    gs_certify_stats st = {.struct_size = sizeof st};
    cr_assert_eq(gs_certify_stats_at(r, 0, &st), GS_OK);
    cr_expect(st.scanned && st.name != NULL && st.name_len > 0);

    /* a caller built against a longer struct (a newer header) gets what this library knows,
     * the rest untouched and its size kept; one shorter than the first version is refused */
    struct {
        gs_certify_stats s;
        unsigned char more[16];
    } newer;
    memset(&newer, 0xab, sizeof newer);
    newer.s.struct_size = sizeof newer;
    cr_assert_eq(gs_certify_stats_at(r, 0, &newer.s), GS_OK);
    cr_expect_eq(newer.s.struct_size, sizeof newer);
    cr_expect_eq(newer.s.finite, st.finite);
    unsigned char untouched[sizeof newer.more];
    memset(untouched, 0xab, sizeof untouched);
    cr_expect(memcmp(newer.more, untouched, sizeof untouched) == 0, "written past sizeof");
    gs_certify_finding tiny = {.struct_size = 4};
    cr_expect_eq(gs_certify_finding_at(r, 0, &tiny), GS_E_INVALID_ARGUMENT);

    /* the same report under the other profile and fail-on levels */
    gs_certify_verdict v = {.struct_size = sizeof v};
    cr_assert_eq(gs_certify_verdict_for(r, GS_PROFILE_LENIENT, GS_CERTIFY_WARNING, &v), GS_OK);
    cr_expect(v.certified);
    cr_assert_eq(gs_certify_verdict_for(r, GS_PROFILE_STRICT, GS_CERTIFY_INFO, &v), GS_OK);
    cr_expect(!v.certified, "notes fail with fail_on info");
    cr_expect_eq(gs_certify_verdict_for(r, (gs_profile)7, GS_CERTIFY_ERROR, &v),
                 GS_E_INVALID_ARGUMENT);

    sink_buffer json;
    gs_sink sink = collecting(&json);
    cr_assert_eq(gs_certify_write_json(r, &sink, &err), GS_OK);
    cr_expect(strstr(json.data, "\"certified\": true") != NULL);
    free(json.data);
    gs_sink_init(&sink, refuse, NULL);
    cr_expect_eq(gs_certify_write_sarif(r, &sink, &err), GS_E_IO);
    cr_expect(strstr(err.detail, strerror(ENOSPC)) != NULL, "%s", err.detail);
    cr_expect_eq(gs_certify_write_text(r, NULL, &err), GS_E_INVALID_ARGUMENT);
    gs_certify_free(r);
    gs_certify_free(NULL);

    cr_expect_eq(gs_certify_path("/nonexistent/x.gguf", NULL, &r, &err), GS_E_NO_SUCH_FILE);
    cr_expect_null(r);
    gs_certify_options bad = o;
    bad.struct_size = 1;
    cr_expect_eq(gs_certify_path(path, &bad, &r, &err), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(gs_certify_path(NULL, NULL, &r, &err), GS_E_INVALID_ARGUMENT);
    cr_expect_gt(gs_certify_code_count(), 40);
    cr_expect_eq(gs_certify_code_at(0, &row), GS_OK);
    cr_expect_str_eq(row.code, "reader.<STATUS>");
    cr_expect_eq(row.profiles, GS_CERTIFY_PROFILES_PER_FINDING);
    cr_expect_eq(gs_certify_code_find("meta.no_such_code", &row), GS_E_NOT_FOUND);
    cr_expect_str_eq(gs_certify_severity_name((gs_certify_severity)9), "unknown");
    free(path);
}

Test(library_api, manifest_round_trip)
{
    char *path = sample_path();
    gs_manifest *m;
    gs_error err;
    cr_assert_eq(gs_manifest_hash_path(path, NULL, &m, &err), GS_OK, "%s", err.detail);
    cr_assert_eq(gs_manifest_part_count(m), 1);
    gs_manifest_part part = {.struct_size = sizeof part};
    cr_assert_eq(gs_manifest_part_at(m, 0, &part), GS_OK);
    cr_expect_eq(part.kv_count, 32);
    cr_expect_eq(part.tensor_count, 33);
    cr_expect_null(part.error);
    gs_manifest_entry e = {.struct_size = sizeof e};
    cr_assert_eq(gs_manifest_entry_at(m, 0, part.kv_count, &e), GS_OK);
    cr_expect_eq(e.kind, GS_MANIFEST_TENSOR);
    cr_expect_gt(strlen(e.type), 0);
    cr_expect_eq(gs_manifest_entry_at(m, 0, part.entry_count, &e), GS_E_OUT_OF_RANGE);

    sink_buffer text;
    gs_sink sink = collecting(&text);
    cr_assert_eq(gs_manifest_write(m, &sink, &err), GS_OK);
    cr_expect(strncmp(text.data, "ggufsafe-manifest 2\npart 1 of 1\nfile ", 37) == 0);
    gs_manifest *back;
    cr_assert_eq(gs_manifest_parse(text.data, text.len, &back, &err), GS_OK, "%s", err.detail);

    gs_manifest_options o;
    gs_manifest_options_init(&o);
    o.mode = GS_MANIFEST_VERIFY;
    o.jobs = 3;
    gs_manifest *got;
    cr_assert_eq(gs_manifest_hash_path(path, &o, &got, &err), GS_OK);
    gs_manifest_diff *d;
    cr_assert_eq(gs_manifest_compare(back, got, &d, &err), GS_OK);
    cr_expect_eq(gs_manifest_diff_count(d), 0);
    gs_manifest_diff_free(d);
    gs_manifest_free(back);

    /* one tensor's digest changed in the manifest: one difference, named */
    char *at = strstr(text.data, "\ntensor ");
    cr_assert_not_null(at);
    at[8] = at[8] == '0' ? '1' : '0';
    gs_manifest *edited;
    cr_assert_eq(gs_manifest_parse(text.data, text.len, &edited, &err), GS_OK);
    cr_assert_eq(gs_manifest_compare(edited, got, &d, &err), GS_OK);
    cr_assert_eq(gs_manifest_diff_count(d), 1); /* the tensor: the file's digest still matches */
    gs_manifest_difference x = {.struct_size = sizeof x};
    cr_assert_eq(gs_manifest_diff_at(d, 0, &x), GS_OK);
    cr_expect_eq(x.change, GS_MANIFEST_CHANGED);
    cr_expect_eq(x.item, GS_MANIFEST_ITEM_TENSOR);
    cr_expect_str_eq(x.detail, "data");
    gs_manifest_diff_free(d);
    gs_manifest_free(edited);

    /* malformed: the line and its offset */
    static const char bad[] = "ggufsafe-manifest 1\npart 1 of 0\n";
    cr_expect_eq(gs_manifest_parse(bad, sizeof bad - 1, &back, &err), GS_E_INVALID_ARGUMENT);
    cr_expect_null(back);
    cr_expect(strncmp(err.detail, "line 2: ", 8) == 0, "%s", err.detail);
    cr_expect_eq(err.offset, 20);
    gs_manifest_free(got);
    gs_manifest_free(m);
    free(text.data);
    free(path);
}

/* The diff options the tests start from: the defaults, on two threads. */
static gs_diff_options two_jobs(void)
{
    gs_diff_options o;
    gs_diff_options_init(&o);
    o.jobs = 2;
    return o;
}

/* path opened as the diff input `label`, asserting that it opens. */
static gs_diff_input *open_input(const char *path, const char *label, const gs_diff_options *o)
{
    gs_diff_input *in = NULL;
    gs_error err;
    cr_assert_eq(gs_diff_open(path, label, o, &in, &err), GS_OK, "%s: %s", label, err.detail);
    return in;
}

Test(library_api, diff_with_itself)
{
    char *path = sample_path();
    gs_diff_options o = two_jobs();
    o.has_max_nmse = true;
    o.max_nmse = 0;
    gs_diff_input *a = open_input(path, "A", &o), *b = open_input(path, "B", &o);
    gs_error err;
    gs_diff *d;
    cr_assert_eq(gs_diff_compare(a, b, &o, &d, &err), GS_OK, "%s", err.detail);
    gs_diff_summary s = {.struct_size = sizeof s};
    cr_assert_eq(gs_diff_get_summary(d, &s), GS_OK);
    cr_expect(s.passed);
    cr_expect_eq(s.failing, 0);
    cr_expect_eq(s.kv_count, 0);
    cr_expect_eq(s.tensor_count, s.tensors_a);
    cr_expect_eq(s.equal, s.n_elements);
    gs_diff_tensor t = {.struct_size = sizeof t};
    cr_assert_eq(gs_diff_tensor_at(d, 0, &t), GS_OK);
    cr_expect(t.in_a && t.in_b);
    cr_expect_eq(t.type_a, t.type_b);
    cr_expect_eq(gs_diff_tensor_at(d, s.tensor_count, &t), GS_E_OUT_OF_RANGE);
    sink_buffer json;
    gs_sink sink = collecting(&json);
    cr_assert_eq(gs_diff_write_json(d, &sink, &err), GS_OK);
    cr_expect(strstr(json.data, "\"passed\": true") != NULL);
    free(json.data);
    gs_diff_free(d);
    o.min_cos = 2;
    o.has_min_cos = true;
    cr_expect_eq(gs_diff_compare(a, b, &o, &d, &err), GS_E_INVALID_ARGUMENT);
    cr_expect_null(d);
    gs_diff_input_close(a);
    gs_diff_input_close(b);
    cr_expect_eq(gs_diff_open("/nonexistent/x.gguf", "B", NULL, &a, &err), GS_E_NO_SUCH_FILE);
    cr_expect(strstr(err.detail, "(B: /nonexistent/x.gguf)") != NULL, "%s", err.detail);
    free(path);
}

/* The three-way comparison, the roll-ups, the gate's failures and the worst blocks as data: the
 * sample against itself three times is exact everywhere, and every index past the end is
 * GS_E_OUT_OF_RANGE. */
Test(library_api, diff_three_way_rollups_and_gate_as_data)
{
    char *path = sample_path();
    gs_diff_options o = two_jobs();
    o.has_max_nmse_ratio = true;
    o.max_nmse_ratio = 1;
    o.worst_blocks = 3;
    gs_diff_input *ref = open_input(path, "REF", &o), *a = open_input(path, "A", &o),
                  *b = open_input(path, "B", &o);
    gs_error err;
    gs_diff *d;
    cr_assert_eq(gs_diff_compare3(ref, a, b, &o, &d, &err), GS_OK, "%s", err.detail);
    gs_diff_summary s = {.struct_size = sizeof s};
    cr_assert_eq(gs_diff_get_summary(d, &s), GS_OK);
    cr_expect(s.three_way && s.gate_active && s.passed);
    cr_expect_eq(s.gate_failure_count, 0);
    cr_expect_eq(s.baseline_tensor_count, s.tensor_count);
    cr_expect_eq(s.worst_count, 0, "no block changed");
    gs_diff_failure f = {.struct_size = sizeof f};
    cr_expect_eq(gs_diff_failure_at(d, 0, &f), GS_E_OUT_OF_RANGE);
    gs_diff_block blk = {.struct_size = sizeof blk};
    cr_expect_eq(gs_diff_worst_at(d, 0, &blk), GS_E_OUT_OF_RANGE);
    gs_diff_tensor t = {.struct_size = sizeof t};
    cr_assert_eq(gs_diff_tensor_at(d, 0, &t), GS_OK);
    cr_expect(t.has_baseline);
    cr_expect_eq(t.nmse_ratio, 1.0);
    cr_expect_eq(t.nmse_increase, 0.0);
    cr_expect_eq(t.exceeds, 0);
    cr_expect_gt(t.bits_per_weight, 0.0);
    cr_expect_eq(t.bits_per_weight, (double)t.bytes_b * 8.0 / (double)t.n_elements);
    cr_expect_eq(gs_diff_baseline_tensor_at(d, s.baseline_tensor_count, &t), GS_E_OUT_OF_RANGE);
    gs_diff_kv kv = {.struct_size = sizeof kv};
    cr_expect_eq(gs_diff_baseline_kv_at(d, 0, &kv), GS_E_OUT_OF_RANGE, "no metadata difference");
    /* roll-ups: every group exact, the total over every compared element */
    uint64_t by_type = 0;
    for (int g = GS_DIFF_BY_ROLE; g <= GS_DIFF_BY_TYPE; g++) {
        for (size_t i = 0; i < s.rollup_count[g]; i++) {
            gs_diff_rollup ru = {.struct_size = sizeof ru};
            cr_assert_eq(gs_diff_rollup_at(d, (gs_diff_grouping)g, i, &ru), GS_OK);
            cr_expect_eq(ru.stats.nmse, 0.0);
            cr_expect_eq(ru.baseline.nmse, 0.0);
            cr_expect_eq(ru.nmse_ratio, 1.0);
            by_type += g == GS_DIFF_BY_TYPE ? ru.stats.elements : 0;
        }
        gs_diff_rollup ru = {.struct_size = sizeof ru};
        cr_expect_eq(gs_diff_rollup_at(d, (gs_diff_grouping)g, s.rollup_count[g], &ru),
                     GS_E_OUT_OF_RANGE);
    }
    gs_diff_rollup total = {.struct_size = sizeof total};
    cr_assert_eq(gs_diff_rollup_at(d, GS_DIFF_BY_ROLE, SIZE_MAX, &total), GS_OK);
    cr_expect_eq(total.stats.elements, s.n_elements);
    cr_expect_eq(by_type, s.n_elements, "the types partition the compared elements");
    cr_expect_eq(total.stats.tensors, s.compared);
    gs_diff_free(d);
    /* a two-way result has no baseline */
    cr_assert_eq(gs_diff_compare(ref, b, &o, &d, &err), GS_OK, "%s", err.detail);
    cr_expect_eq(gs_diff_baseline_tensor_at(d, 0, &t), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_diff_tensor_at(d, 0, &t), GS_OK);
    cr_expect(!t.has_baseline);
    gs_diff_free(d);
    /* options out of range */
    o.worst_blocks = GS_DIFF_MAX_WORST + 1;
    cr_expect_eq(gs_diff_compare3(ref, a, b, &o, &d, &err), GS_E_INVALID_ARGUMENT);
    cr_expect_null(d);
    o.worst_blocks = 0;
    o.max_nmse_ratio = -1;
    cr_expect_eq(gs_diff_compare3(ref, a, b, &o, &d, &err), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(gs_diff_compare3(ref, NULL, b, &o, &d, &err), GS_E_INVALID_ARGUMENT);
    cr_expect_str_eq(gs_diff_rule_name(GS_DIFF_RULE_MISSING), "missing");
    cr_expect_str_eq(gs_diff_rule_name(GS_DIFF_RULE_NOT_COMPARABLE), "not_comparable");
    cr_expect_null(gs_diff_rule_name((gs_diff_rule)99));
    gs_diff_input_close(ref);
    gs_diff_input_close(a);
    gs_diff_input_close(b);
    free(path);
}
