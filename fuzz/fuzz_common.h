/* What every harness shares: the libFuzzer entry point's prototype, FUZZ_ASSERT, the options
 * trailer read from the tail of the input, tight reader options, and a counting allocator that
 * can fail the N-th allocation. Header-only (static inline) so that each harness builds the
 * same way with libFuzzer, AFL++ and the plain replay main. */
#ifndef GGUFSAFE_FUZZ_COMMON_H
#define GGUFSAFE_FUZZ_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufsafe.h"

/* The libFuzzer contract; replay_main.c and afl_driver.c call the same function. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An oracle failed: say where and why, then abort so every engine records a crash. */
__attribute__((noreturn, format(printf, 3, 4))) static inline void
fuzz_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: oracle failed: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

#define FUZZ_ASSERT(cond)                                                                         \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fuzz_fail(__FILE__, __LINE__, "%s", #cond);                                           \
        }                                                                                         \
    } while (0)

#define FUZZ_ASSERT_MSG(cond, ...)                                                                \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fuzz_fail(__FILE__, __LINE__, __VA_ARGS__);                                           \
        }                                                                                         \
    } while (0)

/* ---- the options trailer ------------------------------------------------------------------
 * Options are the last FUZZ_TAIL_BYTES bytes of the input, never its head (which holds the
 * magic, so header mutations stay meaningful). The rest is the payload. A zero trailer means
 * "default options": the seed maker appends one to every corpus file. Shorter inputs are all
 * trailer (missing bytes read as 0) and have an empty payload. */
#define FUZZ_TAIL_BYTES 4

typedef struct fuzz_input {
    const uint8_t *data; /* the payload */
    size_t size;
    uint8_t tail[FUZZ_TAIL_BYTES];
} fuzz_input;

static inline fuzz_input fuzz_split(const uint8_t *data, size_t size)
{
    fuzz_input in;
    memset(in.tail, 0, sizeof in.tail);
    size_t n = size < FUZZ_TAIL_BYTES ? size : FUZZ_TAIL_BYTES;
    if (n > 0) {
        memcpy(in.tail, data + size - n, n);
    }
    in.data = data;
    in.size = size - n;
    return in;
}

/* ---- reader options ------------------------------------------------------------------------
 * Tight limits: generous for any input a fuzzer makes (max_len 64 KiB, well under these), small
 * enough that a legitimate rejection never comes near libFuzzer's -rss_limit_mb. */
#define FUZZ_MAX_METADATA (64u * 1024u * 1024u)

static inline void fuzz_options(gs_options *o, gs_profile profile)
{
    gs_options_init(o);
    o->profile = profile;
    o->limits.max_kv_count = 1u << 16;
    o->limits.max_tensor_count = 1u << 16;
    o->limits.max_string_length = 1u << 20;
    o->limits.max_array_length = 1u << 20;
    o->limits.max_alignment = 1u << 16;
    o->limits.max_metadata_memory = FUZZ_MAX_METADATA;
}

/* Tiny limits chosen by two trailer bytes, so that every limit check can be reached from
 * small inputs. */
static inline void fuzz_tiny_limits(gs_options *o, uint8_t a, uint8_t b)
{
    static const uint64_t small[8] = {0, 1, 2, 3, 8, 17, 64, 1024};
    o->limits.max_kv_count = small[a & 7];
    o->limits.max_tensor_count = small[(a >> 3) & 7];
    o->limits.max_string_length = small[b & 7];
    o->limits.max_array_length = small[(b >> 3) & 7];
    o->limits.max_alignment = 1u << (a >> 6 << 2);       /* 1, 16, 256, 4096 */
    o->limits.max_metadata_memory = 256ull << (b >> 6 << 2); /* 256 B .. 1 MiB */
}

/* fuzz_open's reader options for a profile and trailer: fuzz_options, and the tiny limits of
 * tail[1] and tail[2] when bit 0 of tail[0] is set. Also how a fuzz_open run of
 * corpus/regress/manifest.tsv gets its options (corpus/tests/regress_check.c). */
