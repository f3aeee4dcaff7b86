/* SARIF 2.1.0 that code scanning shows (conformance/schema/sarif-subset.schema.json describes the
 * part of the format written here; cli/tests/check_sarif.py checks the rules of the standard and
 * GitHub's upload requirements): one run; one result per finding with the code as ruleId, its
 * level (error, warning, note), the message, exactly one physical location (the part's artifact,
 * a region with startLine 1, as a binary file has, and the byte offset and length: 0 and 0 for a
 * file-level finding) and a stable partial fingerprint (code, key or tensor, occurrence); the
 * tool with one rule per code that occurs (summary, description, its hint as help naming the
 * code's section of docs/certify.md, and with GGUFSAFE_DOCS_URL that section as helpUri); every
 * part as an artifact, its URI relative to SRCROOT (originalUriBaseIds); the invocation with the
 * exit code. A consequence names its cause's index in results (properties.caused_by). Profile,
 * limits and the verdict (flag, and the sentence of a run over one report) go in the run's
 * property bag; no timestamps, so the output is deterministic. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "cert_render.h"
#include "cert_sarif.h"
#include "report_header.h"

#ifndef GGUFSAFE_DOCS_URL
#define GGUFSAFE_DOCS_URL ""
#endif

/* GitHub code scanning rejects a run with more results than this. */
#define SARIF_MAX_RESULTS 25000u
#define FINGERPRINT_KEY "ggufsafe/v1"

typedef struct sarif_rule {
    char code[CERT_CODE_MAX];
    cert_severity severity;
} sarif_rule;

typedef struct sarif_notice {
    bool error;
    char *uri;    /* encoded, relative to SRCROOT when relative */
    bool relative;
    char *text;
} sarif_notice;

typedef struct sarif_artifact {
    char *uri;
    bool relative;
    uint64_t length; /* UINT64_MAX: unknown */
} sarif_artifact;

struct cert_sarif {
    cli_json j;
    char *cwd;       /* absolute, ends with '/'; NULL when unknown */
    char *base;      /* SRCROOT: absolute, normalized, ends with '/'; NULL when unknown */
    sarif_rule *rules;
    size_t n_rules, cap_rules;
    sarif_artifact *artifacts;
    size_t n_artifacts, cap_artifacts;
    size_t *slots;   /* hash set over artifacts (index + 1; 0 empty), n_slots a power of two */
    size_t n_slots;
    sarif_notice *notices;
    size_t n_notices, cap_notices;
    uint64_t notices_left_out;
    uint64_t results, results_left_out;
    uint64_t reports;
    char *verdict; /* the sentence of the run's only report; NULL for several */
};

static void no_memory(cert_sarif *s)
{
    cli_out_fail(s->j.out, GS_E_NO_MEMORY);
}

/* ---- URIs --------------------------------------------------------------------------------- */

/* Lexically normalized absolute path of p (relative to cwd): "." and empty segments dropped,
 * ".." taking one off (never above the root). Allocated; NULL on failure. */
static char *absolute(const char *cwd, const char *p)
{
    size_t a = p[0] == '/' ? 0 : strlen(cwd), b = strlen(p);
    if (b > SIZE_MAX - a - 2) {
        return NULL;
    }
    char *in = malloc(a + b + 2), *out = malloc(a + b + 2);
    if (in == NULL || out == NULL) {
        free(in);
        free(out);
        return NULL;
    }
    memcpy(in, cwd, a);
    in[a] = '/';
    memcpy(in + a + 1, p, b + 1);
    size_t k = 0;
    for (const char *seg = in; *seg != '\0';) {
        while (*seg == '/') {
            seg++;
        }
        const char *end = strchr(seg, '/');
        size_t len = end != NULL ? (size_t)(end - seg) : strlen(seg);
        if (len == 0 || (len == 1 && seg[0] == '.')) {
            /* nothing */
        } else if (len == 2 && seg[0] == '.' && seg[1] == '.') {
            while (k > 0 && out[k - 1] != '/') {
                k--;
            }
            if (k > 0) {
                k--; /* the '/' before it */
            }
        } else {
            out[k++] = '/';
            memcpy(out + k, seg, len);
            k += len;
        }
        seg += len;
    }
    if (k == 0) {
        out[k++] = '/';
    }
    out[k] = '\0';
    free(in);
    return out;
}

