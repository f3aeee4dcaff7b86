#include "cert_stats_kernel.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "le_load.h"

#define LANES 16

void cert_fstats_init(cert_fstats *s)
{
    memset(s, 0, sizeof *s);
    s->first_nonfinite = UINT64_MAX;
    s->min = INFINITY;
    s->max = -INFINITY;
}

/* Sixteen lanes: element i of a run goes to lane i % 16, and the lanes are added 0..15 at the
 * end. The SSE2 path below keeps exactly this assignment (lane pairs in eight double vectors),
 * so every platform gives the same bits. Returns false, having changed nothing, when the
 * run holds a non-finite value: the caller then takes the exact slow path. */
static bool fast_run(const float *v, size_t n, float *lo_out, float *hi_out, double *sum_out)
{
    float lo[LANES], hi[LANES], chk[LANES];
    double sum[LANES];
    for (int k = 0; k < LANES; k++) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
        chk[k] = 0.0f;
        sum[k] = 0.0;
    }
    size_t i = 0;
#if defined(__SSE2__)
    {
        __m128 lo0 = _mm_set1_ps(INFINITY), lo1 = lo0, lo2 = lo0, lo3 = lo0;
        __m128 hi0 = _mm_set1_ps(-INFINITY), hi1 = hi0, hi2 = hi0, hi3 = hi0;
        __m128 chk0 = _mm_setzero_ps(), chk1 = chk0;
        __m128d s[8];
        for (int k = 0; k < 8; k++) {
            s[k] = _mm_setzero_pd();
        }
        for (; i + LANES <= n; i += LANES) {
            __m128 a = _mm_loadu_ps(v + i), b = _mm_loadu_ps(v + i + 4);
            __m128 c = _mm_loadu_ps(v + i + 8), d = _mm_loadu_ps(v + i + 12);
            /* minps/maxps return the second operand when the first is NaN: NaN never wins,
             * and x - x is NaN exactly for Inf and NaN, which the check lanes collect. */
            lo0 = _mm_min_ps(a, lo0);
            lo1 = _mm_min_ps(b, lo1);
            lo2 = _mm_min_ps(c, lo2);
            lo3 = _mm_min_ps(d, lo3);
            hi0 = _mm_max_ps(a, hi0);
            hi1 = _mm_max_ps(b, hi1);
            hi2 = _mm_max_ps(c, hi2);
            hi3 = _mm_max_ps(d, hi3);
            chk0 = _mm_add_ps(chk0, _mm_add_ps(_mm_sub_ps(a, a), _mm_sub_ps(b, b)));
            chk1 = _mm_add_ps(chk1, _mm_add_ps(_mm_sub_ps(c, c), _mm_sub_ps(d, d)));
            s[0] = _mm_add_pd(s[0], _mm_cvtps_pd(a));
            s[1] = _mm_add_pd(s[1], _mm_cvtps_pd(_mm_movehl_ps(a, a)));
            s[2] = _mm_add_pd(s[2], _mm_cvtps_pd(b));
            s[3] = _mm_add_pd(s[3], _mm_cvtps_pd(_mm_movehl_ps(b, b)));
            s[4] = _mm_add_pd(s[4], _mm_cvtps_pd(c));
            s[5] = _mm_add_pd(s[5], _mm_cvtps_pd(_mm_movehl_ps(c, c)));
            s[6] = _mm_add_pd(s[6], _mm_cvtps_pd(d));
            s[7] = _mm_add_pd(s[7], _mm_cvtps_pd(_mm_movehl_ps(d, d)));
        }
        _mm_storeu_ps(lo, lo0);
        _mm_storeu_ps(lo + 4, lo1);
        _mm_storeu_ps(lo + 8, lo2);
        _mm_storeu_ps(lo + 12, lo3);
        _mm_storeu_ps(hi, hi0);
        _mm_storeu_ps(hi + 4, hi1);
        _mm_storeu_ps(hi + 8, hi2);
        _mm_storeu_ps(hi + 12, hi3);
        _mm_storeu_ps(chk, _mm_add_ps(chk0, chk1));
        _mm_storeu_ps(chk + 4, _mm_setzero_ps());
        _mm_storeu_ps(chk + 8, _mm_setzero_ps());
        _mm_storeu_ps(chk + 12, _mm_setzero_ps());
        for (int k = 0; k < 8; k++) {
            _mm_storeu_pd(sum + 2 * k, s[k]);
        }
    }
#endif
    for (; i < n; i++) {
        int k = (int)(i % LANES);
        float x = v[i];
        lo[k] = x < lo[k] ? x : lo[k];
        hi[k] = x > hi[k] ? x : hi[k];
        chk[k] += x - x;
        sum[k] += (double)x;
    }
    float c = 0.0f;
    for (int k = 0; k < LANES; k++) {
        c += chk[k];
    }
    if (c != 0.0f || c != c) {
        return false;
    }
    float l = INFINITY, h = -INFINITY;
    double total = 0.0;
    for (int k = 0; k < LANES; k++) {
        l = lo[k] < l ? lo[k] : l;
        h = hi[k] > h ? hi[k] : h;
        total += sum[k];
    }
    *lo_out = l;
    *hi_out = h;
    *sum_out = total;
    return true;
}

/* Counts one value that is not finite (a NaN when is_nan, else an Inf) at element index at,
 * keeping the index of the first. */
static void count_nonfinite(uint64_t *nan, uint64_t *inf, uint64_t *first, bool is_nan,
                            uint64_t at)
{
    if (is_nan) {
        (*nan)++;
    } else {
        (*inf)++;
    }
    if (*first == UINT64_MAX) {
        *first = at;
    }
}

/* The exact path for a run with Inf or NaN: every value classified, the finite ones summed in
 * the same lanes. */
static void slow_run(cert_fstats *s, const float *v, size_t n, uint64_t base)
{
    double sum[LANES] = {0};
    for (size_t i = 0; i < n; i++) {
        float x = v[i];
        if (isfinite(x)) {
            s->min = x < s->min ? x : s->min;
            s->max = x > s->max ? x : s->max;
            sum[i % LANES] += (double)x;
            s->finite++;
            continue;
        }
        count_nonfinite(&s->nan, &s->inf, &s->first_nonfinite, isnan(x), base + i);
    }
    double total = 0.0;
    for (int k = 0; k < LANES; k++) {
        total += sum[k];
    }
    s->sum += total;
}

void cert_fstats_add(cert_fstats *s, const float *v, size_t n, uint64_t base)
{
    float lo, hi;
    double sum;
    if (n == 0) {
        return;
    }
    if (!fast_run(v, n, &lo, &hi, &sum)) {
        slow_run(s, v, n, base);
        return;
    }
    s->min = lo < s->min ? lo : s->min;
    s->max = hi > s->max ? hi : s->max;
    s->sum += sum;
    s->finite += n;
}

void cert_dstats_init(cert_dstats *s)
{
    memset(s, 0, sizeof *s);
    s->first_nonfinite = UINT64_MAX;
    s->min = INFINITY;
    s->max = -INFINITY;
}

void cert_dstats_add(cert_dstats *s, const uint8_t *le, size_t n, uint64_t base)
{
    for (size_t i = 0; i < n; i++) {
        const uint64_t bits = gsi_load_u64le(le + 8 * i);
        double x;
        memcpy(&x, &bits, sizeof x);
        if (isfinite(x)) {
            s->min = x < s->min ? x : s->min;
            s->max = x > s->max ? x : s->max;
            s->sum += x;
            s->finite++;
            continue;
        }
        count_nonfinite(&s->nan, &s->inf, &s->first_nonfinite, isnan(x), base + i);
    }
}
