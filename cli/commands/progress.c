#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void progress_init(progress *p, const char *what, bool quiet)
{
    p->enabled = !quiet && isatty(STDERR_FILENO) == 1;
    p->what = what;
    snprintf(p->label, sizeof p->label, "%s", what);
    p->part = 0;
    p->last_ns = 0;
    p->last_pct = -1;
    p->elements = false;
}

void progress_update(void *ctx, uint64_t done, uint64_t total)
{
    progress *p = ctx;
    if (!p->enabled || total == 0) {
        return;
    }
    int pct = (int)(done >= total ? 100 : done * 100 / total);
    uint64_t t = now_ns();
    if (pct == p->last_pct || (t - p->last_ns < 100000000u && pct != 100)) {
        return;
    }
    p->last_pct = pct;
    p->last_ns = t;
    const int width = 30;
    char bar[32];
    int filled = pct * width / 100;
    for (int i = 0; i < width; i++) {
        bar[i] = i < filled ? '#' : '.';
    }
    bar[width] = '\0';
    if (p->elements) {
        fprintf(stderr, "\r%s [%s] %3d%%  %.1f / %.1f M elements", p->label, bar, pct,
                (double)done / 1e6, (double)total / 1e6);
    } else {
        fprintf(stderr, "\r%s [%s] %3d%%  %.1f / %.1f GiB", p->label, bar, pct,
                (double)done / (1u << 30), (double)total / (1u << 30));
    }
    fflush(stderr);
}

void progress_done(progress *p)
{
    if (p->enabled && p->last_pct >= 0) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
        p->last_pct = -1; /* erased: a second call draws nothing */
    }
}

void progress_event(void *ctx, const gs_progress *e)
{
    progress *p = ctx;
    if (e->part != p->part) {
        progress_done(p);
        p->part = e->part;
        p->last_ns = 0;
        p->last_pct = -1;
    }
    if (e->n_parts > 1) {
        snprintf(p->label, sizeof p->label, "%s part %zu/%zu", p->what, e->part + 1, e->n_parts);
    }
    progress_update(p, e->done, e->total);
}
