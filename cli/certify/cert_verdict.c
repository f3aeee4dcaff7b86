/* The verdict in one sentence a person understands, the first line of every report: what state
 * the file is in, from the root cause (the first finding in report order, cert_order.c) and the
 * counts. Its wording is data here; the numbers come from the run. Anything from a path or the
 * file is escaped. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cert.h"
#include "num_format.h"
#include "text_out.h"

static void say(cert_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(cert_run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->verdict, sizeof r->verdict, fmt, ap);
    va_end(ap);
}

static size_t find(const cert_run *r, const char *code)
{
    for (size_t i = 0; i < r->findings.n; i++) {
        if (strcmp(r->findings.items[i].code, code) == 0) {
            return i;
        }
    }
    return CERT_NO_CAUSE;
}

/* "part 3 of 5, `model-00003-of-00005.gguf`," of a set's part, escaped; "" for a single file. */
static void part_words(const cert_run *r, uint32_t p, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (!r->is_set || p >= r->n_parts) {
        return;
    }
    char label[4 * 256 + 8];
    cli_escape_cut(label, sizeof label, r->parts[p].label, strlen(r->parts[p].label), 256);
    snprintf(buf, cap, "part %u of %zu, `%s`,", p + 1, r->n_parts, label);
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static void certified(cert_run *r, const uint64_t counts[3])
{
    size_t risk = find(r, "meta.chat_template_risk");
    size_t absent = find(r, "layout.data_absent");
    char n[CLI_NUM_BUF];
    if (risk != CERT_NO_CAUSE) {
        r->root_cause = risk;
        say(r, "usable, but its chat template can run code if rendered unsandboxed: render it "
               "only with llama.cpp's template engine or in a sandbox");
    } else if (absent != CERT_NO_CAUSE) {
        r->root_cause = absent;
        say(r, "metadata sound: the tensor data is not in this file (a metadata-only check); "
               "certify the complete file before using it");
    } else if (r->findings.baseline_suppressed > 0 && counts[CERT_WARNING] == 0) {
        cli_format_count(n, r->findings.baseline_suppressed);
        say(r, "no new problems: the %s %s the baseline has %s not counted (certify without "
               "--baseline for the file's own state)",
            n, plural(r->findings.baseline_suppressed, "finding", "findings"),
            plural(r->findings.baseline_suppressed, "is", "are"));
    } else if (counts[CERT_WARNING] > 0) {
        cli_format_count(n, counts[CERT_WARNING]);
        say(r, "usable: no errors, %s %s worth reading below", n,
            plural(counts[CERT_WARNING], "warning", "warnings"));
    } else if (counts[CERT_INFO] > 0) {
        cli_format_count(n, counts[CERT_INFO]);
        say(r, "sound: no problems found (%s %s, for information)", n,
            plural(counts[CERT_INFO], "note", "notes"));
    } else {
        say(r, "sound: no problems found");
    }
}

static void truncated(cert_run *r, const cert_finding *f, const char *part)
{
    const cert_part *p = &r->parts[f->part];
    const gs_layout *l = &p->layout;
    char have[CLI_NUM_BUF], want[CLI_NUM_BUF];
    cli_format_count(have, l->file_size);
    cli_format_count(want, l->described_size);
    bool header_only = gs_tensor_count(p->file) > 0 &&
                       l->tensors_outside == gs_tensor_count(p->file);
    const char *meta = header_only ? "; it holds the metadata only (certify --metadata-only "
                                     "checks that)"
                                   : "";
    if (l->described_size == UINT64_MAX) {
        say(r, "incomplete download%s%s: the file ends at byte %s, before the data its header "
               "describes%s",
            part[0] ? ": " : "", part, have, meta);
    } else if (part[0] != '\0') {
        say(r, "incomplete download: %s has %s of the %s bytes its header describes%s", part,
            have, want, meta);
    } else {
        say(r, "incomplete download: %s of the %s bytes the header describes%s", have, want,
            meta);
    }
}

static void not_certified(cert_run *r, const uint64_t counts[3])
{
    /* the first finding that counts: the baseline's do not */
    size_t first = 0;
    while (first < r->findings.n && r->findings.items[first].baselined) {
        first++;
    }
    if (first == r->findings.n) {
        first = 0; /* only left-out findings count: name the first one kept */
    }
    const cert_finding *f = &r->findings.items[first];
    r->root_cause = first;
    char part[4 * 256 + 64];
    part_words(r, f->part, part, sizeof part);
    const cert_part *p = f->part < r->n_parts ? &r->parts[f->part] : NULL;
    if (strcmp(f->code, "reader.not_gguf") == 0 && p != NULL) {
        const gs_detected *d = &p->detected;
        char holding[96] = "";
        if (d->inner != GS_FORMAT_UNKNOWN) {
            snprintf(holding, sizeof holding, " holding a %s file", gs_format_name(d->inner));
        }
        /* an archive says how to get at what it holds; the others' advice is in the finding */
        char advice[256] = "";
        if (d->container) {
            snprintf(advice, sizeof advice, ": %s", d->advice);
        }
        if (part[0] != '\0') {
            say(r, "split set unusable: %s is not a GGUF file: it is %s%s%s", part,
                d->description, holding, advice);
        } else {
            say(r, "not a GGUF file: this is %s%s%s", d->description, holding, advice);
        }
    } else if (strcmp(f->code, "layout.metadata_truncated") == 0 && p != NULL) {
        char at[CLI_NUM_BUF];
        cli_format_count(at, p->detected.file_size);
        say(r, "incomplete download: %s ends at byte %s, inside its %s",
            part[0] ? part : "the file", at,
            cert_metadata_section(&p->lenient_err, p->detected.file_size));
    } else if (strcmp(f->code, "layout.truncated") == 0 && p != NULL) {
        truncated(r, f, part);
    } else if (strcmp(f->code, "split.part_missing") == 0) {
        say(r, "split set incomplete: %s is missing", part);
    } else if (cert_is_reader_code(f, GS_E_BYTE_SWAPPED)) {
        say(r, "not readable as it is: a big-endian GGUF file; convert a copy to little-endian "
               "first");
    } else {
        cert_code row;
        const char *what = cert_code_row(f->code, &row) ? row.summary : f->code;
        uint64_t errors = counts[CERT_ERROR];
        uint64_t shown = errors > 0 ? errors : counts[CERT_WARNING];
        char n[CLI_NUM_BUF + 48] = "";
        if (shown > 1) {
            char c[CLI_NUM_BUF];
            cli_format_count(c, shown);
            snprintf(n, sizeof n, "%s %s, the first: ", c,
                     errors > 0 ? "errors" : "warnings");
        }
        bool runs_off = cert_is_reader_code(f, GS_E_COUNT_EXCEEDS_FILE) ||
                        cert_is_reader_code(f, GS_E_STRING_EXCEEDS_FILE) ||
                        cert_is_reader_code(f, GS_E_TRUNCATED);
        if (errors == 0) {
            say(r, "not certified (warnings fail): %s%s", n, what);
        } else if (runs_off) {
            say(r, "damaged or crafted, do not load it: %s%s", n, what);
        } else if ((f->profiles & CERT_LENIENT) != 0) {
            say(r, "unsafe to load: %s%s", n, what);
        } else {
            say(r, "not certified, llama.cpp or the GGUF spec refuses it: %s%s", n, what);
        }
    }
}

void cert_verdict(cert_run *r)
{
    uint64_t counts[3];
    cert_count(&r->findings, r->opt.profile, counts);
    r->root_cause = CERT_NO_CAUSE;
    if (cert_exit_code(r) == 0 || r->findings.n == 0) {
        certified(r, counts);
    } else {
        not_certified(r, counts);
    }
}
