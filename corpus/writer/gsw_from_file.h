/* A model from a file opened with our reader: what the writer needs to write the same bytes
 * back when the file is canonical (version, key order and types, bool bytes as stored, n_dims as
 * stored, tensor data, alignment). Offsets, padding bytes and trailing bytes are not kept: the
 * writer recomputes them, which is what makes write(read(x)) == x a test of canonical layout. */
#ifndef GGUFSAFE_GSW_FROM_FILE_H
#define GGUFSAFE_GSW_FROM_FILE_H

#include "ggufsafe.h"
#include "gsw_model.h"

/* Fills m (initialised here) from f. Returns 0, or -1 with the reason in why when a getter fails
 * (which would be a reader bug: every value of an open file is readable). */
int gsw_model_from_file(const gs_file *f, gsw_model *m, char *why, size_t why_cap);

#endif
