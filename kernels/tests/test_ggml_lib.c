/* The ggml loader (kernels/ggml_lib.c) and the ggml decoder path (GS_KERNEL_GGML) on stand-in
 * libraries (fake_ggml.c, one shared module per variant): exact statuses and reasons for a
 * missing library, a file that is not one, a missing symbol, versions and traits the loader
 * cannot vouch for; and, on the good stand-in, that the path decodes with ggml's functions
 * (their marker values), copies F32 itself and refuses Q8_1 rather than decode it with ours.
 * The real ggml is compared with our decoders in the oracle stage (ggml_decoder.sh). Criterion
 * runs every test in a process of its own, so each starts with no library loaded. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "ggml_lib.h"
#include "ggufsafe.h"

static gsi_ggml_status open_fake(const char *path, char *why, size_t cap)
{
    gsi_ggml g;
    const gsi_ggml_status st = gsi_ggml_open(&g, path, why, cap);
    if (st == GSI_GGML_LOADED) {
        gsi_ggml_close(&g);
    }
    return st;
}

/* A library gsi_ggml_open refuses: its status and its whole explanation. */
typedef struct refused_lib {
    const char *path;
    gsi_ggml_status want;
    const char *why;
} refused_lib;

static void expect_refused(const refused_lib *libs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char why[1024];
        cr_expect_eq(open_fake(libs[i].path, why, sizeof why), libs[i].want, "%s", libs[i].path);
        cr_expect_str_eq(why, libs[i].why);
    }
}

Test(ggml_lib, good_stand_in_loads)
{
    gsi_ggml g;
    char why[1024];
    cr_assert_eq(gsi_ggml_open(&g, FAKE_GOOD, why, sizeof why), GSI_GGML_LOADED, "%s", why);
    cr_expect_str_eq(g.version, "0.25.1");
    cr_expect_str_eq(g.commit, "fake0001");
    cr_expect_str_eq(g.path, FAKE_GOOD);
    cr_expect_eq(gsi_ggml_decoder(&g, GS_TYPE_Q4_0), g.dequantize_row_q4_0);
    cr_expect_eq(gsi_ggml_decoder(&g, GS_TYPE_Q8_K), g.dequantize_row_q8_K);
    cr_expect_null(gsi_ggml_decoder(&g, GS_TYPE_Q8_1));
    cr_expect_null(gsi_ggml_decoder(&g, GS_TYPE_COUNT));
    cr_expect_null(gsi_ggml_decoder(&g, -1));
    char name[64];
    uint32_t elems = 0, bytes = 0;
    gsi_ggml_to_float_fn fn = NULL;
    cr_expect_eq(gsi_ggml_type(&g, GS_TYPE_Q8_0, name, &elems, &bytes, &fn, why, sizeof why), 0);
    cr_expect_str_eq(name, "q8_0");
    cr_expect_eq(elems, 32);
    cr_expect_eq(bytes, 34);
    cr_expect_eq(gsi_ggml_type(&g, 4, name, &elems, &bytes, &fn, why, sizeof why), -1);
    cr_expect_str_eq(why, "type 4: " FAKE_GOOD " (ggml 0.25.1) has no live type with this id");
    gsi_ggml_close(&g);
    cr_expect_null(g.handle);
}

Test(ggml_lib, missing_library)
{
    static const refused_lib libs[] = {
        {"/nonexistent/libggml-base.so", GSI_GGML_NOT_FOUND,
         "/nonexistent/libggml-base.so: no readable ggml library there"},
        {"", GSI_GGML_NOT_FOUND, "no ggml library named"},
    };
    expect_refused(libs, sizeof libs / sizeof libs[0]);
}

Test(ggml_lib, not_a_library)
{
    char why[1024];
    const char *self = GS_SOURCE_FILE;
    cr_expect_eq(open_fake(self, why, sizeof why), GSI_GGML_DLOPEN_FAILED);
    char want[1024];
    snprintf(want, sizeof want, "%s: dlopen failed: ", self);
    cr_expect_eq(strncmp(why, want, strlen(want)), 0, "%s", why);
}

Test(ggml_lib, missing_symbol)
{
    static const refused_lib libs[] = {
        {FAKE_NO_Q8_K, GSI_GGML_MISSING_SYMBOL,
         FAKE_NO_Q8_K ": symbol dequantize_row_q8_K missing (not a libggml-base, or one without "
                      "it)"},
    };
    expect_refused(libs, 1);
}