/* The bytes of a path as a URI path: unreserved bytes and '/' as they are, the rest %HH. */
static char *encode(const char *path)
{
    size_t n = strlen(path);
    char *out = cli_alloc_array(n + 1, 3);
    if (out == NULL) {
        return NULL;
    }
    static const char hex[] = "0123456789ABCDEF";
    size_t k = 0;
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
    out[k] = '\0';
    return out;
}

/* A directory's normalized absolute form with a trailing '/', or NULL. */
static char *as_directory(const char *cwd, const char *dir)
{
    char *abs = absolute(cwd, dir);
    if (abs == NULL) {
        return NULL;
    }
    size_t n = strlen(abs);
    if (abs[n - 1] != '/') {
        char *grown = realloc(abs, n + 2);
        if (grown == NULL) {
            free(abs);
            return NULL;
        }
        abs = grown;
        abs[n] = '/';
        abs[n + 1] = '\0';
    }
    return abs;
}

/* path as a URI: relative to SRCROOT when below it (*relative), else an absolute file URI. */
static char *path_uri(const cert_sarif *s, const char *path, bool *relative)
{
    *relative = false;
    if (s->cwd == NULL) {
        *relative = path[0] != '/';
        return encode(path);
    }
    char *abs = absolute(s->cwd, path);
    if (abs == NULL) {
        return NULL;
    }
    char *uri;
    size_t nb = strlen(s->base);
    if (strncmp(abs, s->base, nb) == 0 && abs[nb] != '\0') {
        *relative = true;
        uri = encode(abs + nb);
    } else {
        char *enc = encode(abs);
        uri = enc != NULL ? malloc(strlen(enc) + 8) : NULL;
        if (uri != NULL) {
            memcpy(uri, "file://", 7);
            memcpy(uri + 7, enc, strlen(enc) + 1);
        }
        free(enc);
    }
    free(abs);
    return uri;
}

static void write_location_uri(cli_json *j, const char *uri, bool relative)
{
    cli_json_key_cstring(j, "uri", uri);
    if (relative) {
        cli_json_key_cstring(j, "uriBaseId", "SRCROOT");
    }
}

/* Opens "locations": [{"physicalLocation": {"artifactLocation": {...: a result's one location,
 * down to its artifact, whose uri it writes. The caller closes the artifact location, the
 * physical location, the location and the array. */
static void begin_artifact_location(cli_json *j, const char *uri, bool relative)
{
    cli_json_key_begin_array(j, "locations");
    cli_json_begin_object(j);
    cli_json_key_begin_object(j, "physicalLocation");
    cli_json_key_begin_object(j, "artifactLocation");
    write_location_uri(j, uri, relative);
}

/* ---- artifacts: one per distinct URI ------------------------------------------------------ */

static uint64_t hash_text(const char *t)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a: the set is ours, its keys our own URIs */
    for (; *t != '\0'; t++) {
        h = (h ^ (unsigned char)*t) * 1099511628211u;
    }
    return h;
}

static bool grow_slots(cert_sarif *s)
{
    size_t n = s->n_slots == 0 ? 64 : s->n_slots * 2;
    size_t *slots = cli_alloc_array(n, sizeof *slots);
    if (slots == NULL) {
        return false;
    }
    memset(slots, 0, n * sizeof *slots);
    for (size_t i = 0; i < s->n_artifacts; i++) {
        size_t h = (size_t)hash_text(s->artifacts[i].uri) & (n - 1);
        while (slots[h] != 0) {
            h = (h + 1) & (n - 1);
        }
        slots[h] = i + 1;
    }
    free(s->slots);
    s->slots = slots;
    s->n_slots = n;
    return true;
}

/* The index of the artifact for path (added when new), or SIZE_MAX after a failure. */
static size_t artifact(cert_sarif *s, const char *path, uint64_t length)
{
    bool relative;
    char *uri = path_uri(s, path, &relative);
    if (uri == NULL) {
        no_memory(s);
        return SIZE_MAX;
    }
    if ((s->n_artifacts + 1) * 2 > s->n_slots && !grow_slots(s)) {
        free(uri);
        no_memory(s);
        return SIZE_MAX;
    }
    size_t h = (size_t)hash_text(uri) & (s->n_slots - 1);
    for (; s->slots[h] != 0; h = (h + 1) & (s->n_slots - 1)) {
        sarif_artifact *a = &s->artifacts[s->slots[h] - 1];
        if (strcmp(a->uri, uri) == 0) {
            free(uri);
            if (a->length == UINT64_MAX) {
                a->length = length;
            }
            return s->slots[h] - 1;
        }
    }
    if (!cli_reserve((void **)&s->artifacts, &s->cap_artifacts, s->n_artifacts + 1,
                     sizeof *s->artifacts)) {
        free(uri);
        no_memory(s);
        return SIZE_MAX;
    }
    s->artifacts[s->n_artifacts] = (sarif_artifact){uri, relative, length};
    s->slots[h] = ++s->n_artifacts;
    return s->n_artifacts - 1;
}

