/* Decoder path selection through the public API: gs_set_kernel of every value, what
 * gs_active_kernel reports, gs_kernel_name, and decodes on each path. Criterion runs every test
 * in its own process, so each starts unresolved (GGUFSAFE_KERNEL is not set for this binary;
 * test_dispatch_env.c covers it). CPU support is cross-checked with the compiler's own CPUID
 * reader, independent of dispatch.c. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cpu_probe.h"
#include "ggufsafe.h"

/* One Q4_K block (d = 1, dmin = 0.5, a ramp of quants) decodes to the same bits as on the
 * scalar path. */
static void expect_decode_ok(const char *when)
{
    uint8_t block[144];
    for (size_t i = 0; i < sizeof block; i++) {
        block[i] = (uint8_t)(i * 37u + 11u);
    }
    block[0] = 0x00, block[1] = 0x3c, block[2] = 0x00, block[3] = 0x38;
    float got[256], want[256];
    cr_assert_eq(gs_dequantize(GS_TYPE_Q4_K, block, sizeof block, got, 256), GS_OK, "%s", when);
    bool usable;
    const gs_kernel was = gs_active_kernel(&usable);
    cr_assert_eq(gs_set_kernel(GS_KERNEL_SCALAR), GS_OK);
    cr_assert_eq(gs_dequantize(GS_TYPE_Q4_K, block, sizeof block, want, 256), GS_OK);
    cr_assert_eq(gs_set_kernel(was), GS_OK);
    cr_assert_eq(memcmp(got, want, sizeof got), 0, "%s: differs from scalar", when);
}

Test(dispatch, auto_resolves_to_the_best_path)
{
    bool usable = false;
    cr_expect_eq(gs_active_kernel(&usable), cpu_best_kernel());
    cr_expect(usable);
    cr_expect_eq(gs_active_kernel(NULL), cpu_best_kernel());
    cr_expect_eq(gs_set_kernel(GS_KERNEL_SCALAR), GS_OK);
    cr_expect_eq(gs_set_kernel(GS_KERNEL_AUTO), GS_OK);
    cr_expect_eq(gs_active_kernel(&usable), cpu_best_kernel(), "never AUTO once resolved");
    cr_expect(usable);
    expect_decode_ok("auto");
}

Test(dispatch, scalar_is_always_accepted)
{
    cr_assert_eq(gs_set_kernel(GS_KERNEL_SCALAR), GS_OK);
    bool usable = false;
    cr_expect_eq(gs_active_kernel(&usable), GS_KERNEL_SCALAR);
    cr_expect(usable);
    expect_decode_ok("scalar");
}

/* A request for kernel k on the scalar path: accepted and used exactly when the CPU has it,
 * otherwise refused with the selection unchanged; decodes match the scalar path after it. */
static void expect_accepted_iff_present(gs_kernel k, bool present, const char *after)
{
    cr_assert_eq(gs_set_kernel(GS_KERNEL_SCALAR), GS_OK);
    const gs_status st = gs_set_kernel(k);
    bool usable = false;
    if (present) {
        cr_assert_eq(st, GS_OK, "%s", after);
        cr_expect_eq(gs_active_kernel(&usable), k);
    } else {
        cr_assert_eq(st, GS_E_KERNEL_UNAVAILABLE, "%s", after);
        cr_expect_eq(gs_active_kernel(&usable), GS_KERNEL_SCALAR, "selection unchanged");
    }
    cr_expect(usable);
    expect_decode_ok(after);
}

Test(dispatch, avx2_accepted_exactly_when_the_cpu_has_it)
{
    expect_accepted_iff_present(GS_KERNEL_AVX2, cpu_has_avx2(), "after an AVX2 request");
}

Test(dispatch, neon_refused_where_absent)
{
    expect_accepted_iff_present(GS_KERNEL_NEON, cpu_has_neon(), "after a NEON request");
}

Test(dispatch, values_outside_the_enum_are_invalid)
{
    cr_assert_eq(gs_set_kernel(GS_KERNEL_SCALAR), GS_OK);
    const int bad[] = {-1, 5, 7, 0x7fffffff};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(gs_set_kernel((gs_kernel)bad[i]), GS_E_INVALID_ARGUMENT, "value %d", bad[i]);
    }
    cr_expect_eq(gs_active_kernel(NULL), GS_KERNEL_SCALAR, "selection unchanged");
}

Test(dispatch, names)
{
    cr_expect_str_eq(gs_kernel_name(GS_KERNEL_AUTO), "auto");
    cr_expect_str_eq(gs_kernel_name(GS_KERNEL_SCALAR), "scalar");
    cr_expect_str_eq(gs_kernel_name(GS_KERNEL_AVX2), "avx2");
    cr_expect_str_eq(gs_kernel_name(GS_KERNEL_NEON), "neon");
    cr_expect_str_eq(gs_kernel_name(GS_KERNEL_GGML), "ggml");
    cr_expect_str_eq(gs_kernel_name((gs_kernel)5), "unknown");
    cr_expect_str_eq(gs_kernel_name((gs_kernel)-1), "unknown");
}

/* Type and argument errors keep their own statuses on every path. */
Test(dispatch, errors_are_the_same_on_every_path)
{
    const gs_kernel paths[] = {GS_KERNEL_SCALAR, GS_KERNEL_AVX2, GS_KERNEL_NEON};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        if (gs_set_kernel(paths[i]) != GS_OK) {
            continue;
        }
        float out[32];
        uint8_t in[18] = {0};
        cr_expect_eq(gs_dequantize((gs_type)4, in, 18, out, 32), GS_E_REMOVED_TENSOR_TYPE);
        cr_expect_eq(gs_dequantize(GS_TYPE_I8, in, 1, out, 1), GS_E_NOT_DECODABLE);
        cr_expect_eq(gs_dequantize(GS_TYPE_Q4_0, in, 17, out, 32), GS_E_SIZE_MISMATCH);
        cr_expect_eq(gs_dequantize(GS_TYPE_Q4_0, NULL, 18, out, 32), GS_E_INVALID_ARGUMENT);
        cr_expect_eq(gs_dequantize(GS_TYPE_Q4_0, in, 0, out, 0), GS_OK);
    }
}
