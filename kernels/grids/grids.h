/* Lookup tables of the grid and code-book quant types: data, not code. Each table holds the
 * values of the ggml table its file names, from ggml-org/ggml's src/ggml-common.h at commit
 * d99724f2b141fed9e1a9f402213506c081433465 (MIT licence; see THIRD_PARTY.md), at the lines
 * its file gives. Entries wider than a byte hold their elements as little-endian bytes:
 * element j of a uint64_t entry g is (g >> 8j) & 0xff on every host. */
#ifndef GGUFSAFE_GRIDS_H
#define GGUFSAFE_GRIDS_H

#include <stdint.h>

extern const uint64_t gsi_iq2xxs_grid[256];
extern const uint64_t gsi_iq2xs_grid[512];
extern const uint64_t gsi_iq2s_grid[1024];
extern const uint32_t gsi_iq3xxs_grid[256];
extern const uint32_t gsi_iq3s_grid[512];
extern const uint64_t gsi_iq1s_grid[2048]; /* bytes are int8: 0xff is -1 */
extern const uint8_t gsi_ksigns_iq2xs[128];
extern const int8_t gsi_kvalues_iq4nl[16];
extern const int8_t gsi_kvalues_fp4[16];

/* Byte j (0..7) of a grid entry. */
static inline uint8_t gsi_byte_of(uint64_t entry, unsigned j)
{
    return (uint8_t)(entry >> (8u * j));
}

#endif
