/* Baselines (ggufsafe_certify.h, "baselines"): an earlier certify report (JSON, one or many
 * files) or SARIF log read back as the set of (artifact URI, partial fingerprint) pairs it
 * holds, and a run's findings marked when the set has theirs. The file is untrusted input: it
 * goes through the bounded JSON reader (json_read.h), every member used is checked for its
 * type, and each failure names its line and column. Identities come from cert_ident.c, as the
 * SARIF writer makes them; a JSON report's fingerprints are computed from its findings in
 * report order, as the writer numbers them. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "cert.h"
#include "cert_ident.h"
#include "json_read.h"
#include "json_writer.h"

/* The longest string kept from a baseline: a URI or a fingerprint (a name of at most
 * GS_CERTIFY_NAME_MAX bytes, each at most 4 once decoded, plus the code and numbers). */
#define STRING_MAX 4096u

typedef struct pair {
    char *uri;
    char *fp;
} pair;

struct gs_certify_baseline {
    pair *items;
    size_t n, cap;
};

typedef struct loader {
    gs_certify_baseline *b;
    const cli_jdoc *doc;
    char *cwd;
    gs_error *err;
    gs_status st;
} loader;

static bool fail_at(loader *l, uint32_t node, const char *what)
{
    if (l->st == GS_OK) {
        const cli_jnode *n = cli_jnode_at(l->doc, node);
        l->st = cli_jfail(l->err, l->doc->data, n != NULL ? n->at : 0, what);
    }
    return false;
}

static bool no_memory(loader *l)
{
    if (l->st == GS_OK) {
        l->st = gsi_fail(l->err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0,
                         "out of memory for the baseline");
    }
    return false;
}

/* String node as an allocated NUL-terminated copy, or NULL after a failure naming what. */
static char *text(loader *l, uint32_t node, const char *what)
{
    char buf[STRING_MAX];
    size_t len;
    if (!cli_jstring(l->doc, node, buf, sizeof buf, &len)) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s is not a string of at most %u bytes without NUL", what,
                 STRING_MAX);
        fail_at(l, node, msg);
        return NULL;
    }
    char *s = cli_strndup(buf, len);
    if (s == NULL) {
        no_memory(l);
    }
    return s;
}

static bool add(loader *l, uint32_t at, char *uri, char *fp)
{
    gs_certify_baseline *b = l->b;
    if (b->n >= GS_CERTIFY_BASELINE_MAX_FINDINGS) {
        free(uri);
        free(fp);
        return fail_at(l, at, "more findings than a baseline may hold (1,000,000)");
    }
    if (!cli_reserve((void **)&b->items, &b->cap, b->n + 1, sizeof *b->items)) {
        free(uri);
        free(fp);
        return no_memory(l);
    }
    b->items[b->n++] = (pair){uri, fp};
    return true;
}

/* ---- SARIF ---------------------------------------------------------------------------------- */

static bool sarif_result(loader *l, uint32_t run, uint32_t res)
{
    const cli_jdoc *d = l->doc;
    if (cli_jnode_at(d, res)->type != CLI_JOBJECT) {
        return fail_at(l, res, "a result that is not an object");
    }
    uint32_t state = cli_jobject_get(d, res, "baselineState");
    if (state != 0 && cli_jstring_is(d, state, "absent")) {
        return true; /* gone already when that log was written */
    }
    uint32_t fps = cli_jobject_get(d, res, "partialFingerprints");
    uint32_t fp = cli_jobject_get(d, fps, CERT_FINGERPRINT_KEY);
    if (fp == 0) {
        return fail_at(l, res, "a result without the partial fingerprint \"" CERT_FINGERPRINT_KEY
                               "\" (not a SARIF log of ggufsafe certify)");
    }
    uint32_t loc = cli_jarray_first(d, cli_jobject_get(d, res, "locations"));
    uint32_t al = cli_jobject_get(d, cli_jobject_get(d, loc, "physicalLocation"),
                                  "artifactLocation");
    uint32_t uri = cli_jobject_get(d, al, "uri");
    if (uri == 0 && al != 0) { /* by index into run.artifacts */
        uint64_t index;
        if (cli_jnumber_u64(d, cli_jobject_get(d, al, "index"), UINT32_MAX, &index)) {
            uint32_t a = cli_jarray_first(d, cli_jobject_get(d, run, "artifacts"));
            for (uint64_t k = 0; k < index && a != 0; k++) {
                a = cli_jnext(d, a);
            }
            uri = cli_jobject_get(d, cli_jobject_get(d, a, "location"), "uri");
        }
    }
    if (uri == 0) {
        return fail_at(l, res, "a result without an artifact URI in its first location");
    }
    char *u = text(l, uri, "the artifact URI");
    char *f = u != NULL ? text(l, fp, "the partial fingerprint") : NULL;
    if (f == NULL) {
        free(u);
        return false;
    }
    return add(l, res, u, f);
}

