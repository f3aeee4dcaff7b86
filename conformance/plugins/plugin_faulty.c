/* Plugins that misbehave on purpose, one per build (FAULT): the example's geometry (type 200,
 * 32 elements in 34 bytes), and a decoder that crashes, hangs, writes past its output or before
 * it, or returns 7 (a failure), a table of a wrong ABI version or claiming a built-in id, or no entry point at
 * all. ggufsafe must report each, naming the plugin and the tensor, and survive
 * (cli/tests/test_cli_plugins.c, parser/tests/test_plugin_host.c). */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "ggufsafe_plugin.h"

#define FAULT_CRASH 1
#define FAULT_HANG 2
#define FAULT_OOB 3
#define FAULT_ABI 4
#define FAULT_BUILTIN 5
#define FAULT_FAIL 6
#define FAULT_NOSYM 7
#define FAULT_UNDER 8

#ifndef FAULT
#error "FAULT must be defined"
#endif

static int decode(int32_t type, const void *src, size_t src_bytes, float *dst, size_t n_elems)
{
    (void)type, (void)src, (void)src_bytes;
    for (size_t i = 0; i < n_elems; i++) {
        dst[i] = 1.0f;
    }
#if FAULT == FAULT_CRASH
    static const char note[] = "plugin_faulty: about to crash\n";
    ssize_t w = write(2, note, sizeof note - 1);
    (void)w;
    raise(SIGSEGV);
#elif FAULT == FAULT_HANG
    for (;;) {
        pause();
    }
#elif FAULT == FAULT_OOB
    volatile float *p = dst;
    p[n_elems + 3] = 2.0f; /* 16 bytes past the end */
#elif FAULT == FAULT_FAIL
    return 7;
#elif FAULT == FAULT_UNDER
    volatile float *p = dst;
    p[-3] = 2.0f; /* 12 bytes before the start */
#endif
    return 0;
}

#if FAULT == FAULT_BUILTIN
#define ID 8 /* q8_0: a built-in id, which a plugin may not serve */
#else
#define ID 200
#endif
#if FAULT == FAULT_ABI
#define VERSION 2u
#else
#define VERSION GGUFSAFE_PLUGIN_ABI_VERSION
#endif

static const gs_plugin_type types[] = {{ID, "faulty", 32, 34, decode}};
static const gs_plugin_table table = {VERSION, sizeof table, "faulty", 1, types};

#if FAULT == FAULT_NOSYM
/* The table under another name: dlopen succeeds, the entry point is missing. */
GGUFSAFE_PLUGIN_EXPORT const gs_plugin_table *not_the_entry_point(void);
GGUFSAFE_PLUGIN_EXPORT const gs_plugin_table *not_the_entry_point(void)
#else
GGUFSAFE_PLUGIN_EXPORT const gs_plugin_table *ggufsafe_plugin_v1(void);
GGUFSAFE_PLUGIN_EXPORT const gs_plugin_table *ggufsafe_plugin_v1(void)
#endif
{
    return &table;
}
