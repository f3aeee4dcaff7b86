/* The scalar decoders as a set: wired to exactly the decodable types, consuming and producing
 * exactly the registry's block geometry, independent of alignment; and the two decoders that
 * have no ggml KAT (F32, Q8_1). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "block_layout.h"
#include "decode.h"
#include "type_registry.h"
#include "xorshift.h"

#define N_BLOCKS 5
#define CANARY 64
#define SENTINEL 0xa5a5a5a5u

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint8_t next_byte(void)
{
    return (uint8_t)(xorshift64_next(&rng_state) >> 24);
}

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

Test(decoders, wired_to_exactly_the_decodable_types)
{
    for (int32_t t = -2; t < GS_TYPE_COUNT + 2; t++) {
        const gsi_type_row *row = gsi_type_lookup(t);
        const bool decodable = row != NULL && row->decodable;
        cr_expect_eq(gsi_decoder_scalar(t) != NULL, decodable, "type %d", t);
    }
    cr_expect_null(gsi_decoder_scalar(INT32_MIN));
    cr_expect_null(gsi_decoder_scalar(INT32_MAX));
}

/* N blocks at the end of an exactly sized allocation (ASan sees any over-read), output followed
 * by a canary (any over-write shows), and the result equal to decoding each block alone at the
 * registry's stride: the decoder's own block size is the registry's. */
Test(decoders, geometry_matches_registry)
{
    for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
        const gsi_type_row *row = gsi_type_lookup(t);
        if (!row->decodable) {
            continue;
        }
        const size_t in_bytes = N_BLOCKS * (size_t)row->block_bytes;
        const size_t n_out = N_BLOCKS * (size_t)row->block_elems;
        uint8_t *in = malloc(in_bytes);
        float *out = malloc((n_out + CANARY) * sizeof(float));
        float *one = malloc(row->block_elems * sizeof(float));
        cr_assert(in && out && one);
        for (size_t i = 0; i < in_bytes; i++) {
            in[i] = next_byte();
        }
        for (size_t i = 0; i < n_out + CANARY; i++) {
            const uint32_t s = SENTINEL;
            memcpy(&out[i], &s, sizeof s);
        }
        gsi_decoder_scalar(t)(in, out, N_BLOCKS);
        for (size_t i = n_out; i < n_out + CANARY; i++) {
            cr_assert_eq(bits_of(out[i]), SENTINEL, "%s wrote element %zu of %zu", row->name, i,
                         n_out);
        }
        for (size_t b = 0; b < N_BLOCKS; b++) {
            uint8_t *alone = malloc(row->block_bytes);
            cr_assert_not_null(alone);
            memcpy(alone, in + b * row->block_bytes, row->block_bytes);
            gsi_decoder_scalar(t)(alone, one, 1);
            free(alone);
            for (size_t e = 0; e < row->block_elems; e++) {
                cr_assert_eq(bits_of(out[b * row->block_elems + e]), bits_of(one[e]),
                             "%s block %zu element %zu", row->name, b, e);
            }
        }
        free(in);
        free(out);
        free(one);
    }
}

/* Blocks at every misalignment 1..15 decode to the same bits as at an aligned address. */
Test(decoders, any_alignment)
{
    static _Alignas(64) uint8_t buf[16 + 3 * GSI_Q8_K_BYTES]; /* the largest block */
    static float ref[3 * 256], got[3 * 256];
    for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
        const gsi_type_row *row = gsi_type_lookup(t);
        if (!row->decodable) {
            continue;
        }
        const size_t in_bytes = 3 * (size_t)row->block_bytes;
        const size_t n_out = 3 * (size_t)row->block_elems;
        for (size_t i = 0; i < in_bytes; i++) {
            buf[i] = next_byte();
        }
        gsi_decoder_scalar(t)(buf, ref, 3);
        for (size_t shift = 1; shift < 16; shift++) {
            memmove(buf + shift, buf + shift - 1, in_bytes);
            gsi_decoder_scalar(t)(buf + shift, got, 3);
            cr_assert_eq(memcmp(ref, got, n_out * sizeof(float)), 0, "%s at offset %zu",
                         row->name, shift);
        }
    }
}

/* F32 is a copy of the little-endian bits, every payload kept (signalling NaNs included). */
Test(decoders, f32_copies_bits)
{
    const uint32_t pats[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x3f800000u,
                             0x7f7fffffu, 0x7f800000u, 0xff800000u, 0x7f800001u, 0xffbfffffu,
                             0x7fc00000u, 0xffffffffu, 0x12345678u};
    const size_t n = sizeof pats / sizeof pats[0];
    uint8_t in[sizeof pats];
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 4; k++) {
            in[4 * i + (size_t)k] = (uint8_t)(pats[i] >> (8 * k));
        }
    }
    float out[sizeof pats / sizeof pats[0]];
    cr_assert_eq(gs_dequantize(GS_TYPE_F32, in, sizeof in, out, n), GS_OK);
    for (size_t i = 0; i < n; i++) {
        cr_expect_eq(bits_of(out[i]), pats[i], "element %zu", i);
    }
}

/* Q8_1 is defined as qs * d, the f16 s field ignored: equal to the Q8_0 block with the same d
 * and qs, whatever s holds (NaN and Inf included). */
Test(decoders, q8_1_is_q8_0_ignoring_s)
{
    const uint16_t s_values[] = {0x0000, 0x8000, 0x7c00, 0x7e00, 0xfc01, 0x3c00, 0x1234};
    uint8_t q8_0[GSI_Q8_0_BYTES], q8_1[GSI_Q8_1_BYTES];
    float want[32], got[32];
    for (int trial = 0; trial < 64; trial++) {
        for (size_t i = 0; i < sizeof q8_0; i++) {
            q8_0[i] = next_byte();
        }
        cr_assert_eq(gs_dequantize(GS_TYPE_Q8_0, q8_0, sizeof q8_0, want, 32), GS_OK);
        for (size_t k = 0; k < sizeof s_values / sizeof s_values[0]; k++) {
            memcpy(q8_1 + GSI_Q8_1_D, q8_0 + GSI_Q8_0_D, 2);
            q8_1[GSI_Q8_1_S] = (uint8_t)s_values[k];
            q8_1[GSI_Q8_1_S + 1] = (uint8_t)(s_values[k] >> 8);
            memcpy(q8_1 + GSI_Q8_1_QS, q8_0 + GSI_Q8_0_QS, 32);
            cr_assert_eq(gs_dequantize(GS_TYPE_Q8_1, q8_1, sizeof q8_1, got, 32), GS_OK);
            for (int e = 0; e < 32; e++) {
                /* Same code path, so even NaN bits agree. */
                cr_expect_eq(bits_of(got[e]), bits_of(want[e]), "trial %d s 0x%04x element %d",
                             trial, s_values[k], e);
            }
        }
    }
}
