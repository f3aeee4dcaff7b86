/* fuzz_oracle_diff: differential fuzzing of our reader against ggml's.
 *
 * Each input is a whole GGUF. Our reader opens it here, in-process and sanitized, under both
 * profiles; ggml's reader (gguf_init_from_buffer, no_alloc, as llama.cpp's loader calls it)
 * sees the same bytes in a persistent `gs_oracle serve` child, never in this process: ggml has
 * known memory bugs, and a crash or hang there is a verdict. The harness aborts (a finding) on:
 *   - a verdict disagreement not documented in disagreements.tsv: a disagreement between
 *     ggml's verdict V and our status S under a profile is documented when some line of the
 *     list pairs S (in that profile's column) with V;
 *   - a file both readers accept but read differently: header, data offset, tensor directory,
 *     or any tensor's decoded SHA-256 (NaN rule) where ggml has a decoder.
 *
 * Built as fuzz_oracle_diff (libFuzzer, GGUFSAFE_BUILD_FUZZERS=ON, x86-64) and as
 * replay_oracle_diff (fuzz/replay_main.c), which the ctest oracle_diff_replay runs over the
 * corpus. Environment: GS_ORACLE (the runner), GS_ORACLE_DISAGREEMENTS (the list),
 * GS_ORACLE_TIMEOUT (seconds per input, default 10). Exits 77 when ggml is unavailable, like
 * the tests (1 with GGUFSAFE_REQUIRE_ORACLE=1). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disagreements.h"
#include "ggufsafe.h"
#include "oracle_client.h"
#include "oracle_session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static gsx_session *session;
static double timeout_s = 10;
/* documented[profile][status][verdict], from disagreements.tsv: integer lookups per input (a
 * strcmp of status names would feed them to libFuzzer's comparison tracing) */
#define MAX_STATUS 256
static unsigned char documented[2][MAX_STATUS][4];
static size_t verdicts[4];

static const char *setting(const char *env, const char *fallback)
{
    const char *v = getenv(env);
    return v != NULL && v[0] != '\0' ? v : fallback;
}

static void summary(void)
{
    fprintf(stderr, "fuzz_oracle_diff: ggml accepted %zu, rejected %zu, crashed %zu, hung %zu "
            "inputs; runner restarted %zu times\n", verdicts[GSX_ACCEPTED], verdicts[GSX_REJECTED],
            verdicts[GSX_CRASHED], verdicts[GSX_HUNG], gsx_session_restarts(session));
}

static void start(void)
{
    const char *oracle = setting("GS_ORACLE", GSX_DEFAULT_ORACLE);
    const int check = gsx_oracle_check(oracle);
    if (check != 0) {
        exit(check);
    }
    gsx_list list;
    if (gsx_list_read(setting("GS_ORACLE_DISAGREEMENTS", GSX_DEFAULT_DISAGREEMENTS), &list) != 0) {
        exit(1);
    }
    const char *unknown = gs_status_name((gs_status)1000);
    for (int st = 0; st < MAX_STATUS; st++) {
        const char *name = gs_status_name((gs_status)st);
        for (int v = 0; name != unknown && v < 4; v++) {
            for (int p = 0; p < 2; p++) {
                documented[p][st][v] = (unsigned char)gsx_list_documents(&list, p, name,
                                                                         (gsx_verdict)v);
            }
        }
    }
    gsx_list_free(&list);
    atexit(summary);
    timeout_s = atof(setting("GS_ORACLE_TIMEOUT", "10"));
    session = gsx_session_start(oracle);
    if (session == NULL) {
        exit(1);
    }
}

/* Reports a finding the way every engine records one: a message, then abort. */
__attribute__((noreturn, format(printf, 1, 2))) static void finding(const char *fmt, ...);
static void finding(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz_oracle_diff: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static void check_verdict(int lenient, gs_status ours, gsx_verdict ggml)
{
    const int agree = ggml == GSX_ACCEPTED ? ours == GS_OK : ggml == GSX_REJECTED && ours != GS_OK;
    if (!agree && ((unsigned)ours >= MAX_STATUS || !documented[lenient][ours][ggml])) {
        finding("undocumented disagreement: ggml %s, ours (%s) %s; not in disagreements.tsv",
                gsx_verdict_name(ggml), lenient ? "lenient" : "strict", gs_status_name(ours));
    }
}

static void check_reading(const gsx_view *ggml, const gs_file *f, const char *profile)
{
    gsx_view ours;
    const gs_status st = gsx_view_ours(f, GSX_VIEW_HASH, &ours);
    if (st != GS_OK) {
        finding("we accepted the file (%s) but cannot decode it: %s", profile, gs_status_name(st));
    }
    const gsx_view_diff d = gsx_view_compare(ggml, &ours, GSX_VIEW_HASH, stderr, profile);
    gsx_view_free(&ours);
    if (d.differences > 0) {
        finding("ggml and we (%s) both accept the file but read it differently", profile);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (session == NULL) {
        start();
    }
    gs_file *f[2] = {NULL, NULL};
    gs_status st[2];
    for (int p = 0; p < 2; p++) {
        gs_options o;
        gs_options_init(&o);
        o.profile = p ? GS_PROFILE_LENIENT : GS_PROFILE_STRICT;
        gs_error e;
        st[p] = gs_open_memory(data, size, &o, &f[p], &e);
    }
    gsx_view ggml;
    const gsx_verdict v = gsx_session_report(session, data, size, GSX_VIEW_HASH, timeout_s,
                                             &ggml);
    verdicts[v]++;
    for (int p = 0; p < 2; p++) {
        check_verdict(p, st[p], v);
        if (v == GSX_ACCEPTED && st[p] == GS_OK) {
            check_reading(&ggml, f[p], p ? "lenient" : "strict");
        }
        gs_close(f[p]);
    }
    gsx_view_free(&ggml);
    return 0;
}
