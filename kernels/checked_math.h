/* Checked size arithmetic. Every sum and product of values that came from a file goes through
 * these: they return true on overflow and never wrap silently. Grep for "checked_" to audit. */
#ifndef GGUFSAFE_CHECKED_MATH_H
#define GGUFSAFE_CHECKED_MATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool gsi_checked_add_u64(uint64_t a, uint64_t b, uint64_t *r)
{
    return __builtin_add_overflow(a, b, r);
}

static inline bool gsi_checked_mul_u64(uint64_t a, uint64_t b, uint64_t *r)
{
    return __builtin_mul_overflow(a, b, r);
}

static inline bool gsi_checked_add_size(size_t a, size_t b, size_t *r)
{
    return __builtin_add_overflow(a, b, r);
}

static inline bool gsi_checked_mul_size(size_t a, size_t b, size_t *r)
{
    return __builtin_mul_overflow(a, b, r);
}

/* Rounds x up to a multiple of align (any align >= 1, not only powers of two). */
static inline bool gsi_checked_pad_u64(uint64_t x, uint64_t align, uint64_t *r)
{
    uint64_t rem = x % align;
    if (rem == 0) {
        *r = x;
        return false;
    }
    return __builtin_add_overflow(x, align - rem, r);
}

/* Narrowing to size_t: true when v does not fit (32-bit hosts). */
static inline bool gsi_checked_u64_to_size(uint64_t v, size_t *r)
{
    if (v > (uint64_t)SIZE_MAX) {
        return true;
    }
    *r = (size_t)v;
    return false;
}

#endif