/* ---- rules -------------------------------------------------------------------------------- */

static void note_rule(cert_sarif *s, const char *code, cert_severity severity)
{
    for (size_t i = 0; i < s->n_rules; i++) { /* at most one per code of the table */
        if (strcmp(s->rules[i].code, code) == 0) {
            return;
        }
    }
    if (!cli_reserve((void **)&s->rules, &s->cap_rules, s->n_rules + 1, sizeof *s->rules)) {
        no_memory(s);
        return;
    }
    sarif_rule *r = &s->rules[s->n_rules++];
    snprintf(r->code, sizeof r->code, "%s", code);
    r->severity = severity;
}

static void text_object(cli_json *j, const char *key, const char *text)
{
    cli_json_key(j, key);
    cli_json_begin_object(j);
    cli_json_key_cstring(j, "text", text);
    cli_json_end_object(j);
}

static void write_rule(cli_json *j, const sarif_rule *rule)
{
    cert_code row;
    bool known = cert_code_row(rule->code, &row); /* a reader status gets its own row */
    if (!known) {
        row = cert_codes[0];
    }
    const char *summary = row.summary;
    unsigned profiles = row.profiles;
    cli_json_begin_object(j);
    cli_json_key_cstring(j, "id", rule->code);
    text_object(j, "shortDescription", summary);
    char text[1024];
    snprintf(text, sizeof text,
             "%s. Severity %s; %s. Reported by ggufsafe certify with the byte offset and the "
             "key or tensor it concerns.",
             summary, cert_severity_name(rule->severity),
             profiles == GS_CERTIFY_PROFILES_PER_FINDING || !known
                 ? "the profiles it breaks are given per finding"
             : profiles == (CERT_STRICT | CERT_LENIENT) ? "breaks the strict and lenient profiles"
             : profiles == CERT_STRICT                  ? "breaks the strict profile only"
             : profiles == CERT_LENIENT                 ? "breaks the lenient profile only"
                                                        : "breaks no profile: a note");
    text_object(j, "fullDescription", text);
    /* helpUri must be absolute: the section is named in the text whether or not a base is known */
    snprintf(text, sizeof text, "%s (%s)",
             row.hint, known ? row.help : CERT_HELP_BASE "reader");
    text_object(j, "help", text);
    if (GGUFSAFE_DOCS_URL[0] != '\0') {
        char *anchor = encode(rule->code);
        if (anchor != NULL) {
            snprintf(text, sizeof text, "%s/docs/certify.md#%s", GGUFSAFE_DOCS_URL, anchor);
            cli_json_key_cstring(j, "helpUri", text);
        }
        free(anchor);
    }
    cli_json_key_begin_object(j, "defaultConfiguration");
    cli_json_key_cstring(j, "level", cert_sarif_level(rule->severity));
    cli_json_end_object(j);
    cli_json_end_object(j);
}

/* ---- results ------------------------------------------------------------------------------ */

/* The order that groups a report's findings by (part, code, subject, name), found order
 * within: each finding's occurrence number in its group is its fingerprint's last part, stable
 * while the file's findings stay the same whatever else changes. */
typedef struct ranked {
    const cert_finding *f;
    size_t index;
} ranked;

static int compare_identity(const cert_finding *a, const cert_finding *b)
{
    int c = (a->part > b->part) - (a->part < b->part);
    if (c == 0) {
        c = strcmp(a->code, b->code);
    }
    if (c == 0) {
        c = (a->subject > b->subject) - (a->subject < b->subject);
    }
    if (c == 0) {
        size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
        c = n > 0 ? memcmp(a->name, b->name, n) : 0;
        if (c == 0) {
            c = (a->name_len > b->name_len) - (a->name_len < b->name_len);
        }
    }
    return c;
}

