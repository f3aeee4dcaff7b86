/* Allocation for the writer and the test tools on it (test-only): the one growth step of their
 * arrays and string copies. On failure they print who was allocating and abort, since a test
 * that cannot build its input has nothing to report. */
#ifndef GGUFSAFE_GSW_ALLOC_H
#define GGUFSAFE_GSW_ALLOC_H

#include <stddef.h>

/* realloc(p, n), never NULL (n = 0 allocates one byte). */
void *gsw_xrealloc(void *p, size_t n, const char *who);

/* calloc(n, size), never NULL (0 elements or bytes allocate one). */
void *gsw_xcalloc(size_t n, size_t size, const char *who);

/* The array items of *cap elements of `size` bytes with room for at least `need` of them:
 * items itself when it has it, else moved into a capacity doubled from `first` (*cap updated). */
void *gsw_grow(void *items, size_t *cap, size_t need, size_t size, size_t first, const char *who);

/* Copies of the n strings src[0..n-1] (n >= 1) in one allocation, back to back: dst[i] points
 * at the copy of src[i], and dst[0] is the pointer to free. */
void gsw_xstrdup_all(char **dst, const char *const *src, size_t n, const char *who);

#endif
