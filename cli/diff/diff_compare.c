#include "diff_compare.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "work_pool.h"

/* Bytes of each side read at a time when two tensors without an f32 form are compared. */
#define BYTES_CHUNK 65536u

static size_t gcd(size_t x, size_t y)
{
    while (y != 0) {
        size_t r = x % y;
        x = y;
        y = r;
    }
    return x;
}

size_t diff_lcm(size_t step, size_t block)
{
    return step / gcd(step, block) * block;
}

/* One candidate of a row: its pair, its accumulator and the storage of its worst blocks. */
typedef struct candidate {
    diff_pair *pair;
    diff_acc acc;
    diff_block_err *kept;
} candidate;

/* Compares the reference tensor `ref` with the B side of each of the n pairs (1 or 2), which
 * have its shape and decodable types, decoding the reference once per chunk. Returns GS_OK, or
 * the failure with *failed the candidate's index (n: the reference). */
static gs_status compare_row(const diff_side *ref, candidate *c, size_t n, size_t chunk_elems,
                             size_t keep_worst, size_t *failed)
{
    gs_tensor_info tr;
    gs_type_info kr;
    *failed = n;
    gs_status st = gs_tensor_info_at(ref->file, ref->index, &tr);
    if (st != GS_OK) {
        return st;
    }
    gs_file_type_info(ref->file, tr.type, &kr);
    if (kr.block_elems == 0) {
        return GS_E_INVALID_ARGUMENT; /* diff_match pairs only live types */
    }
    /* Chunks end on block boundaries of every type. Every block size divides ne[0], so their
     * least common multiple does too, and every chunk but the last is whole rows or more. */
    size_t step = kr.block_elems;
    uint32_t block_b[2] = {1, 1};
    for (size_t k = 0; k < n; k++) {
        gs_tensor_info t;
        gs_type_info ki;
        *failed = k;
        st = gs_tensor_info_at(c[k].pair->b.file, c[k].pair->b.index, &t);
        if (st != GS_OK) {
            return st;
        }
        gs_file_type_info(c[k].pair->b.file, t.type, &ki);
        if (ki.block_elems == 0 || t.n_elements != tr.n_elements) {
            return GS_E_INVALID_ARGUMENT; /* diff_match pairs only same shapes of live types */
        }
        step = diff_lcm(step, ki.block_elems);
        block_b[k] = ki.block_elems;
    }
    size_t chunk = chunk_elems / step * step;
    if (chunk == 0) {
        chunk = step;
    }
    if (chunk > tr.n_elements) {
        chunk = tr.n_elements > 0 ? (size_t)tr.n_elements : 1;
    }
    float *br = malloc(chunk * sizeof(float));
    float *bc = malloc(chunk * sizeof(float));
    st = br != NULL && bc != NULL ? GS_OK : GS_E_NO_MEMORY;
    for (size_t k = 0; k < n; k++) {
        diff_acc_init(&c[k].acc, block_b[k]);
        uint64_t blocks = (tr.n_elements + block_b[k] - 1) / block_b[k];
        size_t cap = keep_worst < blocks ? keep_worst : (size_t)blocks;
        c[k].kept = cap > 0 ? malloc(cap * sizeof *c[k].kept) : NULL;
        if (cap > 0 && c[k].kept == NULL) {
            st = GS_E_NO_MEMORY;
        }
        diff_acc_keep_worst(&c[k].acc, c[k].kept, cap);
    }
    for (uint64_t done = 0; done < tr.n_elements && st == GS_OK;) {
        size_t len = tr.n_elements - done < chunk ? (size_t)(tr.n_elements - done) : chunk;
        *failed = n;
        st = gs_tensor_dequantize_range(ref->file, ref->index, done, br, len);
        for (size_t k = 0; k < n && st == GS_OK; k++) {
            *failed = k;
            st = gs_tensor_dequantize_range(c[k].pair->b.file, c[k].pair->b.index, done, bc, len);
            if (st == GS_OK) {
                diff_acc_add(&c[k].acc, br, bc, len);
            }
        }
        done += len;
    }
    free(br);
    free(bc);
    for (size_t k = 0; k < n; k++) {
        diff_pair *p = c[k].pair;
        if (st == GS_OK) {
            diff_acc_finish(&c[k].acc, &p->m);
            p->n_worst = diff_acc_worst(&c[k].acc, c[k].kept);
            p->worst = c[k].kept;
        } else {
            free(c[k].kept);
        }
        c[k].kept = NULL;
    }
    return st;
}

