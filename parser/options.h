#ifndef GGUFSAFE_OPTIONS_H
#define GGUFSAFE_OPTIONS_H

#include "ggufsafe.h"

/* Highest KV or tensor count honoured whatever the limits say (record numbers are 32-bit). */
#define GSI_MAX_RECORDS (1ull << 31)

/* Validates the caller's options (NULL means defaults) into *out. */
gs_status gsi_options_resolve(const gs_options *in, gs_options *out);

/* What every opener of a path checks first, with err cleared: a path and an out pointer
 * (has_out), and the caller's options resolved into *o; GS_E_INVALID_ARGUMENT with what is
 * wrong. */
gs_status gsi_open_path_args(const char *path, bool has_out, const gs_options *opts,
                             gs_options *o, gs_error *err);

#endif
