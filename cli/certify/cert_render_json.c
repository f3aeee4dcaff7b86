/* The JSON report (conformance/schema/certify.schema.json): the report header every command
 * writes (tool, command, profile, limits), what was certified, the verdict (as a flag and as a
 * sentence, with the finding it names) and counts, every finding in report order with its hint,
 * its documentation and the finding it follows from, the findings left out beyond the per-code
 * cap, and with --deep the statistics of every tensor. */
#include <string.h>

#include "cert_render.h"
#include "report_header.h"

void cert_json_profiles(cli_json *j, unsigned profiles)
{
    cli_json_begin_inline_array(j);
    if (profiles & CERT_STRICT) {
        cli_json_cstring(j, "strict");
    }
    if (profiles & CERT_LENIENT) {
        cli_json_cstring(j, "lenient");
    }
    cli_json_end_array(j);
}

static void json_parts(cli_json *j, const cert_run *r)
{
    cli_json_key_begin_array(j, "parts");
    for (size_t p = 0; p < r->n_parts; p++) {
        const cert_part *part = &r->parts[p];
        cli_json_begin_object(j);
        cli_json_key_cstring(j, "name", part->label);
        cli_json_key_cstring(j, "status", part->file != NULL   ? "read"
                                          : part->missing      ? "missing"
                                          : part->same_as != 0 ? "same_file"
                                          : part->not_gguf     ? "not_gguf"
                                                               : "rejected");
        if (part->not_gguf) {
            cli_json_key_cstring(j, "format", part->detected.name);
        }
        if (part->file != NULL) {
            cli_json_key_u64(j, "version", gs_file_version(part->file));
            cli_json_key_u64(j, "size", part->layout.file_size);
            cli_json_key_u64(j, "kv_count", gs_kv_count(part->file));
            cli_json_key_u64(j, "tensor_count", gs_tensor_count(part->file));
        }
        cli_json_end_object(j);
    }
    cli_json_end_array(j);
}

/* A finding's index, or null for CERT_NO_CAUSE. */
static void json_cause(cli_json *j, const char *key, size_t finding)
{
    cli_json_key(j, key);
    if (finding == CERT_NO_CAUSE) {
        cli_json_null(j);
    } else {
        cli_json_u64(j, finding);
    }
}

static void json_finding(cli_json *j, const cert_run *r, const cert_finding *f)
{
    cli_json_begin_object(j);
    cli_json_key_cstring(j, "code", f->code);
    cli_json_key_cstring(j, "severity",
                         cert_severity_name(cert_effective(f->severity, f->profiles,
                                                           r->opt.profile)));
    cli_json_key(j, "profiles");
    cert_json_profiles(j, f->profiles);
    cli_json_key(j, "part");
    if (f->part == CERT_NO_PART) {
        cli_json_null(j); /* the set as a whole */
    } else {
        cli_json_u64(j, f->part + 1);
    }
    cli_json_key(j, "offset");
    if (f->offset == CERT_NO_OFFSET) {
        cli_json_null(j);
    } else {
        cli_json_u64(j, f->offset);
    }
    if (f->subject != CERT_SUBJECT_NONE) {
        cli_json_key(j, f->subject == CERT_SUBJECT_KEY ? "key" : "tensor");
        cli_json_string(j, f->name, f->name_len);
        if (f->name_cut) {
            cli_json_key_bool(j, "name_cut", true);
        }
    }
    cli_json_key_cstring(j, "message", f->message);
    cli_json_key_cstring(j, "hint", f->hint);
    cli_json_key_cstring(j, "help", f->help);
    json_cause(j, "caused_by", f->caused_by);
    if (r->opt.baseline != NULL) {
        cli_json_key_cstring(j, "baseline", f->baselined ? "unchanged" : "new");
    }
    cli_json_end_object(j);
}

static void float_or_null(cli_json *j, const char *key, bool have, const gs_certify_stats *s,
                          double v)
{
    cli_json_key(j, key);
    if (!have) {
        cli_json_null(j);
    } else if (s->is_f64) {
        cli_json_f64(j, v);
    } else {
        cli_json_f32(j, (float)v); /* exact: the value came from an f32 */
    }
}

