/* The public face of certification (include/ggufsafe_certify.h): a report is a finished run
 * (cert.h); the accessors copy its data into the caller's sized structs, and the writers render
 * it through a buffered sink. */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "cert.h"
#include "cert_render.h"


void gs_certify_options_init(gs_certify_options *opts)
{
    if (opts != NULL) {
        *opts = (gs_certify_options){.struct_size = sizeof *opts, .profile = GS_PROFILE_STRICT,
                                     .fail_on = GS_CERTIFY_ERROR, .jobs = 1};
    }
}

/* The caller's options over the defaults, checked. */
static gs_status resolve(const gs_certify_options *given, gs_certify_options *o, gs_error *err)
{
    gs_certify_options_init(o);
    gs_status st = cli_take_options(o, sizeof *o, given,
                                    CLI_MIN_SIZE(gs_certify_options, progress_ctx),
                                    "gs_certify_options", err);
    if (st == GS_OK && ((o->profile != GS_PROFILE_STRICT && o->profile != GS_PROFILE_LENIENT) ||
                        (o->fail_on != GS_CERTIFY_ERROR && o->fail_on != GS_CERTIFY_WARNING))) {
        st = gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                      "gs_certify_options: profile or fail_on outside its enum");
    }
    return st == GS_OK && o->deep ? cli_kernel_usable(err) : st;
}

/* Opens (path, or data when path is NULL) and runs every check. */
static gs_status run(const char *path, const void *data, size_t size, const char *label,
                     const gs_certify_options *opts, gs_certify **out, gs_error *err)
{
    if (out == NULL) {
        return cli_null_argument(err);
    }
    *out = NULL;
    gs_certify_options o;
    gs_status st = resolve(opts, &o, err);
    if (st != GS_OK) {
        return st;
    }
    cert_run *r = malloc(sizeof *r);
    if (r == NULL) {
        const char *what = path != NULL ? path : label;
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_PART,
                        (const uint8_t *)what, strlen(what),
                        "certification");
    }
    st = path != NULL ? cert_open(r, path, &o, err)
                      : cert_open_memory(r, data, size, label, &o, err);
    if (st == GS_OK) {
        st = cert_check(r);
        if (st != GS_OK && r->failure.status == st) {
            if (err != NULL) {
                *err = r->failure;
            }
        } else if (st == GS_E_NO_MEMORY) {
            gsi_fail(err, st, 0, GS_CONTEXT_PART, (const uint8_t *)r->path, strlen(r->path),
                     "certification ran out of memory");
        } else if (st != GS_OK) {
            gsi_fail(err, st, 0, GS_CONTEXT_PART, (const uint8_t *)r->path, strlen(r->path),
                     "finding code %s is not in the table", r->findings.bad_code);
        }
    }
    if (st != GS_OK) {
        cert_close(r);
        free(r);
        return st;
    }
    *out = r;
    return GS_OK;
}

gs_status gs_certify_path(const char *path, const gs_certify_options *opts, gs_certify **out,
                          gs_error *err)
{
    if (path == NULL) {
        if (out != NULL) {
            *out = NULL;
        }
        return cli_null_argument(err);
    }
    return run(path, NULL, 0, NULL, opts, out, err);
}

gs_status gs_certify_memory(const void *data, size_t size, const char *label,
                            const gs_certify_options *opts, gs_certify **out, gs_error *err)
{
    if (data == NULL && size > 0) {
        if (out != NULL) {
            *out = NULL;
        }
        return cli_null_argument(err);
    }
    return run(NULL, data != NULL ? data : "", size, label != NULL ? label : "-", opts, out,
               err);
}

void gs_certify_free(gs_certify *report)
{
    if (report != NULL) {
        cert_close(report);
        free(report);
    }
}

/* ---- the verdict ------------------------------------------------------------------------- */

static void verdict(const cert_run *r, gs_profile profile, gs_certify_severity fail_on,
                    gs_certify_verdict *v)
{
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    cert_count(&r->findings, profile, v->counts);
    v->certified = v->counts[CERT_ERROR] == 0 &&
                   (fail_on != CERT_WARNING || v->counts[CERT_WARNING] == 0);
}

gs_status gs_certify_verdict_for(const gs_certify *report, gs_profile profile,
                                 gs_certify_severity fail_on, gs_certify_verdict *out)
{
    if (report == NULL || (profile != GS_PROFILE_STRICT && profile != GS_PROFILE_LENIENT) ||
        (fail_on != GS_CERTIFY_INFO && fail_on != GS_CERTIFY_WARNING &&
         fail_on != GS_CERTIFY_ERROR)) {
        return GS_E_INVALID_ARGUMENT;
    }
    gs_certify_verdict v;
    verdict(report, profile, fail_on, &v);
    if (fail_on == GS_CERTIFY_INFO) {
        v.certified = v.certified && v.counts[CERT_INFO] == 0;
    }
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_certify_verdict, counts));
}

