/* Decoder path selection. What the CPU can run is probed once; the path in use is decided once
 * (GGUFSAFE_KERNEL at first use, or gs_set_kernel) and kept in one atomic word, so decodes on
 * any thread see either the old or the new choice, never a torn one. A path that cannot run
 * is never replaced by another behind the caller's back: decodes report it instead.
 * The ggml path stands on one library per process (gs_set_ggml_library, or GGUFSAFE_GGML at
 * first use), loaded once under an atomic state word and never unloaded. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "dispatch.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu_features.h"
#include "type_registry.h"

/* ---- the ggml library ------------------------------------------------------------------- */

enum { GGML_NONE = 0, GGML_LOADING = 1, GGML_LOADED = 2, GGML_FAILED = 3 };
static _Atomic int ggml_state = GGML_NONE;
static gsi_ggml ggml_lib;
static char ggml_why[1024];

/* Takes the loading state (from NONE or FAILED), or waits while another thread holds it;
 * returns the state found when it is not ours to load. */
static int ggml_take(bool retry_failed)
{
    for (;;) {
        int s = atomic_load(&ggml_state);
        if (s == GGML_LOADING) {
            const struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
            continue;
        }
        if (s == GGML_LOADED || (s == GGML_FAILED && !retry_failed)) {
            return s;
        }
        if (atomic_compare_exchange_strong(&ggml_state, &s, GGML_LOADING)) {
            return GGML_LOADING;
        }
    }
}

static void ggml_became_available(void);

/* The loaded ggml's types beyond our registry, as gs_decoder entries (gs_ggml_decoders). */
static gs_decoder ggml_extra[GS_TYPE_DEF_MAX];
static char ggml_extra_names[GS_TYPE_DEF_MAX][64];
static gsi_ggml_to_float_fn ggml_extra_fn[GS_TYPE_DEF_MAX];
static size_t ggml_n_extra;

static gs_status ggml_extra_decode(void *ctx, int32_t type, const void *src, size_t src_bytes,
                                   float *dst, size_t n_elems)
{
    (void)type;
    (void)src_bytes; /* whole blocks of the geometry ggml gave, checked by the caller */
    const gsi_ggml_to_float_fn *fn = ctx;
    if (n_elems > (size_t)INT64_MAX) {
        return GS_E_SIZE_MISMATCH;
    }
    (*fn)(src, dst, (int64_t)n_elems);
    return GS_OK;
}

static void ggml_collect_extra(void)
{
    ggml_n_extra = 0;
    for (uint32_t i = 0; i < GS_TYPE_DEF_MAX; i++) {
        const int32_t id = GS_TYPE_COUNT + (int32_t)i;
        uint32_t elems, bytes;
        gsi_ggml_to_float_fn fn;
        if (gsi_ggml_type(&ggml_lib, id, ggml_extra_names[ggml_n_extra], &elems, &bytes, &fn,
                          NULL, 0) != 0) {
            break; /* past ggml's last type */
        }
        if (fn == NULL || elems > GS_TYPE_DEF_MAX_BLOCK_ELEMS ||
            bytes > GS_TYPE_DEF_MAX_BLOCK_BYTES) {
            continue;
        }
        const size_t k = ggml_n_extra++;
        ggml_extra_fn[k] = fn;
        ggml_extra[k] = (gs_decoder){
            .type = {.id = id, .name = ggml_extra_names[k], .block_elems = elems,
                     .block_bytes = bytes},
            .decode = ggml_extra_decode,
            .ctx = &ggml_extra_fn[k],
            .source = "ggml",
        };
    }
}

static gsi_ggml_status ggml_load_locked(const char *path)
{
    const gsi_ggml_status st = gsi_ggml_open(&ggml_lib, path, ggml_why, sizeof ggml_why);
    if (st == GSI_GGML_LOADED) {
        ggml_collect_extra(); /* before the state says loaded: readers see a full table */
    }
    atomic_store(&ggml_state, st == GSI_GGML_LOADED ? GGML_LOADED : GGML_FAILED);
    if (st == GSI_GGML_LOADED) {
        ggml_became_available();
    }
    return st;
}

const gsi_ggml *gsi_ggml_active(void)
{
    const int s = ggml_take(false);
    if (s == GGML_LOADED) {
        return &ggml_lib;
    }
    if (s == GGML_FAILED) {
        return NULL;
    }
    const char *path = getenv("GGUFSAFE_GGML");
    if (path == NULL || path[0] == '\0') {
        snprintf(ggml_why, sizeof ggml_why, "no ggml library loaded: name one with GGUFSAFE_GGML="
                 "PATH (or `--ggml PATH`, gs_set_ggml_library)");
        atomic_store(&ggml_state, GGML_NONE);
        return NULL;
    }
    return ggml_load_locked(path) == GSI_GGML_LOADED ? &ggml_lib : NULL;
}

/* err->detail is short: a longer reason keeps its head and ends with "..." (the whole of it
 * is gs_ggml_describe's). */
static void fill_error(gs_error *err, gs_status st, const char *detail)
{
    if (err != NULL) {
        memset(err, 0, sizeof *err);
        err->status = st;
        err->context_kind = GS_CONTEXT_NONE;
        const size_t cap = sizeof err->detail;
        size_t n = strlen(detail);
        if (n < cap) {
            memcpy(err->detail, detail, n + 1);
        } else {
            n = cap - 4;
            memcpy(err->detail, detail, n);
            memcpy(err->detail + n, "...", 4);
        }
    }
}

