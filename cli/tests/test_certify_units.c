/* The certification module on its own: docs/certify.md's finding-code table equals the code
 * table (code, severity, profiles, meaning); and a file that shrinks while it is scanned,
 * truncated to nothing after the first chunk, is reported by hash (GS_E_TRUNCATED at the chunk
 * that could not be read) and by certify --deep (a reader.GS_E_TRUNCATED finding), never a
 * SIGBUS or a crash, with one and with several threads. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cert_codes.h"
#include "cert_findings.h"
#include "cert_scales.h"
#include "cli_run.h"
#include "cli_test.h"
#include "ggufsafe_certify.h"
#include "gsw_write.h"
#include "manifest.h"

/* ---- docs/certify.md ------------------------------------------------------------------ */

static char *certify_page(void)
{
    const char *root = getenv("GS_SOURCE_DIR");
    cr_assert_not_null(root, "GS_SOURCE_DIR is not set: run through ctest");
    char *path = path_join(root, "docs/certify.md");
    size_t len;
    char *text = read_file(path, &len);
    cr_assert_not_null(text, "%s", path);
    free(path);
    return text;
}

static const char *profiles_cell(unsigned profiles)
{
    return profiles == CERT_PROFILES_PER_FINDING ? "per finding" : cert_profiles_text(profiles);
}

Test(certify_units, docs_code_table_equals_the_code_table)
{
    char *text = certify_page();
    const char *table = strstr(text, "\n| code | severity | breaks | meaning |\n|---|---|---|---|\n");
    cr_assert_not_null(table, "docs/certify.md has no finding-code table");
    table = strchr(table + 1, '\n') + 1;
    table = strchr(table, '\n') + 1;
    size_t rows = 0;
    for (const char *line = table; *line == '|'; line = strchr(line, '\n') + 1, rows++) {
        const char *end = strchr(line, '\n');
        cr_assert_not_null(end);
        cr_assert_lt(rows, cert_code_count, "more rows than codes: %.*s", (int)(end - line),
                     line);
        const cert_code *c = &cert_codes[rows];
        char want[1024];
        snprintf(want, sizeof want, "| `%s` | %s | %s | %s |", c->code,
                 cert_severity_name(c->severity), profiles_cell(c->profiles), c->summary);
        cr_expect(strlen(want) == (size_t)(end - line) && memcmp(want, line, strlen(want)) == 0,
                  "docs/certify.md row %zu:\n  %.*s\nthe table says:\n  %s", rows + 1,
                  (int)(end - line), line, want);
    }
    cr_expect_eq(rows, cert_code_count, "docs/certify.md lists %zu codes, the table %zu", rows,
                 cert_code_count);
    free(text);
}

/* Text with every run of white space made one space (the docs wrap their paragraphs). */
static char *squeeze(const char *s, size_t n)
{
    char *out = malloc(n + 1);
    cr_assert_not_null(out);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        bool space = s[i] == ' ' || s[i] == '\n';
        if (space && k > 0 && out[k - 1] == ' ') {
            continue;
        }
        out[k++] = space ? ' ' : s[i];
    }
    out[k] = '\0';
    return out;
}

/* Every code's section (from its anchor to the next) says what to do in its hint's words, and
 * the reader table gives each status's hint. */
Test(certify_units, docs_sections_carry_every_hint)
{
    char *text = certify_page();
    for (size_t i = 1; i < cert_code_count; i++) {
        char anchor[96];
        snprintf(anchor, sizeof anchor, "<a id=\"%s\"></a>\n", cert_codes[i].code);
        const char *at = strstr(text, anchor);
        cr_expect_not_null(at, "docs/certify.md has no section %s", anchor);
        if (at == NULL) {
            continue;
        }
        const char *next = strstr(at + strlen(anchor), "<a id=\"");
        size_t len = next != NULL ? (size_t)(next - at) : strlen(at);
        char *section = squeeze(at, len);
        char want[1024];
        snprintf(want, sizeof want, "*What to do:* %s.", cert_codes[i].hint);
        cr_expect(strstr(section, want) != NULL, "%s: the section does not say\n  %s",
                  cert_codes[i].code, want);
        free(section);
    }
    for (int v = 0; v < 100; v++) {
        gs_status st = (gs_status)v;
        const char *name = gs_status_name(st);
        if (v == 0 || strcmp(name, "GS_E_UNKNOWN_STATUS") == 0 ||
            strcmp(cert_reader_help(st), "docs/certify.md#reader") == 0) {
            continue; /* not a status, or one no finding carries */
        }
        char row[512];
        snprintf(row, sizeof row, "| <a id=\"reader.%s\"></a>`reader.%s` | ", name, name);
        const char *at = strstr(text, row);
        cr_expect_not_null(at, "docs/certify.md has no row for reader.%s", name);
        if (at != NULL) {
            const char *end = strchr(at, '\n');
            char want[600];
            snprintf(want, sizeof want, " | %s |", cert_reader_hint(st));
            size_t wl = strlen(want);
            cr_expect((size_t)(end - at) > wl && memcmp(end - wl, want, wl) == 0,
                      "reader.%s: the row does not end with its hint\n  %s", name, want);
        }
    }
    free(text);
}

