#define _DEFAULT_SOURCE
#include "work_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct pool {
    work_pool_fn fn;
    void *ctx;
    size_t n_items;
    atomic_size_t next;
} pool;

typedef struct worker {
    pool *p;
    unsigned id;
} worker;

static void drain(pool *p, unsigned id)
{
    for (;;) {
        size_t item = atomic_fetch_add(&p->next, 1);
        if (item >= p->n_items) {
            return;
        }
        p->fn(p->ctx, item, id);
    }
}

static void *thread_main(void *arg)
{
    worker *w = arg;
    drain(w->p, w->id);
    return NULL;
}

/* More threads than this buys nothing on a scan that is bound by memory bandwidth. */
#define MAX_JOBS 256u

void work_pool_run(unsigned jobs, size_t n_items, work_pool_fn fn, void *ctx)
{
    pool p = {fn, ctx, n_items, 0};
    if (jobs > MAX_JOBS) {
        jobs = MAX_JOBS;
    }
    if (jobs > n_items) {
        jobs = n_items > 0 ? (unsigned)n_items : 1u;
    }
    pthread_t threads[MAX_JOBS];
    worker workers[MAX_JOBS];
    unsigned started = 0;
    for (unsigned i = 1; i < jobs; i++) {
        workers[i] = (worker){&p, i};
        if (pthread_create(&threads[started + 1], NULL, thread_main, &workers[i]) != 0) {
            break;
        }
        started++;
    }
    drain(&p, 0);
    for (unsigned i = 1; i <= started; i++) {
        pthread_join(threads[i], NULL);
    }
}

unsigned work_pool_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) {
        return 1;
    }
    return n > (long)MAX_JOBS ? MAX_JOBS : (unsigned)n;
}
