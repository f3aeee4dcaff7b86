/* The golden input sets: for every decodable type, deterministic blocks (fixed-seed PRNG, fixed
 * recipes) that cover what random data rarely hits. See README.md for the list of sets. */
#ifndef GGUFSAFE_GOLDEN_SETS_H
#define GGUFSAFE_GOLDEN_SETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gsg_set {
    char name[24];
    uint8_t *data;      /* n_blocks * block_bytes */
    size_t n_blocks;
} gsg_set;

typedef struct gsg_sets {
    gsg_set items[16];
    size_t n;
} gsg_sets;

/* Builds every set of `type` (a decodable type id). The ggml KAT inputs are read from kat_dir.
 * Returns false with a message in err on failure (I/O, memory, or a type without a recipe). */
bool gsg_build_sets(int32_t type, const char *kat_dir, gsg_sets *out, char *err, size_t err_size);
void gsg_free_sets(gsg_sets *sets);

#endif
