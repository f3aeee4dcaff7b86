/* A GGUF with random contents, written by ggml's own writer (gguf_set_*, gguf_add_tensor,
 * gguf_write_to_file): every KV value type as a scalar and as an array (empty ones, and some
 * of up to 3,000 elements), a random alignment (8 to 4096), and for every live ggml type
 * one tensor of random bytes and, for the types ggml quantizes to, one tensor that
 * ggml_quantize_chunk made from Gaussian data (except the IQ1/IQ2 types, whose quantizers take
 * seconds to initialise: test_oracle_blocks covers them); shapes, names, values, KV order and
 * tensor order drawn from the seed. Everything written is valid under ggufsafe's strict profile
 * (keys in the grammar, UTF-8 strings, bools 0/1). */
#ifndef GGUFSAFE_ORACLE_WRITE_H
#define GGUFSAFE_ORACLE_WRITE_H

#include <stdint.h>

#include "ggml_api.h"

/* 0 on success; -1 with the reason on stderr. */
int gsx_write_random(const gsx_ggml *g, uint64_t seed, const char *path);

/* The writer's and the quantize command's generator: splitmix64 from a 64-bit seed. */
typedef struct gsx_rng {
    uint64_t s;
} gsx_rng;

uint64_t gsx_rng_next(gsx_rng *r);
/* Uniform in [0, n). */
uint64_t gsx_rng_below(gsx_rng *r, uint64_t n);
/* Standard normal. */
float gsx_rng_gauss(gsx_rng *r);

#endif