Test(certify_units, codes_are_unique_and_namespaced)
{
    static const char *const spaces[] = {"layout.", "compat.", "meta.", "payload.", "split.",
                                         "reader."};
    for (size_t i = 0; i < cert_code_count; i++) {
        const char *code = cert_codes[i].code;
        cr_expect_gt(strlen(cert_codes[i].summary), 10, "%s", code);
        cr_expect_lt(strlen(code), CERT_CODE_MAX, "%s", code);
        cr_expect_gt(strlen(cert_codes[i].hint), 30, "%s: a hint in plain words", code);
        char help[96];
        snprintf(help, sizeof help, "docs/certify.md#%s", i == 0 ? "reader" : code);
        cr_expect_str_eq(cert_codes[i].help, help);
        bool spaced = i == 0 && strcmp(code, CERT_READER_ROW) == 0;
        for (size_t s = 0; s < 6 && !spaced; s++) {
            spaced = strncmp(code, spaces[s], strlen(spaces[s])) == 0;
        }
        cr_expect(spaced, "%s is in no namespace", code);
        for (size_t k = 0; k < i; k++) {
            cr_expect_str_neq(cert_codes[k].code, code);
        }
        cr_expect_eq(cert_code_find(code), &cert_codes[i], "%s", code);
    }
    cr_expect_eq(cert_code_find("reader.GS_E_TRUNCATED"), &cert_codes[0]);
    cr_expect_null(cert_code_find("meta.no_such_code"));
    cr_expect_null(cert_code_find("reader.GS_E_NO_SUCH_STATUS"));
    /* a reader status's row: its message, its own hint and help */
    cert_code row;
    cr_assert(cert_code_row("reader.GS_E_DATA_OUTSIDE_FILE", &row));
    cr_expect_str_eq(row.summary, gs_status_message(GS_E_DATA_OUTSIDE_FILE));
    cr_expect_str_eq(row.hint, cert_reader_hint(GS_E_DATA_OUTSIDE_FILE));
    cr_expect_str_eq(row.help, "docs/certify.md#reader.GS_E_DATA_OUTSIDE_FILE");
    cr_expect_neq(row.hint, cert_reader_hint(GS_E_TRUNCATED));
}

/* ---- files that shrink during the scan --------------------------------------------------- */

/* 12 MiB of f32 data in two tensors: several 4 MiB hash chunks, several 2 MiB scan items. */
static char *big_file(char *dir)
{
    gsw_model m;
    llama_model(&m);
    uint64_t n = 2u << 20;
    cr_assert(gsw_tensor_fill(gsw_add_tensor(&m, "a", 1, &n, GS_TYPE_F32), 1, 1u << 26));
    n = 1u << 20;
    cr_assert(gsw_tensor_fill(gsw_add_tensor(&m, "b", 1, &n, GS_TYPE_F32), 2, 1u << 26));
    char *path = model_to_file(&m, dir, "big.gguf");
    cr_assert_not_null(path);
    return path;
}

typedef struct shrink {
    const char *path;
    int calls;
} shrink;

static void truncate_after_first(void *ctx, uint64_t a, uint64_t b)
{
    (void)a;
    (void)b;
    shrink *s = ctx;
    if (s->calls++ == 0) {
        cr_assert_eq(truncate(s->path, 0), 0);
    }
}

/* The same as certification's progress callback. */
static void truncate_after_first_event(void *ctx, const gs_progress *p)
{
    truncate_after_first(ctx, p->done, p->total);
}

/* The text report in a heap string; with all, the JSON and SARIF reports before it. */
static char *reports(const gs_certify *r, bool all)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    gs_sink sink;
    gs_sink_file(&sink, out);
    if (all) {
        cr_expect_eq(gs_certify_write_json(r, &sink, NULL), GS_OK);
        cr_expect_eq(gs_certify_write_sarif(r, &sink, NULL), GS_OK);
    }
    cr_assert_eq(gs_certify_write_text(r, &sink, NULL), GS_OK);
    fclose(out);
    return text;
}

/* Strict, the deep scan, on jobs threads. */
static gs_certify_options deep_options(unsigned jobs)
{
    gs_certify_options opt;
    gs_certify_options_init(&opt);
    opt.deep = true;
    opt.jobs = jobs;
    return opt;
}