static int by_identity(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    int c = compare_identity(a->f, b->f);
    return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

/* occurrence[i]: how many findings before i have i's identity. NULL after a failure. */
static uint32_t *occurrences(const cert_run *r)
{
    size_t n = r->findings.n;
    ranked *order = cli_alloc_array(n, sizeof *order);
    uint32_t *occ = cli_alloc_array(n, sizeof *occ);
    if (order == NULL || occ == NULL) {
        free(order);
        free(occ);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        order[i] = (ranked){&r->findings.items[i], i};
    }
    qsort(order, n, sizeof *order, by_identity);
    for (size_t i = 0; i < n; i++) {
        bool same = i > 0 && compare_identity(order[i - 1].f, order[i].f) == 0;
        occ[order[i].index] = same ? occ[order[i - 1].index] + 1 : 0;
    }
    free(order);
    return occ;
}

/* "<code>/<key|tensor>:<name>/<occurrence>": the name's bytes as the file has them (the JSON
 * writer escapes what is not UTF-8). */
static void fingerprint(cli_json *j, const cert_finding *f, uint32_t occurrence)
{
    size_t cap = strlen(f->code) + f->name_len + 32;
    uint8_t *fp = malloc(cap);
    if (fp == NULL) {
        cli_out_fail(j->out, GS_E_NO_MEMORY);
        return;
    }
    size_t k = (size_t)snprintf((char *)fp, cap, "%s/%s", f->code,
                                f->subject == CERT_SUBJECT_KEY      ? "key:"
                                : f->subject == CERT_SUBJECT_TENSOR ? "tensor:"
                                                                    : "");
    if (f->name_len > 0) {
        memcpy(fp + k, f->name, f->name_len);
        k += f->name_len;
    }
    k += (size_t)snprintf((char *)fp + k, cap - k, "/%u", occurrence);
    cli_json_key_begin_object(j, "partialFingerprints");
    cli_json_key(j, FINGERPRINT_KEY);
    cli_json_string(j, fp, k);
    cli_json_end_object(j);
    free(fp);
}

static void result(cert_sarif *s, const cert_run *r, const cert_finding *f, uint32_t occurrence,
                   const size_t *part_artifact, size_t set_artifact, uint64_t first)
{
    cli_json *j = &s->j;
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
        no_memory(s);
        return;
    }
    snprintf(text, n, "%s%s%s", where, where[0] ? ": " : "", f->message);
    text_object(j, "message", text);
    free(text);
    bool in_part = f->part != CERT_NO_PART && f->part < r->n_parts;
    size_t index = in_part ? part_artifact[f->part] : set_artifact;
    const sarif_artifact *a = &s->artifacts[index];
    begin_artifact_location(j, a->uri, a->relative);
    cli_json_key_u64(j, "index", index);
    cli_json_end_object(j);
    cli_json_key_begin_object(j, "region");
    cli_json_key_u64(j, "startLine", 1); /* code scanning shows a location only with a line */
    bool at = f->offset != CERT_NO_OFFSET;
    cli_json_key_u64(j, "byteOffset", at ? f->offset : 0);
    cli_json_key_u64(j, "byteLength", at ? 1 : 0); /* the byte the finding names */
    cli_json_end_object(j);
    cli_json_end_object(j);
    if (f->subject != CERT_SUBJECT_NONE) {
        cli_json_key_begin_array(j, "logicalLocations");
        cli_json_begin_object(j);
        cli_json_key(j, "name");
        cli_json_string(j, f->name, f->name_len);
        cli_json_key_cstring(j, "kind", f->subject == CERT_SUBJECT_KEY ? "variable" : "member");
        cli_json_end_object(j);
        cli_json_end_array(j);
    }
    cli_json_end_object(j);
    cli_json_end_array(j);
    fingerprint(j, f, occurrence);
    cli_json_key_begin_object(j, "properties");
    cli_json_key(j, "profiles");
    cert_json_profiles(j, f->profiles);
    /* the cause's index among the run's results; a cause left out by the cap is not named */
    if (f->caused_by != CERT_NO_CAUSE && first + f->caused_by < s->results) {
        cli_json_key_u64(j, "caused_by", first + f->caused_by);
    }
    cli_json_end_object(j);
    cli_json_end_object(j);
}

