/* `ggufsafe diff`: a change in one block of one tensor is named with its block and nothing else
 * is; a file against itself is exactly zero; metadata differences; tensors on one side only and
 * shape mismatches; the gate's exit codes; usage errors; --tensor; --jobs does not change a
 * byte; a tensor larger than a chunk equals the whole-tensor computation; NaN and Inf; split
 * sets and profiles; JSON validated against conformance/schema/diff.schema.json. */
#define _DEFAULT_SOURCE /* wait4 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_test.h"
#include "diff_test_util.h"
#include "ggufsafe.h"
#include "gsw_model.h"
#include "quant_ref.h"

DT_SCRATCH_SUITE(diff);

static const uint64_t embd_ne[2] = {64, 4};  /* Q8_0: 8 blocks of 32 */
static const uint64_t attn_ne[2] = {128, 2}; /* Q4_0: 8 blocks of 32 */
static const uint64_t norm_ne[1] = {32};     /* F32: 32 "blocks" of one element */

/* Four metadata pairs. */
static void base_kvs(gsw_model *m)
{
    gsw_set_cstr(gsw_add(m, "general.architecture"), "llama");
    gsw_set_cstr(gsw_add(m, "general.name"), "ref");
    gsw_set_u32(gsw_add(m, "general.file_type"), 0);
    gsw_value *tokens = gsw_add(m, "tokenizer.ggml.tokens");
    gsw_set_string_array(tokens, 3);
    gsw_array_string(tokens, 0, "a", 1);
    gsw_array_string(tokens, 1, "b", 1);
    gsw_array_string(tokens, 2, "c", 1);
}

/* Tensors first..last-1 of three of three types. */
static void base_tensors(gsw_model *m, int first, int last)
{
    float v[256];
    if (first <= 0 && last > 0) {
        qr_gaussian(1, 0.02f, v, 256);
        dt_add_tensor(m, "token_embd.weight", 2, embd_ne, GS_TYPE_Q8_0, v);
    }
    if (first <= 1 && last > 1) {
        qr_gaussian(2, 0.02f, v, 256);
        dt_add_tensor(m, "blk.0.attn_q.weight", 2, attn_ne, GS_TYPE_Q4_0, v);
    }
    if (first <= 2 && last > 2) {
        qr_gaussian(3, 1.0f, v, 32);
        dt_add_tensor(m, "output_norm.weight", 1, norm_ne, GS_TYPE_F32, v);
    }
}

static void base_model(gsw_model *m)
{
    gsw_model_init(m, 3);
    base_kvs(m);
    base_tensors(m, 0, 3);
}

/* m written to the scratch file name and freed: its path. */
static const char *saved(gsw_model *m, const char *name)
{
    const char *path;
    DT_SAVE(path, m, name);
    return path;
}

static const char *write_base(const char *name)
{
    gsw_model m;
    base_model(&m);
    return saved(&m, name);
}

/* Runs diff with the arguments after "diff"; the caller frees r. */
#define DIFF(r, ...) cr_assert(run_cli(r, "diff", __VA_ARGS__, NULL))

Test(diff, one_changed_block_is_named_and_nothing_else)
{
    const char *a = write_base("a.gguf");
    gsw_model m;
    base_model(&m);
    /* block 5 of blk.0.attn_q.weight: flip the low bit of both nibbles of byte 3, so elements
     * 3 and 19 of that block (160 + 3, 160 + 19) move by one quant step each */
    m.tensors[1].data.ptr[5 * 18 + 2 + 3] ^= 0x11;
    const char *b = saved(&m, "b.gguf");

    run_result r;
    DIFF(&r, a, b, "--json");
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out, "/total/tensors=3",
                        "/tensors/compared/1/name=\"blk.0.attn_q.weight\"",
                        "/tensors/compared/1/block_elems=32", "/tensors/compared/1/blocks=8",
                        "/tensors/compared/1/changed_blocks=1",
                        "/tensors/compared/1/worst_block/index=5",
                        "/tensors/compared/1/worst_block/first_element=160",
                        "/tensors/compared/1/equal=254",
                        "/tensors/compared/0/name=\"token_embd.weight\"",
                        "/tensors/compared/0/changed_blocks=0", "/tensors/compared/0/nmse=0.0",
                        "/tensors/compared/0/worst_block=null",
                        "/tensors/compared/2/name=\"output_norm.weight\"",
                        "/tensors/compared/2/changed_blocks=0", "/tensors/compared/2/nmse=0.0",
                        "/tensors/compared/2/worst_block=null", "/metadata/changed=[]",
                        "/tensors/only_in_a=[]", "/tensors/only_in_b=[]",
                        "/tensors/shape_mismatches=[]", "/gate/passed=true", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);

    /* the block's error equals the one computed from the whole tensors */
    size_t na, nb;
    float *va = dt_decode_whole(a, "blk.0.attn_q.weight", &na);
    float *vb = dt_decode_whole(b, "blk.0.attn_q.weight", &nb);
    cr_assert(va != NULL && vb != NULL && na == 256 && nb == 256);
    dt_metrics want;
    dt_metrics_whole(va, vb, na, 32, &want);
    cr_assert_eq(want.changed_blocks, 1);
    cr_assert(want.worst_rmse > 0);
    double got;
    cr_assert(dt_json_number(r.out, "blk.0.attn_q.weight", "nmse", &got));
    cr_expect_eq(got, want.nmse, "%.17g %.17g", got, want.nmse);
    const char *worst = strstr(r.out, "\"worst_block\": {");
    cr_assert_not_null(worst);
    const char *rm = strstr(worst, "\"rmse\": ");
    cr_assert_not_null(rm);
    cr_expect_eq(strtod(rm + 8, NULL), want.worst_rmse);
    free(va);
    free(vb);
    run_result_free(&r);

    /* the text report puts it first and names its block; the others show no changed block */
    DIFF(&r, a, b);
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *row = strstr(r.out, "\n  blk.0.attn_q.weight ");
    cr_assert_not_null(row, "%s", r.out);
    cr_expect(strstr(r.out, "worst block\n  blk.0.attn_q.weight ") != NULL, "%s", r.out);
    cr_expect(contains(row, " 1/8 5 (rmse "), "%s", r.out);
    cr_expect(contains(r.out, " 0/8 -\n"), "%s", r.out);
    cr_expect(contains(r.out, " 0/32 -\n"), "%s", r.out);
    cr_expect_eq(dt_count(r.out, " (rmse "), 1, "%s", r.out);
    cr_expect(contains(r.out, "metadata: 0 only in A, 0 only in B, 0 changed\n"), "%s", r.out);
    cr_expect(contains(r.out, "gate: no thresholds; PASS\n"), "%s", r.out);
    run_result_free(&r);

    /* as a gate: --max-abs 0 fails on that tensor alone */
    DIFF(&r, a, b, "--max-abs", "0", "--json");
    cr_assert_eq(r.status, 1, "%s", r.err);
    st = check_json(scratch.dir, "diff.schema.json", r.out, "/tensors/compared/0/exceeds=[]",
                    "/tensors/compared/1/exceeds=[\"max_abs\"]", "/tensors/compared/2/exceeds=[]",
                    "/gate/failing_tensors=1", "/gate/passed=false", "/gate/max_abs=0.0",
                    "/gate/max_nmse=null", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
}