Test(ggml_lib, unvouched_versions)
{
    static const refused_lib libs[] = {
        {FAKE_VERSION_1, GSI_GGML_UNVOUCHED,
         FAKE_VERSION_1 " (ggml 1.0.0, commit fake0001): ggufsafe knows the ggml_type_traits "
                        "layout of ggml 0.9 and later 0.x releases only"},
        {FAKE_VERSION_OLD, GSI_GGML_UNVOUCHED,
         FAKE_VERSION_OLD " (ggml 0.8.2, commit fake0001): ggufsafe knows the ggml_type_traits "
                          "layout of ggml 0.9 and later 0.x releases only"},
        {FAKE_VERSION_BINARY, GSI_GGML_UNVOUCHED,
         FAKE_VERSION_BINARY ": ggml_version() is not a printable version string: a ggml whose "
                             "ggml_type_traits layout ggufsafe cannot vouch for"},
    };
    expect_refused(libs, sizeof libs / sizeof libs[0]);
}

Test(ggml_lib, unvouched_traits)
{
    static const refused_lib libs[] = {
        {FAKE_BAD_TRAITS, GSI_GGML_UNVOUCHED,
         FAKE_BAD_TRAITS " (ggml 0.25.1, commit fake0001): type 12 has traits {q4_K, 128 "
                         "elements, 144 bytes} where ggufsafe's registry has {q4_K, 256, 144}: a "
                         "ggml_type_traits layout ggufsafe cannot vouch for"},
        {FAKE_BAD_WITNESS, GSI_GGML_UNVOUCHED,
         FAKE_BAD_WITNESS " (ggml 0.25.1, commit fake0001): q4_0's to_float is not "
                          "dequantize_row_q4_0: a ggml_type_traits layout ggufsafe cannot vouch "
                          "for"},
    };
    expect_refused(libs, sizeof libs / sizeof libs[0]);
}

/* ---- the public side -------------------------------------------------------------------- */

