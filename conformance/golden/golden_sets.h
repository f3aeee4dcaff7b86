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
    const char *kat;    /* "rand" or "real" for a KAT set (kat.rand, kat.real), else NULL */
    bool kat_generated; /* a KAT input made here because <kat_dir>/<type>.rand.in is absent */
} gsg_set;

typedef struct gsg_sets {
    gsg_set items[16];
    size_t n;
} gsg_sets;

/* Builds every set of `type` (a decodable type id). The ggml KAT inputs are read from kat_dir.
 * Returns false with a message in err on failure (I/O, memory, or a type without a recipe). */
bool gsg_build_sets(int32_t type, const char *kat_dir, gsg_sets *out, char *err, size_t err_size);

/* The PRNG seed of the layout-free sets: they depend on the block size and the set name only,
 * never on the type id, so two types of the same block size get the same bytes. */
#define GSG_RAW_SEED INT32_C(-1)

/* The sets of a type whose block layout is not known (a caller-defined type, or a registry
 * type under gs_golden --raw), from its block geometry alone: kat.rand (<kat_dir>/NAME.rand.in,
 * or random blocks when that file is absent: kat_generated), kat.real (<kat_dir>/NAME.real.in,
 * only when it exists), raw.zero, raw.ones, raw.random, raw.sequence. As gsg_build_sets
 * otherwise. */
bool gsg_build_raw_sets(const char *name, uint32_t block_elems, uint32_t block_bytes,
                        const char *kat_dir, gsg_sets *out, char *err, size_t err_size);
void gsg_free_sets(gsg_sets *sets);

#endif
