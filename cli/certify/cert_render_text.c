/* The text report, for a person: the verdict in one sentence, what was certified, then every
 * finding in report order (the root cause first): its severity, code and place, the message,
 * and, the first time its code appears, which readers it affects in plain words and the hint
 * with the code's documentation; the findings that follow from it listed under it, a line
 * each. Then the findings left out, the deep scan's totals and the counts. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "cert_render.h"
#include "text_out.h"

const char *cert_render_summary(const char *code)
{
    cert_code row;
    return cert_code_row(code, &row) ? row.summary : "";
}

const char *cert_render_affects(unsigned profiles)
{
    switch (profiles & CERT_BOTH) {
    case CERT_BOTH:
        return "every reader (it fails both the strict and the lenient check)";
    case CERT_STRICT:
        return "llama.cpp or readers that follow the GGUF spec strictly (it fails the strict "
               "check only)";
    case CERT_LENIENT:
        return "readers that check only what memory-safe use needs (it fails the lenient "
               "check only)";
    default:
        return "no reader: for information";
    }
}

const char *cert_sarif_level(cert_severity s)
{
    /* SARIF says "note" where a finding says "info" */
    return s == CERT_ERROR || s == CERT_WARNING ? cert_severity_name(s) : "note";
}

void cert_render_location(const cert_run *r, const cert_finding *f, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    if (r->is_set && f->part != CERT_NO_PART) {
        n += (size_t)snprintf(buf + n, cap - n, "part %u", f->part + 1);
    }
    if (f->offset != CERT_NO_OFFSET && n < cap) {
        n += (size_t)snprintf(buf + n, cap - n, "%sbyte %" PRIu64, n ? ", " : "", f->offset);
    }
    if (f->subject != CERT_SUBJECT_NONE && n < cap) {
        char name[4 * CERT_NAME_MAX + 8];
        if (f->name_is_text) {
            snprintf(name, sizeof name, "%.*s", (int)f->name_len, (const char *)f->name);
        } else {
            cli_escape_cut(name, sizeof name, f->name, f->name_len, CERT_NAME_MAX);
        }
        n += (size_t)snprintf(buf + n, cap - n, "%s%s '%s%s'", n ? ", " : "",
                              f->subject == CERT_SUBJECT_KEY ? "key" : "tensor", name,
                              f->name_cut ? "\xe2\x80\xa6" : "");
    }
}

static const char *noun(cert_severity s, uint64_t n)
{
    switch (s) {
    case CERT_ERROR: return n == 1 ? "error" : "errors";
    case CERT_WARNING: return n == 1 ? "warning" : "warnings";
    case CERT_INFO: return n == 1 ? "note" : "notes";
    }
    return "";
}

static void header(cli_out *out, const cert_run *r)
{
    char path[4 * 1024 + 8];
    cli_escape_cut(path, sizeof path, r->path, strlen(r->path), 1024);
    cli_out_printf(out, "verdict: %s\n\n", r->verdict);
    cli_out_printf(out, "certify:  %s\n", path);
    cli_out_printf(out, "profile:  %s%s, deep scan %s%s, ggufsafe %s\n",
                   r->opt.profile == GS_PROFILE_LENIENT ? "lenient" : "strict",
                   r->opt.fail_on == CERT_WARNING ? " (warnings fail)" : "",
                   r->opt.deep ? "yes" : "no", r->opt.metadata_only ? ", metadata only" : "",
                   gs_version());
    for (size_t p = 0; p < r->n_parts; p++) {
        const cert_part *part = &r->parts[p];
        char label[4 * 256 + 8];
        cli_escape_cut(label, sizeof label, part->label, strlen(part->label), 256);
        if (r->is_set) {
            cli_out_printf(out, "part %zu:   %s: ", p + 1, label);
        } else {
            cli_out_printf(out, "file:     ");
        }
        if (part->not_gguf) {
            cli_out_printf(out, "not a GGUF file (%s), %" PRIu64 " bytes\n", part->detected.name,
                           part->detected.file_size);
            continue;
        }
        if (part->file == NULL && part->same_as != 0) {
            cli_out_printf(out, "the file of part %u again\n", part->same_as);
            continue;
        }
        if (part->file == NULL) {
            cli_out_printf(out, "%s\n", part->missing ? "cannot be opened"
                                                       : "rejected by the reader");
            continue;
        }
        cli_out_printf(out, "GGUF v%u, %zu key-values, %zu tensors, %" PRIu64 " bytes\n",
                       gs_file_version(part->file), gs_kv_count(part->file),
                       gs_tensor_count(part->file), part->layout.file_size);
    }
    if (cert_meta_file(r) != NULL) {
        char arch[4 * 64 + 8] = "no architecture";
        if (r->arch != NULL) {
            cli_escape_cut(arch, sizeof arch, r->arch, r->arch_len, 64);
        }
        cli_out_printf(out, "what:     %s (%s)\n", cert_kind_name(r->kind), arch);
    }
}