static bool sarif(loader *l, uint32_t runs)
{
    const cli_jdoc *d = l->doc;
    if (cli_jnode_at(d, runs)->type != CLI_JARRAY) {
        return fail_at(l, runs, "runs is not an array");
    }
    for (uint32_t run = cli_jarray_first(d, runs); run != 0; run = cli_jnext(d, run)) {
        uint32_t results = cli_jobject_get(d, run, "results");
        if (results == 0) {
            continue; /* a run without results has no findings */
        }
        if (cli_jnode_at(d, results)->type != CLI_JARRAY) {
            return fail_at(l, results, "results is not an array");
        }
        for (uint32_t res = cli_jarray_first(d, results); res != 0; res = cli_jnext(d, res)) {
            if (!sarif_result(l, run, res)) {
                return false;
            }
        }
    }
    return true;
}

/* ---- certify --json ------------------------------------------------------------------------- */

typedef struct jfinding {
    uint32_t node;
    uint64_t part;      /* 0: the set as a whole */
    char code[CERT_CODE_MAX];
    cert_subject subject;
    char *name;         /* decoded, NUL-terminated; NULL without a subject */
    size_t index;
} jfinding;

static int compare_jfinding(const void *pa, const void *pb)
{
    const jfinding *a = pa, *b = pb;
    int c = (a->part > b->part) - (a->part < b->part);
    if (c == 0) {
        c = strcmp(a->code, b->code);
    }
    if (c == 0) {
        c = (a->subject > b->subject) - (a->subject < b->subject);
    }
    if (c == 0 && a->name != NULL && b->name != NULL) {
        c = strcmp(a->name, b->name);
    }
    return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

static bool same_identity(const jfinding *a, const jfinding *b)
{
    return a->part == b->part && strcmp(a->code, b->code) == 0 && a->subject == b->subject &&
           (a->name == NULL) == (b->name == NULL) &&
           (a->name == NULL || strcmp(a->name, b->name) == 0);
}

/* The path of part p (1-based; 0: the set) of a report at path whose parts are parts. */
static char *part_path(loader *l, const char *path, uint32_t parts, uint64_t p, uint32_t at)
{
    if (p <= 1) {
        char *s = cli_strndup(path, strlen(path));
        if (s == NULL) {
            no_memory(l);
        }
        return s;
    }
    uint32_t part = cli_jarray_first(l->doc, parts);
    for (uint64_t k = 1; k < p && part != 0; k++) {
        part = cli_jnext(l->doc, part);
    }
    if (part == 0) {
        fail_at(l, at, "a finding of a part the report does not list");
        return NULL;
    }
    char *name = text(l, cli_jobject_get(l->doc, part, "name"), "a part's name");
    if (name == NULL) {
        return NULL;
    }
    const char *slash = strrchr(path, '/');
    size_t dir = slash != NULL ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(name);
    char *s = malloc(dir + n + 1);
    if (s == NULL) {
        free(name);
        no_memory(l);
        return NULL;
    }
    memcpy(s, path, dir);
    memcpy(s + dir, name, n + 1);
    free(name);
    return s;
}

static bool report(loader *l, uint32_t rep)
{
    const cli_jdoc *d = l->doc;
    if (cli_jnode_at(d, rep)->type != CLI_JOBJECT) {
        return fail_at(l, rep, "a report that is not an object");
    }
    uint32_t findings = cli_jobject_get(d, rep, "findings");
    uint32_t pathn = cli_jobject_get(d, rep, "path");
    uint32_t parts = cli_jobject_get(d, rep, "parts");
    if (findings == 0 || cli_jnode_at(d, findings)->type != CLI_JARRAY) {
        return fail_at(l, rep, "a report without a findings array");
    }
    char *path = text(l, pathn, "the report's path");
    if (path == NULL) {
        return false;
    }
    size_t n = cli_jnode_at(d, findings)->count;
    jfinding *fs = n > 0 ? cli_alloc_array(n, sizeof *fs) : NULL;
    if (n > 0 && fs == NULL) {
        free(path);
        return no_memory(l);
    }
    size_t k = 0;
    bool ok = true;
    for (uint32_t f = cli_jarray_first(d, findings); f != 0 && ok; f = cli_jnext(d, f), k++) {
        jfinding *j = &fs[k];
        memset(j, 0, sizeof *j);
        j->node = f;
        j->index = k;
        uint32_t code = cli_jobject_get(d, f, "code");
        size_t len;
        if (!cli_jstring(d, code, j->code, sizeof j->code - 1, &len)) {
            ok = fail_at(l, f, "a finding without a code of at most 47 bytes");
            break;
        }
        j->code[len] = '\0';
        uint32_t part = cli_jobject_get(d, f, "part");
        const cli_jnode *pn = cli_jnode_at(d, part);
        if (pn == NULL || (pn->type != CLI_JNULL &&
                           (!cli_jnumber_u64(d, part, GS_SPLIT_MAX_PARTS, &j->part) ||
                            j->part == 0))) {
            ok = fail_at(l, f, "a finding whose part is neither null nor a part number");
            break;
        }
        uint32_t key = cli_jobject_get(d, f, "key"), tensor = cli_jobject_get(d, f, "tensor");
        if (key != 0 || tensor != 0) {
            j->subject = key != 0 ? CERT_SUBJECT_KEY : CERT_SUBJECT_TENSOR;
            j->name = text(l, key != 0 ? key : tensor, "a finding's key or tensor");
            ok = j->name != NULL;
        }
    }
    size_t got = k;
    if (ok && got > 0) {
        qsort(fs, got, sizeof *fs, compare_jfinding);
    }
    for (size_t i = 0; i < got && ok; i++) {
        uint32_t occ = 0;
        for (size_t b = i; b > 0 && same_identity(&fs[b - 1], &fs[i]); b--) {
            occ++;
        }
        /* the writer's fingerprint, as cert_fingerprint makes it (names already decoded) */
        const char *sub = fs[i].subject == CERT_SUBJECT_KEY      ? "key:"
                          : fs[i].subject == CERT_SUBJECT_TENSOR ? "tensor:"
                                                                 : "";
        const char *name = fs[i].name != NULL ? fs[i].name : "";
        size_t cap = strlen(fs[i].code) + strlen(name) + 32;
        char *fp = malloc(cap);
        char *file = part_path(l, path, parts, fs[i].part, fs[i].node);
        bool relative;
        char *uri = file != NULL ? cert_uri(l->cwd, l->cwd, file, &relative) : NULL;
        free(file);
        if (fp == NULL || uri == NULL) {
            free(fp);
            free(uri);
            ok = l->st != GS_OK ? false : no_memory(l);
            break;
        }
        snprintf(fp, cap, "%s/%s%s/%u", fs[i].code, sub, name, occ);
        ok = add(l, fs[i].node, uri, fp);
    }
    for (size_t i = 0; i < got; i++) {
        free(fs[i].name);
    }
    free(fs);
    free(path);
    return ok;
}

/* ---- the set -------------------------------------------------------------------------------- */

static int compare_pair(const void *pa, const void *pb)
{
    const pair *a = pa, *b = pb;
    int c = strcmp(a->uri, b->uri);
    return c != 0 ? c : strcmp(a->fp, b->fp);
}

gs_status gs_certify_baseline_parse(const void *data, size_t size, gs_certify_baseline **out,
                                    gs_error *err)
{
    if (out == NULL || (data == NULL && size > 0)) {
        if (out != NULL) {
            *out = NULL;
        }
        return cli_null_argument(err);
    }
    *out = NULL;
    cli_jdoc doc;
    const cli_jlimits lim = {GS_CERTIFY_BASELINE_MAX_BYTES, GS_CERTIFY_BASELINE_MAX_DEPTH,
                             GS_CERTIFY_BASELINE_MAX_VALUES};
    gs_status st = cli_jdoc_parse(&doc, data, size, &lim, err);
    gs_certify_baseline *b = st == GS_OK ? calloc(1, sizeof *b) : NULL;
    if (st == GS_OK && b == NULL) {
        st = gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "baseline");
    }
    if (st == GS_OK) {
        loader l = {.b = b, .doc = &doc, .cwd = cert_cwd(), .err = err};
        const uint32_t root = 1;
        uint32_t runs = cli_jobject_get(&doc, root, "runs");
        uint32_t files = cli_jobject_get(&doc, root, "files");
        if (runs != 0) {
            (void)sarif(&l, runs);
        } else if (files != 0) {
            if (cli_jnode_at(&doc, files)->type != CLI_JARRAY) {
                fail_at(&l, files, "files is not an array");
            }
            for (uint32_t r = cli_jarray_first(&doc, files); r != 0 && l.st == GS_OK;
                 r = cli_jnext(&doc, r)) {
                (void)report(&l, r);
            }
        } else if (cli_jobject_get(&doc, root, "findings") != 0) {
            (void)report(&l, root);
        } else {
            fail_at(&l, root, "neither a certify report (findings), a many-file report (files) "
                              "nor a SARIF log (runs)");
        }
        free(l.cwd);
        st = l.st;
    }
    cli_jdoc_free(&doc);
    if (st != GS_OK) {
        gs_certify_baseline_free(b);
        return st;
    }
    if (b->n > 1) { /* sorted, duplicates dropped */
        qsort(b->items, b->n, sizeof *b->items, compare_pair);
        size_t k = 1;
        for (size_t i = 1; i < b->n; i++) {
            if (compare_pair(&b->items[k - 1], &b->items[i]) == 0) {
                free(b->items[i].uri);
                free(b->items[i].fp);
            } else {
                b->items[k++] = b->items[i];
            }
        }
        b->n = k;
    }
    *out = b;
    return GS_OK;
}