gs_status diff_compare_tensor(const gs_file *fa, size_t ia, const gs_file *fb, size_t ib,
                              size_t chunk_elems, diff_metrics *out, char *failed_side)
{
    diff_pair p;
    memset(&p, 0, sizeof p);
    p.a = (diff_side){fa, ia};
    p.b = (diff_side){fb, ib};
    candidate c = {.pair = &p};
    size_t failed;
    gs_status st = compare_row(&p.a, &c, 1, chunk_elems, 0, &failed);
    *failed_side = failed == 0 ? 'B' : 'A';
    if (st == GS_OK) {
        *out = p.m;
    }
    return st;
}

/* same_bytes of a pair without an f32 form: one type and the same data, read in chunks. */
static gs_status compare_bytes(diff_pair *p)
{
    gs_tensor_info ta, tb;
    p->failed_side = 'A';
    gs_status st = gs_tensor_info_at(p->a.file, p->a.index, &ta);
    if (st != GS_OK) {
        return st;
    }
    p->failed_side = 'B';
    st = gs_tensor_info_at(p->b.file, p->b.index, &tb);
    if (st != GS_OK) {
        return st;
    }
    p->same_bytes = false;
    if (ta.type != tb.type || ta.size != tb.size) {
        return GS_OK;
    }
    uint8_t *ba = malloc(BYTES_CHUNK), *bb = malloc(BYTES_CHUNK);
    st = ba != NULL && bb != NULL ? GS_OK : GS_E_NO_MEMORY;
    bool same = true;
    for (uint64_t done = 0; done < ta.size && st == GS_OK && same;) {
        size_t len = ta.size - done < BYTES_CHUNK ? (size_t)(ta.size - done) : BYTES_CHUNK;
        p->failed_side = 'A';
        st = gs_file_read(p->a.file, ta.data_offset + done, ba, len);
        if (st == GS_OK) {
            p->failed_side = 'B';
            st = gs_file_read(p->b.file, tb.data_offset + done, bb, len);
        }
        same = st == GS_OK && memcmp(ba, bb, len) == 0;
        done += len;
    }
    free(ba);
    free(bb);
    p->same_bytes = st == GS_OK && same;
    return st;
}

typedef struct work {
    const diff_compare_plan *plan;
    size_t base_rows;     /* rows whose baseline pair shares the reference */
    atomic_size_t failed; /* lowest failed row so far; rows after it are skipped */
    bool failed_base;     /* which list's pair of that row failed (under mu) */
    uint64_t done, total; /* elements, under mu */
    pthread_mutex_t mu;
} work;

/* The pairs of row i that are compared element by element, and how many elements that is. */
static size_t row_candidates(const work *w, size_t i, diff_pair *out[2], uint64_t *elements)
{
    const diff_compare_plan *pl = w->plan;
    diff_pair *list[2] = {&pl->pairs->items[i], i < w->base_rows ? &pl->base->items[i] : NULL};
    size_t n = 0;
    *elements = 0;
    for (size_t k = 0; k < 2; k++) {
        if (list[k] != NULL && list[k]->kind == DIFF_PAIR_COMPARED) {
            gs_tensor_info t;
            diff_side_info(&list[k]->a, &t);
            *elements += t.n_elements;
            out[n++] = list[k];
        }
    }
    return n;
}

