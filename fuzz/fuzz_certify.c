/* fuzz_certify: certification (libggufsafe_certify, what `ggufsafe certify` runs) on the
 * payload, from memory, through the public API only (include/ggufsafe_certify.h). Oracles:
 *   - "not a GGUF at all" (exit 2) exactly when the reader's lenient open fails on the magic or
 *     the environment; otherwise every check runs and the exit code is 0 or 1;
 *   - the verdict agrees with the reader: when a normal open under the certified profile fails
 *     with status S, the run has an error finding "reader.S" breaking that profile, and exit 1;
 *     exit 0 only for files the reader opens under that profile;
 *   - every finding is well formed: a code of the table, profiles within {strict, lenient},
 *     part 0 or none, an offset inside the input or none, a bounded name, and a message
 *     without control bytes;
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

/* A sink that collects the report in memory, as a binding would. */
typedef struct buffer {
    char *data;
    size_t len, cap;
} buffer;

static int collect(void *ctx, const void *data, size_t n)
{
    buffer *b = ctx;
    if (n > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->len < n) {
            cap *= 2;
        }
        char *p = realloc(b->data, cap);
        if (p == NULL) {
            return 12; /* ENOMEM */
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    return 0;
}

typedef gs_status (*render_fn)(const gs_certify *r, const gs_sink *sink, gs_error *err);

/* The report in a heap buffer (the caller frees it). */
static char *render(render_fn fn, const gs_certify *r, size_t *n)
{
    buffer b = {NULL, 0, 0};
    gs_sink sink;
    gs_sink_init(&sink, collect, &b);
    gs_error err;
    gs_status st = fn(r, &sink, &err);
    FUZZ_ASSERT_MSG(st == GS_OK, "rendering: %s: %s", gs_status_name(st), err.detail);
    FUZZ_ASSERT(b.len > 0);
    *n = b.len;
    return b.data;
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
    const bool not_gguf = lenient != GS_OK && (lenient == GS_E_BAD_MAGIC || (int)lenient < 20);
    FUZZ_ASSERT_MSG(not_gguf ? st == lenient && r == NULL : st == GS_OK && r != NULL,
                    "gs_certify_memory %s, reader says %s", gs_status_name(st),
                    gs_status_name(lenient));
    if (st != GS_OK) {
        return NULL;
    }
    gs_certify_summary sum = {.struct_size = sizeof sum};
    FUZZ_ASSERT(gs_certify_get_summary(r, &sum) == GS_OK);
    const bool certified = sum.verdict.certified;

    const unsigned bit = opt->profile == GS_PROFILE_STRICT ? GS_CERTIFY_STRICT : GS_CERTIFY_LENIENT;
    if (reader != GS_OK) {
        FUZZ_ASSERT_MSG(!certified, "certified a file the reader rejects with %s",
                        gs_status_name(reader));
        FUZZ_ASSERT_MSG(has_reader_error(r, &sum, reader, bit), "no reader.%s finding",
                        gs_status_name(reader));
    }
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
