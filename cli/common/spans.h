/* Byte ranges of a file (tensor data, key-value records) in file order, for the scans that walk
 * a file once: sorting them, and keeping the first owner of bytes that several claim (a damaged
 * or crafted file's tensors may share data; each byte is then read for the first one only, so a
 * small file cannot cost terabytes of scanning). */
#ifndef GGUFSAFE_CLI_SPANS_H
#define GGUFSAFE_CLI_SPANS_H

#include <stddef.h>
#include <stdint.h>

typedef struct cli_span {
    uint64_t start, end; /* [start, end) */
    size_t index;        /* the caller's: which tensor or entry */
} cli_span;

/* By start, then index: a total order, so the result never depends on qsort. */
void cli_spans_sort(cli_span *v, size_t n);

/* Sorts v, then keeps (at its front, in order) the spans that start at or after the end of the
 * last kept one, calling shared(ctx, index) for each other one. Returns how many were kept. */
size_t cli_spans_first_owners(cli_span *v, size_t n, void (*shared)(void *ctx, size_t index),
                              void *ctx);

#endif
