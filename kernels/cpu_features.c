/* What this CPU and OS can run, probed once: CPUID and XGETBV on x86-64, AT_HWCAP on AArch64.
 * One probe for every SIMD path: the decoders (dispatch.c) and UTF-8 validation (utf8.c). */
#include "cpu_features.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__)
#include <sys/auxv.h>
#endif

#if defined(__x86_64__)
/* The AVX2 files are compiled for exactly AVX2 + FMA + F16C (kernels/avx2/CMakeLists.txt), so
 * exactly those are checked, plus the OS saving the YMM registers on context switches. */
#define CPUID1_ECX_FMA (1u << 12)
#define CPUID1_ECX_OSXSAVE (1u << 27)
#define CPUID1_ECX_AVX (1u << 28)
#define CPUID1_ECX_F16C (1u << 29)
#define CPUID7_EBX_AVX2 (1u << 5)
#define XCR0_XMM_YMM 0x6u /* bits 1 (SSE state) and 2 (AVX state) */

/* XCR0, read with the raw instruction: the _xgetbv intrinsic needs -mxsave on this file. Only
 * called once OSXSAVE says the instruction exists. */
static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0u));
    return (uint64_t)hi << 32 | lo;
}

static bool cpu_runs_avx2(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) {
        return false;
    }
    const unsigned need = CPUID1_ECX_FMA | CPUID1_ECX_OSXSAVE | CPUID1_ECX_AVX | CPUID1_ECX_F16C;
    if ((c & need) != need || (read_xcr0() & XCR0_XMM_YMM) != XCR0_XMM_YMM) {
        return false;
    }
    if (__get_cpuid_max(0, NULL) < 7) {
        return false;
    }
    __cpuid_count(7, 0, a, b, c, d);
    return (b & CPUID7_EBX_AVX2) != 0;
}
#endif

#if defined(__aarch64__)
static bool cpu_runs_neon(void)
{
    return (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0;
}
#endif

#define FEATURE_AVX2 1
#define FEATURE_NEON 2
#define FEATURES_UNPROBED (-1)

static _Atomic int cpu_features = FEATURES_UNPROBED;

/* Probing twice on a race is harmless: both threads compute the same answer. */
static int features(void)
{
    int f = atomic_load(&cpu_features);
    if (f == FEATURES_UNPROBED) {
        f = 0;
#if defined(__x86_64__)
        f |= cpu_runs_avx2() ? FEATURE_AVX2 : 0;
#elif defined(__aarch64__)
        f |= cpu_runs_neon() ? FEATURE_NEON : 0;
#endif
        atomic_store(&cpu_features, f);
    }
    return f;
}

bool gsi_cpu_avx2(void)
{
    return (features() & FEATURE_AVX2) != 0;
}

bool gsi_cpu_neon(void)
{
    return (features() & FEATURE_NEON) != 0;
}