gs_status gs_certify_get_summary(const gs_certify *report, gs_certify_summary *out)
{
    if (report == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    const cert_run *r = report;
    gs_certify_summary s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    s.path = r->path;
    s.profile = r->opt.profile;
    s.fail_on = r->opt.fail_on;
    s.deep = r->opt.deep;
    s.is_set = r->is_set;
    verdict(r, r->opt.profile, r->opt.fail_on, &s.verdict);
    s.kind = cert_kind_name(r->kind);
    s.architecture = (gs_str){r->arch, r->arch != NULL ? r->arch_len : 0};
    s.general_type = (gs_str){r->general_type, r->general_type != NULL ? r->general_type_len : 0};
    s.part_count = r->n_parts;
    s.finding_count = r->findings.n;
    s.tally_count = r->findings.n_codes;
    s.stats_count = r->n_stats;
    s.verdict_sentence = r->verdict;
    s.root_cause = r->root_cause;
    s.read_failed = r->read_failed;
    s.policy_ignored = r->findings.policy_ignored;
    s.policy_changed = r->findings.policy_changed;
    s.baseline_suppressed = r->findings.baseline_suppressed;
    s.baseline_new = r->opt.baseline != NULL ? r->findings.n - r->findings.baseline_suppressed : 0;
    return cli_copy_out(out, &s, sizeof s, CLI_MIN_SIZE(gs_certify_summary, stats_count));
}

/* ---- parts, findings, tallies, statistics ------------------------------------------------ */

gs_status gs_certify_part_at(const gs_certify *report, size_t i, gs_certify_part *out)
{
    gs_status st = cli_index(report, i, report != NULL ? report->n_parts : 0);
    if (st != GS_OK) {
        return st;
    }
    const cert_part *p = &report->parts[i];
    gs_certify_part v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    v.path = p->path;
    v.label = p->label;
    v.state = p->file != NULL    ? GS_CERTIFY_PART_READ
              : p->missing       ? GS_CERTIFY_PART_MISSING
              : p->same_as != 0  ? GS_CERTIFY_PART_SAME_FILE
                                 : GS_CERTIFY_PART_REJECTED;
    if (p->file != NULL) {
        v.version = gs_file_version(p->file);
        v.file_size = p->layout.file_size;
        v.kv_count = gs_kv_count(p->file);
        v.tensor_count = gs_tensor_count(p->file);
    } else {
        v.error = p->lenient_err;
    }
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_certify_part, error));
}

gs_status gs_certify_finding_at(const gs_certify *report, size_t i, gs_certify_finding *out)
{
    gs_status st = cli_index(report, i, report != NULL ? report->findings.n : 0);
    if (st != GS_OK) {
        return st;
    }
    const cert_finding *f = &report->findings.items[i];
    gs_certify_finding v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    v.code = f->code;
    v.severity = f->severity;
    v.effective = cert_effective(f->severity, f->profiles, report->opt.profile);
    v.profiles = f->profiles;
    v.part = f->part;
    v.offset = f->offset;
    v.subject = f->subject;
    v.name = f->name;
    v.name_len = f->name_len;
    v.name_cut = f->name_cut;
    v.name_is_text = f->name_is_text;
    v.message = f->message;
    v.hint = f->hint;
    v.help = f->help;
    v.caused_by = f->caused_by;
    v.baselined = f->baselined;
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_certify_finding, message));
}

gs_status gs_certify_tally_at(const gs_certify *report, size_t i, gs_certify_tally *out)
{
    gs_status st = cli_index(report, i, report != NULL ? report->findings.n_codes : 0);
    if (st != GS_OK) {
        return st;
    }
    const cert_omitted *c = &report->findings.codes[i];
    gs_certify_tally v = {sizeof v, c->code, c->severity, c->profiles, c->kept, c->omitted};
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_certify_tally, omitted));
}

gs_status gs_certify_stats_at(const gs_certify *report, size_t i, gs_certify_stats *out)
{
    gs_status st = cli_index(report, i, report != NULL ? report->n_stats : 0);
    if (st != GS_OK) {
        return st;
    }
    gs_certify_stats v = report->stats[i].pub;
    v.struct_size = sizeof v;
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_certify_stats, sum));
}

/* ---- the code table ----------------------------------------------------------------------- */

size_t gs_certify_code_count(void)
{
    return cert_code_count;
}

static gs_status code_out(const cert_code *c, gs_certify_code *out)
{
    gs_certify_code v = {sizeof v, c->code, c->severity, c->profiles, c->summary, c->hint,
                         c->help};
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_certify_code, summary));
}

gs_status gs_certify_code_at(size_t i, gs_certify_code *out)
{
    gs_status st = cli_index(out, i, out != NULL ? cert_code_count : 0);
    if (st != GS_OK) {
        return st;
    }
    return code_out(&cert_codes[i], out);
}

gs_status gs_certify_code_find(const char *code, gs_certify_code *out)
{
    if (code == NULL || out == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    cert_code row;
    if (!cert_code_row(code, &row)) {
        return GS_E_NOT_FOUND;
    }
    /* reader.GS_E_X: the reader row, with that status's summary, hint and help */
    return code_out(&row, out);
}

const char *gs_certify_severity_name(gs_certify_severity severity)
{
    switch (severity) {
    case GS_CERTIFY_INFO:
    case GS_CERTIFY_WARNING:
    case GS_CERTIFY_ERROR:
        return cert_severity_name(severity);
    }
    return "unknown";
}

/* ---- renderings --------------------------------------------------------------------------- */

typedef void (*render_fn)(cli_out *out, const cert_run *r);

static gs_status write_with(render_fn fn, const gs_certify *report, const gs_sink *sink,
                            gs_error *err)
{
    gs_status st;
    cli_out *out = cli_out_open(report != NULL, "report", sink, &st, err);
    if (out != NULL) {
        fn(out, report);
    }
    return cli_out_close(out, st, err);
}

gs_status gs_certify_write_text(const gs_certify *report, const gs_sink *sink, gs_error *err)
{
    return write_with(cert_render_text, report, sink, err);
}

gs_status gs_certify_write_json(const gs_certify *report, const gs_sink *sink, gs_error *err)
{
    return write_with(cert_render_json, report, sink, err);
}

gs_status gs_certify_write_sarif(const gs_certify *report, const gs_sink *sink, gs_error *err)
{
    return write_with(cert_render_sarif, report, sink, err);
}