Test(ggml_path, set_library_statuses)
{
    gs_error err;
    cr_expect_eq(gs_set_ggml_library(NULL, &err), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(gs_set_ggml_library("/nonexistent.so", &err), GS_E_NO_SUCH_FILE);
    cr_expect_str_eq(err.detail, "/nonexistent.so: no readable ggml library there");
    cr_expect_eq(gs_set_ggml_library(GS_SOURCE_FILE, &err), GS_E_IO);
    cr_expect_eq(gs_set_ggml_library(FAKE_NO_Q8_K, &err), GS_E_KERNEL_UNAVAILABLE);
    cr_expect_eq(gs_set_ggml_library(FAKE_VERSION_1, &err), GS_E_KERNEL_UNAVAILABLE);
    char text[2048];
    cr_expect_not(gs_ggml_describe(text, sizeof text));
    cr_expect_str_eq(text, FAKE_VERSION_1 " (ggml 1.0.0, commit fake0001): ggufsafe knows the "
                           "ggml_type_traits layout of ggml 0.9 and later 0.x releases only");
    /* a failed load leaves the path unavailable */
    cr_expect_eq(gs_set_kernel(GS_KERNEL_GGML), GS_E_KERNEL_UNAVAILABLE);
    /* a good one after failures */
    cr_expect_eq(gs_set_ggml_library(FAKE_GOOD, &err), GS_OK);
    cr_expect(gs_ggml_describe(text, sizeof text));
    cr_expect_str_eq(text, "ggml 0.25.1 (commit fake0001) from " FAKE_GOOD);
    cr_expect_eq(gs_set_ggml_library(FAKE_GOOD, &err), GS_OK, "the same path again");
    cr_expect_eq(gs_set_ggml_library(FAKE_BAD_TRAITS, &err), GS_E_INVALID_ARGUMENT);
    cr_expect_str_eq(err.detail, "another ggml library is loaded already (one per process; "
                                 "gs_ggml_describe names it)");
    cr_expect(gs_ggml_describe(text, sizeof text), "the loaded one stays");
    cr_expect_eq(gs_set_kernel((gs_kernel)5), GS_E_INVALID_ARGUMENT);
    cr_expect_str_eq(gs_kernel_name(GS_KERNEL_GGML), "ggml");
}

Test(ggml_path, no_library_means_unavailable)
{
    cr_expect_eq(gs_set_kernel(GS_KERNEL_GGML), GS_E_KERNEL_UNAVAILABLE);
    char text[256];
    cr_expect_not(gs_ggml_describe(text, sizeof text));
    cr_expect_str_eq(text, "no ggml library loaded: name one with GGUFSAFE_GGML=PATH (or `--ggml "
                           "PATH`, gs_set_ggml_library)");
    bool usable = false;
    cr_expect_neq(gs_active_kernel(&usable), GS_KERNEL_GGML);
    cr_expect(usable);
}

/* Q4_0, Q8_K and another type through ggml's functions (their markers), F32 copied, Q8_1
 * refused: never our decoder in ggml's place. */
Test(ggml_path, decodes_with_ggml)
{
    gs_error err;
    cr_assert_eq(gs_set_ggml_library(FAKE_GOOD, &err), GS_OK, "%s", err.detail);
    cr_assert_eq(gs_set_kernel(GS_KERNEL_GGML), GS_OK);
    bool usable = false;
    cr_expect_eq(gs_active_kernel(&usable), GS_KERNEL_GGML);
    cr_expect(usable);

    static uint8_t src[2 * 292];
    static float out[512];
    cr_expect_eq(gs_dequantize(GS_TYPE_Q4_0, src, 2 * 18, out, 64), GS_OK);
    for (int i = 0; i < 64; i++) {
        cr_expect_eq(out[i], 1.0f, "q4_0 [%d]", i);
    }
    cr_expect_eq(gs_dequantize(GS_TYPE_Q8_K, src, 2 * 292, out, 512), GS_OK);
    cr_expect_eq(out[0], 2.0f);
    cr_expect_eq(out[511], 2.0f);
    cr_expect_eq(gs_dequantize(GS_TYPE_Q8_0, src, 34, out, 32), GS_OK);
    cr_expect_eq(out[31], 3.0f);
    const float f[3] = {1.5f, -0.0f, 7.25f};
    cr_expect_eq(gs_dequantize(GS_TYPE_F32, f, sizeof f, out, 3), GS_OK);
    cr_expect_eq(memcmp(out, f, sizeof f), 0, "f32 is a copy");
    out[0] = 9.0f;
    cr_expect_eq(gs_dequantize(GS_TYPE_Q8_1, src, 36, out, 32), GS_E_KERNEL_UNAVAILABLE);
    cr_expect_eq(out[0], 9.0f, "nothing written for a type ggml cannot convert");
    cr_expect_eq(gs_dequantize(GS_TYPE_I8, src, 4, out, 4), GS_E_NOT_DECODABLE);
}

/* GGUFSAFE_KERNEL=ggml resolved before a library is loaded turns usable once one is. */
Test(ggml_path, environment_choice_waits_for_the_library)
{
    setenv("GGUFSAFE_KERNEL", "ggml", 1);
    unsetenv("GGUFSAFE_GGML");
    bool usable = true;
    cr_expect_eq(gs_active_kernel(&usable), GS_KERNEL_GGML);
    cr_expect_not(usable);
    static uint8_t src[34];
    static float out[32];
    cr_expect_eq(gs_dequantize(GS_TYPE_Q8_0, src, 34, out, 32), GS_E_KERNEL_UNAVAILABLE);
    gs_error err;
    cr_assert_eq(gs_set_ggml_library(FAKE_GOOD, &err), GS_OK);
    cr_expect_eq(gs_active_kernel(&usable), GS_KERNEL_GGML);
    cr_expect(usable);
    cr_expect_eq(gs_dequantize(GS_TYPE_Q8_0, src, 34, out, 32), GS_OK);
    cr_expect_eq(out[0], 3.0f);
}

/* GGUFSAFE_GGML loads at the path's first use. */
Test(ggml_path, environment_library)
{
    setenv("GGUFSAFE_KERNEL", "ggml", 1);
    setenv("GGUFSAFE_GGML", FAKE_GOOD, 1);
    bool usable = false;
    cr_expect_eq(gs_active_kernel(&usable), GS_KERNEL_GGML);
    cr_expect(usable);
    char text[2048];
    cr_expect(gs_ggml_describe(text, sizeof text));
    cr_expect_str_eq(text, "ggml 0.25.1 (commit fake0001) from " FAKE_GOOD);
}

/* The stand-in's type beyond our registry, with its geometry, name and decoder; the walk stops
 * at the empty entry after it. */
Test(ggml_path, branch_types_from_ggml)
{
    size_t n = 7;
    (void)gs_ggml_decoders(&n);
    cr_expect_eq(n, 0, "no library: no types");
    gs_error err;
    cr_assert_eq(gs_set_ggml_library(FAKE_GOOD, &err), GS_OK);
    const gs_decoder *d = gs_ggml_decoders(&n);
    cr_assert_eq(n, 1);
    cr_expect_eq(d[0].type.id, GS_TYPE_COUNT);
    cr_expect_str_eq(d[0].type.name, "q8_0_branch");
    cr_expect_eq(d[0].type.block_elems, 32);
    cr_expect_eq(d[0].type.block_bytes, 34);
    cr_expect_not(d[0].type.override_builtin);
    cr_expect_str_eq(d[0].source, "ggml");
    static uint8_t src[68];
    static float out[64];
    cr_expect_eq(d[0].decode(d[0].ctx, d[0].type.id, src, sizeof src, out, 64), GS_OK);
    cr_expect_eq(out[0], 4.0f);
    cr_expect_eq(out[63], 4.0f);
}
