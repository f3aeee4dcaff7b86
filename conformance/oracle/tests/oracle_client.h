/* What the differential tests share: whether ggml is available (skip or fail), ggml's verdict
 * on a file through a gs_oracle child, our kernel paths, and seeds. */
#ifndef GGUFSAFE_ORACLE_CLIENT_H
#define GGUFSAFE_ORACLE_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"
#include "oracle_view.h"

#define GSX_EXIT_SKIP 77 /* ctest SKIP_RETURN_CODE */

/* Runs `gs_oracle probe`. 0 when ggml is there (prints what was loaded); otherwise prints why
 * and returns the test's exit status: GSX_EXIT_SKIP, or 1 when GGUFSAFE_REQUIRE_ORACLE=1 or
 * when the library is present but does not fit our declarations. */
int gsx_oracle_check(const char *oracle);

/* The start of each oracle program's main: its arguments (argv[1] the oracle, at least min_args
 * after the program name, at most max_args), then gsx_oracle_check. 0 to go on; otherwise the
 * exit status: 2 with "usage: PROGRAM <usage>" on stderr, or gsx_oracle_check's. */
int gsx_oracle_start(int argc, char **argv, int min_args, int max_args, const char *usage);

typedef enum gsx_verdict {
    GSX_ACCEPTED = 0,
    GSX_REJECTED = 1,
    GSX_CRASHED = 2, /* killed by a signal (ggml aborts and segfaults), or a broken report */
    GSX_HUNG = 3     /* still running at the time limit (CPU time: parser/child_process.h) */
} gsx_verdict;

/* "accepted", "rejected", "crashed", "hung"; and back (-1 for an unknown word). */
const char *gsx_verdict_name(gsx_verdict v);
int gsx_verdict_parse(const char *s);

/* ggml's verdict on path: `gs_oracle report PATH [--kv] [--hash]` with a limit of timeout_s
 * seconds of CPU time. On
 * GSX_ACCEPTED *v holds ggml's view; detail gets the signal, or ggml's first log line;
 * *seconds (if not NULL) the time the child ran. */
gsx_verdict gsx_ggml_report(const char *oracle, const char *path, unsigned view_flags,
                            double timeout_s, gsx_view *v, char *detail, size_t cap,
                            double *seconds);

/* The decoder paths to compare on this machine: scalar, then every SIMD path it runs. */
size_t gsx_kernel_paths(gs_kernel out[3]);

/* The run's seed: GGUFSAFE_ORACLE_SEED if set, else from the clock; printed by the caller. */
uint64_t gsx_seed(void);

/* Runs a command (NULL-terminated argv) to completion: 0 when it exited 0; otherwise prints
 * its stderr and returns -1. */
int gsx_run_ok(char *const argv[], double timeout_s);

#endif
