/* The xorshift64 step (shifts 13, 7, 17) that the kernel tests and the decode bench draw their
 * input bytes from: a fixed seed gives the same bytes on every host. Not for anything else. */
#ifndef GGUFSAFE_TEST_XORSHIFT_H
#define GGUFSAFE_TEST_XORSHIFT_H

#include <stdint.h>

/* Advances *state (never 0) and returns the new state. */
static inline uint64_t xorshift64_next(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

#endif
