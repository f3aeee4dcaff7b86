/* A stand-in libggml-base for the loader's tests (test_ggml_lib.c), built once per variant as a
 * shared module. It exports the symbols kernels/ggml_lib.c resolves, with ggml's names, and
 * describes the types as our registry does (so that the loader's check against the registry
 * passes), except where the variant breaks one thing on purpose:
 *   FAKE_GOOD           everything as the loader wants it
 *   FAKE_NO_Q8_K        dequantize_row_q8_K not exported
 *   FAKE_VERSION_1      ggml_version() "1.0.0": a release whose layout the loader does not know
 *   FAKE_VERSION_OLD    ggml_version() "0.8.2": older than the layout
 *   FAKE_VERSION_BINARY ggml_version() with a control byte
 *   FAKE_BAD_TRAITS     type 12 (q4_K) claims 128 elements per block
 *   FAKE_BAD_WITNESS    q4_0's to_float is not the exported dequantize_row_q4_0
 *   FAKE_CRASH          FAKE_GOOD whose to_float functions crash (SIGSEGV), the branch type's
 *                       and the registry types' (q4_0 and q8_K aside): the command must report
 *                       it as a plugin crash (ggml's decoders run in its child, for
 *                       GGUFSAFE_KERNEL=ggml too)
 * Its decoders are not ggml's: each writes a marker value per element (q4_0: 1, q8_K: 2, others:
 * 3, the branch type: 4), so that a test sees which function decoded; q8_1 has no to_float, as
 * in ggml. FAKE_GOOD also has a type our registry lacks, id GS_TYPE_COUNT "q8_0_branch" (Q8_0's
 * geometry), as a ggml branch with a new type would. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "type_registry.h"

#define EXPORT __attribute__((visibility("default")))

typedef void (*to_float_fn)(const void *x, float *y, int64_t k);

struct traits {
    const char *type_name;
    int64_t blck_size;
    int64_t blck_size_interleave;
    size_t type_size;
    bool is_quantized;
    to_float_fn to_float;
    void *from_float_ref;
};

EXPORT const char *ggml_version(void);
EXPORT const char *ggml_commit(void);
EXPORT void ggml_log_set(void (*fn)(int, const char *, void *), void *user);
EXPORT const struct traits *ggml_get_type_traits(int type);
EXPORT void dequantize_row_q4_0(const void *x, float *y, int64_t k);
#ifndef FAKE_NO_Q8_K
EXPORT void dequantize_row_q8_K(const void *x, float *y, int64_t k);
#endif

static void fill(float *y, int64_t k, float v)
{
    for (int64_t i = 0; i < k; i++) {
        y[i] = v;
    }
}

void dequantize_row_q4_0(const void *x, float *y, int64_t k)
{
    (void)x;
    fill(y, k, 1.0f);
}

#ifndef FAKE_NO_Q8_K
void dequantize_row_q8_K(const void *x, float *y, int64_t k)
{
    (void)x;
    fill(y, k, 2.0f);
}
#endif

#ifdef FAKE_CRASH
#include <signal.h>
static void other_row(const void *x, float *y, int64_t k)
{
    (void)x, (void)y, (void)k;
    raise(SIGSEGV); /* a decoder bug, as a wild read would be, without undefined behaviour */
}
#else
static void other_row(const void *x, float *y, int64_t k)
{
    (void)x;
    fill(y, k, 3.0f);
}
#endif

#if defined(FAKE_GOOD)
static void branch_row(const void *x, float *y, int64_t k)
{
    (void)x;
    fill(y, k, 4.0f);
}
#elif defined(FAKE_CRASH)
static void branch_row(const void *x, float *y, int64_t k)
{
    (void)x, (void)y, (void)k;
    raise(SIGSEGV); /* a decoder bug, as a wild read would be, without undefined behaviour */
}
#endif

#ifdef FAKE_BAD_WITNESS
static void not_the_witness(const void *x, float *y, int64_t k)
{
    (void)x;
    fill(y, k, 1.0f);
}
#endif

const char *ggml_version(void)
{
#if defined(FAKE_VERSION_1)
    return "1.0.0";
#elif defined(FAKE_VERSION_OLD)
    return "0.8.2";
#elif defined(FAKE_VERSION_BINARY)
    return "0.25\x1b[31m";
#else
    return "0.25.1";
#endif
}

const char *ggml_commit(void)
{
    return "fake0001";
}

void ggml_log_set(void (*fn)(int, const char *, void *), void *user)
{
    (void)fn;
    (void)user;
}

/* the registry's ids, then (FAKE_GOOD, FAKE_CRASH) one type of "the user's branch" at id GS_TYPE_COUNT with
 * Q8_0's geometry, then an empty entry: where ggml's real table would end */
static struct traits table[GS_TYPE_COUNT + 2];

const struct traits *ggml_get_type_traits(int type)
{
    if (table[0].type_name == NULL) { /* filled from the registry on first use */
        for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
            const gsi_type_row *row = gsi_type_lookup(t);
            const bool usable = gsi_type_is_usable(row);
            table[t].type_name = row->name;
            table[t].blck_size = usable ? row->block_elems : 0;
            table[t].type_size = usable ? row->block_bytes : 0;
            table[t].is_quantized = row->quantized;
            table[t].to_float = usable && row->decodable && t != GS_TYPE_Q8_1 && t != GS_TYPE_Q8_K
                                    ? other_row : NULL;
        }
        table[GS_TYPE_Q4_0].to_float = dequantize_row_q4_0;
#if defined(FAKE_GOOD) || defined(FAKE_CRASH)
        table[GS_TYPE_COUNT] = (struct traits){.type_name = "q8_0_branch", .blck_size = 32,
                                               .type_size = 34, .is_quantized = true,
                                               .to_float = branch_row};
#endif
#ifdef FAKE_BAD_TRAITS
        table[GS_TYPE_Q4_K].blck_size = 128;
#endif
#ifdef FAKE_BAD_WITNESS
        table[GS_TYPE_Q4_0].to_float = not_the_witness;
#endif
    }
    return type >= 0 ? &table[type] : NULL; /* unchecked, as ggml's */
}