gs_status gs_certify_baseline_read(FILE *file, gs_certify_baseline **out, gs_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (file == NULL || out == NULL) {
        return cli_null_argument(err);
    }
    char *buf;
    size_t len;
    gs_status st = cli_read_stream(file, GS_CERTIFY_BASELINE_MAX_BYTES, &buf, &len, err);
    if (st != GS_OK) {
        return st;
    }
    st = gs_certify_baseline_parse(buf, len, out, err);
    free(buf);
    return st;
}

size_t gs_certify_baseline_count(const gs_certify_baseline *b)
{
    return b != NULL ? b->n : 0;
}

gs_status gs_certify_baseline_at(const gs_certify_baseline *b, size_t i, const char **uri,
                                 const char **fingerprint)
{
    gs_status st = cli_index(b, i, b != NULL ? b->n : 0);
    if (st != GS_OK) {
        return st;
    }
    if (uri != NULL) {
        *uri = b->items[i].uri;
    }
    if (fingerprint != NULL) {
        *fingerprint = b->items[i].fp;
    }
    return GS_OK;
}

bool gs_certify_baseline_has(const gs_certify_baseline *b, const char *uri,
                             const char *fingerprint)
{
    if (b == NULL || uri == NULL || fingerprint == NULL || b->n == 0) {
        return false;
    }
    pair key = {(char *)(uintptr_t)uri, (char *)(uintptr_t)fingerprint};
    return bsearch(&key, b->items, b->n, sizeof *b->items, compare_pair) != NULL;
}

