/* Statistics of decoded f32 values in a fixed order: min and max over the finite values, their
 * sum in sixteen double lanes (so the loop is not one long dependency chain and the compiler can
 * vectorise it), and the count of non-finite values. The lanes are reduced in a fixed order, so
 * the same values always give the same sum. */
#ifndef GGUFSAFE_CERT_STATS_KERNEL_H
#define GGUFSAFE_CERT_STATS_KERNEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct cert_fstats {
    uint64_t finite, nan, inf;
    uint64_t first_nonfinite; /* element index (from the first call's start); UINT64_MAX: none */
    float min, max;           /* over finite values; +inf / -inf while there are none */
    double sum;
} cert_fstats;

void cert_fstats_init(cert_fstats *s);
/* Adds n values; base is the index of v[0] (for first_nonfinite). */
void cert_fstats_add(cert_fstats *s, const float *v, size_t n, uint64_t base);
/* The same for f64 values (min and max are then rounded to f32 only when shown: kept apart). */
typedef struct cert_dstats {
    uint64_t finite, nan, inf, first_nonfinite;
    double min, max, sum;
} cert_dstats;
void cert_dstats_init(cert_dstats *s);
void cert_dstats_add(cert_dstats *s, const uint8_t *le, size_t n, uint64_t base);

#endif
