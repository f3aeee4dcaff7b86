/* kat_check [--skip-unavailable] KAT_DIR: every ggml known-answer vector decoded through gs_dequantize and compared
 * with ggml's output under the NaN rule. A plain C program (no Criterion) so that it runs under
 * qemu as well. Prints one line per failing type x set, then "N passed, N failed". */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kat_runner.h"

int main(int argc, char **argv)
{
    bool skip_unavailable = argc == 3 && strcmp(argv[1], "--skip-unavailable") == 0;
    if (argc != 2 && !skip_unavailable) {
        fprintf(stderr, "usage: %s [--skip-unavailable] KAT_DIR\n", argv[0]);
        return 2;
    }
    const char *kat_dir = argv[argc - 1];
    if (skip_unavailable && gsk_kernel_unavailable()) {
        return GSK_EXIT_SKIP;
    }
    unsigned passed = 0, failed = 0;
    for (int32_t type = 0; type < GS_TYPE_COUNT; type++) {
        if (!gsk_type_has_kat(type)) {
            continue;
        }
        for (int s = 0; s < GSK_N_SETS; s++) {
            gsk_kat_result res;
            gsk_kat_run(kat_dir, type, gsk_set_names[s], &res);
            if (res.passed) {
                passed++;
            } else {
                failed++;
                printf("FAIL %s\n", res.message);
            }
            gsk_kat_result_free(&res);
        }
    }
    printf("%u passed, %u failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