static bool certified(const gs_certify *r)
{
    gs_certify_summary s = {.struct_size = sizeof s};
    cr_assert_eq(gs_certify_get_summary(r, &s), GS_OK);
    return s.verdict.certified;
}

Test(certify_units, hash_reports_a_file_that_shrinks)
{
    char *dir = scratch_dir();
    for (unsigned jobs = 1; jobs <= 3; jobs++) {
        char *path = big_file(dir);
        gs_file *f;
        cr_assert_eq(gs_open_file(path, NULL, &f, NULL), GS_OK);
        shrink s = {path, 0};
        mf_hash_options o = {.jobs = jobs, .after_chunk = truncate_after_first,
                             .after_chunk_ctx = &s};
        mf_doc d;
        mf_doc_init(&d, 1);
        uint64_t where = 0;
        gs_status st = mf_hash_part(f, &o, &d.parts[0], &where);
        cr_expect_eq(st, GS_E_TRUNCATED, "jobs %u: %s", jobs, gs_status_name(st));
        cr_expect_eq(where, 4u << 20, "jobs %u: the second chunk cannot be read", jobs);
        mf_doc_free(&d);
        gs_close(f);
        free(path);
    }
    scratch_remove(dir);
}

Test(certify_units, deep_certify_stops_when_the_file_shrinks)
{
    char *dir = scratch_dir();
    for (unsigned jobs = 1; jobs <= 3; jobs++) {
        char *path = big_file(dir);
        shrink s = {path, 0};
        gs_certify_options opt = deep_options(jobs);
        opt.progress = truncate_after_first_event;
        opt.progress_ctx = &s;
        gs_certify *r;
        gs_error e;
        /* no finding about the file: the run stops with the environment's error */
        cr_assert_eq(gs_certify_path(path, &opt, &r, &e), GS_E_FILE_CHANGED, "jobs %u: %s", jobs,
                     e.detail);
        cr_expect_null(r);
        cr_expect_eq(e.context_kind, GS_CONTEXT_PART);
        cr_expect_str_eq(e.context, path);
        cr_expect_str_eq(e.detail, "the file changed while its tensor data was scanned: certify "
                                   "it again once nothing writes to it");
        cr_expect_geq(e.offset, 4096, "jobs %u: inside the tensor data", jobs);
        free(path);
    }
    scratch_remove(dir);
}

/* ---- scale fields against the decoders -------------------------------------------------- */

static bool decodes_nonfinite(int32_t type, const uint8_t *block, const gs_type_info *ti)
{
    float out[256];
    cr_assert_eq(gs_dequantize(type, block, ti->block_bytes, out, ti->block_elems), GS_OK);
    for (uint32_t i = 0; i < ti->block_elems; i++) {
        if (!isfinite(out[i])) {
            return true;
        }
    }
    return false;
}

/* Where each type keeps its scales is checked against the library's decoders (bit-exact with
 * ggml's): with every byte 0x11 (finite scales, non-zero quants) a block decodes to finite
 * values; writing an f16 Inf (00 7C) at each offset in turn, certification must call the block
 * bad exactly when it then decodes to Inf or NaN, since only a scale can make that happen. */
