/* MXFP4 / NVFP4 code book: the E2M1 values doubled (the scale is halved to compensate).
 * ggml's `kvalues_fp4` (int8_t[16]), ggml-common.h lines 1126-1128 (provenance: grids.h). */
#include "grids/grids.h"

const int8_t gsi_kvalues_fp4[16] = {
       0,    1,    2,    3,    4,    6,    8,   12,    0,   -1,   -2,   -3,   -4,   -6,   -8,  -12,
};
