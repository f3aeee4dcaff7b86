/* fuzz_certify: certification (libggufsafe_certify, what `ggufsafe certify` runs) on the
 * payload, from memory, through the public API only (include/ggufsafe_certify.h). Oracles:
 *   - a report for every input (a file that is not GGUF included): gs_certify_memory fails only
 *     when the reader's lenient open fails on the environment, never on the file's contents;
 *   - the verdict agrees with the reader: when a normal open under the certified profile fails
 *     with status S, the run has an error finding "reader.S" breaking that profile (for a bad
 *     magic or an empty input: reader.not_gguf, first), and exit 1; exit 0 only for files the
 *     reader opens under that profile;
 *   - every finding is well formed: a code of the table, profiles within {strict, lenient},
 *     part 0 or none, an offset inside the input or none, a bounded name, a message without
 *     control bytes, a hint, and its help "docs/certify.md#<code>";
 *   - report order: a consequence comes after its cause, which is no consequence itself; the
 *     other findings are errors, then warnings, then notes (under the run's profile), after the
 *     findings that say what happened to the file; the verdict's sentence is printable text
 *     and names the first finding when the run is not certified;
 *   - the three reports render, and the JSON and SARIF ones are UTF-8 without raw control
 *     bytes (everything quoted from the file is escaped);
 *   - with the deep scan, the JSON report is the same with one thread and with two (the
 *     report is deterministic whatever --jobs says).
 *
 * Trailer (fuzz_common.h), tail[0] bits:
 *   0: certify for the strict profile (otherwise lenient);
 *   1: the deep scan (every block of every tensor), once with 1 thread and once with 2;
 *   2: fail on warnings. */
#include <stdio.h>

#include "fuzz_common.h"
#include "ggufsafe_certify.h"

#define BIT_STRICT 0x01u
#define BIT_DEEP 0x02u
#define BIT_FAIL_ON_WARNING 0x04u
#define BOTH (GS_CERTIFY_STRICT | GS_CERTIFY_LENIENT)

/* UTF-8 without a raw control byte other than the newline, nor any other character the
 * escaping rule hides (C1, bidi controls, invisible format characters): text, JSON and SARIF. */
static void check_report_text(const char *s, size_t n, const char *what)
{
    FUZZ_ASSERT_MSG(fuzz_text_safe((const uint8_t *)s, n),
                    "%s report: not UTF-8, or a raw control or hidden character", what);
}

typedef gs_status (*render_fn)(const gs_certify *r, const gs_sink *sink, gs_error *err);

/* The report in a heap buffer (the caller frees it). */
static char *render(render_fn fn, const gs_certify *r, size_t *n)
{
    fuzz_buffer b = {NULL, 0, 0};
    gs_sink sink;
    gs_sink_init(&sink, fuzz_buffer_collect, &b);
    gs_error err;
    gs_status st = fn(r, &sink, &err);
    FUZZ_ASSERT_MSG(st == GS_OK, "rendering: %s: %s", gs_status_name(st), err.detail);
    FUZZ_ASSERT(b.len > 0);
    *n = b.len;
    return (char *)b.data;
}

static void check_finding(const gs_certify_finding *f, size_t size)
{
    gs_certify_code row = {.struct_size = sizeof row};
    FUZZ_ASSERT_MSG(gs_certify_code_find(f->code, &row) == GS_OK, "unknown code %s", f->code);
    FUZZ_ASSERT_MSG((f->profiles & ~BOTH) == 0, "%s: profiles %#x", f->code, f->profiles);
    FUZZ_ASSERT_MSG(f->part == 0 || f->part == GS_CERTIFY_NO_PART, "%s: part %u", f->code,
                    (unsigned)f->part);
    FUZZ_ASSERT_MSG(f->offset == GS_CERTIFY_NO_OFFSET || f->offset <= size,
                    "%s: offset %llu past the %zu-byte input", f->code,
                    (unsigned long long)f->offset, size);
    FUZZ_ASSERT_MSG(f->name_len <= GS_CERTIFY_NAME_MAX, "%s: name of %zu bytes kept", f->code,
                    f->name_len);
    FUZZ_ASSERT_MSG(f->subject == GS_CERTIFY_SUBJECT_NONE || f->name != NULL || f->name_len == 0,
                    "%s: subject without a name", f->code);
    FUZZ_ASSERT(f->message != NULL);
    FUZZ_ASSERT_MSG(fuzz_text_safe((const uint8_t *)f->message, strlen(f->message)) &&
                        strchr(f->message, '\n') == NULL,
                    "%s: a raw control or hidden character in the message", f->code);
    FUZZ_ASSERT_MSG(f->hint != NULL && strlen(f->hint) > 10, "%s: no hint", f->code);
    char help[96];
    snprintf(help, sizeof help, "docs/certify.md#%s", f->code);
    FUZZ_ASSERT_MSG(f->help != NULL && strcmp(f->help, help) == 0, "%s: help %s", f->code,
                    f->help != NULL ? f->help : "(null)");
}

