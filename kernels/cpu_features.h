/* What this CPU and OS can run, for choosing a SIMD path at run time. Probed once (a race
 * probes twice and gets the same answer); thread-safe. */
#ifndef GGUFSAFE_CPU_FEATURES_H
#define GGUFSAFE_CPU_FEATURES_H

#include <stdbool.h>

/* AVX2 + FMA + F16C, with the OS saving YMM state: what the AVX2 files are compiled for. */
bool gsi_cpu_avx2(void);
/* AArch64 Advanced SIMD. */
bool gsi_cpu_neon(void);

#endif
