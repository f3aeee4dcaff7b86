/* IQ4_NL / IQ4_XS non-linear 4-bit code book.
 * ggml's `kvalues_iq4nl` (int8_t[16]), ggml-common.h lines 1120-1122 (provenance: grids.h). */
#include "grids/grids.h"

const int8_t gsi_kvalues_iq4nl[16] = {
    -127, -104,  -83,  -65,  -49,  -35,  -22,  -10,    1,   13,   25,   38,   53,   69,   89,  113,
};
