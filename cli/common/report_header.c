#include "report_header.h"

const char *cli_profile_name(gs_profile profile)
{
    return profile == GS_PROFILE_LENIENT ? "lenient" : "strict";
}

void cli_json_report_header(cli_json *j, const char *command, const gs_options *opts)
{
    cli_json_key_begin_object(j, "tool");
    cli_json_key_cstring(j, "name", CLI_TOOL_NAME);
    cli_json_key_cstring(j, "version", gs_version());
    cli_json_end_object(j);
    cli_json_key_cstring(j, "command", command);
    cli_json_key_cstring(j, "profile", cli_profile_name(opts->profile));
    const gs_limits *l = &opts->limits;
    cli_json_key_begin_object(j, "limits");
    cli_json_key_u64(j, "max_kv_count", l->max_kv_count);
    cli_json_key_u64(j, "max_tensor_count", l->max_tensor_count);
    cli_json_key_u64(j, "max_string_length", l->max_string_length);
    cli_json_key_u64(j, "max_array_length", l->max_array_length);
    cli_json_key_u64(j, "max_alignment", l->max_alignment);
    cli_json_key_u64(j, "max_metadata_memory", l->max_metadata_memory);
    cli_json_end_object(j);
}
