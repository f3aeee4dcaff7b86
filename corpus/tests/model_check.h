/* Field-by-field comparison of a file opened with our reader against the model it was written
 * from, through the public getters only (and, given a field map, the reader's offsets against
 * the writer's). */
#ifndef GGUFSAFE_CORPUS_MODEL_CHECK_H
#define GGUFSAFE_CORPUS_MODEL_CHECK_H

#include <stddef.h>

#include "ggufsafe.h"
#include "gsw_bytes.h"
#include "gsw_map.h"
#include "gsw_model.h"

/* 0 when f holds exactly m: version, key-values (key bytes, types, counts, every value and
 * element), tensors (name, n_dims, ne, type, packed offset, size, data bytes) and a canonical
 * layout of file_size bytes. Otherwise -1 and the first difference in why. map may be NULL. */
int model_check(const gs_file *f, const gsw_model *m, const gsw_map *map, size_t file_size,
                char *why, size_t why_cap);

/* The first byte at which a and b differ, or the shorter length when one is a prefix of the
 * other. */
size_t bytes_first_difference(const gsw_bytes *a, const gsw_bytes *b);

#endif