gs_status gs_set_ggml_library(const char *path, gs_error *err)
{
    if (path == NULL || path[0] == '\0') {
        fill_error(err, GS_E_INVALID_ARGUMENT, "no ggml library path given");
        return GS_E_INVALID_ARGUMENT;
    }
    if (ggml_take(true) == GGML_LOADED) {
        if (strcmp(ggml_lib.path, path) == 0) {
            return GS_OK;
        }
        fill_error(err, GS_E_INVALID_ARGUMENT, "another ggml library is loaded already (one per "
                   "process; gs_ggml_describe names it)");
        return GS_E_INVALID_ARGUMENT;
    }
    switch (ggml_load_locked(path)) {
    case GSI_GGML_LOADED:
        return GS_OK;
    case GSI_GGML_NOT_FOUND:
        fill_error(err, GS_E_NO_SUCH_FILE, ggml_why);
        return GS_E_NO_SUCH_FILE;
    case GSI_GGML_DLOPEN_FAILED:
        fill_error(err, GS_E_IO, ggml_why);
        return GS_E_IO;
    case GSI_GGML_MISSING_SYMBOL:
    case GSI_GGML_UNVOUCHED:
        break;
    }
    fill_error(err, GS_E_KERNEL_UNAVAILABLE, ggml_why);
    return GS_E_KERNEL_UNAVAILABLE;
}

const gs_decoder *gs_ggml_decoders(size_t *n_out)
{
    const bool loaded = gsi_ggml_active() != NULL;
    if (n_out != NULL) {
        *n_out = loaded ? ggml_n_extra : 0;
    }
    return ggml_extra;
}

bool gs_ggml_describe(char *out, size_t cap)
{
    if (out == NULL || cap == 0) {
        return atomic_load(&ggml_state) == GGML_LOADED;
    }
    const int s = ggml_take(false);
    if (s == GGML_LOADED) {
        const int n = snprintf(out, cap, "ggml %s (commit %s) from ", ggml_lib.version,
                               ggml_lib.commit);
        if (n > 0 && (size_t)n < cap) {
            const size_t room = cap - (size_t)n;
            const size_t len = strlen(ggml_lib.path);
            const size_t take = len < room ? len : room - 1;
            memcpy(out + n, ggml_lib.path, take);
            out[(size_t)n + take] = '\0';
        }
        return true;
    }
    if (s == GGML_FAILED) {
        const size_t len = strlen(ggml_why);
        const size_t take = len < cap ? len : cap - 1;
        memcpy(out, ggml_why, take);
        out[take] = '\0';
    } else {
        snprintf(out, cap, "no ggml library loaded: name one with GGUFSAFE_GGML=PATH (or "
                 "`--ggml PATH`, gs_set_ggml_library)");
        atomic_store(&ggml_state, GGML_NONE); /* ours was the loading state: give it back */
    }
    return false;
}

/* ---- paths ------------------------------------------------------------------------------ */

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
    case GS_KERNEL_GGML:
        return gsi_ggml_active() != NULL;
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
    case GS_KERNEL_GGML:
        return type == GS_TYPE_F32 ? gsi_decoder_scalar(type) : NULL;
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
    static const gs_kernel named[] = {GS_KERNEL_SCALAR, GS_KERNEL_AVX2, GS_KERNEL_NEON,
                                      GS_KERNEL_GGML};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        if (strcmp(want, gs_kernel_name(named[i])) == 0) {
            return encode(named[i], gsi_kernel_supported(named[i]));
        }
    }
    return encode(GS_KERNEL_AUTO, false);
}

/* GGUFSAFE_KERNEL=ggml resolved before a library was loaded: it is usable now. */
static void ggml_became_available(void)
{
    int expected = encode(GS_KERNEL_GGML, false);
    (void)atomic_compare_exchange_strong(&state, &expected, encode(GS_KERNEL_GGML, true));
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

gs_status gsi_active_decoder(int32_t type, gsi_decoder *d)
{
    const int s = current_state();
    d->fn = NULL;
    d->ggml = NULL;
    if ((s & 1) == 0) {
        return GS_E_KERNEL_UNAVAILABLE;
    }
    const gs_kernel k = (gs_kernel)(s >> 1);
    d->fn = gsi_decoder_for(k, type);
    if (k == GS_KERNEL_GGML && d->fn == NULL) {
        const gsi_ggml *g = gsi_ggml_active(); /* loaded: the state is usable */
        d->ggml = g != NULL ? gsi_ggml_decoder(g, type) : NULL;
        if (d->ggml == NULL) {
            return GS_E_KERNEL_UNAVAILABLE; /* ggml cannot convert this type */
        }
    }
    return GS_OK;
}

/* ---- public API -------------------------------------------------------------------------- */

gs_status gs_set_kernel(gs_kernel kernel)
{
    if ((unsigned)kernel > (unsigned)GS_KERNEL_GGML) {
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
    case GS_KERNEL_GGML:
        return "ggml";
    default:
        return "unknown";
    }
}
