/* Known-answer comparison shared by kat_check, test_kat and gs_golden: decode a KAT input with
 * gs_dequantize and compare it with ggml's output under the NaN rule (every NaN is one value;
 * all other bits, signed zeros included, must match: gsw_nan_canonical_bits). Plain C without
 * Criterion, so that it also runs under qemu. */
#ifndef GGUFSAFE_KAT_RUNNER_H
#define GGUFSAFE_KAT_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"

#define GSK_NAN_CANONICAL UINT32_C(0x7fc00000)

/* The two KAT sets of every type: random bytes, and ggml-quantized Gaussian data. */
#define GSK_N_SETS 2
extern const char *const gsk_set_names[GSK_N_SETS];

/* A whole file in memory. */
typedef struct gsk_blob {
    uint8_t *data;
    size_t size;
} gsk_blob;

/* Reads path into *out (data is never NULL on success, even for an empty file). Returns false
 * and sets errno on failure. */
bool gsk_read_file(const char *path, gsk_blob *out);
void gsk_blob_free(gsk_blob *blob);

/* --skip-unavailable of kat_check and gs_golden: true, after printing a SKIP line, when
 * GGUFSAFE_KERNEL names a decoder path this CPU cannot run (a CI host without that path: then
 * exit GSK_EXIT_SKIP, ctest's SKIP_RETURN_CODE, not a failure). */
#define GSK_EXIT_SKIP 77
bool gsk_kernel_unavailable(void);

/* True for the types that have KAT files: every type with a ggml reference decoder (all
 * decodable types except F32 and Q8_1). */
bool gsk_type_has_kat(int32_t type);

/* Outcome of one type x set. */
typedef struct gsk_kat_result {
    bool passed;
    float *decoded;   /* n_elems raw decoder outputs (malloc'd, NULL on I/O failure) */
    size_t n_elems;
    char message[320]; /* the first failure, naming element, block and both bit patterns */
} gsk_kat_result;

/* Compares got[0..n_elems) with the little-endian f32 at want (4 * n_elems bytes) under the NaN
 * rule. true, or false with msg naming label ("q4_0.rand"), the first mismatching element, its
 * block and both bit patterns, the expected one as `who` gives it ("ggml"). */
bool gsk_kat_compare(const char *label, const float *got, size_t n_elems, uint32_t block_elems,
                     const uint8_t *want, const char *who, char *msg, size_t msg_cap);

/* Decodes <dir>/<type>.<set>.in through gs_dequantize and compares it element-wise with
 * <dir>/<type>.<set>.out. Fills *res; release it with gsk_kat_result_free. */
void gsk_kat_run(const char *dir, int32_t type, const char *set, gsk_kat_result *res);
void gsk_kat_result_free(gsk_kat_result *res);

/* Runs every set of one type; true when all pass. */
bool gsk_kat_type_passes(const char *dir, int32_t type);

#endif
