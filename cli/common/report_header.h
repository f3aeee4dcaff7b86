/* What every JSON report of the tool starts with (inside its object): "tool" (name, version),
 * "command", "profile" and "limits", so that a report says what produced it and under which
 * rules. Shared by the command's own reports (info) and the libraries' (certify, diff). */
#ifndef GGUFSAFE_CLI_REPORT_HEADER_H
#define GGUFSAFE_CLI_REPORT_HEADER_H

#include "ggufsafe.h"
#include "json_writer.h"

#define CLI_TOOL_NAME "ggufsafe"

/* "strict" or "lenient". */
const char *cli_profile_name(gs_profile profile);

void cli_json_report_header(cli_json *j, const char *command, const gs_options *opts);

#endif
