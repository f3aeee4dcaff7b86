/* Decoder path selection. What the CPU can run is probed once; the path in use is decided once
 * (GGUFSAFE_KERNEL at first use, or gs_set_kernel) and kept in one atomic word, so decodes on
 * any thread see either the old or the new choice, never a torn one. A path that cannot run
 * is never replaced by another behind the caller's back: decodes report it instead. */
#include "dispatch.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"

bool gsi_kernel_supported(gs_kernel kernel)
{
    switch (kernel) {
    case GS_KERNEL_AUTO:
    case GS_KERNEL_SCALAR:
        return true;
    case GS_KERNEL_AVX2:
        return gsi_cpu_avx2();
    case GS_KERNEL_NEON:
        return gsi_cpu_neon();
    default:
        return false;
    }
}

static gs_kernel best_kernel(void)
{
    if (gsi_kernel_supported(GS_KERNEL_AVX2)) {
        return GS_KERNEL_AVX2;
    }
    if (gsi_kernel_supported(GS_KERNEL_NEON)) {
        return GS_KERNEL_NEON;
    }
    return GS_KERNEL_SCALAR;
}

gsi_decode_fn gsi_decoder_for(gs_kernel kernel, int32_t type)
{
    switch (kernel) {
    case GS_KERNEL_SCALAR:
        return gsi_decoder_scalar(type);
    case GS_KERNEL_AVX2:
#if defined(__x86_64__)
        return gsi_decoder_avx2(type);
#else
        return NULL;
#endif
    case GS_KERNEL_NEON:
#if defined(__aarch64__)
        return gsi_decoder_neon(type);
#else
        return NULL;
#endif
    case GS_KERNEL_AUTO:
        return gsi_decoder_for(best_kernel(), type);
    default:
        return NULL;
    }
}

/* ---- the path in use ------------------------------------------------------------------- */

/* One word: the kernel in bits 1.., "usable" in bit 0; or STATE_UNRESOLVED before first use. */
#define STATE_UNRESOLVED (-1)

static int encode(gs_kernel kernel, bool usable)
{
    return (int)kernel << 1 | (usable ? 1 : 0);
}

static _Atomic int state = STATE_UNRESOLVED;

/* The choice GGUFSAFE_KERNEL asks for. Unset, empty or "auto": the best path this CPU has. An
 * unknown name is AUTO marked unusable: it names no path, and decoding anyway would be the
 * silent fallback the variable exists to rule out. */
static int state_from_environment(void)
{
    const char *want = getenv("GGUFSAFE_KERNEL");
    if (want == NULL || want[0] == '\0' || strcmp(want, "auto") == 0) {
        return encode(best_kernel(), true);
    }
    static const gs_kernel named[] = {GS_KERNEL_SCALAR, GS_KERNEL_AVX2, GS_KERNEL_NEON};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        if (strcmp(want, gs_kernel_name(named[i])) == 0) {
            return encode(named[i], gsi_kernel_supported(named[i]));
        }
    }
    return encode(GS_KERNEL_AUTO, false);
}

/* The current state, resolving it from the environment on first use. A gs_set_kernel that
 * lands first wins: the environment only fills an unresolved state. */
static int current_state(void)
{
    int s = atomic_load(&state);
    if (s == STATE_UNRESOLVED) {
        int expected = STATE_UNRESOLVED;
        const int resolved = state_from_environment();
        s = atomic_compare_exchange_strong(&state, &expected, resolved) ? resolved : expected;
    }
    return s;
}

gs_status gsi_active_decoder(int32_t type, gsi_decode_fn *fn)
{
    const int s = current_state();
    if ((s & 1) == 0) {
        *fn = NULL;
        return GS_E_KERNEL_UNAVAILABLE;
    }
    *fn = gsi_decoder_for((gs_kernel)(s >> 1), type);
    return GS_OK;
}

/* ---- public API -------------------------------------------------------------------------- */

gs_status gs_set_kernel(gs_kernel kernel)
{
    if ((unsigned)kernel > (unsigned)GS_KERNEL_NEON) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (!gsi_kernel_supported(kernel)) {
        return GS_E_KERNEL_UNAVAILABLE;
    }
    const gs_kernel chosen = kernel == GS_KERNEL_AUTO ? best_kernel() : kernel;
    atomic_store(&state, encode(chosen, true));
    return GS_OK;
}

gs_kernel gs_active_kernel(bool *usable)
{
    const int s = current_state();
    if (usable != NULL) {
        *usable = (s & 1) != 0;
    }
    return (gs_kernel)(s >> 1);
}

const char *gs_kernel_name(gs_kernel kernel)
{
    switch (kernel) {
    case GS_KERNEL_AUTO:
        return "auto";
    case GS_KERNEL_SCALAR:
        return "scalar";
    case GS_KERNEL_AVX2:
        return "avx2";
    case GS_KERNEL_NEON:
        return "neon";
    default:
        return "unknown";
    }
}