void cert_sarif_report(cert_sarif *s, const cert_run *r)
{
    if (s == NULL || s->j.out->status != GS_OK) {
        return;
    }
    size_t *part_artifact = cli_alloc_array(r->n_parts, sizeof *part_artifact);
    uint32_t *occ = occurrences(r);
    if (part_artifact == NULL || occ == NULL) {
        free(part_artifact);
        free(occ);
        no_memory(s);
        return;
    }
    size_t set_artifact = SIZE_MAX;
    for (size_t p = 0; p < r->n_parts; p++) {
        const cert_part *part = &r->parts[p];
        part_artifact[p] = artifact(s, part->path,
                                    part->file != NULL ? part->layout.file_size : UINT64_MAX);
        if (strcmp(part->path, r->path) == 0) {
            set_artifact = part_artifact[p];
        }
    }
    if (set_artifact == SIZE_MAX) {
        set_artifact = artifact(s, r->path, UINT64_MAX);
    }
    free(s->verdict);
    s->verdict = ++s->reports == 1 ? cli_strndup(r->verdict, strlen(r->verdict)) : NULL;
    uint64_t first = s->results; /* this report's first result in the run */
    for (size_t i = 0; i < r->findings.n && s->j.out->status == GS_OK; i++) {
        const cert_finding *f = &r->findings.items[i];
        note_rule(s, f->code, f->severity);
        if (s->results >= SARIF_MAX_RESULTS) {
            s->results_left_out++;
            continue;
        }
        s->results++;
        result(s, r, f, occ[i], part_artifact, set_artifact, first);
    }
    free(part_artifact);
    free(occ);
}

/* ---- the document ------------------------------------------------------------------------- */