static bool situation(const char *code)
{
    return strcmp(code, "reader.not_gguf") == 0 || strcmp(code, "layout.metadata_truncated") == 0 ||
           strcmp(code, "layout.truncated") == 0 || strcmp(code, "split.part_missing") == 0;
}

/* Causes before consequences; situations, then errors, warnings and notes. */
static void check_order(const gs_certify *r, const gs_certify_summary *sum)
{
    int last_group = 0;
    for (size_t i = 0; i < sum->finding_count; i++) {
        gs_certify_finding f = {.struct_size = sizeof f};
        FUZZ_ASSERT(gs_certify_finding_at(r, i, &f) == GS_OK);
        if (f.caused_by != GS_CERTIFY_NO_CAUSE) {
            FUZZ_ASSERT_MSG(f.caused_by < i, "%s at %zu: cause %zu after it", f.code, i,
                            f.caused_by);
            gs_certify_finding c = {.struct_size = sizeof c};
            FUZZ_ASSERT(gs_certify_finding_at(r, f.caused_by, &c) == GS_OK);
            FUZZ_ASSERT_MSG(c.caused_by == GS_CERTIFY_NO_CAUSE, "%s: its cause %s has a cause",
                            f.code, c.code);
            continue;
        }
        int group = situation(f.code) ? 0 : 3 - (int)f.effective;
        FUZZ_ASSERT_MSG(group >= last_group, "%s (%s) at %zu after a later group", f.code,
                        gs_certify_severity_name(f.effective), i);
        last_group = group;
    }
    const char *v = sum->verdict_sentence;
    FUZZ_ASSERT(v != NULL && strlen(v) > 5);
    for (const char *c = v; *c != '\0'; c++) {
        FUZZ_ASSERT_MSG((unsigned char)*c >= 0x20 && *c != 0x7f, "control byte in the verdict");
    }
    if (!sum->verdict.certified) {
        FUZZ_ASSERT_MSG(sum->root_cause == 0, "not certified, root cause %zu", sum->root_cause);
    }
}

/* The first finding is reader.not_gguf. */
static bool starts_not_gguf(const gs_certify *r, const gs_certify_summary *sum)
{
    gs_certify_finding f = {.struct_size = sizeof f};
    return sum->finding_count > 0 && gs_certify_finding_at(r, 0, &f) == GS_OK &&
           strcmp(f.code, "reader.not_gguf") == 0;
}

/* The reader's verdict on the payload under profile, as certify's reader options give it. */
static gs_status reader_verdict(const fuzz_input *in, gs_profile profile)
{
    gs_options o;
    gs_options_init(&o);
    o.profile = profile;
    gs_file *f = NULL;
    gs_status st = gs_open_memory(in->data, in->size, &o, &f, NULL);
    gs_close(f);
    return st;
}

static bool has_reader_error(const gs_certify *r, const gs_certify_summary *sum, gs_status st,
                             unsigned profile_bit)
{
    char code[64];
    snprintf(code, sizeof code, "reader.%s", gs_status_name(st));
    if (st == GS_E_UNKNOWN_TENSOR_TYPE) {
        /* the reader lists such a tensor in diagnostic mode; certify names it by its own code */
        snprintf(code, sizeof code, "compat.unknown_type");
    }
    for (size_t i = 0; i < sum->finding_count; i++) {
        gs_certify_finding f = {.struct_size = sizeof f};
        FUZZ_ASSERT(gs_certify_finding_at(r, i, &f) == GS_OK);
        if (strcmp(f.code, code) == 0 && (f.profiles & profile_bit) != 0) {
            return true;
        }
    }
    /* kept findings are capped per code: an omitted one counts too */
    for (size_t i = 0; i < sum->tally_count; i++) {
        gs_certify_tally t = {.struct_size = sizeof t};
        FUZZ_ASSERT(gs_certify_tally_at(r, i, &t) == GS_OK);
        if (strcmp(t.code, code) == 0 && (t.profiles & profile_bit) != 0) {
            return true;
        }
    }
    return false;
}

