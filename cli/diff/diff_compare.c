#include "diff_compare.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "work_pool.h"

static size_t gcd(size_t x, size_t y)
{
    while (y != 0) {
        size_t r = x % y;
        x = y;
        y = r;
    }
    return x;
}

gs_status diff_compare_tensor(const gs_file *fa, size_t ia, const gs_file *fb, size_t ib,
                              size_t chunk_elems, diff_metrics *out, char *failed_side)
{
    gs_tensor_info ta, tb;
    gs_type_info ka, kb;
    *failed_side = 'A';
    gs_status st = gs_tensor_info_at(fa, ia, &ta);
    if (st != GS_OK) {
        return st;
    }
    *failed_side = 'B';
    st = gs_tensor_info_at(fb, ib, &tb);
    if (st != GS_OK) {
        return st;
    }
    gs_type_get_info(ta.type, &ka);
    gs_type_get_info(tb.type, &kb);
    if (ka.block_elems == 0 || kb.block_elems == 0 || ta.n_elements != tb.n_elements) {
        return GS_E_INVALID_ARGUMENT; /* diff_match pairs only same shapes of live types */
    }
    /* Chunks end on block boundaries of both types. Both block sizes divide ne[0], so their
     * least common multiple does too, and every chunk but the last is whole rows or more. */
    size_t step = ka.block_elems / gcd(ka.block_elems, kb.block_elems) * kb.block_elems;
    size_t chunk = chunk_elems / step * step;
    if (chunk == 0) {
        chunk = step;
    }
    if (chunk > ta.n_elements) {
        chunk = ta.n_elements > 0 ? (size_t)ta.n_elements : 1;
    }
    float *ba = malloc(chunk * sizeof(float));
    float *bb = malloc(chunk * sizeof(float));
    diff_acc acc;
    diff_acc_init(&acc, kb.block_elems);
    st = ba != NULL && bb != NULL ? GS_OK : GS_E_NO_MEMORY;
    for (uint64_t done = 0; done < ta.n_elements && st == GS_OK;) {
        size_t n = ta.n_elements - done < chunk ? (size_t)(ta.n_elements - done) : chunk;
        *failed_side = 'A';
        st = gs_tensor_dequantize_range(fa, ia, done, ba, n);
        if (st == GS_OK) {
            *failed_side = 'B';
            st = gs_tensor_dequantize_range(fb, ib, done, bb, n);
        }
        if (st == GS_OK) {
            diff_acc_add(&acc, ba, bb, n);
        }
        done += n;
    }
    free(ba);
    free(bb);
    if (st == GS_OK) {
        diff_acc_finish(&acc, out);
    }
    return st;
}

typedef struct work {
    diff_pairs *pairs;
    size_t chunk_elems;
    atomic_size_t failed; /* lowest failed pair so far; pairs after it are skipped */
    diff_progress_fn progress;
    void *progress_ctx;
    uint64_t done, total; /* elements, under mu */
    pthread_mutex_t mu;
} work;

static void compare_item(void *ctx, size_t i, unsigned worker)
{
    (void)worker;
    work *w = ctx;
    diff_pair *p = &w->pairs->items[i];
    /* Items come in increasing order: once one failed, every later one is skipped. */
    if (p->kind != DIFF_PAIR_COMPARED || i > atomic_load(&w->failed)) {
        return;
    }
    p->status = diff_compare_tensor(p->a.file, p->a.index, p->b.file, p->b.index, w->chunk_elems,
                                    &p->m, &p->failed_side);
    if (p->status != GS_OK) {
        /* Keep the lowest index, so the reported failure does not depend on timing. */
        size_t seen = atomic_load(&w->failed);
        while (i < seen && !atomic_compare_exchange_weak(&w->failed, &seen, i)) {
        }
    } else if (w->progress != NULL) {
        pthread_mutex_lock(&w->mu);
        w->done += p->m.n_elements;
        w->progress(w->progress_ctx, w->done, w->total);
        pthread_mutex_unlock(&w->mu);
    }
}

size_t diff_compare_pairs(diff_pairs *pairs, unsigned jobs, size_t chunk_elems,
                          diff_progress_fn progress, void *progress_ctx)
{
    work w;
    w.pairs = pairs;
    w.chunk_elems = chunk_elems;
    atomic_init(&w.failed, pairs->n);
    w.progress = progress;
    w.progress_ctx = progress_ctx;
    w.done = 0;
    w.total = 0;
    for (size_t i = 0; i < pairs->n; i++) {
        if (pairs->items[i].kind == DIFF_PAIR_COMPARED) {
            gs_tensor_info t;
            diff_side_info(&pairs->items[i].a, &t);
            w.total += t.n_elements;
        }
    }
    if (jobs > DIFF_MAX_JOBS) {
        jobs = DIFF_MAX_JOBS;
    }
    if (jobs > pairs->count[DIFF_PAIR_COMPARED]) {
        jobs = pairs->count[DIFF_PAIR_COMPARED] > 0 ? (unsigned)pairs->count[DIFF_PAIR_COMPARED]
                                                    : 1;
    }
    pthread_mutex_init(&w.mu, NULL);
    work_pool_run(jobs > 0 ? jobs : 1, pairs->n, compare_item, &w);
    pthread_mutex_destroy(&w.mu);
    return atomic_load(&w.failed);
}
