/* MXFP4 / NVFP4 code book: the E2M1 values doubled (the scale is halved to compensate).
 *
 * Data, not code: the values of ggml's table `kvalues_fp4` (int8_t[16]) from ggml-org/ggml,
 * src/ggml-common.h lines 1126-1128, at commit d99724f2b141fed9e1a9f402213506c081433465
 * (MIT licence; see THIRD_PARTY.md). Multi-byte entries are read as little-endian bytes. */
#include "grids.h"

const int8_t gsi_kvalues_fp4[16] = {
       0,    1,    2,    3,    4,    6,    8,   12,    0,   -1,   -2,   -3,   -4,   -6,   -8,  -12,
};
