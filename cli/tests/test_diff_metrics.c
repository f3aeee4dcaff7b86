/* The engine of `ggufsafe diff` on its own: the metric definitions at their edges (zero
 * vectors, NaN, Inf, signed zeros, ties), independence from how the stream is chunked, and the
 * chunked tensor comparison and its threads against whole-tensor results. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff_compare.h"
#include "diff_metrics.h"
#include "ggufsafe.h"
#include "gsw_model.h"
#include "gsw_write.h"

/* Field by field (padding bytes are not part of the result); doubles by their bits. */
static bool metrics_equal(const diff_metrics *x, const diff_metrics *y)
{
    const double dx[10] = {x->sse, x->energy_a, x->energy_b, x->dot, x->max_abs, x->rmse,
                           x->nmse, x->cosine, x->worst_rmse, x->worst_max_abs};
    const double dy[10] = {y->sse, y->energy_a, y->energy_b, y->dot, y->max_abs, y->rmse,
                           y->nmse, y->cosine, y->worst_rmse, y->worst_max_abs};
    return x->n_elements == y->n_elements && x->n_finite == y->n_finite &&
           x->equal == y->equal && x->nan_a == y->nan_a && x->nan_b == y->nan_b &&
           x->inf_a == y->inf_a && x->inf_b == y->inf_b &&
           x->nonfinite_mismatches == y->nonfinite_mismatches &&
           x->block_elems == y->block_elems && x->changed_blocks == y->changed_blocks &&
           x->has_worst == y->has_worst && x->worst_block == y->worst_block &&
           memcmp(dx, dy, sizeof dx) == 0;
}

static void metrics_of(const float *a, const float *b, size_t n, uint32_t block,
                       diff_metrics *out)
{
    diff_acc acc;
    diff_acc_init(&acc, block);
    diff_acc_add(&acc, a, b, n);
    diff_acc_finish(&acc, out);
}

/* m compares two tensors that are the same: no error, cosine 1, `equal` equal elements, no
 * changed block. */
static void expect_exact(const diff_metrics *m, uint64_t equal, const char *what)
{
    cr_expect_eq(m->nmse, 0.0, "%s", what);
    cr_expect_eq(m->max_abs, 0.0, "%s", what);
    cr_expect_eq(m->rmse, 0.0, "%s", what);
    cr_expect_eq(m->cosine, 1.0, "%s", what);
    cr_expect_eq(m->equal, equal, "%s", what);
    cr_expect_eq(m->changed_blocks, 0, "%s", what);
}

Test(diff_metrics, zero_vectors)
{
    const float z[4] = {0, -0.0f, 0, 0}, x[4] = {0, 1, 0, 0};
    diff_metrics m;
    metrics_of(z, z, 4, 1, &m);
    expect_exact(&m, 4, "two zero vectors are identical; +0 equals -0");
    cr_expect(!m.has_worst);
    metrics_of(z, x, 4, 1, &m);
    cr_expect(isinf(m.nmse) && m.nmse > 0, "error against a zero reference");
    cr_expect_eq(m.cosine, 0.0);
    cr_expect_eq(m.max_abs, 1.0);
    cr_expect_eq(m.rmse, 0.5);
    metrics_of(x, z, 4, 1, &m);
    cr_expect_eq(m.nmse, 1.0);
    cr_expect_eq(m.cosine, 0.0);
    metrics_of(z, z, 0, 32, &m);
    cr_expect_eq(m.n_elements, 0);
    expect_exact(&m, 0, "no elements");
}

Test(diff_metrics, exact_values)
{
    const float a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 2};
    diff_metrics m;
    metrics_of(a, b, 4, 2, &m);
    cr_expect_eq(m.sse, 4.0);
    cr_expect_eq(m.energy_a, 30.0);
    cr_expect_eq(m.nmse, 4.0 / 30.0);
    cr_expect_eq(m.rmse, 1.0);
    cr_expect_eq(m.max_abs, 2.0);
    cr_expect_eq(m.cosine, 22.0 / sqrt(30.0 * 18.0));
    cr_expect_eq(m.equal, 3);
    cr_expect_eq(m.changed_blocks, 1);
    cr_expect_eq(m.worst_block, 1);
    cr_expect_eq(m.worst_rmse, sqrt(4.0 / 2.0));
    cr_expect_eq(m.worst_max_abs, 2.0);
    /* b = -a: cosine exactly -1 */
    const float c[4] = {-1, -2, -3, -4};
    metrics_of(a, c, 4, 2, &m);
    cr_expect_eq(m.cosine, -1.0);
}

