/* A small deterministic generator (splitmix64) for the round-trip tests: the same seed gives the
 * same model on every host, so a failing seed printed by a test can be replayed. */
#ifndef GGUFSAFE_CORPUS_RNG_H
#define GGUFSAFE_CORPUS_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t state;
} rng;

static inline uint64_t rng_next(rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n) for n >= 1 (the modulo bias is irrelevant here). */
static inline uint64_t rng_below(rng *r, uint64_t n)
{
    return rng_next(r) % n;
}

/* True with probability 1/n. */
static inline int rng_one_in(rng *r, uint64_t n)
{
    return rng_below(r, n) == 0;
}

#endif