Test(diff, f32_block_is_one_element)
{
    const char *a = write_base("a.gguf");
    gsw_model m;
    base_model(&m);
    float x;
    memcpy(&x, m.tensors[2].data.ptr + 7 * 4, 4);
    x += 0.5f;
    memcpy(m.tensors[2].data.ptr + 7 * 4, &x, 4);
    const char *b = saved(&m, "b.gguf");
    run_result r;
    DIFF(&r, a, b, "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out, "/tensors/compared/2/block_elems=1",
                        "/tensors/compared/2/blocks=32", "/tensors/compared/2/changed_blocks=1",
                        "/tensors/compared/2/worst_block/index=7",
                        "/tensors/compared/2/worst_block/first_element=7",
                        "/tensors/compared/2/equal=31", "/tensors/compared/0/changed_blocks=0",
                        "/tensors/compared/1/changed_blocks=0", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    double max_abs, rmse;
    cr_assert(dt_json_number(r.out, "output_norm.weight", "max_abs", &max_abs));
    cr_assert(dt_json_number(r.out, "output_norm.weight", "rmse", &rmse));
    cr_expect(fabs(max_abs - 0.5) < 1e-6, "%g", max_abs);
    cr_expect_eq(rmse, sqrt(max_abs * max_abs / 32));
    run_result_free(&r);
}

Test(diff, file_against_itself_is_exactly_zero)
{
    char *sample = source_path("conformance/samples/ggml-written.gguf");
    run_result r;
    DIFF(&r, sample, sample, "--json", "--max-nmse", "0", "--max-abs", "0", "--min-cos", "1");
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out, "/total/tensors=28",
                        "/total/n_elements=114688", "/total/max_abs=0.0", "/total/rmse=0.0",
                        "/total/nmse=0.0", "/total/cosine=1.0", "/total/equal=114688",
                        "/total/equal_fraction=1.0", "/gate/passed=true",
                        "/gate/failing_tensors=0", "/metadata/only_in_a=[]",
                        "/metadata/only_in_b=[]", "/metadata/changed=[]",
                        "/tensors/not_compared/0/name=\"raw.i8\"", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    /* every one of the 28 compared tensors and the total, before the roll-ups */
    char *rollups = strstr(r.out, "\"rollups\": {");
    cr_assert_not_null(rollups);
    *rollups = '\0';
    cr_expect_eq(dt_count(r.out, "\"max_abs\": 0.0,"), 29);
    cr_expect_eq(dt_count(r.out, "\"rmse\": 0.0,"), 29);
    cr_expect_eq(dt_count(r.out, "\"nmse\": 0.0,"), 29);
    cr_expect_eq(dt_count(r.out, "\"cosine\": 1.0,"), 29);
    cr_expect_eq(dt_count(r.out, "\"equal_fraction\": 1.0,"), 29);
    cr_expect_eq(dt_count(r.out, "\"changed_blocks\": 0,"), 28);
    cr_expect_eq(dt_count(r.out, "\"worst_block\": null,"), 28);
    cr_expect_eq(dt_count(r.out, "\"nonfinite_mismatches\": 0"), 29);
    /* and every roll-up group: no error anywhere */
    *rollups = '"';
    char *gate = strstr(rollups, "\"gate\": {");
    cr_assert_not_null(gate);
    *gate = '\0';
    size_t groups = dt_count(rollups, "\"bits_per_weight\": ");
    cr_expect_gt(groups, 3);
    cr_expect_eq(dt_count(rollups, "\"nmse\": 0.0,"), groups);
    cr_expect_eq(dt_count(rollups, "\"max_abs\": 0.0,"), groups);
    run_result_free(&r);
    free(sample);
}

Test(diff, metadata_only_in_a_only_in_b_and_changed)
{
    const char *a = write_base("a.gguf");
    gsw_model m;
    base_model(&m);
    gsw_set_cstr(&m.kvs[1].value, "\x1b[31mred");
    gsw_set_u32(&m.kvs[2].value, 7);
    gsw_array_string(&m.kvs[3].value, 1, "x", 1);
    gsw_set_cstr(gsw_add(&m, "general.quantized_by"), "test");
    const char *b = saved(&m, "b.gguf");
    /* and a key that only A has */
    base_model(&m);
    gsw_set_u32(gsw_add(&m, "general.only_a"), 1);
    a = saved(&m, "a2.gguf");

    run_result r;
    DIFF(&r, a, b, "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    int st = check_json(
        scratch.dir, "diff.schema.json", r.out, "/metadata/only_in_a/0/key=\"general.only_a\"",
        "/metadata/only_in_a/0/value={\"type\": \"u32\", \"value\": 1}",
        "/metadata/only_in_b/0/key=\"general.quantized_by\"",
        "/metadata/changed/0/key=\"general.name\"",
        "/metadata/changed/0/a={\"type\": \"string\", \"value\": \"ref\"}",
        "/metadata/changed/0/b={\"type\": \"string\", \"value\": \"\\u001b[31mred\"}",
        "/metadata/changed/1/key=\"general.file_type\"", "/metadata/changed/1/b/value=7",
        "/metadata/changed/2/key=\"tokenizer.ggml.tokens\"",
        "/metadata/changed/2/first_difference=1", "/metadata/changed/2/a/element=\"b\"",
        "/metadata/changed/2/b/element=\"x\"", "/metadata/changed/2/b/count=3", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    cr_expect_eq(dt_count(r.out, "\"key\": "), 5, "%s", r.out);
    run_result_free(&r);

    DIFF(&r, a, b);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(no_control_bytes(r.out, r.out_len), "the ESC byte reached the terminal");
    cr_expect(contains(r.out, "metadata: 1 only in A, 1 only in B, 3 changed\n"), "%s", r.out);
    cr_expect(contains(r.out, "  only in A  general.only_a  u32 1\n"), "%s", r.out);
    cr_expect(contains(r.out, "  only in B  general.quantized_by  string \"test\"\n"), "%s",
              r.out);
    cr_expect(contains(r.out,
                       "  changed     general.name  string \"ref\" -> string \"\\x1b[31mred\"\n"),
              "%s", r.out);
    cr_expect(contains(r.out, "  changed     general.file_type  u32 0 -> u32 7\n"), "%s", r.out);
    cr_expect(contains(r.out, "  changed     tokenizer.ggml.tokens  [string; 3] -> [string; 3], "
                              "first difference at [1]: \"b\" -> \"x\"\n"),
              "%s", r.out);
    run_result_free(&r);
}

Test(diff, tensors_on_one_side_and_shape_mismatch)
{
    const char *a = write_base("a.gguf");
    gsw_model m;
    base_model(&m);
    float v[64] = {0};
    const uint64_t extra_ne[1] = {64};
    dt_add_tensor(&m, "extra.weight", 1, extra_ne, GS_TYPE_F32, v);
    const char *b = saved(&m, "b.gguf");

    run_result r;
    DIFF(&r, a, b);
    cr_assert_eq(r.status, 0, "a tensor only in B is reported, not an error: %s", r.err);
    cr_expect(contains(r.out, "  only in B      extra.weight  f32 [64]\n"), "%s", r.out);
    run_result_free(&r);
    DIFF(&r, b, a, "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out,
                        "/tensors/only_in_a/0/name=\"extra.weight\"",
                        "/tensors/only_in_a/0/a={\"type\": \"f32\", \"shape\": [64]}",
                        "/total/tensors=3", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);

    /* output_norm.weight with 64 elements in B: an error, exit 1, the rest still compared */
    base_model(&m);
    m.tensors[2].ne[0] = 64;
    float w[64];
    qr_gaussian(3, 1.0f, w, 64);
    gsw_tensor_set_data(&m.tensors[2], w, sizeof w);
    const char *c = saved(&m, "c.gguf");
    DIFF(&r, a, c);
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_expect(contains(r.out, "  shape mismatch  output_norm.weight  A f32 [32], B f32 [64]\n"),
              "%s", r.out);
    cr_expect(contains(r.out, "; 1 shape mismatches; FAIL\n"), "%s", r.out);
    run_result_free(&r);
    DIFF(&r, a, c, "--json");
    cr_assert_eq(r.status, 1, "%s", r.err);
    st = check_json(scratch.dir, "diff.schema.json", r.out,
                    "/tensors/shape_mismatches/0/name=\"output_norm.weight\"",
                    "/tensors/shape_mismatches/0/b/shape=[64]", "/total/tensors=2",
                    "/gate/shape_mismatches=1", "/gate/passed=false", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
}

/* A (F32 reference) and its Q8_0 and Q4_0 copies, for gates and globs. */
static void quantized_pair(const char **ref, const char **q4)
{
    static const uint64_t ne[2] = {256, 16};
    float *v = malloc(4096 * sizeof *v);
    gsw_model m;
    for (int k = 0; k < 2; k++) {
        gsw_model_init(&m, 3);
        qr_gaussian(10, 1.0f, v, 4096);
        dt_add_tensor(&m, "blk.0.ffn_up.weight", 2, ne, k ? GS_TYPE_Q4_0 : GS_TYPE_F32, v);
        qr_gaussian(11, 1.0f, v, 4096);
        dt_add_tensor(&m, "blk.1.ffn_up.weight", 2, ne, k ? GS_TYPE_Q8_0 : GS_TYPE_F32, v);
        qr_gaussian(12, 1.0f, v, 256);
        dt_add_tensor(&m, "output_norm.weight", 1, ne, GS_TYPE_F32, v);
        const char *p = saved(&m, k ? "q.gguf" : "ref.gguf");
        *(k ? q4 : ref) = p;
    }
    free(v);
}

Test(diff, thresholds_gate_the_exit_code)
{
    const char *ref, *q;
    quantized_pair(&ref, &q);
    struct {
        const char *opt, *value;
        int want;
    } cases[] = {
        {"--max-nmse", "1e-2", 0}, {"--max-nmse", "1e-4", 1}, /* q4_0 is above 1e-4 */
        {"--max-abs", "10", 0},    {"--max-abs", "0.001", 1},
        {"--min-cos", "0.99", 0},  {"--min-cos", "0.99999", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r;
        DIFF(&r, ref, q, cases[i].opt, cases[i].value);
        cr_expect_eq(r.status, cases[i].want, "%s %s: exit %d\n%s%s", cases[i].opt,
                     cases[i].value, r.status, r.out, r.err);
        cr_expect(contains(r.out, cases[i].want ? "; FAIL\n" : "; PASS\n"), "%s", r.out);
        run_result_free(&r);
    }
    /* the failing tensor is marked in the table, and only it */
    run_result r;
    DIFF(&r, ref, q, "--max-nmse=1e-4");
    cr_assert_eq(r.status, 1);
    cr_expect_eq(dt_count(r.out, "  FAIL nmse\n"), 1, "%s", r.out);
    cr_expect(contains(r.out, "gate: --max-nmse 0.0001: 1 tensors fail; FAIL\n"), "%s", r.out);
    run_result_free(&r);
}

/* The scratch file name holding blk.0.ffn_up.weight and (with blk1) blk.1.ffn_up.weight, both
 * 256 x 16 of `type`, then output_norm.weight (F32, 256) and (with extra) extra.weight, a copy
 * of it; every tensor holds the same seeded Gaussian values whatever the type. */
static const char *ffn_model(const char *name, int32_t type, bool blk1, bool extra)
{
    static const uint64_t ne[2] = {256, 16};
    float *v = malloc(4096 * sizeof *v);
    cr_assert_not_null(v);
    gsw_model m;
    gsw_model_init(&m, 3);
    qr_gaussian(10, 1.0f, v, 4096);
    dt_add_tensor(&m, "blk.0.ffn_up.weight", 2, ne, type, v);
    if (blk1) {
        qr_gaussian(11, 1.0f, v, 4096);
        dt_add_tensor(&m, "blk.1.ffn_up.weight", 2, ne, type, v);
    }
    qr_gaussian(12, 1.0f, v, 256);
    dt_add_tensor(&m, "output_norm.weight", 1, ne, GS_TYPE_F32, v);
    if (extra) {
        dt_add_tensor(&m, "extra.weight", 1, ne, GS_TYPE_F32, v);
    }
    const char *p;
    DT_SAVE(p, &m, name);
    free(v);
    return p;
}

Test(diff, gate_fails_on_a_dropped_tensor)
{
    /* the reference of quantized_pair, and a candidate that lost blk.1.ffn_up.weight, Q8_0
     * where the reference has it */
    const char *ref = ffn_model("ref.gguf", GS_TYPE_F32, true, false);
    const char *drop = ffn_model("drop.gguf", GS_TYPE_Q8_0, false, false);
    run_result r;
    DIFF(&r, ref, drop, "--max-nmse", "1");
    cr_assert_eq(r.status, 1, "a lost tensor fails the gate: %s%s", r.out, r.err);
    cr_expect(contains(r.out, "gate: --max-nmse 1: 0 tensors fail; 1 missing in B; FAIL\n"
                              "  missing             blk.1.ffn_up.weight: in A, not in B "
                              "(--allow-missing accepts tensors only in A)\n"),
              "%s", r.out);
    run_result_free(&r);
    DIFF(&r, ref, drop, "--max-nmse", "1", "--allow-missing");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect(contains(r.out, "gate: --max-nmse 1 --allow-missing: 0 tensors fail; PASS\n"),
              "%s", r.out);
    run_result_free(&r);
    /* no gate: a report, exit 0, as before */
    DIFF(&r, ref, drop);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect(contains(r.out, "gate: no thresholds; PASS\n"), "%s", r.out);
    run_result_free(&r);
    DIFF(&r, ref, drop, "--max-abs", "10", "--json");
    cr_assert_eq(r.status, 1, "%s", r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out, "/gate/active=true",
                        "/gate/passed=false", "/gate/allow_missing=false",
                        "/gate/failures=[{\"rule\": \"missing\", \"tensor\": "
                        "\"blk.1.ffn_up.weight\"}]",
                        "/gate/failing_tensors=0", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
    /* the other way round it is an extra tensor, which --allow-missing does not accept */
    DIFF(&r, drop, ref, "--min-cos", "0.9", "--allow-missing");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect(contains(r.out, "; 1 extra in B; FAIL\n  extra               blk.1.ffn_up.weight: "
                              "in B, not in A (--allow-extra accepts tensors only in B)\n"),
              "%s", r.out);
    run_result_free(&r);
    /* a candidate that gained extra.weight, Q8_0 where the reference has it */
    const char *extra = ffn_model("extra.gguf", GS_TYPE_Q8_0, true, true);
    DIFF(&r, ref, extra, "--min-cos", "0.9", "--allow-extra", "--json");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    st = check_json(scratch.dir, "diff.schema.json", r.out, "/gate/allow_extra=true",
                    "/gate/failures=[]", "/gate/passed=true",
                    "/tensors/only_in_b/0/name=\"extra.weight\"", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
    /* a threshold failure is listed with its figure and limit */
    DIFF(&r, ref, extra, "--max-nmse", "1e-9", "--allow-extra", "--json");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    st = check_json(scratch.dir, "diff.schema.json", r.out, "/gate/failures/0/rule=\"max_nmse\"",
                    "/gate/failures/0/tensor=\"blk.0.ffn_up.weight\"",
                    "/gate/failures/0/limit=1e-09", "/gate/failures/1/tensor=\"blk.1.ffn_up.weight\"",
                    "/gate/failing_tensors=2", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
}

/* A tensor of an integer type (no f32 form) holding `vals`. */
static void add_int_tensor(gsw_model *m, const char *name, int32_t type, const void *vals,
                           size_t bytes, uint64_t n)
{
    const uint64_t ne[1] = {n};
    gsw_tensor *t = gsw_add_tensor(m, name, 1, ne, type);
    gsw_tensor_set_data(t, vals, bytes);
}

Test(diff, gate_on_tensors_without_an_f32_form)
{
    static const int32_t ids[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    static const int32_t other[8] = {1, 2, 3, 4, 5, 6, 7, 9};
    static const int16_t ids16[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const char *paths[3];
    const char *names[3] = {"i32.gguf", "i32b.gguf", "i16.gguf"};
    for (int k = 0; k < 3; k++) {
        gsw_model m;
        base_model(&m);
        if (k < 2) {
            add_int_tensor(&m, "tok.ids", GS_TYPE_I32, k ? other : ids, sizeof ids, 8);
        } else {
            add_int_tensor(&m, "tok.ids", GS_TYPE_I16, ids16, sizeof ids16, 8);
        }
        paths[k] = saved(&m, names[k]);
    }
    /* the same type and bytes on both sides: nothing to fail */
    run_result r;
    DIFF(&r, paths[0], paths[0], "--max-nmse", "0");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    run_result_free(&r);
    DIFF(&r, paths[0], paths[1], "--max-nmse", "1");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect(contains(r.out, "; 1 not comparable; FAIL\n  not_comparable      tok.ids: A i32, "
                              "B i32: no f32 form, and not the same type and bytes\n"),
              "%s", r.out);
    run_result_free(&r);
    DIFF(&r, paths[0], paths[2], "--max-nmse", "1", "--json");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out,
                        "/gate/failures=[{\"rule\": \"not_comparable\", \"tensor\": \"tok.ids\"}]",
                        "/tensors/not_compared/0/name=\"tok.ids\"", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
    /* without a gate, still only reported */
    DIFF(&r, paths[0], paths[1]);
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    run_result_free(&r);
}

Test(diff, gate_on_metadata)
{
    const char *a = write_base("a.gguf");
    gsw_model m;
    llama_model(&m);
    gsw_set_cstr(gsw_add(&m, "general.name"), "candidate");
    gsw_set_u32(gsw_add(&m, "general.file_type"), 0);
    gsw_value *tokens = gsw_add(&m, "tokenizer.ggml.tokens");
    gsw_set_string_array(tokens, 3);
    gsw_array_string(tokens, 0, "a", 1);
    gsw_array_string(tokens, 1, "b", 1);
    gsw_array_string(tokens, 2, "c", 1);
    base_tensors(&m, 0, 3);
    const char *b = saved(&m, "b.gguf");
    struct {
        const char *args[4];
        int want;
    } cases[] = {
        {{"--fail-on-metadata"}, 1},
        {{"--fail-on-metadata", "--ignore-key", "general.*"}, 0},
        {{"--fail-on-key", "general.name"}, 1},
        {{"--fail-on-key", "tokenizer.*"}, 0},
        {{"--fail-on-key", "tokenizer.*", "--fail-on-key", "general.n*"}, 1},
        {{"--max-nmse", "1"}, 0}, /* metadata is not gated unless asked */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *const *x = cases[i].args;
        run_result r;
        const char *argv[8] = {"diff", a, b, x[0], x[1], x[2], x[3], NULL};
        cr_assert(run_cli_v(&r, false, argv));
        cr_expect_eq(r.status, cases[i].want, "case %zu: %s%s", i, r.out, r.err);
        if (cases[i].want) {
            cr_expect(contains(r.out, "; 1 metadata differences; FAIL\n  metadata            "
                                      "general.name: changed (--ignore-key accepts it)\n"),
                      "case %zu: %s", i, r.out);
        }
        run_result_free(&r);
    }
    run_result r;
    DIFF(&r, a, b, "--fail-on-metadata", "--json");
    cr_assert_eq(r.status, 1, "%s", r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out,
                        "/gate/failures=[{\"rule\": \"metadata\", \"key\": \"general.name\"}]",
                        "/gate/fail_on_metadata=true", "/gate/active=true", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
}

/* The number after "key": following the first `group` in the "rollups" object of json. */
static bool rollup_number(const char *json, const char *group, const char *key, double *out)
{
    const char *r = strstr(json, "\"rollups\": {");
    const char *g = r != NULL ? strstr(r, group) : NULL;
    char k[64];
    snprintf(k, sizeof k, "\"%s\": ", key);
    const char *v = g != NULL ? strstr(g, k) : NULL;
    if (v == NULL) {
        return false;
    }
    v += strlen(k);
    *out = strncmp(v, "\"Infinity\"", 10) == 0 ? INFINITY : strtod(v, NULL);
    return true;
}

/* SSE and reference energy of tensor `name`, from the whole decoded tensors. */
static void sse_energy(const char *ref, const char *cand, const char *name, double *sse,
                       double *energy)
{
    size_t na, nb;
    float *a = dt_decode_whole(ref, name, &na);
    float *b = dt_decode_whole(cand, name, &nb);
    cr_assert(a != NULL && b != NULL && na == nb);
    for (size_t i = 0; i < na; i++) {
        double d = (double)a[i] - (double)b[i];
        *sse += d * d;
        *energy += (double)a[i] * (double)a[i];
    }
    free(a);
    free(b);
}

Test(diff, rollups_by_role_layer_type_with_bits_per_weight)
{
    const char *ref, *q;
    quantized_pair(&ref, &q);
    run_result r;
    DIFF(&r, ref, q, "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* blk.0 is Q4_0 (18 bytes a block of 32), blk.1 Q8_0 (34), output_norm F32 */
    int st = check_json(scratch.dir, "diff.schema.json", r.out,
                        "/rollups/by_role/0/role=\"ffn_up.weight\"",
                        "/rollups/by_role/0/tensors=2", "/rollups/by_role/0/elements=8192",
                        "/rollups/by_role/0/bytes=6656", "/rollups/by_role/0/bits_per_weight=6.5",
                        "/rollups/by_role/1/role=\"output_norm.weight\"",
                        "/rollups/by_role/1/bits_per_weight=32.0",
                        "/rollups/by_layer/0/layer=\"blk.0\"", "/rollups/by_layer/0/index=0",
                        "/rollups/by_layer/0/bits_per_weight=4.5",
                        "/rollups/by_layer/1/layer=\"blk.1\"",
                        "/rollups/by_layer/1/bits_per_weight=8.5",
                        "/rollups/by_type/0/type=\"q4_0\"", "/rollups/by_type/1/type=\"q8_0\"",
                        "/rollups/by_type/2/type=\"f32\"", "/rollups/by_type/2/nmse=0.0",
                        "/rollups/total/elements=8448", "/rollups/total/bytes=7680",
                        "/tensors/compared/0/bits_per_weight=4.5",
                        "/tensors/compared/0/bytes_b=2304", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    /* a group of one tensor has that tensor's figures; a group of two pools SSE and energy */
    double t0, g0, pooled;
    cr_assert(dt_json_number(r.out, "blk.0.ffn_up.weight", "nmse", &t0));
    cr_assert(rollup_number(r.out, "\"type\": \"q4_0\"", "nmse", &g0));
    cr_expect_eq(t0, g0, "%.17g %.17g", t0, g0);
    cr_assert(rollup_number(r.out, "\"role\": \"ffn_up.weight\"", "nmse", &pooled));
    double sse = 0, energy = 0;
    sse_energy(ref, q, "blk.0.ffn_up.weight", &sse, &energy);
    sse_energy(ref, q, "blk.1.ffn_up.weight", &sse, &energy);
    cr_expect(fabs(pooled - sse / energy) <= 1e-12 * (sse / energy), "%.17g against %.17g",
              pooled, sse / energy);
    double n0, n1;
    cr_assert(dt_json_number(r.out, "blk.1.ffn_up.weight", "nmse", &n1));
    n0 = t0;
    cr_expect(pooled > (n0 < n1 ? n0 : n1) && pooled < (n0 > n1 ? n0 : n1),
              "pooled within its members");
    run_result_free(&r);
    DIFF(&r, ref, q);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(contains(r.out, "\nroll-ups of the compared tensors"), "%s", r.out);
    cr_expect(contains(r.out, "  by layer           tensors     elements     bpw         nmse"
                              "       cosine      max_abs\n  blk.0                    1         "
                              "4096  4.5000   0.00784267 "),
              "%s", r.out);
    cr_expect(contains(r.out, "  total                    3         8448  7.2727 "), "%s", r.out);
    run_result_free(&r);
}

/* Reads the n numbers of the JSON array after `"key": [` at or after from; returns the end. */
static const char *json_floats(const char *from, const char *key, float *out, size_t n)
{
    char k[32];
    snprintf(k, sizeof k, "\"%s\": [", key);
    const char *p = strstr(from, k);
    cr_assert_not_null(p, "no %s", k);
    p += strlen(k);
    for (size_t i = 0; i < n; i++) {
        char *end;
        out[i] = (float)strtod(p, &end);
        cr_assert(end != p, "%s[%zu]", key, i);
        p = end + strspn(end, ", ");
    }
    cr_assert_eq(*p, ']', "%s has more than %zu values", key, n);
    return p;
}

Test(diff, three_way_old_against_new)
{
    /* ref.gguf (F32) and its copies q8.gguf and q4.gguf, every weight in the one type */
    const char *ref = ffn_model("ref.gguf", GS_TYPE_F32, true, false);
    const char *q8 = ffn_model("q8.gguf", GS_TYPE_Q8_0, true, false);
    const char *q4 = ffn_model("q4.gguf", GS_TYPE_Q4_0, true, false);
    run_result r;
    /* Q4_0 is worse than Q8_0 against the same reference */
    DIFF(&r, ref, q8, q4, "--max-nmse-ratio", "1");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect(contains(r.out, "three-way: B against REF first"), "%s", r.out);
    cr_expect(contains(r.out, "\nB against A (3 tensors compared on both; nmse against REF), "
                              "worst ratio first\n"),
              "%s", r.out);
    cr_expect_eq(dt_count(r.out, "  FAIL nmse-ratio\n"), 2, "%s", r.out);
    cr_expect(contains(r.out, "gate: --max-nmse-ratio 1: 2 tensors fail; FAIL\n"
                              "  max_nmse_ratio      blk.0.ffn_up.weight: "),
              "%s", r.out);
    run_result_free(&r);
    DIFF(&r, ref, q4, q8, "--max-nmse-ratio", "1");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect(contains(r.out, "gate: --max-nmse-ratio 1: 0 tensors fail; PASS\n"), "%s", r.out);
    run_result_free(&r);

    /* the figures are those of the two two-way comparisons, and their ratio */
    double n8, n4, ratio, b_nmse, a_nmse;
    DIFF(&r, ref, q8, "--json");
    cr_assert(dt_json_number(r.out, "blk.0.ffn_up.weight", "nmse", &n8));
    run_result_free(&r);
    DIFF(&r, ref, q4, "--json");
    cr_assert(dt_json_number(r.out, "blk.0.ffn_up.weight", "nmse", &n4));
    run_result_free(&r);
    DIFF(&r, ref, q8, q4, "--json", "--max-nmse-increase", "0");
    cr_assert_eq(r.status, 1, "%s", r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out, "/baseline/tensor_count=3",
                        "/tensors/compared/0/b/type=\"q4_0\"",
                        "/tensors/compared/0/baseline/type=\"q8_0\"",
                        "/tensors/compared/0/baseline/bits_per_weight=8.5",
                        "/tensors/compared/0/exceeds=[\"max_nmse_increase\"]",
                        "/tensors/compared/2/nmse_ratio=1.0", "/tensors/compared/2/exceeds=[]",
                        "/rollups/by_type/0/type=\"q4_0\"",
                        "/rollups/by_type/0/baseline_type=\"q8_0\"",
                        "/rollups/by_type/0/baseline/bits_per_weight=8.5",
                        "/gate/max_nmse_increase=0.0", "/gate/failures/1/rule=\"max_nmse_increase\"",
                        "/gate/failures/1/tensor=\"blk.1.ffn_up.weight\"", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    cr_assert(dt_json_number(r.out, "blk.0.ffn_up.weight", "nmse", &b_nmse));
    cr_assert(dt_json_number(r.out, "blk.0.ffn_up.weight", "nmse_ratio", &ratio));
    /* A's figure inside the tensor's "baseline" object comes after B's own "nmse" */
    const char *entry = strstr(r.out, "\"name\": \"blk.0.ffn_up.weight\"");
    const char *base = entry != NULL ? strstr(entry, "\"baseline\": {") : NULL;
    cr_assert_not_null(base, "%s", r.out);
    const char *an = strstr(base, "\"nmse\": ");
    cr_assert_not_null(an);
    a_nmse = strtod(an + 8, NULL);
    cr_expect_eq(a_nmse, n8, "%.17g %.17g", a_nmse, n8);
    cr_expect_eq(b_nmse, n4, "%.17g %.17g", b_nmse, n4);
    cr_expect_eq(ratio, n4 / n8, "%.17g %.17g", ratio, n4 / n8);
    cr_expect_gt(ratio, 10.0);
    run_result_free(&r);

    /* an exact baseline fails any ratio unless B is exact too (output_norm is) */
    DIFF(&r, ref, ref, q8, "--max-nmse-ratio", "1000", "--json");
    cr_assert_eq(r.status, 1, "%s", r.err);
    st = check_json(scratch.dir, "diff.schema.json", r.out,
                    "/tensors/compared/0/nmse_ratio=\"Infinity\"",
                    "/gate/failures/0/value=\"Infinity\"", "/gate/failing_tensors=2",
                    "/tensors/compared/2/nmse_ratio=1.0", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);

    /* three-way worst blocks carry A's values of the same elements */
    DIFF(&r, ref, q8, q4, "--worst", "1", "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    st = check_json(scratch.dir, "diff.schema.json", r.out, "/worst_blocks/0/elements=32", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    {
        const char *w = strstr(r.out, "\"worst_blocks\": [");
        cr_assert_not_null(w);
        const char *nm = strstr(w, "\"name\": \"");
        cr_assert_not_null(nm);
        char name[64];
        size_t len = strcspn(nm + 9, "\"");
        cr_assert_lt(len, sizeof name);
        memcpy(name, nm + 9, len);
        name[len] = '\0';
        uint64_t first = strtoull(strstr(w, "\"first_element\": ") + 17, NULL, 10);
        size_t n8v;
        float *dec = dt_decode_whole(q8, name, &n8v);
        cr_assert_not_null(dec);
        float vals[32];
        json_floats(w, "baseline", vals, 32);
        cr_expect_eq(memcmp(vals, dec + first, sizeof vals), 0, "A's values of %s at %llu", name,
                     (unsigned long long)first);
        free(dec);
    }
    run_result_free(&r);

    /* the ratio rules need three files; four are too many */
    DIFF(&r, ref, q4, "--max-nmse-ratio", "1");
    cr_expect_eq(r.status, 2, "%s%s", r.out, r.err);
    cr_expect(contains(r.err, "--max-nmse-ratio compares two candidates: give three files"),
              "%s", r.err);
    run_result_free(&r);
    DIFF(&r, ref, q4, q8, q8);
    cr_expect_eq(r.status, 2, "%s%s", r.out, r.err);
    cr_expect(contains(r.err, "diff takes two files (A B) or three (REF A B), not 4"), "%s",
              r.err);
    run_result_free(&r);
}

typedef struct ranked_block {
    int tensor;
    uint64_t block;
    double rmse;
} ranked_block;

Test(diff, worst_blocks_of_the_whole_comparison)
{
    const char *ref, *q;
    quantized_pair(&ref, &q);
    /* every changed block of the two quantized tensors (32 elements each), by brute force */
    static const char *names[2] = {"blk.0.ffn_up.weight", "blk.1.ffn_up.weight"};
    ranked_block all[256];
    float *va[2], *vb[2];
    size_t k = 0;
    for (int t = 0; t < 2; t++) {
        size_t na, nb;
        va[t] = dt_decode_whole(ref, names[t], &na);
        vb[t] = dt_decode_whole(q, names[t], &nb);
        cr_assert(va[t] != NULL && vb[t] != NULL && na == 4096 && nb == 4096);
        for (uint64_t b = 0; b < 128; b++) {
            double sse = 0;
            for (size_t i = 0; i < 32; i++) {
                double d = (double)va[t][b * 32 + i] - (double)vb[t][b * 32 + i];
                sse += d * d;
            }
            all[k++] = (ranked_block){t, b, sqrt(sse / 32)};
        }
    }
    /* the five worst, worst first; a tie goes to the first in list order (tensor, then block) */
    ranked_block worst[5];
    bool taken[sizeof all / sizeof all[0]] = {false};
    for (int i = 0; i < 5; i++) {
        size_t w = SIZE_MAX;
        for (size_t j = 0; j < k; j++) {
            if (!taken[j] && (w == SIZE_MAX || all[j].rmse > all[w].rmse)) {
                w = j;
            }
        }
        taken[w] = true;
        worst[i] = all[w];
    }
    run_result r;
    DIFF(&r, ref, q, "--worst", "5", "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out, "/worst_blocks/0/elements=32",
                        "/worst_blocks/4/elements=32", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    const char *p = strstr(r.out, "\"worst_blocks\": [");
    cr_assert_not_null(p);
    for (int i = 0; i < 5; i++) {
        char want[96];
        snprintf(want, sizeof want, "\"name\": \"%s\",\n", names[worst[i].tensor]);
        p = strstr(p, "\"name\": ");
        cr_assert_not_null(p);
        cr_expect_eq(strncmp(p, want, strlen(want)), 0, "block %d: %.60s, want %s", i, p, want);
        const char *b = strstr(p, "\"block\": ");
        cr_expect_eq(strtoull(b + 9, NULL, 10), worst[i].block, "rank %d", i);
        const char *rm = strstr(p, "\"rmse\": ");
        double rmse = strtod(rm + 8, NULL);
        cr_expect(fabs(rmse - worst[i].rmse) <= 1e-12 * worst[i].rmse, "%.17g %.17g", rmse,
                  worst[i].rmse);
        float ra[32], rb[32];
        p = json_floats(p, "ref", ra, 32);
        p = json_floats(p, "candidate", rb, 32);
        const float *wa = va[worst[i].tensor] + worst[i].block * 32;
        const float *wb = vb[worst[i].tensor] + worst[i].block * 32;
        cr_expect_eq(memcmp(ra, wa, sizeof ra), 0, "reference values of rank %d", i);
        cr_expect_eq(memcmp(rb, wb, sizeof rb), 0, "candidate values of rank %d", i);
    }
    cr_expect_null(strstr(p, "\"name\": "), "more than 5 blocks");
    run_result_free(&r);
    /* the first one is the worst tensor's worst block, in the text too */
    DIFF(&r, ref, q, "--worst", "1");
    cr_assert_eq(r.status, 0, "%s", r.err);
    char line[160];
    snprintf(line, sizeof line, "\nworst blocks (1 of --worst 1; in B's blocks, by RMSE over the "
                                "block)\n  1. %s block %llu (elements %llu..%llu): rmse ",
             names[worst[0].tensor], (unsigned long long)worst[0].block,
             (unsigned long long)worst[0].block * 32, (unsigned long long)worst[0].block * 32 + 31);
    cr_expect(contains(r.out, line), "%s\nwant %s", r.out, line);
    cr_expect_eq(dt_count(r.out, "\n      A    "), 1, "%s", r.out);
    cr_expect_eq(dt_count(r.out, "\n      B    "), 1, "%s", r.out);
    run_result_free(&r);
    CLI_RUN(r, 2, "diff", ref, q, "--worst", "0");
    run_result_free(&r);
    for (int t = 0; t < 2; t++) {
        free(va[t]);
        free(vb[t]);
    }
}

/* The gate at its thresholds, with errors that are exact in binary: a tensor fails when its
 * error is past the threshold, strictly (equal passes), on each of the three. A = 1 everywhere;
 * B = 1.25 everywhere gives max_abs 0.25 and nmse 0.0625 exactly; B = 1.3 gives 0.3 (as f32:
 * 0.30000001...). The cosine of (1, 0, ...) and (1, 1, 0, ...) is 1/sqrt(2) = 0.7071... */
Test(diff, gate_at_its_thresholds)
{
    const uint64_t ne[1] = {64};
    float one[64], up25[64], up3[64], e0[64], e01[64];
    for (int i = 0; i < 64; i++) {
        one[i] = 1.0f;
        up25[i] = 1.25f;
        up3[i] = 1.3f;
        e0[i] = i == 0 ? 1.0f : 0.0f;
        e01[i] = i < 2 ? 1.0f : 0.0f;
    }
    const float *vals[5] = {one, up25, up3, e0, e01};
    const char *files[5] = {"one.gguf", "up25.gguf", "up3.gguf", "e0.gguf", "e01.gguf"};
    const char *paths[5];
    for (int k = 0; k < 5; k++) {
        gsw_model m;
        gsw_model_init(&m, 3);
        dt_add_tensor(&m, "t", 1, ne, GS_TYPE_F32, vals[k]);
        paths[k] = saved(&m, files[k]);
    }
    struct {
        int a, b;
        const char *opt, *value;
        int want;
    } cases[] = {
        {0, 2, "--max-abs", "0.2", 1},     {0, 2, "--max-abs", "0.31", 0},
        {0, 1, "--max-abs", "0.25", 0},    {0, 1, "--max-abs", "0.2499", 1},
        {0, 1, "--max-nmse", "0.0625", 0}, {0, 1, "--max-nmse", "0.0624", 1},
        {3, 4, "--min-cos", "0.7071", 0},  {3, 4, "--min-cos", "0.7072", 1},
        {0, 0, "--min-cos", "1", 0},       {0, 0, "--max-abs", "0", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r;
        DIFF(&r, paths[cases[i].a], paths[cases[i].b], cases[i].opt, cases[i].value);
        cr_expect_eq(r.status, cases[i].want, "%s vs %s, %s %s: exit %d\n%s%s",
                     files[cases[i].a], files[cases[i].b], cases[i].opt, cases[i].value,
                     r.status, r.out, r.err);
        cr_expect(contains(r.out, cases[i].want ? "; FAIL\n" : "; PASS\n"), "%s", r.out);
        run_result_free(&r);
    }
}

Test(diff, usage_and_file_errors)
{
    const char *ref, *q;
    quantized_pair(&ref, &q);
    const char *bad[][4] = {
        {ref, NULL},
        {ref, q, "--max-nmse", "abc"},
        {ref, q, "--max-nmse", "-1"},
        {ref, q, "--max-abs", "nan"},
        {ref, q, "--min-cos", "1.5"},
        {ref, q, "--jobs", "0"},
        {ref, q, "--jobs", "257"},
        {ref, q, "--frobnicate", NULL},
        {ref, q, q, q},
        {ref, q, "--tensor", "nothing.*"},
        {ref, q, "--max-nmse-ratio", "1"},
        {ref, q, "--worst", "1001"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run_result r;
        cr_assert(run_cli(&r, "diff", bad[i][0], bad[i][1], bad[i][2], bad[i][3], NULL));
        cr_expect_eq(r.status, 2, "case %zu: exit %d: %s", i, r.status, r.err);
        cr_expect_eq(r.out_len, 0, "case %zu", i);
        cr_expect(strncmp(r.err, "error: ", 7) == 0, "case %zu: %s", i, r.err);
        run_result_free(&r);
    }
    run_result r;
    /* a file that does not exist: 2; one that is not a GGUF, or a broken GGUF: 1 */
    const char *missing = dt_scratch_path(&scratch, "missing.gguf");
    CLI_RUN(r, 2, "diff", ref, missing);
    /* the file first, and which side it is */
    char want[1024];
    snprintf(want, sizeof want,
             "error: cannot read '%s' (B): open: No such file or directory\n", missing);
    cr_expect_str_eq(r.err, want, "which side");
    run_result_free(&r);
    const char *text = dt_scratch_path(&scratch, "text.gguf");
    cr_assert(write_file(text, "hello, world\n", 13));
    CLI_RUN(r, 1, "diff", text, ref);
    cr_expect(contains(r.err, "GS_E_BAD_MAGIC"), "%s", r.err);
    cr_expect(contains(r.err, "(A: "), "which side: %s", r.err);
    cr_expect(contains(r.err, "\nnote: this is a text file, not a model (an error message, or "
                              "a listing) (hello, world)\n"),
              "%s", r.err);
    run_result_free(&r);
    size_t len;
    char *bytes = read_file(q, &len);
    const char *cut = dt_scratch_path(&scratch, "cut.gguf");
    cr_assert(write_file(cut, bytes, len - 100));
    free(bytes);
    CLI_RUN(r, 1, "diff", ref, cut);
    cr_expect(contains(r.err, "GS_E_DATA_OUTSIDE_FILE"), "%s", r.err);
    cr_expect_eq(r.out_len, 0);
    run_result_free(&r);
    DIFF(&r, "--help");
    cr_expect_eq(r.status, 0);
    cr_expect(contains(r.out, "usage: ggufsafe diff [REF] A B [--json] [--tensor GLOB]... "
                              "[--exclude GLOB]...\n"),
              "%s", r.out);
    cr_expect(contains(r.out, "  -o, --html FILE"), "%s", r.out);
    run_result_free(&r);
}

/* The metadata of the file at from, up to where its data section starts, as the scratch file
 * name: a header-only copy. */
static const char *header_only_copy(const char *from, const char *name)
{
    size_t len;
    char *bytes = read_file(from, &len);
    cr_assert_not_null(bytes);
    gs_file *f;
    cr_assert_eq(gs_open_file(from, NULL, &f, NULL), GS_OK);
    gs_layout l;
    gs_file_layout(f, &l);
    gs_close(f);
    const char *to = dt_scratch_path(&scratch, name);
    cr_assert(write_file(to, bytes, (size_t)l.data_offset));
    free(bytes);
    return to;
}

/* --metadata-only: a header-only copy against the whole file compares the metadata, reads no
 * tensor data (every tensor in both is "not compared"), and passes; without the option the
 * copy is refused and the option named. */
Test(diff, metadata_only_compares_a_header_only_copy)
{
    const char *ref = write_base("ref.gguf");
    const char *head = header_only_copy(ref, "head.gguf");
    run_result r;
    DIFF(&r, "--metadata-only", ref, head);
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect(contains(r.out, "  not compared    token_embd.weight  A q8_0, B q8_0: metadata "
                              "only\n"),
              "%s", r.out);
    run_result_free(&r);
    DIFF(&r, "--json", "--metadata-only", ref, head);
    cr_expect_eq(check_json(scratch.dir, "diff.schema.json", r.out,
                            "/metadata_only=true", NULL),
                 0);
    run_result_free(&r);
    DIFF(&r, ref, head);
    cr_expect_eq(r.status, 1);
    cr_expect(contains(r.err, "'ggufsafe diff --metadata-only "), "%s", r.err);
    run_result_free(&r);
}

/* --metadata-only under a gate: no bytes are read (the copy has none), so the tensors the mode
 * leaves uncompared do not fail as not_comparable, in two-way and three-way alike. */
Test(diff, metadata_only_gate_reads_no_tensor_data)
{
    const char *ref = write_base("ref.gguf");
    const char *head = header_only_copy(ref, "head.gguf");
    run_result r;
    DIFF(&r, "--metadata-only", "--max-nmse", "0", "--json", ref, head);
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect_eq(check_json(scratch.dir, "diff.schema.json", r.out, "/metadata_only=true",
                            "/gate/failures=[]", NULL),
                 0);
    run_result_free(&r);
    DIFF(&r, "--metadata-only", "--max-nmse-ratio", "1", ref, head, head);
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    run_result_free(&r);
}

Test(diff, tensor_glob_selects_on_both_sides)
{
    const char *ref, *q;
    quantized_pair(&ref, &q);
    run_result r;
    DIFF(&r, ref, q, "--tensor", "blk.*.ffn_up.weight", "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out, "/total/tensors=2",
                        "/tensors/compared/0/name=\"blk.0.ffn_up.weight\"",
                        "/tensors/compared/1/name=\"blk.1.ffn_up.weight\"",
                        "/tensors/only_in_a=[]", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
    DIFF(&r, ref, q, "--tensor=output_*");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(contains(r.out, "tensors: 1 in A, 1 in B: 1 compared,"), "%s", r.out);
    cr_expect(!contains(r.out, "blk."), "%s", r.out);
    run_result_free(&r);
}

Test(diff, jobs_do_not_change_the_output)
{
    /* twelve tensors of four types, sizes from one block to several chunks' worth of rows */
    gsw_model m[2];
    float *v = malloc(512 * 420 * sizeof *v);
    for (int k = 0; k < 2; k++) {
        gsw_model_init(&m[k], 3);
        for (int t = 0; t < 12; t++) {
            char name[32];
            snprintf(name, sizeof name, "blk.%d.weight", t);
            uint64_t ne[2] = {(uint64_t)32 << (t % 5), (uint64_t)(1 + 37 * t)};
            qr_gaussian((uint64_t)t, 1.0f, v, (size_t)(ne[0] * ne[1]));
            int32_t types[] = {GS_TYPE_F32, GS_TYPE_Q8_0, GS_TYPE_Q4_0};
            dt_add_tensor(&m[k], name, 2, ne, k == 0 ? GS_TYPE_F32 : types[t % 3], v);
        }
        cr_assert(dt_save(&m[k], dt_scratch_path(&scratch, k ? "j1.gguf" : "j0.gguf")));
        gsw_model_free(&m[k]);
    }
    free(v);
    const char *a = scratch.paths[scratch.n_paths - 2], *b = scratch.paths[scratch.n_paths - 1];
    for (int json = 0; json < 2; json++) {
        run_result one, many;
        if (json) {
            DIFF(&one, a, b, "--json", "--jobs", "1");
            DIFF(&many, a, b, "--json", "--jobs", "7");
        } else {
            DIFF(&one, a, b, "--jobs", "1");
            DIFF(&many, a, b, "--jobs=7");
        }
        cr_assert_eq(one.status, 0, "%s", one.err);
        cr_assert_eq(many.status, 0, "%s", many.err);
        cr_expect_eq(one.out_len, many.out_len);
        cr_expect(memcmp(one.out, many.out, one.out_len) == 0, "--jobs 7 differs:\n%s\n%s",
                  one.out, many.out);
        if (json) {
            int st = check_json(scratch.dir, "diff.schema.json", one.out, "/total/tensors=12", NULL);
            cr_expect_eq(st, 0, "check_json.py exit %d", st);
        }
        run_result_free(&one);
        run_result_free(&many);
    }
}

/* A tensor several chunks long (2^18 elements each): the streamed result equals, bit for bit,
 * the one computed here over the whole decoded tensors; so do both sides quantized. */
Test(diff, chunked_equals_whole_tensor)
{
    static const uint64_t ne[2] = {1024, 600}; /* 614400 elements: 2 chunks and a part */
    const size_t n = 1024 * 600;
    float *v = malloc(n * sizeof *v);
    qr_gaussian(99, 0.05f, v, n);
    static const int32_t types[3] = {GS_TYPE_F32, GS_TYPE_Q8_0, GS_TYPE_Q4_0};
    static const char *const names[3] = {"big_f32.gguf", "big_q8.gguf", "big_q4.gguf"};
    const char *files[3];
    for (int k = 0; k < 3; k++) {
        gsw_model m;
        gsw_model_init(&m, 3);
        dt_add_tensor(&m, "big.weight", 2, ne, types[k], v);
        files[k] = saved(&m, names[k]);
    }
    free(v);
    const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int p = 0; p < 3; p++) {
        const char *fa = files[pairs[p][0]], *fb = files[pairs[p][1]];
        size_t na, nb;
        float *va = dt_decode_whole(fa, "big.weight", &na);
        float *vb = dt_decode_whole(fb, "big.weight", &nb);
        cr_assert(va != NULL && vb != NULL && na == n && nb == n);
        dt_metrics want;
        dt_metrics_whole(va, vb, n, 32, &want);
        free(va);
        free(vb);
        run_result r;
        DIFF(&r, fa, fb, "--json");
        cr_assert_eq(r.status, 0, "%s", r.err);
        double got[4];
        const char *keys[4] = {"max_abs", "rmse", "nmse", "cosine"};
        const double wanted[4] = {want.max_abs, want.rmse, want.nmse, want.cosine};
        for (int k = 0; k < 4; k++) {
            cr_assert(dt_json_number(r.out, "big.weight", keys[k], &got[k]));
            cr_expect_eq(got[k], wanted[k], "pair %d %s: %.17g, whole tensor %.17g", p, keys[k],
                         got[k], wanted[k]);
        }
        double worst, changed;
        cr_assert(dt_json_number(r.out, "big.weight", "index", &worst));
        cr_assert(dt_json_number(r.out, "big.weight", "changed_blocks", &changed));
        cr_expect_eq((uint64_t)worst, want.worst_block, "pair %d", p);
        cr_expect_eq((uint64_t)changed, want.changed_blocks, "pair %d", p);
        run_result_free(&r);
    }
}

static void f32_model(const char *path, const float *v, size_t n)
{
    const uint64_t ne[1] = {n};
    gsw_model m;
    gsw_model_init(&m, 3);
    dt_add_tensor(&m, "t", 1, ne, GS_TYPE_F32, v);
    cr_assert(dt_save(&m, path));
    gsw_model_free(&m);
}

Test(diff, nan_and_inf)
{
    const float a[4] = {NAN, INFINITY, 1.0f, 2.0f};
    const float same[4] = {NAN, INFINITY, 1.0f, 2.0f};
    const float other[4] = {NAN, -INFINITY, 1.0f, NAN};
    const char *pa = dt_scratch_path(&scratch, "na.gguf"), *ps = dt_scratch_path(&scratch, "ns.gguf"), *po = dt_scratch_path(&scratch, "no.gguf");
    f32_model(pa, a, 4);
    f32_model(ps, same, 4);
    f32_model(po, other, 4);
    run_result r;
    /* NaN against NaN and Inf against the same Inf are equal: exact zeros */
    DIFF(&r, pa, ps, "--json", "--max-nmse", "0", "--min-cos", "1");
    cr_assert_eq(r.status, 0, "%s\n%s", r.out, r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out, "/tensors/compared/0/nmse=0.0",
                        "/tensors/compared/0/cosine=1.0", "/tensors/compared/0/equal=4",
                        "/tensors/compared/0/nan_a=1", "/tensors/compared/0/inf_b=1",
                        "/tensors/compared/0/nonfinite_mismatches=0", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
    /* +Inf against -Inf and 2 against NaN: two non-finite mismatches */
    DIFF(&r, pa, po, "--json", "--min-cos", "-1");
    cr_assert_eq(r.status, 1, "a NaN cosine fails any --min-cos: %s", r.err);
    st = check_json(scratch.dir, "diff.schema.json", r.out, "/tensors/compared/0/nmse=\"Infinity\"",
                    "/tensors/compared/0/max_abs=\"Infinity\"",
                    "/tensors/compared/0/rmse=\"Infinity\"", "/tensors/compared/0/cosine=\"NaN\"",
                    "/tensors/compared/0/equal=2", "/tensors/compared/0/nan_b=2",
                    "/tensors/compared/0/inf_b=1", "/tensors/compared/0/nonfinite_mismatches=2",
                    "/tensors/compared/0/changed_blocks=2",
                    "/tensors/compared/0/worst_block/index=1",
                    "/tensors/compared/0/worst_block/rmse=\"Infinity\"",
                    "/total/nmse=\"Infinity\"", "/total/nonfinite_mismatches=2", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
    DIFF(&r, pa, po);
    cr_assert_eq(r.status, 0, "no threshold, no failure: %s", r.err);
    cr_expect(contains(r.out, "  non-finite: t: NaN 1 in A, 2 in B; Inf 1 in A, 1 in B; "
                              "2 mismatched\n"),
              "%s", r.out);
    run_result_free(&r);
}

/* B split in two parts (the model's metadata in the first) against A in one file. */
Test(diff, split_set_against_single_file)
{
    gsw_model part[2];
    for (int k = 0; k < 2; k++) {
        gsw_model_init(&part[k], 3);
        if (k == 0) {
            base_kvs(&part[k]);
        }
        gsw_set_u16(gsw_add(&part[k], "split.no"), (uint16_t)k);
        gsw_set_u16(gsw_add(&part[k], "split.count"), 2);
        gsw_set_i32(gsw_add(&part[k], "split.tensors.count"), 3);
        base_tensors(&part[k], k == 0 ? 0 : 2, k == 0 ? 2 : 3);
    }
    const char *b1 = dt_scratch_path(&scratch, "b-00001-of-00002.gguf"), *b2 = dt_scratch_path(&scratch, "b-00002-of-00002.gguf");
    cr_assert(dt_save(&part[0], b1));
    cr_assert(dt_save(&part[1], b2));
    gsw_model_free(&part[0]);
    gsw_model_free(&part[1]);

    const char *a = write_base("a.gguf");
    run_result r;
    DIFF(&r, a, b1, "--json", "--max-abs", "0");
    cr_assert_eq(r.status, 0, "%s\n%s", r.out, r.err);
    int st = check_json(scratch.dir, "diff.schema.json", r.out, "/b/kind=\"split\"", "/b/part_count=2",
                        "/b/tensor_count=3", "/metadata/only_in_b=[]", "/metadata/changed=[]",
                        "/total/tensors=3", "/total/nmse=0.0", "/tensors/only_in_a=[]", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
    /* --part-only: the first part alone, its split keys ordinary metadata */
    DIFF(&r, a, b1, "--part-only");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(contains(r.out, "metadata: 0 only in A, 3 only in B, 0 changed\n"), "%s", r.out);
    cr_expect(contains(r.out, "  only in A      output_norm.weight  f32 [32]\n"), "%s", r.out);
    run_result_free(&r);
}

/* A bool byte of 2 is refused by the strict profile and read by the lenient one. */
Test(diff, profiles_apply_to_both_files)
{
    const char *a = write_base("a.gguf");
    gsw_model m;
    base_model(&m);
    gsw_set_bool(gsw_add(&m, "general.odd"), 2);
    const char *b = saved(&m, "b.gguf");
    run_result r;
    CLI_RUN(r, 1, "diff", a, b);
    cr_expect(contains(r.err, "GS_E_BAD_BOOL"), "%s", r.err);
    run_result_free(&r);
    CLI_RUN(r, 0, "diff", a, b, "--profile", "lenient", "--json");
    int st = check_json(scratch.dir, "diff.schema.json", r.out, "/profile=\"lenient\"",
                        "/metadata/only_in_b/0/value={\"type\": \"bool\", \"value\": true}",
                        NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
}

/* Runs the tool (stdout to /dev/null, stderr inherited so that a sanitizer report reaches
 * ctest); returns the exit status and the child's peak resident set in KiB. */
static int run_measured(const char *const argv[], long *max_kib)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
        }
        exec_program(argv);
    }
    int ws;
    struct rusage ru;
    cr_assert_eq(wait4(pid, &ws, 0, &ru), pid);
    *max_kib = ru.ru_maxrss;
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* Blocks of Q8_0 or Q4_0 with a fixed scale and pseudo-random quants: cheap to make in bulk. */
static void fill_blocks(uint8_t *p, size_t n_blocks, size_t block_bytes, uint16_t d)
{
    uint64_t s = 7;
    for (size_t b = 0; b < n_blocks; b++, p += block_bytes) {
        p[0] = (uint8_t)d;
        p[1] = (uint8_t)(d >> 8);
        for (size_t j = 2; j < block_bytes; j++) {
            s = s * 6364136223846793005u + 1442695040888963407u;
            p[j] = (uint8_t)(s >> 56);
        }
    }
}

/* Writes the two files of memory_stays_bounded; false when the writer fails. */
static bool write_huge(const char *const files[2])
{
    static const uint64_t ne[2] = {4096, 8192};
    const size_t n_blocks = 4096 * 8192 / 32;
    bool ok = true;
    for (int k = 0; k < 2 && ok; k++) {
        size_t block_bytes = k == 0 ? 34 : 18;
        uint8_t *data = malloc(n_blocks * block_bytes);
        if (data == NULL) {
            return false;
        }
        fill_blocks(data, n_blocks, block_bytes, k == 0 ? 0x2400 : 0x2c00);
        gsw_model m;
        gsw_model_init(&m, 3);
        gsw_tensor *t = gsw_add_tensor(&m, "huge.weight", 2, ne, k == 0 ? GS_TYPE_Q8_0
                                                                      : GS_TYPE_Q4_0);
        gsw_tensor_set_data(t, data, n_blocks * block_bytes);
        free(data);
        ok = dt_save(&m, files[k]);
        gsw_model_free(&m);
    }
    return ok;
}

/* Two tensors of 2^25 elements (128 MiB each as f32): holding both sides whole would need
 * 256 MiB; the chunked comparison stays far below. The files are written by a child process:
 * a child's peak RSS starts from its parent's at fork, so the test process must stay small
 * (under ASan freed memory stays resident in the quarantine). */
Test(diff, memory_stays_bounded)
{
    const char *files[2] = {dt_scratch_path(&scratch, "huge_q8.gguf"), dt_scratch_path(&scratch, "huge_q4.gguf")};
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        _exit(write_huge(files) ? 0 : 1);
    }
    int ws;
    cr_assert_eq(waitpid(pid, &ws, 0), pid);
    cr_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "writing the files failed");
    const char *argv[] = {cli_binary(), "diff", files[0], files[1], "--json", NULL};
    long kib;
    int status = run_measured(argv, &kib);
    cr_assert_eq(status, 0);
    fprintf(stderr, "diff: peak RSS %ld KiB comparing two tensors of 2^25 elements\n", kib);
    cr_expect_lt(kib, 64 * 1024, "peak RSS %ld KiB", kib);
}

/* Every decoder path gives the same report (the text one names no path); a path this CPU lacks,
 * or a name that is none, is refused before any work. */
Test(diff, decoder_paths_give_the_same_report)
{
    const char *ref, *q;
    quantized_pair(&ref, &q);
    run_result base;
    setenv("GGUFSAFE_KERNEL", "scalar", 1);
    DIFF(&base, ref, q);
    cr_assert_eq(base.status, 0, "%s", base.err);
    static const struct {
        gs_kernel k;
        const char *name;
    } kernels[] = {{GS_KERNEL_AVX2, "avx2"}, {GS_KERNEL_NEON, "neon"}};
    for (size_t i = 0; i < 2; i++) {
        run_result r;
        setenv("GGUFSAFE_KERNEL", kernels[i].name, 1);
        DIFF(&r, ref, q);
        if (gs_set_kernel(kernels[i].k) == GS_OK) {
            cr_expect_eq(r.status, 0, "%s: %s", kernels[i].name, r.err);
            cr_expect_eq(r.out_len, base.out_len, "%s", kernels[i].name);
            cr_expect(memcmp(r.out, base.out, base.out_len) == 0, "%s:\n%s", kernels[i].name,
                      r.out);
        } else {
            cr_expect_eq(r.status, 2, "%s: %s", kernels[i].name, r.err);
            cr_expect(contains(r.err, "GS_E_KERNEL_UNAVAILABLE"), "%s", r.err);
            cr_expect_eq(r.out_len, 0);
        }
        run_result_free(&r);
    }
    setenv("GGUFSAFE_KERNEL", "bogus", 1);
    run_result r;
    DIFF(&r, ref, q);
    unsetenv("GGUFSAFE_KERNEL");
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(contains(r.err, "GGUFSAFE_KERNEL='bogus' names no decoder path"), "%s", r.err);
    cr_expect_eq(r.out_len, 0);
    run_result_free(&r);
    run_result_free(&base);
}

/* Every file of the generated corpus (malformed and boundary cases) as A against the sample,
 * lenient: an exit status of 0, 1 or 2, never a crash or a sanitizer report; nothing on stdout
 * with 2. */
static size_t sweep(const char *dir_path, const char *sample)
{
    DIR *d = opendir(dir_path);
    cr_assert_not_null(d, "%s: build the corpus (target corpus_generated)", dir_path);
    size_t n = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char *path = path_join(dir_path, e->d_name);
        size_t len = strlen(path);
        if (len > 5 && strcmp(path + len - 5, ".gguf") == 0) {
            run_result r;
            DIFF(&r, path, sample, "--profile", "lenient", "--jobs", "3");
            cr_expect(r.status >= 0 && r.status <= 2, "%s: exit %d\n%s", path, r.status, r.err);
            cr_expect(r.status != 2 || r.out_len == 0, "%s", path);
            run_result_free(&r);
            n++;
        } else {
            struct stat st;
            if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
                n += sweep(path, sample); /* a category folder */
            }
        }
        free(path);
    }
    closedir(d);
    return n;
}

Test(diff, corpus_never_crashes)
{
    const char *bin = getenv("GS_BINARY_DIR");
    cr_assert_not_null(bin, "GS_BINARY_DIR is not set: run through ctest");
    char *corpus = path_join(bin, "corpus/generated");
    char *sample = source_path("conformance/samples/ggml-written.gguf");
    size_t n = sweep(corpus, sample);
    cr_expect_gt(n, 400, "%zu corpus files", n);
    free(corpus);
    free(sample);
}
