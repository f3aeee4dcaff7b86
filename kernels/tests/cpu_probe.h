/* What this CPU can run, asked of the compiler's CPUID probe rather than of the library's
 * dispatcher, so that the dispatch tests check the library against an independent answer. */
#ifndef GGUFSAFE_TEST_CPU_PROBE_H
#define GGUFSAFE_TEST_CPU_PROBE_H

#include <stdbool.h>

#include "ggufsafe.h"

/* Every CPU with AVX2 and FMA has F16C (clang 14's __builtin_cpu_supports has no "f16c" to
 * ask). */
static inline bool cpu_has_avx2(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

static inline bool cpu_has_neon(void)
{
#if defined(__aarch64__)
    return true; /* AArch64 Linux always has Advanced SIMD */
#else
    return false;
#endif
}

/* The path auto must pick on this CPU. */
static inline gs_kernel cpu_best_kernel(void)
{
    return cpu_has_avx2() ? GS_KERNEL_AVX2 : cpu_has_neon() ? GS_KERNEL_NEON : GS_KERNEL_SCALAR;
}

#endif
