/* `ggufsafe certify --list-codes` and the finding codes section of ggufsafe-certify(1): every
 * code of the library's table (gs_certify_code_at) with its severity, the profiles it breaks and
 * what it means, as text, JSON (conformance/schema/certify-codes.schema.json) or roff. */
#ifndef GGUFSAFE_CLI_CERTIFY_CODES_H
#define GGUFSAFE_CLI_CERTIFY_CODES_H

#include <stdbool.h>
#include <stdio.h>

#include "cli_outfile.h"
#include "ggufsafe.h"

/* The list to of; GS_OK or GS_E_NO_MEMORY (a failed write is the file's to report). */
gs_status certify_codes_write(cli_outfile *of, bool json);

/* The man page section "FINDING CODES". */
void certify_codes_man(FILE *out);

#endif