#define FUZZ_OPEN_BIT_TINY_LIMITS 0x01u

static inline void fuzz_open_options(gs_options *o, gs_profile profile,
                                     const uint8_t tail[FUZZ_TAIL_BYTES])
{
    fuzz_options(o, profile);
    if (tail[0] & FUZZ_OPEN_BIT_TINY_LIMITS) {
        fuzz_tiny_limits(o, tail[1], tail[2]);
    }
}

/* ---- a counting allocator that can fail the N-th allocation ------------------------------- */
typedef struct fuzz_alloc {
    long live;     /* allocations not yet freed */
    long attempts; /* malloc and realloc calls so far */
    long fail_at;  /* the attempt (0-based) that returns NULL; -1: none */
} fuzz_alloc;

static inline bool fuzz_alloc_should_fail(fuzz_alloc *a)
{
    return a->attempts++ == a->fail_at;
}

static inline void *fuzz_malloc(void *opaque, size_t n)
{
    fuzz_alloc *a = opaque;
    if (fuzz_alloc_should_fail(a)) {
        return NULL;
    }
    void *p = malloc(n);
    if (p != NULL) {
        a->live++;
    }
    return p;
}

static inline void *fuzz_realloc(void *opaque, void *p, size_t n)
{
    fuzz_alloc *a = opaque;
    if (fuzz_alloc_should_fail(a)) {
        return NULL;
    }
    void *q = realloc(p, n);
    if (q != NULL && p == NULL) {
        a->live++;
    }
    return q;
}

static inline void fuzz_free(void *opaque, void *p)
{
    fuzz_alloc *a = opaque;
    if (p != NULL) {
        a->live--;
    }
    free(p);
}

static inline void fuzz_use_allocator(gs_options *o, fuzz_alloc *a, long fail_at)
{
    a->live = 0;
    a->attempts = 0;
    a->fail_at = fail_at;
    o->allocator.malloc_fn = fuzz_malloc;
    o->allocator.realloc_fn = fuzz_realloc;
    o->allocator.free_fn = fuzz_free;
    o->allocator.opaque = a;
}

/* ---- small oracles every harness uses ----------------------------------------------------- */

/* A view lies inside [base, base + size). Compared as addresses, so it holds for any length. */
static inline bool fuzz_inside(const void *base, size_t size, const void *p, uint64_t len)
{
    uintptr_t b = (uintptr_t)base, q = (uintptr_t)p;
    return q >= b && q - b <= size && len <= size - (q - b);
}

/* A status is one of the enum's names (never a number the library made up). Compared by
 * pointer with the name of a number outside the enum: a strcmp here would feed status names
 * to libFuzzer's comparison tracing. */
static inline bool fuzz_status_known(gs_status st)
{
    return gs_status_name(st) != gs_status_name((gs_status)1000);
}

/* The characters the escaping rule of the reports shows as escapes (docs/cli.md "Escaping"):
 * C0 but the newline, DEL, C1, bidi controls, invisible format characters, separators, the BOM,
 * interlinear annotation controls, tags. Its own copy of the documented list, so that fuzzing
 * checks the library's table rather than repeat it. */
static inline bool fuzz_hidden_char(uint32_t cp)
{
    static const uint32_t ranges[][2] = {
        {0x0000, 0x0009}, {0x000b, 0x001f}, {0x007f, 0x009f}, {0x00ad, 0x00ad},
        {0x061c, 0x061c}, {0x180e, 0x180e}, {0x200b, 0x200f}, {0x2028, 0x202e},
        {0x2060, 0x206f}, {0xfeff, 0xfeff}, {0xfff9, 0xfffb}, {0x1bca0, 0x1bca3},
        {0x1d173, 0x1d17a}, {0xe0000, 0xe007f},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        if (cp >= ranges[i][0] && cp <= ranges[i][1]) {
            return true;
        }
    }
    return false;
}