Test(diff_metrics, nan_and_inf)
{
    const float a[6] = {NAN, INFINITY, -INFINITY, 1, 2, NAN};
    const float b[6] = {-NAN, INFINITY, INFINITY, NAN, 2, 5};
    diff_metrics m;
    metrics_of(a, b, 6, 3, &m);
    cr_expect_eq(m.equal, 3, "NaN = NaN (any payload), Inf = Inf, 2 = 2");
    cr_expect_eq(m.nan_a, 2);
    cr_expect_eq(m.nan_b, 2);
    cr_expect_eq(m.inf_a, 2);
    cr_expect_eq(m.inf_b, 2);
    cr_expect_eq(m.nonfinite_mismatches, 3);
    cr_expect_eq(m.n_finite, 1);
    cr_expect_eq(m.sse, 0.0, "non-finite pairs enter no sum");
    cr_expect(isinf(m.max_abs) && isinf(m.rmse) && isinf(m.nmse));
    cr_expect(isnan(m.cosine));
    cr_expect_eq(m.changed_blocks, 2);
    cr_expect_eq(m.worst_block, 0, "both blocks are non-finite: the first");
    cr_expect(isinf(m.worst_rmse));
    /* only equal non-finite pairs: every error 0 */
    const float c[3] = {NAN, INFINITY, 1};
    metrics_of(c, c, 3, 1, &m);
    expect_exact(&m, 3, "only equal non-finite pairs");
}