cert_sarif *cert_sarif_begin(cli_out *out, const char *uri_base)
{
    cert_sarif *s = calloc(1, sizeof *s);
    if (s == NULL) {
        cli_out_fail(out, GS_E_NO_MEMORY);
        return NULL;
    }
    cli_json_init(&s->j, out);
    char buf[4096];
    if (getcwd(buf, sizeof buf) != NULL && buf[0] == '/') {
        s->cwd = as_directory("/", buf);
        s->base = s->cwd != NULL ? as_directory(s->cwd, uri_base != NULL ? uri_base : ".") : NULL;
        if (s->base == NULL) {
            free(s->cwd);
            s->cwd = NULL;
        }
    }
    cli_json *j = &s->j;
    cli_json_begin_object(j);
    cli_json_key_cstring(j, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    cli_json_key_cstring(j, "version", "2.1.0");
    cli_json_key_begin_array(j, "runs");
    cli_json_begin_object(j);
    cli_json_key_begin_array(j, "results");
    return s;
}

void cert_sarif_notice(cert_sarif *s, bool error, const char *path, const char *reason)
{
    if (s == NULL) {
        return;
    }
    if (s->n_notices >= CERT_SARIF_MAX_NOTICES) {
        s->notices_left_out++;
        return;
    }
    bool relative;
    char *uri = path_uri(s, path, &relative);
    char *text = cli_strndup(reason, strlen(reason));
    if (uri == NULL || text == NULL ||
        !cli_reserve((void **)&s->notices, &s->cap_notices, s->n_notices + 1,
                     sizeof *s->notices)) {
        free(uri);
        free(text);
        no_memory(s);
        return;
    }
    s->notices[s->n_notices++] = (sarif_notice){error, uri, relative, text};
}

static void write_notice(cli_json *j, bool error, const char *uri, bool relative,
                         const char *text)
{
    cli_json_begin_object(j);
    cli_json_key_cstring(j, "level", error ? "error" : "note");
    text_object(j, "message", text);
    if (uri != NULL) {
        begin_artifact_location(j, uri, relative);
        cli_json_end_object(j);
        cli_json_end_object(j);
        cli_json_end_object(j);
        cli_json_end_array(j);
    }
    cli_json_end_object(j);
}

static void invocation(cert_sarif *s, int exit_code)
{
    cli_json *j = &s->j;
    cli_json_key_begin_array(j, "invocations");
    cli_json_begin_object(j);
    cli_json_key_bool(j, "executionSuccessful", exit_code != 2);
    cli_json_key(j, "exitCode");
    cli_json_i64(j, exit_code);
    cli_json_key_cstring(j, "exitCodeDescription",
                         exit_code == 0   ? "certified"
                         : exit_code == 1 ? "a file is not certified"
                                          : "a path could not be read");
    if (s->n_notices > 0 || s->notices_left_out > 0 || s->results_left_out > 0) {
        cli_json_key_begin_array(j, "toolExecutionNotifications");
        for (size_t i = 0; i < s->n_notices; i++) {
            const sarif_notice *n = &s->notices[i];
            write_notice(j, n->error, n->uri, n->relative, n->text);
        }
        char text[256];
        if (s->notices_left_out > 0) {
            snprintf(text, sizeof text,
                     "%llu more unreadable or skipped paths are not listed here (the summary "
                     "table lists them all)",
                     (unsigned long long)s->notices_left_out);
            write_notice(j, false, NULL, false, text);
        }
        if (s->results_left_out > 0) {
            snprintf(text, sizeof text,
                     "%llu results are left out: code scanning accepts at most %u in a run "
                     "(certify fewer files per run; the JSON report has every finding)",
                     (unsigned long long)s->results_left_out, SARIF_MAX_RESULTS);
            write_notice(j, true, NULL, false, text);
        }
        cli_json_end_array(j);
    }
    cli_json_end_object(j);
    cli_json_end_array(j);
}

void cert_sarif_end(cert_sarif *s, const gs_certify_options *opt, int exit_code)
{
    if (s == NULL) {
        return;
    }
    cli_json *j = &s->j;
    cli_json_end_array(j); /* results */
    cli_json_key_begin_object(j, "tool");
    cli_json_key_begin_object(j, "driver");
    cli_json_key_cstring(j, "name", CLI_TOOL_NAME);
    cli_json_key_cstring(j, "version", gs_version());
    cli_json_key_cstring(j, "semanticVersion", gs_version());
    if (GGUFSAFE_DOCS_URL[0] != '\0') {
        cli_json_key_cstring(j, "informationUri", GGUFSAFE_DOCS_URL);
    }
    cli_json_key_begin_array(j, "rules");
    for (size_t i = 0; i < s->n_rules; i++) {
        write_rule(j, &s->rules[i]);
    }
    cli_json_end_array(j);
    cli_json_end_object(j);
    cli_json_end_object(j);
    invocation(s, exit_code);
    if (s->base != NULL) {
        cli_json_key_begin_object(j, "originalUriBaseIds");
        cli_json_key_begin_object(j, "SRCROOT");
        char *enc = encode(s->base);
        if (enc == NULL) {
            no_memory(s);
        } else {
            size_t n = strlen(enc) + 8;
            char *uri = malloc(n);
            if (uri == NULL) {
                no_memory(s);
            } else {
                snprintf(uri, n, "file://%s", enc);
                cli_json_key_cstring(j, "uri", uri);
            }
            free(uri);
        }
        free(enc);
        cli_json_end_object(j);
        cli_json_end_object(j);
    }
    cli_json_key_begin_array(j, "artifacts");
    for (size_t i = 0; i < s->n_artifacts; i++) {
        const sarif_artifact *a = &s->artifacts[i];
        cli_json_begin_object(j);
        cli_json_key_begin_object(j, "location");
        write_location_uri(j, a->uri, a->relative);
        cli_json_end_object(j);
        if (a->length != UINT64_MAX) {
            cli_json_key_u64(j, "length", a->length);
        }
        cli_json_end_object(j);
    }
    cli_json_end_array(j);
    cli_json_key_begin_object(j, "properties");
    gs_options opts;
    gs_options_init(&opts);
    opts.profile = opt->profile;
    cli_json_report_header(j, "certify", &opts);
    cli_json_key_bool(j, "deep", opt->deep);
    cli_json_key_bool(j, "certified", exit_code == 0);
    if (s->verdict != NULL) {
        cli_json_key_cstring(j, "verdict", s->verdict);
    }
    cli_json_end_object(j);
    cli_json_end_object(j); /* the run */
    cli_json_end_array(j);
    cli_json_end_object(j);
    cli_json_finish(j);
    for (size_t i = 0; i < s->n_artifacts; i++) {
        free(s->artifacts[i].uri);
    }
    for (size_t i = 0; i < s->n_notices; i++) {
        free(s->notices[i].uri);
        free(s->notices[i].text);
    }
    free(s->artifacts);
    free(s->slots);
    free(s->notices);
    free(s->rules);
    free(s->cwd);
    free(s->base);
    free(s->verdict);
    free(s);
}

void cert_render_sarif(cli_out *out, const cert_run *r)
{
    cert_sarif *s = cert_sarif_begin(out, NULL);
    cert_sarif_report(s, r);
    cert_sarif_end(s, &r->opt, cert_exit_code(r));
}
