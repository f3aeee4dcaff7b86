/* Random models that the strict profile must accept: every value type, arrays of every element
 * type (empty ones included), empty and multi-byte UTF-8 strings, random shapes of every usable
 * tensor type, power-of-two alignments 8..2^16, versions 2 and 3. */
#ifndef GGUFSAFE_CORPUS_RANDOM_MODEL_H
#define GGUFSAFE_CORPUS_RANDOM_MODEL_H

#include <stdint.h>

#include "gsw_model.h"

/* Builds the model for seed into m (initialised here). */
void random_model(gsw_model *m, uint64_t seed);

/* The usable (live and activation) tensor type ids, from the type registry, in id order.
 * Returns their number; ids has room for GS_TYPE_COUNT. */
unsigned usable_types(int32_t ids[GS_TYPE_COUNT]);

#endif