static void record_failure(work *w, size_t i, bool base)
{
    /* Keep the lowest row, so the reported failure does not depend on timing. */
    pthread_mutex_lock(&w->mu);
    size_t seen = atomic_load(&w->failed);
    if (i < seen) {
        atomic_store(&w->failed, i);
        w->failed_base = base;
    }
    pthread_mutex_unlock(&w->mu);
}

static void compare_item(void *ctx, size_t i, unsigned worker)
{
    (void)worker;
    work *w = ctx;
    /* Items come in increasing order: once one failed, every later one is skipped. */
    if (i > atomic_load(&w->failed)) {
        return;
    }
    diff_pair *list[2] = {&w->plan->pairs->items[i],
                          i < w->base_rows ? &w->plan->base->items[i] : NULL};
    for (size_t k = 0; k < 2; k++) {
        diff_pair *p = list[k];
        if (p != NULL && p->kind == DIFF_PAIR_NOT_DECODABLE) {
            p->status = compare_bytes(p);
            if (p->status != GS_OK) {
                record_failure(w, i, k == 1);
                return;
            }
        }
    }
    diff_pair *cands[2];
    uint64_t elements;
    size_t n = row_candidates(w, i, cands, &elements);
    if (n == 0) {
        return;
    }
    candidate c[2] = {{.pair = cands[0]}, {.pair = n > 1 ? cands[1] : NULL}};
    size_t failed;
    gs_status st = compare_row(&cands[0]->a, c, n, w->plan->chunk_elems, w->plan->keep_worst,
                               &failed);
    if (st != GS_OK) {
        /* the reference's failure is told on the candidate's own pair */
        diff_pair *p = failed < n ? cands[failed] : cands[0];
        p->status = st;
        p->failed_side = failed < n ? 'B' : 'A';
        record_failure(w, i, p != list[0]);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        cands[k]->status = GS_OK;
    }
    if (w->plan->progress != NULL) {
        pthread_mutex_lock(&w->mu);
        w->done += elements;
        w->plan->progress(w->plan->progress_ctx, w->done, w->total);
        pthread_mutex_unlock(&w->mu);
    }
}

size_t diff_compare_run(const diff_compare_plan *plan, bool *failed_base)
{
    diff_pairs *pairs = plan->pairs;
    work w;
    w.plan = plan;
    w.base_rows = 0;
    if (plan->base != NULL) {
        w.base_rows = plan->base->tensors_a < pairs->tensors_a ? plan->base->tensors_a
                                                               : pairs->tensors_a;
    }
    atomic_init(&w.failed, pairs->n);
    w.failed_base = false;
    w.done = 0;
    w.total = 0;
    size_t busy = 0; /* rows with work */
    for (size_t i = 0; i < pairs->n; i++) {
        diff_pair *cands[2];
        uint64_t elements;
        size_t n = row_candidates(&w, i, cands, &elements);
        w.total += elements;
        busy += n > 0 || pairs->items[i].kind == DIFF_PAIR_NOT_DECODABLE;
    }
    unsigned jobs = plan->jobs;
    if (jobs > DIFF_MAX_JOBS) {
        jobs = DIFF_MAX_JOBS;
    }
    if (jobs > busy) {
        jobs = busy > 0 ? (unsigned)busy : 1;
    }
    pthread_mutex_init(&w.mu, NULL);
    work_pool_run(jobs > 0 ? jobs : 1, pairs->n, compare_item, &w);
    pthread_mutex_destroy(&w.mu);
    if (failed_base != NULL) {
        *failed_base = w.failed_base;
    }
    return atomic_load(&w.failed);
}

size_t diff_compare_pairs(diff_pairs *pairs, unsigned jobs, size_t chunk_elems,
                          diff_progress_fn progress, void *progress_ctx)
{
    diff_compare_plan plan = {pairs, NULL, jobs, chunk_elems, 0, progress, progress_ctx};
    return diff_compare_run(&plan, NULL);
}
