/* The carried-over tables have the structure ggml documents: value sets, distinct entries,
 * and the sign-mask rule. A transcription slip in one entry breaks at least one of these. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "grids/grids.h"

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Every byte of every entry in `allowed`, and no two entries equal. */
static void check_grid(const char *name, const uint64_t *grid, size_t n, int bytes,
                       const uint8_t *allowed, size_t n_allowed)
{
    uint64_t *sorted = malloc(n * sizeof *sorted);
    cr_assert_not_null(sorted);
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < bytes; j++) {
            const uint8_t v = (uint8_t)(grid[i] >> (8 * j));
            bool ok = false;
            for (size_t k = 0; k < n_allowed; k++) {
                ok = ok || v == allowed[k];
            }
            cr_assert(ok, "%s[%zu] byte %d is %u", name, i, j, v);
        }
        cr_assert_eq(grid[i] >> (8 * bytes - 1) >> 1, 0u, "%s[%zu] is too wide", name, i);
        sorted[i] = grid[i];
    }
    qsort(sorted, n, sizeof *sorted, cmp_u64);
    for (size_t i = 1; i < n; i++) {
        cr_assert_neq(sorted[i - 1], sorted[i], "%s has 0x%llx twice", name,
                      (unsigned long long)sorted[i]);
    }
    free(sorted);
}

static const uint8_t iq2_values[] = {8, 25, 43};

Test(grids, iq2_grids)
{
    check_grid("iq2xxs_grid", gsi_iq2xxs_grid, 256, 8, iq2_values, 3);
    check_grid("iq2xs_grid", gsi_iq2xs_grid, 512, 8, iq2_values, 3);
    check_grid("iq2s_grid", gsi_iq2s_grid, 1024, 8, iq2_values, 3);
}

Test(grids, iq3_grids)
{
    uint64_t wide[512];
    /* IQ3_XXS: 4 + 8k, except that the top level is 62, not 60. IQ3_S: the odd numbers 1..15. */
    static const uint8_t xxs_values[8] = {4, 12, 20, 28, 36, 44, 52, 62};
    uint8_t s_values[8];
    for (int k = 0; k < 8; k++) {
        s_values[k] = (uint8_t)(1 + 2 * k);
    }
    for (size_t i = 0; i < 256; i++) {
        wide[i] = gsi_iq3xxs_grid[i];
    }
    check_grid("iq3xxs_grid", wide, 256, 4, xxs_values, 8);
    for (size_t i = 0; i < 512; i++) {
        wide[i] = gsi_iq3s_grid[i];
    }
    check_grid("iq3s_grid", wide, 512, 4, s_values, 8);
}

Test(grids, iq1s_grid)
{
    static const uint8_t trits[] = {0x00, 0x01, 0xff}; /* 0, +1, -1 */
    check_grid("iq1s_grid", gsi_iq1s_grid, 2048, 8, trits, 3);
}

/* Mask i has i in its low 7 bits and bit 7 set exactly when that makes the count of set bits
 * (minus signs) even. */
Test(grids, ksigns_parity)
{
    for (int i = 0; i < 128; i++) {
        const uint8_t m = gsi_ksigns_iq2xs[i];
        cr_assert_eq(m & 127, i, "ksigns[%d]", i);
        cr_assert_eq(__builtin_popcount(m) % 2, 0, "ksigns[%d] = %u has odd parity", i, m);
    }
}

/* IQ4_NL's code book is strictly increasing, from -127, and crosses zero once without it. */
Test(grids, kvalues_iq4nl)
{
    cr_assert_eq(gsi_kvalues_iq4nl[0], -127);
    for (int i = 1; i < 16; i++) {
        cr_assert_gt(gsi_kvalues_iq4nl[i], gsi_kvalues_iq4nl[i - 1]);
        cr_assert_neq(gsi_kvalues_iq4nl[i], 0);
    }
}

/* The FP4 code book is twice the E2M1 value of each code (sign bit 3). */
Test(grids, kvalues_fp4)
{
    for (int code = 0; code < 16; code++) {
        const int exp = (code >> 1) & 3, man = code & 1;
        const int twice = exp == 0 ? man : (2 + man) << (exp - 1);
        cr_assert_eq(gsi_kvalues_fp4[code], (code & 8) ? -twice : twice, "code %d", code);
    }
}
