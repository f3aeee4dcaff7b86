/* Shared pieces of the differential tests (oracle_client.h). */
#define _POSIX_C_SOURCE 200809L
#include "oracle_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "child_process.h"

/* gs_oracle's exit statuses (runner/oracle_main.h). */
enum { RUNNER_ACCEPTED = 0, RUNNER_REJECTED = 1, RUNNER_UNAVAILABLE = 3 };

int gsx_oracle_start(int argc, char **argv, int min_args, int max_args, const char *usage)
{
    if (argc < 1 + min_args || argc > 1 + max_args) {
        fprintf(stderr, "usage: %s %s\n", argc > 0 ? argv[0] : "oracle test", usage);
        return 2;
    }
    return gsx_oracle_check(argv[1]);
}

int gsx_oracle_check(const char *oracle)
{
    char prog[4096];
    snprintf(prog, sizeof prog, "%s", oracle);
    char *argv[] = {prog, "probe", NULL};
    gsi_child c;
    gsi_child_run(argv, 60, &c);
    const char *req = getenv("GGUFSAFE_REQUIRE_ORACLE");
    const int required = req != NULL && strcmp(req, "1") == 0;
    int rc = 0;
    if (c.end == GSI_CHILD_EXITED && c.code == RUNNER_ACCEPTED) {
        printf("oracle: %s", c.out);
    } else if (c.end == GSI_CHILD_EXITED && c.code == RUNNER_UNAVAILABLE) {
        printf("%s", c.err);
        if (required) {
            printf("FAIL: GGUFSAFE_REQUIRE_ORACLE=1 and ggml's package is not available "
                   "(ci/oracle_fetch.sh fetches it)\n");
            rc = 1;
        } else {
            printf("SKIP: ggml's package is not in the cache and could not be fetched "
                   "(ci/oracle_fetch.sh); set GGUFSAFE_REQUIRE_ORACLE=1 to make this a failure\n");
            rc = GSX_EXIT_SKIP;
        }
    } else {
        printf("FAIL: %s probe: end %d code %d: %s\n", oracle, (int)c.end, c.code, c.err);
        rc = 1;
    }
    gsi_child_free(&c);
    fflush(stdout);
    return rc;
}

static const char *const verdict_names[] = {"accepted", "rejected", "crashed", "hung"};

const char *gsx_verdict_name(gsx_verdict v)
{
    return (unsigned)v < 4 ? verdict_names[v] : "unknown";
}

int gsx_verdict_parse(const char *s)
{
    for (int i = 0; i < 4; i++) {
        if (strcmp(s, verdict_names[i]) == 0) {
            return i;
        }
    }
    return -1;
}

/* ggml's first log line, as a short reason. */
static void first_line(const char *err, char *detail, size_t cap)
{
    size_t n = strcspn(err, "\n");
    if (n >= cap) {
        n = cap - 1;
    }
    memcpy(detail, err, n);
    detail[n] = '\0';
}

gsx_verdict gsx_ggml_report(const char *oracle, const char *path, unsigned view_flags,
                            double timeout_s, gsx_view *v, char *detail, size_t cap,
                            double *seconds)
{
    char prog[4096], file[4096];
    snprintf(prog, sizeof prog, "%s", oracle);
    snprintf(file, sizeof file, "%s", path);
    char *argv[6];
    int n = 0;
    argv[n++] = prog;
    argv[n++] = "report";
    argv[n++] = file;
    if (view_flags & GSX_VIEW_KV) {
        argv[n++] = "--kv";
    }
    if (view_flags & GSX_VIEW_HASH) {
        argv[n++] = "--hash";
    }
    argv[n] = NULL;
    gsi_child c;
    gsi_child_run(argv, timeout_s, &c);
    memset(v, 0, sizeof *v);
    detail[0] = '\0';
    gsx_verdict verdict = GSX_CRASHED;
    size_t used = 0;
    if (c.end == GSI_CHILD_TIMEOUT) {
        verdict = GSX_HUNG;
        snprintf(detail, cap, "no verdict within %.0f s of CPU time", timeout_s);
    } else if (c.end == GSI_CHILD_SIGNALED) {
        snprintf(detail, cap, "signal %d", c.code);
    } else if (c.end == GSI_CHILD_EXITED &&
               (c.code == RUNNER_ACCEPTED || c.code == RUNNER_REJECTED) &&
               gsx_view_parse(c.out, c.out_len, v, &used) == 0 &&
               v->accepted == (c.code == RUNNER_ACCEPTED)) {
        verdict = v->accepted ? GSX_ACCEPTED : GSX_REJECTED;
        first_line(c.err, detail, cap);
    } else {
        snprintf(detail, cap, "runner end %d code %d: %.200s", (int)c.end, c.code, c.err);
    }
    if (seconds != NULL) {
        *seconds = c.seconds;
    }
    gsi_child_free(&c);
    return verdict;
}

size_t gsx_kernel_paths(gs_kernel out[3])
{
    size_t n = 0;
    out[n++] = GS_KERNEL_SCALAR;
    const gs_kernel simd[] = {GS_KERNEL_AVX2, GS_KERNEL_NEON};
    for (size_t i = 0; i < 2; i++) {
        if (gs_set_kernel(simd[i]) == GS_OK) {
            out[n++] = simd[i];
        }
    }
    gs_set_kernel(GS_KERNEL_AUTO);
    return n;
}

uint64_t gsx_seed(void)
{
    const char *env = getenv("GGUFSAFE_ORACLE_SEED");
    if (env != NULL && env[0] != '\0') {
        return strtoull(env, NULL, 0);
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 32;
}

int gsx_run_ok(char *const argv[], double timeout_s)
{
    gsi_child c;
    gsi_child_run(argv, timeout_s, &c);
    const int ok = c.end == GSI_CHILD_EXITED && c.code == 0;
    if (!ok) {
        printf("FAIL: %s %s: end %d code %d: %s\n", argv[0], argv[1] ? argv[1] : "",
               (int)c.end, c.code, c.err);
    }
    gsi_child_free(&c);
    return ok ? 0 : -1;
}
