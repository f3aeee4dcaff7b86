/* Canonical GGUF writing, the way ggml's writer lays a file out: header; key-values in order;
 * tensor infos with offset = running sum of the padded data sizes; zero padding to the alignment
 * (always, even with no tensors); each tensor's data followed by zero padding to the alignment,
 * the last one included. Broken files are made by writing a model and then overriding fields
 * through the field map (gsw_map.h) or cutting the bytes (gsw_truncate). */
#ifndef GGUFSAFE_GSW_WRITE_H
#define GGUFSAFE_GSW_WRITE_H

#include "gsw_bytes.h"
#include "gsw_map.h"
#include "gsw_model.h"

/* Accept tensors whose data length differs from the size the type registry gives their shape
 * (or whose size cannot be computed): the data is written as it is and offsets follow it. */
#define GSW_LAX 1u

/* Appends the encoding of m to out (normally empty) and, when map is not NULL, records every
 * field in it. Returns 0, or -1 with the reason in why (a model the writer cannot encode: an
 * invalid value type, no usable alignment, or without GSW_LAX a data length that does not match
 * the tensor's shape). */
int gsw_write(const gsw_model *m, unsigned flags, gsw_bytes *out, gsw_map *map, char *why,
              size_t why_cap);

/* gsw_write to a file. */
int gsw_write_file(const gsw_model *m, unsigned flags, const char *path, char *why,
                   size_t why_cap);

#endif