void gs_certify_baseline_free(gs_certify_baseline *b)
{
    if (b == NULL) {
        return;
    }
    for (size_t i = 0; i < b->n; i++) {
        free(b->items[i].uri);
        free(b->items[i].fp);
    }
    free(b->items);
    free(b);
}

/* ---- the run -------------------------------------------------------------------------------- */

void cert_baseline_mark(cert_run *r)
{
    const gs_certify_baseline *b = r->opt.baseline;
    if (b == NULL || r->findings.n == 0) {
        return;
    }
    char *cwd = cert_cwd();
    uint32_t *occ = cert_occurrences(r);
    char **uris = cli_alloc_array(r->n_parts + 1, sizeof *uris); /* per part; [n_parts]: set */
    if (occ == NULL || uris == NULL) {
        free(cwd);
        free(occ);
        free(uris);
        cert_findings_fail(&r->findings, GS_E_NO_MEMORY);
        return;
    }
    memset(uris, 0, (r->n_parts + 1) * sizeof *uris);
    for (size_t i = 0; i < r->findings.n && r->findings.status == GS_OK; i++) {
        const cert_finding *f = &r->findings.items[i];
        size_t slot = f->part != CERT_NO_PART && f->part < r->n_parts ? f->part : r->n_parts;
        if (uris[slot] == NULL) {
            bool relative;
            uris[slot] = cert_uri(cwd, cwd, slot < r->n_parts ? r->parts[slot].path : r->path,
                                  &relative);
        }
        uint8_t *raw;
        size_t raw_len = cert_fingerprint(f, occ[i], &raw);
        char *fp = raw != NULL ? cli_alloc_array(raw_len + 1, 4) : NULL;
        if (uris[slot] == NULL || fp == NULL) {
            free(raw);
            free(fp);
            cert_findings_fail(&r->findings, GS_E_NO_MEMORY);
            break;
        }
        /* as a reader of the SARIF log sees it: bytes that are not UTF-8 as \xHH */
        fp[cli_json_decoded(raw, raw_len, fp)] = '\0';
        free(raw);
        if (gs_certify_baseline_has(b, uris[slot], fp)) {
            cert_findings_baselined(&r->findings, i);
        }
        free(fp);
    }
    for (size_t p = 0; p <= r->n_parts; p++) {
        free(uris[p]);
    }
    free(uris);
    free(occ);
    free(cwd);
}
