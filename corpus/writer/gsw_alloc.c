#include "gsw_alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(const char *who, size_t n)
{
    fprintf(stderr, "%s: out of memory (%zu bytes)\n", who, n);
    abort();
}

void *gsw_xrealloc(void *p, size_t n, const char *who)
{
    void *q = realloc(p, n ? n : 1);
    if (q == NULL) {
        out_of_memory(who, n);
    }
    return q;
}

void *gsw_xcalloc(size_t n, size_t size, const char *who)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p == NULL) {
        fprintf(stderr, "%s: out of memory (%zu x %zu bytes)\n", who, n, size);
        abort();
    }
    return p;
}

void *gsw_grow(void *items, size_t *cap, size_t need, size_t size, size_t first, const char *who)
{
    if (need <= *cap) {
        return items;
    }
    size_t n = *cap ? *cap : first ? first : 1; /* 0 would never double */
    while (n < need) {
        if (n > SIZE_MAX / 2) {
            out_of_memory(who, SIZE_MAX);
        }
        n *= 2;
    }
    if (size != 0 && n > SIZE_MAX / size) {
        out_of_memory(who, SIZE_MAX);
    }
    items = gsw_xrealloc(items, n * size, who);
    *cap = n;
    return items;
}

void gsw_xstrdup_all(char **dst, const char *const *src, size_t n, const char *who)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t len = strlen(src[i]) + 1;
        if (len > SIZE_MAX - total) {
            out_of_memory(who, SIZE_MAX);
        }
        total += len;
    }
    char *p = gsw_xrealloc(NULL, total, who);
    for (size_t i = 0; i < n; i++) {
        const size_t len = strlen(src[i]) + 1;
        memcpy(p, src[i], len);
        dst[i] = p;
        p += len;
    }
}
