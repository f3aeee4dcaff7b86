/* SARIF 2.1.0 for CI code scanning (conformance/schema/sarif-subset.schema.json describes the
 * part of the format written here): one run, the tool with one rule per finding code that
 * occurs (its summary, and its hint as the rule's help, naming the code's section of
 * docs/certify.md), one result per finding with the code as ruleId, its level (error,
 * warning, note), the message, and the file as the location with the byte offset as
 * region.byteOffset (a consequence names its cause's index in properties.caused_by). Profile,
 * limits and the verdict (flag and sentence) go in the run's property bag; no timestamps, so
 * the output is deterministic. */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "cert_render.h"
#include "report_header.h"

/* A path as a URI reference: unreserved bytes and '/' as they are, everything else %HH; an
 * absolute path becomes a file:// URI. */
static void uri(cli_json *j, const char *path)
{
    size_t n = strlen(path);
    char *out = cli_alloc_array(n + 3, 3); /* 3 * n + 7: "file://" and %HH per byte */
    if (out == NULL) {
        cli_out_fail(j->out, GS_E_NO_MEMORY);
        return;
    }
    size_t k = 0;
    if (path[0] == '/') {
        memcpy(out, "file://", 7);
        k = 7;
    }
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
        if (keep) {
            out[k++] = (char)c;
        } else {
            out[k++] = '%';
            out[k++] = hex[c >> 4];
            out[k++] = hex[c & 15];
        }
    }
    cli_json_string(j, out, k);
    free(out);
}

static bool seen_before(const cert_findings *fs, size_t i)
{
    for (size_t k = 0; k < i; k++) {
        if (strcmp(fs->codes[k].code, fs->codes[i].code) == 0) {
            return true;
        }
    }
    return false;
}

static void rules(cli_json *j, const cert_run *r)
{
    const cert_findings *fs = &r->findings;
    cli_json_key(j, "rules");
    cli_json_begin_array(j);
    for (size_t i = 0; i < fs->n_codes; i++) {
        if (seen_before(fs, i)) {
            continue;
        }
        const char *code = fs->codes[i].code;
        cli_json_begin_object(j);
        cli_json_key_cstring(j, "id", code);
        cert_code row;
        if (!cert_code_row(code, &row)) {
            row = cert_codes[0];
        }
        cli_json_key(j, "shortDescription");
        cli_json_begin_object(j);
        cli_json_key_cstring(j, "text", row.summary);
        cli_json_end_object(j);
        /* helpUri must be absolute: the section is named in the text until a base is known */
        char help[1024];
        snprintf(help, sizeof help, "%s (%s)", row.hint, row.help);
        cli_json_key(j, "help");
        cli_json_begin_object(j);
        cli_json_key_cstring(j, "text", help);
        cli_json_end_object(j);
        cli_json_key(j, "defaultConfiguration");
        cli_json_begin_object(j);
        cli_json_key_cstring(j, "level", cert_sarif_level(fs->codes[i].severity));
        cli_json_end_object(j);
        cli_json_end_object(j);
    }
    cli_json_end_array(j);
}

static void result(cli_json *j, const cert_run *r, const cert_finding *f)
{
    cli_json_begin_object(j);
    cli_json_key_cstring(j, "ruleId", f->code);
    cli_json_key_cstring(j, "level",
                         cert_sarif_level(cert_effective(f->severity, f->profiles,
                                                         r->opt.profile)));
    char where[4 * CERT_NAME_MAX + 128];
    cert_render_location(r, f, where, sizeof where);
    size_t n = strlen(where) + strlen(f->message) + 8;
    char *text = malloc(n);
    if (text == NULL) {
        cli_out_fail(j->out, GS_E_NO_MEMORY);
        return;
    }
    snprintf(text, n, "%s%s%s", where, where[0] ? ": " : "", f->message);
    cli_json_key(j, "message");
    cli_json_begin_object(j);
    cli_json_key_cstring(j, "text", text);
    cli_json_end_object(j);
    free(text);
    cli_json_key(j, "locations");
    cli_json_begin_array(j);
    cli_json_begin_object(j);
    cli_json_key(j, "physicalLocation");
    cli_json_begin_object(j);
    cli_json_key(j, "artifactLocation");
    cli_json_begin_object(j);
    cli_json_key(j, "uri");
    const char *path = f->part != CERT_NO_PART && f->part < r->n_parts ? r->parts[f->part].path
                                                                        : r->path;
    uri(j, path);
    cli_json_end_object(j);
    if (f->offset != CERT_NO_OFFSET) {
        cli_json_key(j, "region");
        cli_json_begin_object(j);
        cli_json_key_u64(j, "byteOffset", f->offset);
        cli_json_end_object(j);
    }
    cli_json_end_object(j);
    if (f->subject != CERT_SUBJECT_NONE) {
        cli_json_key(j, "logicalLocations");
        cli_json_begin_array(j);
        cli_json_begin_object(j);
        cli_json_key(j, "name");
        cli_json_string(j, f->name, f->name_len);
        cli_json_key_cstring(j, "kind", f->subject == CERT_SUBJECT_KEY ? "variable" : "member");
        cli_json_end_object(j);
        cli_json_end_array(j);
    }
    cli_json_end_object(j);
    cli_json_end_array(j);
    cli_json_key(j, "properties");
    cli_json_begin_object(j);
    cli_json_key(j, "profiles");
    cert_json_profiles(j, f->profiles);
    if (f->caused_by != CERT_NO_CAUSE) {
        cli_json_key_u64(j, "caused_by", f->caused_by); /* the index of its cause in results */
    }
    cli_json_end_object(j);
    cli_json_end_object(j);
}

void cert_render_sarif(cli_out *out, const cert_run *r)
{
    cli_json j;
    cli_json_init(&j, out);
    cli_json_begin_object(&j);
    cli_json_key_cstring(&j, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    cli_json_key_cstring(&j, "version", "2.1.0");
    cli_json_key(&j, "runs");
    cli_json_begin_array(&j);
    cli_json_begin_object(&j);
    cli_json_key(&j, "tool");
    cli_json_begin_object(&j);
    cli_json_key(&j, "driver");
    cli_json_begin_object(&j);
    cli_json_key_cstring(&j, "name", CLI_TOOL_NAME);
    cli_json_key_cstring(&j, "version", gs_version());
    cli_json_key_cstring(&j, "semanticVersion", gs_version());
    rules(&j, r);
    cli_json_end_object(&j);
    cli_json_end_object(&j);
    cli_json_key(&j, "properties");
    cli_json_begin_object(&j);
    gs_options opts;
    gs_options_init(&opts);
    opts.profile = r->opt.profile;
    cli_json_report_header(&j, "certify", &opts);
    cli_json_key_bool(&j, "deep", r->opt.deep);
    cli_json_key_bool(&j, "certified", cert_exit_code(r) == 0);
    cli_json_key_cstring(&j, "verdict", r->verdict);
    cli_json_end_object(&j);
    cli_json_key(&j, "results");
    cli_json_begin_array(&j);
    for (size_t i = 0; i < r->findings.n; i++) {
        result(&j, r, &r->findings.items[i]);
    }
    cli_json_end_array(&j);
    cli_json_end_object(&j);
    cli_json_end_array(&j);
    cli_json_end_object(&j);
    cli_json_finish(&j);
}