static void payload_summary(cli_out *out, const cert_run *r)
{
    if (!r->opt.deep) {
        cli_out_printf(out, "payload:  not scanned (--deep reads and checks every block)\n");
        return;
    }
    uint64_t scanned = 0, values = 0, nan = 0, inf = 0, bad = 0, zero = 0;
    for (size_t i = 0; i < r->n_stats; i++) {
        const gs_certify_stats *s = &r->stats[i].pub;
        if (!s->scanned) {
            continue;
        }
        scanned++;
        values += s->finite + s->nan + s->inf;
        nan += s->nan;
        inf += s->inf;
        bad += s->bad_scale_blocks;
        zero += s->blocks > 0 && s->zero_blocks == s->blocks;
    }
    cli_out_printf(out,
            "payload:  %" PRIu64 " of %zu tensors scanned, %" PRIu64 " values decoded: %" PRIu64
            " NaN, %" PRIu64 " Inf; %" PRIu64 " blocks with invalid scales; %" PRIu64
            " all-zero tensors\n",
            scanned, r->n_stats, values, nan, inf, bad, zero);
}

/* With a policy: what it did (without one, nothing: reports stay as they were). */
static void policy_summary(cli_out *out, const cert_run *r)
{
    if (r->opt.policy == NULL) {
        return;
    }
    size_t rules = gs_certify_policy_rule_count(r->opt.policy);
    cli_out_printf(out,
                   "policy:   %zu %s: %" PRIu64 " %s ignored, %" PRIu64 " re-graded (they count "
                   "as the policy says)\n",
                   rules, rules == 1 ? "rule" : "rules", r->findings.policy_ignored,
                   r->findings.policy_ignored == 1 ? "finding" : "findings",
                   r->findings.policy_changed);
}

/* With a baseline: how many findings it has (they count nowhere) and how many are new. */
static void baseline_summary(cli_out *out, const cert_run *r)
{
    if (r->opt.baseline == NULL) {
        return;
    }
    uint64_t in = r->findings.baseline_suppressed;
    cli_out_printf(out,
                   "baseline: %" PRIu64 " %s in the baseline (not counted), %" PRIu64 " new\n",
                   in, in == 1 ? "finding" : "findings", (uint64_t)r->findings.n - in);
}

/* The codes whose hint the report has shown: at most one per distinct code of the run. */
typedef struct shown {
    const char **codes;
    size_t n, cap;
} shown;

/* True the first time code is asked about (and remembers it); false after, or when there is no
 * room to remember (then every finding shows its hint). */
static bool first_time(shown *sh, const char *code)
{
    for (size_t k = 0; k < sh->n; k++) {
        if (strcmp(sh->codes[k], code) == 0) {
            return false;
        }
    }
    if (sh->n < sh->cap) {
        sh->codes[sh->n++] = code;
    }
    return true;
}

/* How many findings follow from finding i (they come right after it). */
static size_t consequences(const cert_findings *fs, size_t i)
{
    size_t n = 0;
    while (i + 1 + n < fs->n && fs->items[i + 1 + n].caused_by == i) {
        n++;
    }
    return n;
}

void cert_render_text(cli_out *out, const cert_run *r)
{
    header(out, r);
    payload_summary(out, r);
    policy_summary(out, r);
    baseline_summary(out, r);
    const cert_findings *fs = &r->findings;
    cli_out_printf(out, "\n");
    if (fs->n == 0) {
        cli_out_printf(out, "no findings\n");
    }
    shown sh = {cli_alloc_array(fs->n_codes, sizeof *sh.codes), 0, 0};
    sh.cap = sh.codes != NULL ? fs->n_codes : 0;
    for (size_t i = 0; i < fs->n; i++) {
        const cert_finding *f = &fs->items[i];
        cert_severity sev = cert_effective(f->severity, f->profiles, r->opt.profile);
        char where[4 * CERT_NAME_MAX + 128];
        cert_render_location(r, f, where, sizeof where);
        if (f->caused_by != CERT_NO_CAUSE) {
            cli_out_printf(out, "          - %s %s%s%s%s: %s\n", cert_severity_name(sev),
                           f->code, where[0] ? " at " : "", where,
                           f->baselined ? " (in the baseline)" : "", f->message);
            continue;
        }
        cli_out_printf(out, "%-7s %s%s%s%s\n        %s\n", cert_severity_name(sev), f->code,
                       where[0] ? " at " : "", where,
                       f->baselined ? " (in the baseline: not counted)" : "", f->message);
        if (first_time(&sh, f->code)) {
            cli_out_printf(out, "        affects: %s\n", cert_render_affects(f->profiles));
            cli_out_printf(out, "        hint: %s (%s)\n", f->hint, f->help);
        }
        size_t n = consequences(fs, i);
        if (n > 0) {
            cli_out_printf(out, "        because of it, %zu more %s:\n", n,
                           n == 1 ? "finding" : "findings");
        }
    }
    free(sh.codes);
    for (size_t i = 0; i < fs->n_codes; i++) {
        if (fs->codes[i].omitted > 0) {
            cli_out_printf(out, "(%" PRIu64 " more %s findings not shown)\n", fs->codes[i].omitted,
                           fs->codes[i].code);
        }
    }
    uint64_t counts[3];
    cert_count(fs, r->opt.profile, counts);
    bool ok = cert_exit_code(r) == 0;
    cli_out_printf(out, "\n%s (%s): %" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " %s\n",
                   ok ? "CERTIFIED" : "NOT CERTIFIED",
                   r->opt.profile == GS_PROFILE_LENIENT ? "lenient" : "strict", counts[CERT_ERROR],
                   noun(CERT_ERROR, counts[CERT_ERROR]), counts[CERT_WARNING],
                   noun(CERT_WARNING, counts[CERT_WARNING]), counts[CERT_INFO],
                   noun(CERT_INFO, counts[CERT_INFO]));
}