static void json_stats(cli_json *j, const cert_run *r)
{
    cli_json_key_begin_array(j, "statistics");
    for (size_t i = 0; i < r->n_stats; i++) {
        const gs_certify_stats *s = &r->stats[i].pub;
        cli_json_begin_object(j);
        cli_json_key_u64(j, "part", s->part + 1);
        cli_json_key(j, "tensor");
        cli_json_string(j, s->name, s->name_len);
        cli_json_key_cstring(j, "type", gs_type_name(s->type));
        cli_json_key_u64(j, "elements", s->elements);
        cli_json_key_u64(j, "blocks", s->blocks);
        cli_json_key_bool(j, "scanned", s->scanned);
        if (s->scanned) {
            cli_json_key_u64(j, "zero_blocks", s->zero_blocks);
            cli_json_key_u64(j, "bad_scale_blocks", s->bad_scale_blocks);
            cli_json_key_u64(j, "odd_scale_blocks", s->odd_scale_blocks);
            bool values = s->has_values;
            cli_json_key(j, "nan_count");
            values ? cli_json_u64(j, s->nan) : cli_json_null(j);
            cli_json_key(j, "inf_count");
            values ? cli_json_u64(j, s->inf) : cli_json_null(j);
            float_or_null(j, "min", values && s->finite > 0, s, s->min);
            float_or_null(j, "max", values && s->finite > 0, s, s->max);
            cli_json_key(j, "mean");
            if (values && s->finite > 0) {
                cli_json_f64(j, s->sum / (double)s->finite);
            } else {
                cli_json_null(j);
            }
        }
        cli_json_end_object(j);
    }
    cli_json_end_array(j);
}

void cert_render_json(cli_out *out, const cert_run *r)
{
    cli_json j;
    cli_json_init(&j, out);
    cert_json_report(&j, r);
    cli_json_finish(&j);
}

void cert_json_report(cli_json *j, const cert_run *r)
{
    cli_json_begin_object(j);
    gs_options opts;
    gs_options_init(&opts);
    opts.profile = r->opt.profile;
    cli_json_report_header(j, "certify", &opts);
    cli_json_key_cstring(j, "path", r->path);
    cli_json_key_cstring(j, "kind", r->is_set ? "split" : "file");
    cli_json_key_bool(j, "deep", r->opt.deep);
    cli_json_key_bool(j, "metadata_only", r->opt.metadata_only);
    cli_json_key_cstring(j, "fail_on", r->opt.fail_on == CERT_WARNING ? "warning" : "error");
    cli_json_key_bool(j, "certified", cert_exit_code(r) == 0);
    cli_json_key_cstring(j, "verdict", r->verdict);
    json_cause(j, "root_cause", r->root_cause);
    cli_json_key_bool(j, "read_failed", r->read_failed);
    uint64_t counts[3];
    cert_count(&r->findings, r->opt.profile, counts);
    cli_json_key_begin_object(j, "counts");
    cli_json_key_u64(j, "error", counts[CERT_ERROR]);
    cli_json_key_u64(j, "warning", counts[CERT_WARNING]);
    cli_json_key_u64(j, "info", counts[CERT_INFO]);
    cli_json_end_object(j);
    if (r->opt.policy != NULL) {
        cli_json_key_begin_object(j, "policy");
        cli_json_key_u64(j, "rules", gs_certify_policy_rule_count(r->opt.policy));
        cli_json_key_u64(j, "ignored", r->findings.policy_ignored);
        cli_json_key_u64(j, "changed", r->findings.policy_changed);
        cli_json_end_object(j);
    }
    if (r->opt.baseline != NULL) {
        cli_json_key_begin_object(j, "baseline");
        cli_json_key_u64(j, "suppressed", r->findings.baseline_suppressed);
        cli_json_key_u64(j, "new", (uint64_t)r->findings.n - r->findings.baseline_suppressed);
        cli_json_end_object(j);
    }
    cli_json_key_begin_object(j, "what");
    cli_json_key_cstring(j, "kind", cert_kind_name(r->kind));
    cli_json_key(j, "architecture");
    r->arch != NULL ? cli_json_string(j, r->arch, r->arch_len) : cli_json_null(j);
    cli_json_key(j, "general_type");
    r->general_type != NULL ? cli_json_string(j, r->general_type, r->general_type_len)
                            : cli_json_null(j);
    cli_json_end_object(j);
    json_parts(j, r);
    cli_json_key_begin_array(j, "findings");
    for (size_t i = 0; i < r->findings.n; i++) {
        json_finding(j, r, &r->findings.items[i]);
    }
    cli_json_end_array(j);
    cli_json_key_begin_array(j, "omitted");
    for (size_t i = 0; i < r->findings.n_codes; i++) {
        const cert_omitted *c = &r->findings.codes[i];
        if (c->omitted > 0) {
            cli_json_begin_object(j);
            cli_json_key_cstring(j, "code", c->code);
            cli_json_key(j, "profiles");
            cert_json_profiles(j, c->profiles);
            cli_json_key_u64(j, "count", c->omitted);
            cli_json_end_object(j);
        }
    }
    cli_json_end_array(j);
    if (r->opt.deep) {
        json_stats(j, r);
    }
    cli_json_end_object(j);
}