/* One certification run, held to the reader's verdicts on the payload (lenient, and under the
 * certified profile); returns its JSON report, or NULL when the payload is not a GGUF at all. */
static char *certify(const fuzz_input *in, gs_status lenient, gs_status reader,
                     const gs_certify_options *opt, size_t *json_len)
{
    gs_certify *r;
    gs_error err;
    const gs_status st = gs_certify_memory(in->data, in->size, "fuzz.gguf", opt, &r, &err);
    const bool environment = lenient != GS_OK && (int)lenient < 20;
    FUZZ_ASSERT_MSG(environment ? st == lenient && r == NULL : st == GS_OK && r != NULL,
                    "gs_certify_memory %s, reader says %s", gs_status_name(st),
                    gs_status_name(lenient));
    if (st != GS_OK) {
        return NULL;
    }
    gs_certify_summary sum = {.struct_size = sizeof sum};
    FUZZ_ASSERT(gs_certify_get_summary(r, &sum) == GS_OK);
    const bool certified = sum.verdict.certified;

    const unsigned bit = opt->profile == GS_PROFILE_STRICT ? GS_CERTIFY_STRICT : GS_CERTIFY_LENIENT;
    const bool not_gguf = lenient == GS_E_BAD_MAGIC || in->size == 0;
    FUZZ_ASSERT_MSG(not_gguf == starts_not_gguf(r, &sum), "not GGUF: %d, reader says %s",
                    (int)not_gguf, gs_status_name(lenient));
    if (reader != GS_OK) {
        FUZZ_ASSERT_MSG(!certified, "certified a file the reader rejects with %s",
                        gs_status_name(reader));
        FUZZ_ASSERT_MSG(not_gguf || has_reader_error(r, &sum, reader, bit),
                        "no reader.%s finding", gs_status_name(reader));
    }
    check_order(r, &sum);
    for (size_t i = 0; i < sum.finding_count; i++) {
        gs_certify_finding f = {.struct_size = sizeof f};
        FUZZ_ASSERT(gs_certify_finding_at(r, i, &f) == GS_OK);
        check_finding(&f, in->size);
    }

    size_t n;
    char *text = render(gs_certify_write_text, r, &n);
    check_report_text(text, n, "text");
    free(text);
    char *sarif = render(gs_certify_write_sarif, r, &n);
    check_report_text(sarif, n, "SARIF");
    free(sarif);
    char *json = render(gs_certify_write_json, r, json_len);
    check_report_text(json, *json_len, "JSON");
    gs_certify_free(r);
    return json;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_input in = fuzz_split(data, size);
    gs_certify_options opt;
    gs_certify_options_init(&opt);
    opt.profile = (in.tail[0] & BIT_STRICT) != 0 ? GS_PROFILE_STRICT : GS_PROFILE_LENIENT;
    opt.deep = (in.tail[0] & BIT_DEEP) != 0;
    opt.fail_on = (in.tail[0] & BIT_FAIL_ON_WARNING) != 0 ? GS_CERTIFY_WARNING : GS_CERTIFY_ERROR;
    opt.jobs = 1;

    size_t n1 = 0;
    /* the reader's verdicts, once for both runs */
    const gs_status lenient = reader_verdict(&in, GS_PROFILE_LENIENT);
    const gs_status reader =
        opt.profile == GS_PROFILE_STRICT ? reader_verdict(&in, GS_PROFILE_STRICT) : lenient;
    char *json1 = certify(&in, lenient, reader, &opt, &n1);
    if (json1 != NULL && opt.deep) {
        opt.jobs = 2;
        size_t n2 = 0;
        char *json2 = certify(&in, lenient, reader, &opt, &n2);
        FUZZ_ASSERT(json2 != NULL);
        FUZZ_ASSERT_MSG(n1 == n2 && memcmp(json1, json2, n1) == 0,
                        "the JSON report differs between 1 and 2 threads");
        free(json2);
    }
    free(json1);
    return 0;
}