Test(certify_units, scale_fields_agree_with_the_decoders)
{
    size_t checked = 0;
    for (int32_t type = 0; type < GS_TYPE_COUNT; type++) {
        gs_type_info ti;
        if (gs_type_get_info(type, &ti) != GS_OK || !ti.decodable || !cert_type_has_scales(type) ||
            type == GS_TYPE_MXFP4 || type == GS_TYPE_NVFP4 || type == GS_TYPE_Q8_K) {
            continue;
        }
        uint8_t block[512];
        memset(block, 0x11, ti.block_bytes);
        cr_assert(!decodes_nonfinite(type, block, &ti), "%s", ti.name);
        size_t flagged = 0;
        for (uint32_t at = 0; at + 1 < ti.block_bytes; at++) {
            memset(block, 0x11, ti.block_bytes);
            block[at] = 0x00;
            block[at + 1] = 0x7c;
            cert_scale_counts c = {0};
            cert_check_scales(type, block, 1, ti.block_bytes, &c, 0);
            bool nonfinite = decodes_nonfinite(type, block, &ti);
            cr_expect_eq(c.bad == 1, nonfinite, "%s: Inf at byte %u: certify says %s, decode %s",
                         ti.name, at, c.bad ? "bad" : "fine", nonfinite ? "non-finite" : "finite");
            flagged += c.bad;
        }
        if (type == GS_TYPE_IQ1_M) {
            /* its f16 scale is the top nibbles of four u16 at 48: 0x7C00 needs two of them */
            memset(block, 0x11, ti.block_bytes);
            block[53] = 0xc1; /* sc2 top nibble 0xC: scale bits 10-11 */
            block[55] = 0x71; /* sc3 top nibble 0x7: scale bits 12-14 */
            block[49] = 0x01;
            block[51] = 0x01;
            cert_scale_counts c = {0};
            cert_check_scales(type, block, 1, ti.block_bytes, &c, 0);
            cr_expect_eq(c.bad, 1);
            cr_expect(decodes_nonfinite(type, block, &ti));
            flagged += c.bad;
        }
        cr_expect_gt(flagged, 0, "%s: no scale found", ti.name);
        checked++;
    }
    cr_expect_geq(checked, 23);
    /* Q8_K: an f32 scale */
    uint8_t q8k[292];
    memset(q8k, 0x11, sizeof q8k);
    memcpy(q8k, "\x00\x00\x80\x7f", 4);
    cert_scale_counts c = {0};
    cert_check_scales(GS_TYPE_Q8_K, q8k, 1, sizeof q8k, &c, 0);
    cr_expect_eq(c.bad, 1);
    /* MXFP4: exponent 0xFF only; NVFP4: bytes 0x7F and 0x80..0xFF are odd, never bad */
    uint8_t mx[17] = {0xfe};
    memset(&c, 0, sizeof c);
    cert_check_scales(GS_TYPE_MXFP4, mx, 1, 17, &c, 0);
    mx[0] = 0xff;
    cert_check_scales(GS_TYPE_MXFP4, mx, 1, 17, &c, 0);
    cr_expect_eq(c.bad, 1);
    for (unsigned b = 0; b < 256; b++) {
        uint8_t nv[36] = {0x38, 0x38, 0x38, 0x38};
        nv[3] = (uint8_t)b;
        memset(&c, 0, sizeof c);
        cert_check_scales(GS_TYPE_NVFP4, nv, 1, 36, &c, 0);
        cr_expect_eq(c.bad, 0);
        cr_expect_eq(c.odd, b >= 0x7f ? 1u : 0u, "UE4M3 byte 0x%02x", b);
    }
}

/* ---- from memory (what a fuzzing harness drives) ---------------------------------------- */

Test(certify_units, certify_from_memory)
{
    const char *root = getenv("GS_SOURCE_DIR");
    cr_assert_not_null(root, "GS_SOURCE_DIR is not set: run through ctest");
    char *path = path_join(root, "conformance/samples/ggml-written.gguf");
    size_t len;
    char *bytes = read_file(path, &len);
    cr_assert_not_null(bytes);
    gs_certify_options opt = deep_options(2);
    gs_certify *r;
    cr_assert_eq(gs_certify_memory(bytes, len, "sample.gguf", &opt, &r, NULL), GS_OK);
    gs_certify_summary sum = {.struct_size = sizeof sum};
    cr_assert_eq(gs_certify_get_summary(r, &sum), GS_OK);
    cr_expect_eq(sum.verdict.certified ? 0 : 1, 0);
    cr_expect_eq(sum.stats_count, 33);
    cr_expect_eq(sum.finding_count, 3);
    gs_certify_free(r);
    /* every prefix of the file: findings, never a crash (the deep scan included) */
    for (size_t cut = 0; cut < len; cut += cut < 1024 ? 7 : 4099) {
        cr_assert_eq(gs_certify_memory(bytes, cut, "cut.gguf", &opt, &r, NULL), GS_OK, "cut %zu",
                     cut);
        cr_expect_eq(certified(r) ? 0 : 1, 1, "cut %zu", cut);
        free(reports(r, true));
        gs_certify_free(r);
    }
    /* not a GGUF at all: a report naming what it is (the command's exit 1) */
    cr_assert_eq(gs_certify_memory("GGML", 4, "x", &opt, &r, NULL), GS_OK);
    cr_assert_eq(gs_certify_get_summary(r, &sum), GS_OK);
    cr_expect(!sum.verdict.certified);
    cr_expect_eq(sum.finding_count, 1);
    cr_expect_eq(sum.root_cause, 0);
    cr_expect_str_eq(sum.verdict_sentence,
                     "not a GGUF file: this is a text file, not a model (an error message, or a "
                     "listing)");
    gs_certify_finding f = {.struct_size = sizeof f};
    cr_assert_eq(gs_certify_finding_at(r, 0, &f), GS_OK);
    cr_expect_str_eq(f.code, "reader.not_gguf");
    cr_expect_str_eq(f.help, "docs/certify.md#reader.not_gguf");
    gs_certify_free(r);
    free(bytes);
    free(path);
}
