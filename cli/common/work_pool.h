/* A minimal worker pool for whole-file scans: runs fn on items 0..n-1 over `jobs` threads (the
 * calling thread is worker 0), handing items out in increasing order. Each call of fn stores its
 * result under its item number, so results never depend on which thread ran what, and a caller
 * that reduces them in item order gets the same bytes whatever `jobs` is. */
#ifndef GGUFSAFE_WORK_POOL_H
#define GGUFSAFE_WORK_POOL_H

#include <stddef.h>

typedef void (*work_pool_fn)(void *ctx, size_t item, unsigned worker);

/* Returns when every item is done. When threads cannot be started it carries on with fewer
 * (down to the calling thread alone): the result is the same, only slower. */
void work_pool_run(unsigned jobs, size_t n_items, work_pool_fn fn, void *ctx);

/* The number of online CPUs (at least 1): the default for --jobs. */
unsigned work_pool_cpus(void);

#endif
