/* kat_check KAT_DIR: every ggml known-answer vector decoded through gs_dequantize and compared
 * with ggml's output under the NaN rule. A plain C program (no Criterion, no libcrypto) so that it
 * runs under qemu as well. Prints one line per failing type x set, then "N passed, N failed". */
#include <stdio.h>

#include "kat_runner.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s KAT_DIR\n", argv[0]);
        return 2;
    }
    unsigned passed = 0, failed = 0;
    for (int32_t type = 0; type < GS_TYPE_COUNT; type++) {
        if (!gsk_type_has_kat(type)) {
            continue;
        }
        for (int s = 0; s < GSK_N_SETS; s++) {
            gsk_kat_result res;
            gsk_kat_run(argv[1], type, gsk_set_names[s], &res);
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
