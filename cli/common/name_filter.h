/* Which tensors a command works on: --tensor PATTERN (any of them keeps a name; none given keeps
 * every name) and --exclude PATTERN (any of them drops it; exclude wins). A pattern matches a
 * name that equals it byte for byte, or that fnmatch(3) matches with no flags (* ? [...] and
 * backslash escapes), so exact names work even when they hold [ or *. Used by dequant and by the
 * diff library (gs_diff_options). */
#ifndef GGUFSAFE_CLI_NAME_FILTER_H
#define GGUFSAFE_CLI_NAME_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "ggufsafe.h"

typedef struct cli_name_filter {
    const char *const *include;
    size_t n_include;
    const char *const *exclude;
    size_t n_exclude;
} cli_name_filter;

/* Whether f keeps name (raw bytes from the file: names hold no NUL, the reader refuses them).
 * GS_OK, or GS_E_NO_MEMORY for the copy of a long name. */
gs_status cli_filter_keeps(const cli_name_filter *f, gs_str name, bool *keep);

/* Whether f selects anything less than every name. */
bool cli_filter_active(const cli_name_filter *f);

/* A copy of src that owns its strings, for results that outlive the caller's arrays;
 * GS_E_NO_MEMORY (dst then empty). Free with cli_filter_free. */
gs_status cli_filter_copy(cli_name_filter *dst, const cli_name_filter *src);
void cli_filter_free(cli_name_filter *f);

#endif
