/* gs_oracle: ggml's reference library (libggml-base.so, opened with dlopen) behind a small command
 * line, so that tests and tools reach ggml only through a child process. ggml's reader has known
 * memory bugs (docs/gguf-format.md, "Holes open in ggml"): it must never run inside our sanitized
 * processes, and a crash in it is a verdict, not a test failure. Built without sanitizers.
 *
 *   gs_oracle probe                      library path, ggml version and commit
 *   gs_oracle report FILE [--kv] [--hash] [--load]
 *                                        ggml's verdict and view of FILE (oracle_report.h);
 *                                        exit 0 accepted, 1 rejected
 *   gs_oracle write SEED OUT ...         random GGUFs through ggml's writer (oracle_write.h)
 *   gs_oracle to-float TYPE IN OUT ...   ggml's decoder on raw blocks
 *   gs_oracle quantize TYPE ROWS SEED OUT ...
 *   gs_oracle serve                      reports for requests on stdin (oracle_proto.h)
 *
 * Exit statuses: oracle_main.h. The address space is capped (GS_ORACLE_MEM_MB, default 4096)
 * so that an allocation sized from a crafted file fails the same way on every machine. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "oracle_main.h"
#include "oracle_report.h"
#include "oracle_write.h"

static int usage(void)
{
    fprintf(stderr, "usage: gs_oracle probe | report FILE [--kv] [--hash] [--load] | "
                    "write SEED OUT ... | to-float TYPE IN OUT ... | "
                    "quantize TYPE ROWS SEED OUT ... | serve\n");
    return GSX_EXIT_USAGE;
}

static void cap_memory(void)
{
    const char *env = getenv("GS_ORACLE_MEM_MB");
    const unsigned long long mb = env != NULL ? strtoull(env, NULL, 10) : 4096;
    if (mb > 0) {
        const struct rlimit lim = {(rlim_t)(mb << 20), (rlim_t)(mb << 20)};
        setrlimit(RLIMIT_AS, &lim);
    }
}

static int cmd_report(const gsx_ggml *g, int argc, char **argv)
{
    if (argc < 1) {
        return usage();
    }
    unsigned flags = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--kv") == 0) {
            flags |= GSX_REPORT_KV;
        } else if (strcmp(argv[i], "--hash") == 0) {
            flags |= GSX_REPORT_HASH;
        } else if (strcmp(argv[i], "--load") == 0) {
            flags |= GSX_REPORT_LOAD;
        } else {
            return usage();
        }
    }
    return gsx_report_file(g, argv[0], flags, stdout) ? GSX_EXIT_ACCEPTED : GSX_EXIT_REJECTED;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        return usage();
    }
    cap_memory();
    static gsx_ggml g;
    char why[512];
    const gsx_load_status ls = gsx_ggml_load(&g, why, sizeof why);
    if (ls != GSX_LOADED) {
        fprintf(stderr, "gs_oracle: ggml unavailable: %s\n", why);
        return ls == GSX_NOT_FOUND ? GSX_EXIT_UNAVAILABLE : GSX_EXIT_BAD_LIBRARY;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "probe") == 0) {
        printf("%s ggml %s commit %s\n", g.lib.path, g.lib.version, g.lib.commit);
        return GSX_EXIT_ACCEPTED;
    }
    if (strcmp(cmd, "report") == 0) {
        return cmd_report(&g, argc - 2, argv + 2);
    }
    if (strcmp(cmd, "write") == 0 && argc >= 4 && argc % 2 == 0) {
        for (int i = 2; i < argc; i += 2) {
            if (gsx_write_random(&g, strtoull(argv[i], NULL, 0), argv[i + 1]) != 0) {
                return GSX_EXIT_USAGE;
            }
        }
        return GSX_EXIT_ACCEPTED;
    }
    if (strcmp(cmd, "to-float") == 0) {
        return gsx_cmd_to_float(&g, argc - 2, argv + 2);
    }
    if (strcmp(cmd, "quantize") == 0) {
        return gsx_cmd_quantize(&g, argc - 2, argv + 2);
    }
    if (strcmp(cmd, "serve") == 0 && argc == 2) {
        return gsx_cmd_serve(&g);
    }
    return usage();
}