/* UTF-8 by decoding code points (RFC 3629): no overlongs, no surrogates, nothing past
 * U+10FFFF; with reject_hidden, no fuzz_hidden_char either. A different algorithm from the
 * reader's, so the two check each other (fuzz_open). */
static inline bool fuzz_utf8_scan(const uint8_t *s, size_t n, bool reject_hidden)
{
    size_t i = 0;
    while (i < n) {
        uint8_t b = s[i];
        size_t len;
        uint32_t cp, min;
        if (b < 0x80) {
            if (reject_hidden && fuzz_hidden_char(b)) {
                return false;
            }
            i++;
            continue;
        } else if ((b & 0xE0) == 0xC0) {
            len = 2, cp = b & 0x1Fu, min = 0x80;
        } else if ((b & 0xF0) == 0xE0) {
            len = 3, cp = b & 0x0Fu, min = 0x800;
        } else if ((b & 0xF8) == 0xF0) {
            len = 4, cp = b & 0x07u, min = 0x10000;
        } else {
            return false;
        }
        if (n - i < len) {
            return false;
        }
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                return false;
            }
            cp = cp << 6 | (s[i + k] & 0x3Fu);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return false;
        }
        if (reject_hidden && fuzz_hidden_char(cp)) {
            return false;
        }
        i += len;
    }
    return true;
}

static inline bool fuzz_utf8_ok(const uint8_t *s, size_t n)
{
    return fuzz_utf8_scan(s, n, false);
}

/* A sink target that collects what a writer writes in memory, as a binding would (the caller
 * frees data). */
typedef struct fuzz_buffer {
    uint8_t *data;
    size_t len, cap;
} fuzz_buffer;

static inline int fuzz_buffer_collect(void *ctx, const void *data, size_t n)
{
    fuzz_buffer *b = ctx;
    if (n > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->len < n) {
            cap *= 2;
        }
        uint8_t *p = realloc(b->data, cap);
        if (p == NULL) {
            return 12; /* ENOMEM */
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    return 0;
}

/* What every report and error text must be: UTF-8 with nothing hidden in it but newlines. */
static inline bool fuzz_text_safe(const uint8_t *s, size_t n)
{
    return fuzz_utf8_scan(s, n, true);
}

/* A failed open filled err consistently: same status, offset inside the input, and text fields
 * NUL-terminated with no control bytes (they are printed to terminals). */
static inline void fuzz_check_error(const gs_error *e, gs_status st, size_t size)
{
    FUZZ_ASSERT_MSG(e->status == st, "err.status %s, returned %s", gs_status_name(e->status),
                    gs_status_name(st));
    FUZZ_ASSERT_MSG(e->offset <= size, "%s at %llu, input of %zu bytes", gs_status_name(st),
                    (unsigned long long)e->offset, size);
    FUZZ_ASSERT((unsigned)e->context_kind <= (unsigned)GS_CONTEXT_PART);
    const char *texts[2] = {e->context, e->detail};
    for (int k = 0; k < 2; k++) {
        const char *t = texts[k];
        const char *end = memchr(t, '\0', GS_ERROR_TEXT_MAX);
        FUZZ_ASSERT(end != NULL);
        if (k == 0) { /* the context comes from the file: escaped */
            FUZZ_ASSERT_MSG(fuzz_text_safe((const uint8_t *)t, (size_t)(end - t)) &&
                                memchr(t, '\n', (size_t)(end - t)) == NULL,
                            "a raw control or hidden character in the error context '%s'", t);
        }
    }
}

/* The NaN rule: every NaN compares as the one value 0x7FC00000; every other bit pattern must
 * match exactly. */
static inline uint32_t fuzz_canonical_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0) {
        return 0x7fc00000u;
    }
    return u;
}

/* Index of the first element that differs under the NaN rule, or n when none does. */
static inline size_t fuzz_first_difference(const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (fuzz_canonical_bits(a[i]) != fuzz_canonical_bits(b[i])) {
            return i;
        }
    }
    return n;
}

#endif