Test(diff_metrics, worst_block_ties_keep_the_first_and_finite_loses_to_nonfinite)
{
    const float a[8] = {0, 0, 1, 0, 0, 1, 0, 0};
    const float b[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const float c[8] = {0, 0, 1, 0, 0, 2, 0, INFINITY};
    /* against b, by blocks of 2 and of 3 (a partial last block counts) */
    static const struct {
        bool c_side; /* c rather than a */
        uint32_t block;
        uint64_t changed, worst;
    } cases[] = {{false, 2, 2, 1}, {true, 2, 3, 3}, {false, 3, 2, 0}, {true, 3, 3, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        diff_metrics m;
        metrics_of(cases[i].c_side ? c : a, b, 8, cases[i].block, &m);
        cr_expect_eq(m.changed_blocks, cases[i].changed, "case %zu", i);
        cr_expect_eq(m.worst_block, cases[i].worst, "case %zu", i);
    }
}

/* The same stream cut at random places gives the same bits. */
Test(diff_metrics, chunking_does_not_change_a_bit)
{
    enum { N = 10007 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    uint64_t s = 12345;
    for (size_t i = 0; i < N; i++) {
        s = s * 6364136223846793005u + 1442695040888963407u;
        a[i] = (float)((double)(s >> 11) / 9007199254740992.0 - 0.5);
        b[i] = i % 97 == 0 ? a[i] : a[i] * 1.01f + 1e-3f;
    }
    diff_metrics whole, cut;
    metrics_of(a, b, N, 32, &whole);
    for (int trial = 0; trial < 20; trial++) {
        diff_acc acc;
        diff_acc_init(&acc, 32);
        for (size_t done = 0; done < N;) {
            s = s * 6364136223846793005u + 1442695040888963407u;
            size_t len = (size_t)(s >> 33) % 700;
            len = len > N - done ? N - done : len;
            diff_acc_add(&acc, a + done, b + done, len);
            done += len;
        }
        diff_acc_finish(&acc, &cut);
        cr_assert(metrics_equal(&whole, &cut), "trial %d", trial);
    }
    free(a);
    free(b);
}

Test(diff_metrics, totals)
{
    const float a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 2}, z[2] = {0, 0}, y[2] = {0, 1};
    diff_metrics m1, m2;
    metrics_of(a, b, 4, 1, &m1);
    metrics_of(z, y, 2, 1, &m2);
    diff_total t;
    diff_total_init(&t);
    diff_total_add(&t, &m1);
    cr_expect_eq(diff_total_nmse(&t), m1.nmse);
    cr_expect_eq(diff_total_cosine(&t), m1.cosine);
    cr_expect_eq(diff_total_rmse(&t), m1.rmse);
    diff_total_add(&t, &m2);
    cr_expect(isinf(diff_total_nmse(&t)), "an infinite NMSE makes the total infinite");
    cr_expect_eq(diff_total_cosine(&t), (4 * m1.cosine + 2 * 0.0) / 6);
    cr_expect_eq(diff_total_rmse(&t), sqrt(5.0 / 6.0));
    cr_expect_eq(diff_total_equal_fraction(&t), 4.0 / 6.0);
    cr_expect_eq(t.max_abs, 2.0);
    diff_total_init(&t);
    cr_expect_eq(diff_total_nmse(&t), 0.0);
    cr_expect_eq(diff_total_cosine(&t), 1.0);
}

/* A file in memory with a q4_K and a q4_0 tensor of 256 x 40 elements (random bytes with
 * finite scales) and an f32 one. */
static gsw_bytes file_bytes;

static gs_file *open_pair(void)
{
    static const uint64_t ne[2] = {256, 40};
    gsw_model m;
    gsw_model_init(&m, 3);
    int32_t types[3] = {GS_TYPE_Q4_K, GS_TYPE_Q4_0, GS_TYPE_F32};
    for (int k = 0; k < 3; k++) {
        char name[8] = "t0";
        name[1] = (char)('0' + k);
        gsw_tensor *t = gsw_add_tensor(&m, name, 2, ne, types[k]);
        cr_assert(gsw_tensor_fill(t, (uint64_t)k + 1, 1u << 24));
        /* finite f16 scales: clear the exponent's top bit of every 16-bit word */
        for (size_t i = 1; i < t->data.len && types[k] != GS_TYPE_F32; i += 2) {
            t->data.ptr[i] &= 0xbf;
        }
        if (types[k] == GS_TYPE_F32) {
            for (size_t i = 3; i < t->data.len; i += 4) {
                t->data.ptr[i] &= 0xbf; /* finite floats below 2 */
            }
        }
    }
    gsw_bytes_init(&file_bytes);
    char why[128];
    cr_assert_eq(gsw_write(&m, 0, &file_bytes, NULL, why, sizeof why), 0, "%s", why);
    gsw_model_free(&m);
    gs_file *f;
    cr_assert_eq(gs_open_memory(file_bytes.data, file_bytes.len, NULL, &f, NULL), GS_OK);
    return f;
}

Test(diff_compare, chunk_size_does_not_change_a_bit)
{
    gs_file *f = open_pair();
    const size_t n = 256 * 40;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    const size_t pairs[3][2] = {{0, 1}, {1, 0}, {2, 0}};
    for (int p = 0; p < 3; p++) {
        size_t ia = pairs[p][0], ib = pairs[p][1];
        cr_assert_eq(gs_tensor_dequantize(f, ia, a, n), GS_OK);
        cr_assert_eq(gs_tensor_dequantize(f, ib, b, n), GS_OK);
        gs_tensor_info tb;
        gs_tensor_info_at(f, ib, &tb);
        gs_type_info kb;
        gs_type_get_info(tb.type, &kb);
        diff_metrics whole;
        metrics_of(a, b, n, kb.block_elems, &whole);
        cr_assert_gt(whole.changed_blocks, 0);
        /* 1 rounds up to one common block (256), 300 down to 256, 1000 to 768, and one chunk */
        const size_t chunks[5] = {1, 300, 1000, 4096, DIFF_CHUNK_ELEMS};
        for (int c = 0; c < 5; c++) {
            diff_metrics got;
            char side = 0;
            cr_assert_eq(diff_compare_tensor(f, ia, f, ib, chunks[c], &got, &side), GS_OK);
            cr_assert(metrics_equal(&got, &whole), "pair %d, chunk %zu", p, chunks[c]);
        }
    }
    free(a);
    free(b);
    gs_close(f);
    gsw_bytes_free(&file_bytes);
}

Test(diff_compare, threads_give_the_same_results)
{
    gs_file *f = open_pair();
    diff_pairs one, many;
    memset(&one, 0, sizeof one);
    one.cap = one.n = 9;
    one.items = calloc(9, sizeof *one.items);
    for (size_t i = 0; i < 9; i++) {
        one.items[i].kind = DIFF_PAIR_COMPARED;
        one.items[i].a = (diff_side){f, i % 3};
        one.items[i].b = (diff_side){f, (i / 3 + i) % 3};
    }
    one.count[DIFF_PAIR_COMPARED] = 9;
    many = one;
    many.items = calloc(9, sizeof *many.items);
    memcpy(many.items, one.items, 9 * sizeof *one.items);
    cr_assert_eq(diff_compare_pairs(&one, 1, 1000, NULL, NULL), 9);
    cr_assert_eq(diff_compare_pairs(&many, 8, 1000, NULL, NULL), 9);
    for (size_t i = 0; i < 9; i++) {
        cr_assert_eq(one.items[i].status, GS_OK);
        cr_assert_eq(many.items[i].status, GS_OK);
        cr_assert(metrics_equal(&one.items[i].m, &many.items[i].m), "pair %zu", i);
    }
    free(one.items);
    free(many.items);
    gs_close(f);
    gsw_bytes_free(&file_bytes);
}

Test(diff_compare, a_failed_decode_names_its_side)
{
    gs_file *f = open_pair();
    diff_metrics m;
    char side = 0;
    /* an index past the end stands for any failure of side B */
    cr_expect_neq(diff_compare_tensor(f, 0, f, 99, 1000, &m, &side), GS_OK);
    cr_expect_eq(side, 'B');
    cr_expect_neq(diff_compare_tensor(f, 99, f, 0, 1000, &m, &side), GS_OK);
    cr_expect_eq(side, 'A');
    gs_close(f);
    gsw_bytes_free(&file_bytes);
}
