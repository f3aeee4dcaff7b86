/* IQ4_NL / IQ4_XS non-linear 4-bit code book.
 *
 * Data, not code: the values of ggml's table `kvalues_iq4nl` (int8_t[16]) from ggml-org/ggml,
 * src/ggml-common.h lines 1120-1122, at commit d99724f2b141fed9e1a9f402213506c081433465
 * (MIT licence; see THIRD_PARTY.md). Multi-byte entries are read as little-endian bytes. */
#include "grids.h"

const int8_t gsi_kvalues_iq4nl[16] = {
    -127, -104,  -83,  -65,  -49,  -35,  -22,  -10,    1,   13,   25,   38,   53,   69,   89,  113,
};
