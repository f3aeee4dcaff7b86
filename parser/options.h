#ifndef GGUFSAFE_OPTIONS_H
#define GGUFSAFE_OPTIONS_H

#include "ggufsafe.h"

/* Highest KV or tensor count honoured whatever the limits say (record numbers are 32-bit). */
#define GSI_MAX_RECORDS (1ull << 31)

/* Validates the caller's options (NULL means defaults) into *out. */
gs_status gsi_options_resolve(const gs_options *in, gs_options *out);

#endif
