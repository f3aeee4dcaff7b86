/* GGUFSAFE_KERNEL: registered in ctest once per value (ENVIRONMENT property: avx2, neon, bogus,
 * au (a prefix of auto, refused like any unknown name), scalar, auto, empty, unset), each run
 * checking what that value must do on this CPU. Every Criterion test runs in a fresh process,
 * so each reads the variable at its first decode.
 *   - a path this CPU runs (or unset/empty/auto): decodes succeed on that path;
 *   - a path it lacks, or an unknown name: gs_active_kernel reports usable = false and every
 *     decode returns GS_E_KERNEL_UNAVAILABLE (no fallback), until gs_set_kernel overrides it. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_probe.h"
#include "decode.h"
#include "ggufsafe.h"

/* What the variable must select: the kernel and whether it can run. */
typedef struct expectation {
    gs_kernel kernel;
    bool usable;
} expectation;

static expectation expected(void)
{
    const char *v = getenv("GGUFSAFE_KERNEL");
    const gs_kernel best = cpu_best_kernel();
    if (v == NULL || v[0] == '\0' || strcmp(v, "auto") == 0) {
        return (expectation){best, true};
    }
    if (strcmp(v, "scalar") == 0) {
        return (expectation){GS_KERNEL_SCALAR, true};
    }
    if (strcmp(v, "avx2") == 0) {
        return (expectation){GS_KERNEL_AVX2, cpu_has_avx2()};
    }
    if (strcmp(v, "neon") == 0) {
        return (expectation){GS_KERNEL_NEON, cpu_has_neon()};
    }
    return (expectation){GS_KERNEL_AUTO, false}; /* an unknown name selects no path */
}

static const uint8_t q8_0_block[34] = {0x00, 0x3c, 1, 2, 3, 0xff, 0x80, 0x7f};

Test(dispatch_env, active_kernel_follows_the_variable)
{
    const expectation want = expected();
    bool usable = !want.usable;
    cr_expect_eq(gs_active_kernel(&usable), want.kernel, "GGUFSAFE_KERNEL=%s",
                 getenv("GGUFSAFE_KERNEL") ? getenv("GGUFSAFE_KERNEL") : "(unset)");
    cr_expect_eq(usable, want.usable);
}

Test(dispatch_env, decodes_succeed_or_report_the_kernel)
{
    const expectation want = expected();
    float out[32];
    const gs_status st = gs_dequantize(GS_TYPE_Q8_0, q8_0_block, sizeof q8_0_block, out, 32);
    if (want.usable) {
        cr_assert_eq(st, GS_OK);
        cr_expect_eq(out[0], 1.0f);
        cr_expect_eq(out[3], -1.0f);
        cr_expect_eq(out[4], -128.0f);
    } else {
        cr_expect_eq(st, GS_E_KERNEL_UNAVAILABLE, "got %s", gs_status_name(st));
        /* every decode, whatever its type or size, the internal entry included */
        cr_expect_eq(gs_dequantize(GS_TYPE_F16, q8_0_block, 2, out, 1), GS_E_KERNEL_UNAVAILABLE);
        cr_expect_eq(gs_dequantize(GS_TYPE_Q4_K, NULL, 0, NULL, 0), GS_E_KERNEL_UNAVAILABLE);
        cr_expect_eq(gsi_decode_blocks(GS_TYPE_Q8_0, q8_0_block, out, 1),
                     GS_E_KERNEL_UNAVAILABLE);
    }
}

/* gs_set_kernel overrides the variable, both ways. */
Test(dispatch_env, set_kernel_overrides_the_variable)
{
    const expectation want = expected();
    float out[32];
    bool usable = false;
    (void)gs_active_kernel(NULL); /* resolve from the environment first */
    cr_assert_eq(gs_set_kernel(GS_KERNEL_SCALAR), GS_OK);
    cr_expect_eq(gs_active_kernel(&usable), GS_KERNEL_SCALAR);
    cr_expect(usable);
    cr_expect_eq(gs_dequantize(GS_TYPE_Q8_0, q8_0_block, sizeof q8_0_block, out, 32), GS_OK);
    cr_expect_eq(out[1], 2.0f);
    /* A refused request leaves the scalar choice in place. */
    if (want.kernel == GS_KERNEL_AVX2 || want.kernel == GS_KERNEL_NEON) {
        cr_expect_eq(gs_set_kernel(want.kernel), want.usable ? GS_OK : GS_E_KERNEL_UNAVAILABLE);
        cr_expect_eq(gs_active_kernel(&usable), want.usable ? want.kernel : GS_KERNEL_SCALAR);
        cr_expect(usable);
    }
    cr_expect_eq(gs_set_kernel(GS_KERNEL_AUTO), GS_OK);
    cr_expect_eq(gs_dequantize(GS_TYPE_Q8_0, q8_0_block, sizeof q8_0_block, out, 32), GS_OK);
}
