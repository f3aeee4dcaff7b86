#include "spans.h"

#include <stdlib.h>

static int by_start(const void *a, const void *b)
{
    const cli_span *x = a, *y = b;
    if (x->start != y->start) {
        return x->start < y->start ? -1 : 1;
    }
    return x->index < y->index ? -1 : (x->index > y->index);
}

void cli_spans_sort(cli_span *v, size_t n)
{
    if (n > 1) {
        qsort(v, n, sizeof *v, by_start);
    }
}

size_t cli_spans_first_owners(cli_span *v, size_t n, void (*shared)(void *ctx, size_t index),
                              void *ctx)
{
    cli_spans_sort(v, n);
    size_t kept = 0;
    uint64_t reach = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].start < reach) {
            shared(ctx, v[i].index);
            continue;
        }
        reach = v[i].end;
        v[kept++] = v[i];
    }
    return kept;
}
