/* The command line's form of a caller-defined type (gs_type_def):
 *
 *   ID:NAME:BLOCK_ELEMENTS:BLOCK_BYTES[:override]
 *
 * ID, BLOCK_ELEMENTS and BLOCK_BYTES decimal digits (no sign, no spaces), NAME 1..63 bytes of
 * [A-Za-z0-9_.-]; ":override" lets the id be one the registry knows. The text comes from a user
 * (or a script): it is parsed as untrusted input (fuzz/fuzz_type_spec.c). */
#ifndef GGUFSAFE_CLI_TYPE_SPEC_H
#define GGUFSAFE_CLI_TYPE_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "ggufsafe.h"

typedef struct cli_type_spec {
    gs_type_def def;                 /* def.name points at name */
    char name[GS_TYPE_NAME_MAX + 1];
} cli_type_spec;

/* Parses spec[0..len) into *out (its def checked alone with gs_type_defs_check). true, or false
 * with why (NUL-terminated, at most why_cap bytes) saying what is wrong. Never reads past len;
 * spec need not be NUL-terminated. */
bool cli_type_spec_parse(const char *spec, size_t len, cli_type_spec *out, char *why,
                         size_t why_cap);

#endif
