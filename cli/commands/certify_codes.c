#include "certify_codes.h"

#include <string.h>

#include "generate.h"
#include "ggufsafe_certify.h"
#include "json_writer.h"
#include "out.h"
#include "report_header.h"

/* "strict, lenient", "strict", "none" (a note under every profile) or "per finding". */
static const char *profiles_text(unsigned profiles)
{
    if (profiles == GS_CERTIFY_PROFILES_PER_FINDING) {
        return "per finding";
    }
    switch (profiles & (GS_CERTIFY_STRICT | GS_CERTIFY_LENIENT)) {
    case GS_CERTIFY_STRICT | GS_CERTIFY_LENIENT:
        return "strict, lenient";
    case GS_CERTIFY_STRICT:
        return "strict";
    case GS_CERTIFY_LENIENT:
        return "lenient";
    default:
        return "none";
    }
}

static bool code_at(size_t i, gs_certify_code *c)
{
    *c = (gs_certify_code){.struct_size = sizeof *c};
    return gs_certify_code_at(i, c) == GS_OK;
}

static void write_text(cli_out *out)
{
    size_t n = gs_certify_code_count(), width = strlen("CODE");
    gs_certify_code c;
    for (size_t i = 0; i < n; i++) {
        if (code_at(i, &c) && strlen(c.code) > width) {
            width = strlen(c.code);
        }
    }
    cli_out_printf(out, "%-*s  %-8s %-16s %s\n", (int)width, "CODE", "SEVERITY", "BREAKS",
                   "MEANING");
    for (size_t i = 0; i < n; i++) {
        if (code_at(i, &c)) {
            cli_out_printf(out, "%-*s  %-8s %-16s %s\n", (int)width, c.code,
                           gs_certify_severity_name(c.severity), profiles_text(c.profiles),
                           c.summary);
        }
    }
}

static void write_json(cli_out *out)
{
    cli_json j;
    cli_json_init(&j, out);
    cli_json_begin_object(&j);
    cli_json_key(&j, "tool");
    cli_json_begin_object(&j);
    cli_json_key_cstring(&j, "name", CLI_TOOL_NAME);
    cli_json_key_cstring(&j, "version", gs_version());
    cli_json_end_object(&j);
    cli_json_key_cstring(&j, "command", "certify --list-codes");
    cli_json_key(&j, "codes");
    cli_json_begin_array(&j);
    gs_certify_code c;
    for (size_t i = 0; i < gs_certify_code_count(); i++) {
        if (!code_at(i, &c)) {
            continue;
        }
        bool per_finding = c.profiles == GS_CERTIFY_PROFILES_PER_FINDING;
        cli_json_begin_object(&j);
        cli_json_key_cstring(&j, "code", c.code);
        cli_json_key_cstring(&j, "severity", gs_certify_severity_name(c.severity));
        cli_json_key(&j, "profiles");
        cli_json_begin_inline_array(&j);
        if (!per_finding && (c.profiles & GS_CERTIFY_STRICT) != 0) {
            cli_json_cstring(&j, "strict");
        }
        if (!per_finding && (c.profiles & GS_CERTIFY_LENIENT) != 0) {
            cli_json_cstring(&j, "lenient");
        }
        cli_json_end_array(&j);
        cli_json_key_bool(&j, "profiles_per_finding", per_finding);
        cli_json_key_cstring(&j, "summary", c.summary);
        cli_json_end_object(&j);
    }
    cli_json_end_array(&j);
    cli_json_end_object(&j);
    cli_json_finish(&j);
}

gs_status certify_codes_write(cli_outfile *of, bool json)
{
    gs_sink sink;
    cli_outfile_sink(of, &sink);
    cli_out out;
    (void)cli_out_init(&out, &sink);
    if (json) {
        write_json(&out);
    } else {
        write_text(&out);
    }
    return cli_out_finish(&out, NULL) == GS_E_NO_MEMORY ? GS_E_NO_MEMORY : GS_OK;
}

void certify_codes_man(FILE *out)
{
    cli_man_section(out, "FINDING CODES");
    cli_man_text(out, "Every code a report can hold, with its severity and the profiles it "
                      "breaks (a finding that breaks none is a note). The same list: "
                      "ggufsafe certify --list-codes.");
    fputc('\n', out);
    gs_certify_code c;
    for (size_t i = 0; i < gs_certify_code_count(); i++) {
        if (!code_at(i, &c)) {
            continue;
        }
        fputs(".TP\n\\fB", out);
        cli_man_text(out, c.code);
        fputs("\\fR (", out);
        cli_man_text(out, gs_certify_severity_name(c.severity));
        fputs("; breaks: ", out);
        cli_man_text(out, profiles_text(c.profiles));
        fputs(")\n", out);
        cli_man_text(out, c.summary);
        fputc('\n', out);
    }
}
