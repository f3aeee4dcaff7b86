/* gs_bench_memcpy: the memory-bandwidth baseline of ci/bench.sh (a program, not a test). Copies
 * MIB MiB from one buffer to another, both faulted in first, RUNS times, and prints the fastest
 * copy as "SECONDS GBPS" (GB/s of bytes copied, 1 GB = 10^9 bytes).
 *
 *   gs_bench_memcpy MIB [RUNS]     MIB 1..65536 (default RUNS 5) */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Written with a sum of the copy, so that the compiler cannot drop the copy. */
static volatile unsigned copy_sink;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    const long mib = argc > 1 ? strtol(argv[1], &end, 10) : 0;
    if (argc < 2 || argc > 3 || *end != '\0' || mib < 1 || mib > 65536) {
        fprintf(stderr, "usage: gs_bench_memcpy MIB [RUNS]   (MIB 1..65536)\n");
        return 2;
    }
    long runs = 5;
    if (argc == 3) {
        runs = strtol(argv[2], &end, 10);
        if (*end != '\0' || runs < 1 || runs > 1000) {
            fprintf(stderr, "gs_bench_memcpy: RUNS must be 1..1000\n");
            return 2;
        }
    }
    const size_t n = (size_t)mib << 20;
    uint8_t *src = malloc(n), *dst = malloc(n);
    if (src == NULL || dst == NULL) {
        fprintf(stderr, "gs_bench_memcpy: cannot allocate 2 x %ld MiB\n", mib);
        return 2;
    }
    for (size_t i = 0; i < n; i++) { /* real data, every page faulted in */
        src[i] = (uint8_t)(i * 131u + (i >> 12));
    }
    memset(dst, 0, n);
    double best = 0;
    for (long r = 0; r < runs; r++) {
        const double t0 = now();
        memcpy(dst, src, n);
        const double t = now() - t0;
        if (r == 0 || t < best) {
            best = t;
        }
    }
    /* Reading the copy keeps the compiler from dropping it. */
    unsigned sum = 0;
    for (size_t i = 0; i < n; i += 4096) {
        sum += dst[i];
    }
    copy_sink = sum;
    printf("%.6f %.3f\n", best, (double)n / best * 1e-9);
    free(src);
    free(dst);
    return 0;
}
