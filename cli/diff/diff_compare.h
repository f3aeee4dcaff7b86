/* The tensor half of `ggufsafe diff`, second step: decode both sides of each matched pair in
 * chunks and accumulate their error (diff_metrics.h). Memory stays bounded: each thread holds
 * one chunk of each side, never a whole tensor. Each tensor is computed by one thread from start
 * to end, so the results do not depend on the number of threads. In a three-way comparison the
 * reference is decoded once per chunk for both candidates. */
#ifndef GGUFSAFE_CLI_DIFF_COMPARE_H
#define GGUFSAFE_CLI_DIFF_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "diff_match.h"
#include "diff_metrics.h"
#include "ggufsafe.h"

/* Elements per chunk of each side (1 MiB of f32), rounded down to a multiple of both types'
 * block sizes. */
#define DIFF_CHUNK_ELEMS ((size_t)1 << 18)
#define DIFF_MAX_JOBS 256u

/* The least common multiple of a step of elements and a block size, both non-zero: the step
 * that is a whole number of blocks of every type seen so far. */
size_t diff_lcm(size_t step, size_t block);

/* Compares tensor ia of fa (the reference) with tensor ib of fb, which have the same shape and
 * decodable types, decoding chunk_elems elements of each at a time (rounded down to a multiple of
 * both block sizes, at least one such multiple). Blocks are counted in fb's block size.
 * Returns GS_OK, or the decode's failure with *failed_side 'A' or 'B'. */
gs_status diff_compare_tensor(const gs_file *fa, size_t ia, const gs_file *fb, size_t ib,
                              size_t chunk_elems, diff_metrics *out, char *failed_side);

/* Called after each compared pair with the elements compared so far and in all (one call at a
 * time, from the thread that compared it); may be NULL. */
typedef void (*diff_progress_fn)(void *ctx, uint64_t done, uint64_t total);

typedef struct diff_compare_plan {
    diff_pairs *pairs;      /* the candidate's pairs (B) */
    diff_pairs *base;       /* three-way: the baseline's (A), whose first base->tensors_a pairs
                               share the reference with pairs' first ones; NULL otherwise */
    unsigned jobs;          /* 1 to DIFF_MAX_JOBS threads of the shared work pool */
    size_t chunk_elems;
    size_t keep_worst;      /* worst blocks kept per compared pair (0: none) */
    diff_progress_fn progress;
    void *progress_ctx;
} diff_compare_plan;

/* Fills status, failed_side, m and the worst blocks of every DIFF_PAIR_COMPARED pair, and
 * same_bytes of every DIFF_PAIR_NOT_DECODABLE pair whose sides have one type. Returns the index
 * of the first pair (in list order) whose decoding failed, or pairs->n when none did, with
 * *failed_base set when it is the baseline's pair of that index; later pairs may be left
 * uncompared. */
size_t diff_compare_run(const diff_compare_plan *plan, bool *failed_base);

/* diff_compare_run on one list, no worst blocks kept. */
size_t diff_compare_pairs(diff_pairs *pairs, unsigned jobs, size_t chunk_elems,
                          diff_progress_fn progress, void *progress_ctx);

#endif
