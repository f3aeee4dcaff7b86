#include "cli_types.h"

#include <string.h>

#include "cli_common.h"
#include "cli_source.h"
#include "text_out.h"

static cli_types current;
static cli_type_spec specs_storage[GS_TYPE_DEF_MAX]; /* the names the definitions point at */

int cli_types_use(const char *command, const cli_list *specs)
{
    current.n_defs = 0;
    if (specs->n > GS_TYPE_DEF_MAX) {
        return cli_usage_error(command, "%zu --type definitions, at most %u", specs->n,
                               GS_TYPE_DEF_MAX);
    }
    for (size_t i = 0; i < specs->n; i++) {
        char why[GS_ERROR_TEXT_MAX];
        const char *s = specs->items[i];
        if (!cli_type_spec_parse(s, strlen(s), &specs_storage[i], why, sizeof why)) {
            cli_text v;
            cli_text_escape_cstr(&v, s);
            return cli_usage_error(command, "--type '%s': %s (the form is " CLI_TYPE_ARG
                                   "[:override])", v.s, why);
        }
        current.defs[i] = specs_storage[i].def;
        current.defs[i].name = specs_storage[i].name;
    }
    gs_error err;
    if (gs_type_defs_check(current.defs, specs->n, &err) != GS_OK) {
        cli_text v;
        cli_text_escape_cstr(&v, specs->items[err.offset < specs->n ? err.offset : 0]);
        return cli_usage_error(command, "--type '%s': %s", v.s, err.detail);
    }
    current.n_defs = specs->n;
    return -1;
}

int cli_types_add_decoders(const char *command, const gs_decoder *d, size_t n)
{
    if (n > GS_TYPE_DEF_MAX - current.n_decoders) {
        return cli_usage_error(command, "more than %u decoders in all", GS_TYPE_DEF_MAX);
    }
    for (size_t i = 0; i < n; i++) {
        current.decoders[current.n_decoders++] = d[i];
    }
    return -1;
}

const cli_types *cli_types_current(void)
{
    return &current;
}

void cli_types_apply(gs_options *opts)
{
    cli_reader_types(opts, current.defs, current.n_defs, current.decoders, current.n_decoders);
}
