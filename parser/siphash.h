/* SipHash-1-3 with a 128-bit key: the keyed hash behind the name indexes, so that a crafted file
 * cannot aim keys at one bucket (hash flooding) and make duplicate detection quadratic. */
#ifndef GGUFSAFE_SIPHASH_H
#define GGUFSAFE_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct gsi_sipkey {
    uint64_t k0, k1;
} gsi_sipkey;

uint64_t gsi_siphash13(const gsi_sipkey *key, const uint8_t *data, size_t n);

/* A fresh random key from getrandom(2) (a fixed key in fuzzing builds, for reproducibility). */
gsi_sipkey gsi_sipkey_random(void);

#endif
