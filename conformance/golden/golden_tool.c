/* gs_golden: the golden manifest of the decoders (conformance/golden/manifest.tsv).
 *
 *   gs_golden --check  --kat KAT_DIR --manifest FILE   exit 1 listing every difference
 *   gs_golden --update --kat KAT_DIR --manifest FILE   add new entries; change an existing hash
 *                                                      only if the ggml KATs pass for that type
 *   gs_golden --dump OUT_DIR --kat KAT_DIR             write every input set as TYPE.SET.in
 *
 * with, for a type the registry does not know, its decoders: --plugin PATH.so (repeatable),
 * --ggml PATH (its types the registry lacks; with GGUFSAFE_KERNEL=ggml it decodes every type),
 * --type ID:NAME:BLOCK_ELEMENTS:BLOCK_BYTES (repeatable: geometry checked against theirs). Those
 * runs cover the caller's types only, with the layout-free sets (gsg_build_raw_sets), and
 * --update writes their KAT files into KAT_DIR. --only NAME (repeatable) limits a run to some
 * types; --raw gives registry types the layout-free sets too (a native decoder checked against
 * goldens a plugin or ggml wrote). A limited run compares and rewrites only its types' lines.
 *
 * For every decodable type and each of its input sets (golden_sets.c), the manifest holds one
 * line: type, set, n_blocks, sha256 of the input bytes, sha256 of the decoded output with every
 * NaN replaced by 0x7FC00000 (f32 little-endian). Plain C: also runs under qemu. */
#define _DEFAULT_SOURCE /* readlink */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden_sets.h"
#include "gsw_bytes.h"
#include "gsw_model.h"
#include "gsw_sha256.h"
#include "gsw_write.h"
#include "kat_runner.h"
#include "type_spec.h"

static const char header[] = "type\tset\tn_blocks\tinput_sha256\toutput_sha256";

typedef struct entry {
    char type[GS_TYPE_NAME_MAX + 1];
    char set[24];
    unsigned long long n_blocks;
    char in_hash[65];
    char out_hash[65];
    size_t type_index; /* generated entries: into the run's types */
    int seen; /* check/update: matched by a generated set */
} entry;

/* One type a run covers. */
typedef struct golden_type {
    int32_t id;
    char name[GS_TYPE_NAME_MAX + 1];
    uint32_t block_elems, block_bytes;
    bool raw;        /* the layout-free sets (gsg_build_raw_sets) */
    bool caller;     /* from --plugin, --ggml or --type: its KAT files are written and checked here */
    int kat_verdict; /* registry types: 0 not run, 1 pass, -1 fail */
    size_t kats_compared, kats_failed; /* caller types: existing KAT outputs, and how many differ */
    char kat_failure[320];             /* caller types: the first difference */
} golden_type;

/* A KAT file --update writes once the run is accepted (caller types). */
typedef struct pending_file {
    char path[4200];
    uint8_t *data;
    size_t size;
} pending_file;

#define MAX_SOURCES 16 /* --plugin, --type, --only: each at most this many times */

typedef struct run {
    const char *kat_dir;
    golden_type *types;
    size_t n_types;
    bool scoped;          /* --only or caller types: only their manifest lines are compared */
    const gs_file *known; /* an empty file opened with the caller's types, or NULL */
    pending_file *pending;
    size_t n_pending, cap_pending;
} run;

typedef struct entry_list {
    entry *items;
    size_t n, cap;
} entry_list;

static entry *push(entry_list *l)
{
    if (l->n == l->cap) {
        const size_t cap = l->cap ? 2 * l->cap : 256;
        entry *bigger = realloc(l->items, cap * sizeof *bigger);
        if (bigger == NULL) {
            fprintf(stderr, "gs_golden: out of memory\n");
            exit(2);
        }
        l->items = bigger;
        l->cap = cap;
    }
    entry *e = &l->items[l->n++];
    memset(e, 0, sizeof *e);
    return e;
}

/* Reads the manifest; a missing file is an empty manifest (the first --update creates it). */
static int read_manifest(const char *path, entry_list *l)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return errno == ENOENT ? 0 : -1;
    }
    char line[512];
    unsigned lineno = 0;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (lineno == 1) {
            if (strcmp(line, header) != 0) {
                fprintf(stderr, "%s:1: expected the header line \"%s\"\n", path, header);
                rc = -1;
            }
            continue;
        }
        entry *e = push(l);
        if (sscanf(line, "%63[^\t]\t%23[^\t]\t%llu\t%64[0-9a-f]\t%64[0-9a-f]", e->type, e->set,
                   &e->n_blocks, e->in_hash, e->out_hash) != 5 ||
            strlen(e->in_hash) != 64 || strlen(e->out_hash) != 64) {
            fprintf(stderr, "%s:%u: malformed line: %s\n", path, lineno, line);
            rc = -1;
        }
    }
    fclose(f);
    return rc;
}

static entry *find(entry_list *l, const char *type, const char *set)
{
    for (size_t i = 0; i < l->n; i++) {
        if (strcmp(l->items[i].type, type) == 0 && strcmp(l->items[i].set, set) == 0) {
            return &l->items[i];
        }
    }
    return NULL;
}

/* The open plugins (the --plugin ones, then --ggml's child), for the failure message. */
static gs_plugin *plugins[MAX_SOURCES + 1];
static size_t n_plugins;

/* Decodes a set through the library: gs_file_dequantize with the caller's types (the registry's
 * decoders for the others, on the path GGUFSAFE_KERNEL chooses). A malloc'd output, or NULL
 * after a message. */
static float *decode_set(const run *r, const golden_type *t, const gsg_set *s)
{
    const size_t n = s->n_blocks * t->block_elems;
    float *out = malloc(n * sizeof *out);
    if (out == NULL) {
        fprintf(stderr, "gs_golden: out of memory\n");
        return NULL;
    }
    const gs_status st =
        gs_file_dequantize(r->known, t->id, s->data, s->n_blocks * t->block_bytes, out, n);
    if (st != GS_OK) {
        char why[1024] = "";
        for (size_t i = 0; st == GS_E_DECODER_FAILED && i < n_plugins; i++) {
            if (gs_plugin_failure(plugins[i], why, sizeof why)) {
                break;
            }
        }
        fprintf(stderr, "gs_golden: cannot decode %s/%s: %s%s%s\n", t->name, s->name,
                gs_status_name(st), why[0] != '\0' ? ": " : "", why);
        free(out);
        return NULL;
    }
    return out;
}

/* Calls each(run, type, set, ctx) for every input set of every type of the run, in order, and
 * stops at the first call that does not return 0. Returns that value, -1 when the sets of a
 * type cannot be built, or 0. */
typedef int set_fn(run *r, golden_type *t, const gsg_set *set, void *ctx);

static int for_each_set(run *r, set_fn *each, void *ctx)
{
    int rc = 0;
    for (size_t k = 0; k < r->n_types && rc == 0; k++) {
        golden_type *t = &r->types[k];
        gsg_sets sets;
        char err[256];
        if (!(t->raw ? gsg_build_raw_sets(t->name, t->block_elems, t->block_bytes, r->kat_dir,
                                          &sets, err, sizeof err)
                     : gsg_build_sets(t->id, r->kat_dir, &sets, err, sizeof err))) {
            fprintf(stderr, "gs_golden: %s\n", err);
            return -1;
        }
        for (size_t i = 0; i < sets.n && rc == 0; i++) {
            rc = each(r, t, &sets.items[i], ctx);
        }
        gsg_free_sets(&sets);
    }
    return rc;
}

/* A file --update writes later (write_pending): a copy of its size bytes. */
static int add_pending(run *r, const char *path, const void *data, size_t size)
{
    if (r->n_pending == r->cap_pending) {
        const size_t cap = r->cap_pending ? 2 * r->cap_pending : 8;
        pending_file *bigger = realloc(r->pending, cap * sizeof *bigger);
        if (bigger == NULL) {
            return -1;
        }
        r->pending = bigger;
        r->cap_pending = cap;
    }
    pending_file *p = &r->pending[r->n_pending];
    p->data = malloc(size);
    if (p->data == NULL) {
        return -1;
    }
    memcpy(p->data, data, size);
    p->size = size;
    snprintf(p->path, sizeof p->path, "%s", path);
    r->n_pending++;
    return 0;
}

/* A caller type's KAT set: its output compared with <kat_dir>/NAME.SET.out when that exists,
 * else that file (and the input, when it was generated here) kept for --update to write. */
static int caller_kat(run *r, golden_type *t, const gsg_set *s, const float *out)
{
    const size_t n = s->n_blocks * t->block_elems;
    char path[4200], label[96];
    snprintf(label, sizeof label, "%s.%s", t->name, s->kat);
    snprintf(path, sizeof path, "%s/%s.in", r->kat_dir, label);
    if (s->kat_generated && add_pending(r, path, s->data, s->n_blocks * t->block_bytes) != 0) {
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s.out", r->kat_dir, label);
    gsk_blob want;
    if (!gsk_read_file(path, &want)) {
        if (errno != ENOENT) {
            fprintf(stderr, "gs_golden: cannot read %s: %s\n", path, strerror(errno));
            return -1;
        }
        gsw_bytes raw;
        gsw_bytes_init(&raw);
        for (size_t i = 0; i < n; i++) {
            gsw_put_f32(&raw, out[i]); /* the decoder's bits, NaN payloads included */
        }
        const int rc = add_pending(r, path, raw.data, raw.len);
        gsw_bytes_free(&raw);
        return rc;
    }
    char who[120], msg[320];
    snprintf(who, sizeof who, "%s.out", label);
    t->kats_compared++;
    bool ok = want.size == 4 * n;
    if (!ok) {
        snprintf(msg, sizeof msg, "%s: %zu output bytes for %zu elements", label, want.size, n);
    } else {
        ok = gsk_kat_compare(label, out, n, t->block_elems, want.data, who, msg, sizeof msg);
    }
    if (!ok && t->kats_failed++ == 0) {
        snprintf(t->kat_failure, sizeof t->kat_failure, "%s", msg);
    }
    gsk_blob_free(&want);
    return 0;
}

/* One entry from a set and the current decoders (ctx: the entry list). */
static int add_entry(run *r, golden_type *t, const gsg_set *s, void *ctx)
{
    entry *e = push(ctx);
    snprintf(e->type, sizeof e->type, "%s", t->name);
    snprintf(e->set, sizeof e->set, "%s", s->name);
    e->type_index = (size_t)(t - r->types);
    e->n_blocks = s->n_blocks;
    gsw_sha256_hex(s->data, s->n_blocks * t->block_bytes, e->in_hash);
    float *out = decode_set(r, t, s);
    if (out == NULL) {
        return -1;
    }
    gsw_sha256_floats_hex(out, s->n_blocks * t->block_elems, e->out_hash);
    const int rc = t->caller && s->kat != NULL ? caller_kat(r, t, s, out) : 0;
    free(out);
    return rc;
}

/* Generates every entry from the current sets and decoders. */
static int generate(run *r, entry_list *l)
{
    return for_each_set(r, add_entry, l);
}

/* True when the manifest line belongs to a type the run covers (every line, unless scoped). */
static bool in_scope(const run *r, const entry *m)
{
    for (size_t k = 0; r->scoped && k < r->n_types; k++) {
        if (strcmp(r->types[k].name, m->type) == 0) {
            return true;
        }
    }
    return !r->scoped;
}

static bool same(const entry *a, const entry *b)
{
    return a->n_blocks == b->n_blocks && strcmp(a->in_hash, b->in_hash) == 0 &&
           strcmp(a->out_hash, b->out_hash) == 0;
}

static void describe_change(const char *verb, const entry *old, const entry *now)
{
    printf("%s %s/%s:", verb, now->type, now->set);
    if (old->n_blocks != now->n_blocks) {
        printf(" n_blocks %llu -> %llu", old->n_blocks, now->n_blocks);
    }
    if (strcmp(old->in_hash, now->in_hash) != 0) {
        printf(" input %.12s -> %.12s", old->in_hash, now->in_hash);
    }
    if (strcmp(old->out_hash, now->out_hash) != 0) {
        printf(" output %.12s -> %.12s", old->out_hash, now->out_hash);
    }
    printf("\n");
}

/* The manifest lines of the run's scope that the run no longer generates: one line each,
 * "VERB TYPE/SET: WHY"; how many. */
static size_t report_unseen(const run *r, const entry_list *manifest, const char *verb,
                            const char *why)
{
    size_t n = 0;
    for (size_t i = 0; i < manifest->n; i++) {
        if (!manifest->items[i].seen && in_scope(r, &manifest->items[i])) {
            printf("%s %s/%s: %s\n", verb, manifest->items[i].type, manifest->items[i].set, why);
            n++;
        }
    }
    return n;
}

static int check(const run *r, entry_list *manifest, entry_list *now)
{
    size_t passed = 0, failed = 0;
    for (size_t k = 0; k < r->n_types; k++) {
        const golden_type *t = &r->types[k];
        passed += t->kats_compared - t->kats_failed;
        failed += t->kats_failed;
        if (t->kats_failed > 0) {
            printf("kat %s: %zu of %zu KAT outputs differ; the first: %s\n", t->name,
                   t->kats_failed, t->kats_compared, t->kat_failure);
        }
    }
    for (size_t i = 0; i < now->n; i++) {
        entry *m = find(manifest, now->items[i].type, now->items[i].set);
        if (m == NULL) {
            printf("missing %s/%s: not in the manifest (run --update to add it)\n",
                   now->items[i].type, now->items[i].set);
            failed++;
            continue;
        }
        m->seen = 1;
        if (same(m, &now->items[i])) {
            passed++;
        } else {
            describe_change("changed", m, &now->items[i]);
            failed++;
        }
    }
    failed += report_unseen(r, manifest, "stale", "in the manifest but no longer generated");
    printf("%zu passed, %zu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

/* The lines of the types the run does not cover, as they were, then the run's. */
static int write_manifest(const run *r, const char *path, const entry_list *manifest,
                          const entry_list *l)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL) {
        return -1;
    }
    fprintf(f, "%s\n", header);
    for (size_t i = 0; i < manifest->n + l->n; i++) {
        const entry *e = i < manifest->n ? &manifest->items[i] : &l->items[i - manifest->n];
        if (i < manifest->n && in_scope(r, e)) {
            continue;
        }
        fprintf(f, "%s\t%s\t%llu\t%s\t%s\n", e->type, e->set, e->n_blocks, e->in_hash,
                e->out_hash);
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

/* Whether a changed hash of type t may be rewritten: registry types when ggml's KATs pass,
 * caller types when KAT outputs existed and the decoder matches every one. *why says why not. */
static bool kats_pass(const run *r, golden_type *t, char *why, size_t why_cap)
{
    if (t->caller) {
        if (t->kats_compared == 0) {
            snprintf(why, why_cap, "the type has no KAT outputs in %s", r->kat_dir);
        } else {
            snprintf(why, why_cap, "the KATs in %s fail: %s", r->kat_dir, t->kat_failure);
        }
        return t->kats_compared > 0 && t->kats_failed == 0;
    }
    if (t->kat_verdict == 0) {
        t->kat_verdict = gsk_kat_type_passes(r->kat_dir, t->id) ? 1 : -1;
    }
    snprintf(why, why_cap, "%s",
             gsk_type_has_kat(t->id) ? "the ggml KATs fail" : "the type has no ggml KATs");
    return t->kat_verdict == 1;
}

/* Writes the KAT files the run made (caller types): once, never over an existing one. */
static int write_pending(const run *r)
{
    for (size_t i = 0; i < r->n_pending; i++) {
        const pending_file *p = &r->pending[i];
        FILE *f = fopen(p->path, "wbx");
        const bool ok = f != NULL && fwrite(p->data, 1, p->size, f) == p->size;
        if ((f != NULL && fclose(f) != 0) || !ok) {
            fprintf(stderr, "gs_golden: cannot write %s: %s\n", p->path, strerror(errno));
            return -1;
        }
        printf("wrote %s\n", p->path);
    }
    return 0;
}

/* New entries are added. An existing entry changes only when the KATs of its type pass with the
 * current decoder (kats_pass); otherwise nothing is written and the exit status is 1. */
static int update(run *r, const char *path, entry_list *manifest, entry_list *now)
{
    size_t added = 0, rewritten = 0, refused = 0;
    for (size_t i = 0; i < now->n; i++) {
        entry *e = &now->items[i];
        entry *m = find(manifest, e->type, e->set);
        if (m == NULL) {
            printf("added %s/%s\n", e->type, e->set);
            added++;
            continue;
        }
        m->seen = 1;
        if (same(m, e)) {
            continue;
        }
        golden_type *t = &r->types[e->type_index];
        char why[512];
        if (kats_pass(r, t, why, sizeof why)) {
            describe_change("rewrote", m, e);
            printf("  (the %sKATs pass for %s with the current decoder)\n",
                   t->caller ? "" : "ggml ", e->type);
            rewritten++;
        } else {
            describe_change("refused", m, e);
            printf("  (%s: a golden hash may change only when the %sKATs pass for the type)\n",
                   why, t->caller ? "" : "ggml ");
            refused++;
        }
    }
    refused += report_unseen(r, manifest, "refused to drop",
                             "no longer generated (delete the line by hand)");
    if (refused > 0) {
        printf("manifest left unchanged: %zu refused\n", refused);
        return 1;
    }
    if (added + rewritten > 0 && write_manifest(r, path, manifest, now) != 0) {
        fprintf(stderr, "gs_golden: cannot write %s: %s\n", path, strerror(errno));
        return 2;
    }
    if (write_pending(r) != 0) {
        return 2;
    }
    printf("%zu added, %zu rewritten, %zu unchanged\n", added, rewritten,
           now->n - added - rewritten);
    return 0;
}

/* A set as OUT_DIR/TYPE.SET.in (ctx: the address of OUT_DIR). */
static int dump_set(run *r, golden_type *t, const gsg_set *s, void *ctx)
{
    (void)r;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.%s.in", *(const char **)ctx, t->name, s->name);
    FILE *f = fopen(path, "wb");
    const size_t size = s->n_blocks * t->block_bytes;
    const int ok = f != NULL && fwrite(s->data, 1, size, f) == size;
    if ((f != NULL && fclose(f) != 0) || !ok) {
        fprintf(stderr, "gs_golden: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

static int dump(run *r, const char *out_dir)
{
    return for_each_set(r, dump_set, &out_dir) == 0 ? 0 : 2;
}

static int usage(void)
{
    fprintf(stderr, "usage: gs_golden --check|--update --kat KAT_DIR --manifest FILE "
                    "[--skip-unavailable] [DECODERS] [--only NAME]... [--raw]\n"
                    "       gs_golden --dump OUT_DIR --kat KAT_DIR [DECODERS] [--only NAME]... "
                    "[--raw]\n"
                    "DECODERS: [--plugin PATH.so]... [--ggml PATH] "
                    "[--type ID:NAME:BLOCK_ELEMENTS:BLOCK_BYTES]...\n");
    return 2;
}

/* The caller's decoders and definitions, and the empty file that carries them to
 * gs_file_dequantize. */
typedef struct caller {
    const char *plugin_paths[MAX_SOURCES];
    size_t n_plugin_paths;
    const char *ggml;
    cli_type_spec specs[MAX_SOURCES];
    gs_type_def defs[MAX_SOURCES];
    size_t n_defs;
    gs_decoder decoders[GS_TYPE_DEF_MAX];
    size_t n_decoders;
    gsw_bytes empty;
    gs_file *file;
} caller;

static int add_decoders(caller *c, gs_plugin *p)
{
    plugins[n_plugins++] = p;
    size_t n;
    const gs_decoder *d = gs_plugin_decoders(p, &n);
    if (n > GS_TYPE_DEF_MAX - c->n_decoders) {
        fprintf(stderr, "gs_golden: more than %u decoder types in all\n", GS_TYPE_DEF_MAX);
        return 2;
    }
    memcpy(c->decoders + c->n_decoders, d, n * sizeof *d);
    c->n_decoders += n;
    return 0;
}

/* Loads every --plugin (and --ggml's types the registry lacks) in a child process that runs
 * this program as the plugin host, and opens the empty file with them and the --type
 * definitions, checked as one set by the reader. 0, or 2 after a message. */
static int load_caller(caller *c)
{
    if (c->n_plugin_paths == 0 && c->ggml == NULL && c->n_defs == 0) {
        return 0;
    }
    static char self[4096];
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0 || (size_t)len >= sizeof self - 1) {
        fprintf(stderr, "gs_golden: cannot find this program (/proc/self/exe) to host plugins\n");
        return 2;
    }
    self[len] = '\0';
    gs_plugin_options po;
    gs_plugin_options_init(&po);
    po.host_program = self;
    gs_error e;
    for (size_t i = 0; i < c->n_plugin_paths; i++) {
        gs_plugin *p;
        const gs_status st = gs_plugin_open(c->plugin_paths[i], &po, &p, &e);
        if (st != GS_OK) {
            fprintf(stderr, "gs_golden: cannot load plugin '%s': %s: %s\n", c->plugin_paths[i],
                    gs_status_name(st), e.detail);
            return 2;
        }
        if (add_decoders(c, p) != 0) {
            return 2;
        }
    }
    if (c->ggml != NULL) {
        gs_status st = gs_set_ggml_library(c->ggml, &e); /* GGUFSAFE_KERNEL=ggml's library */
        size_t n = 0;
        gs_plugin *p = NULL;
        if (st == GS_OK && (gs_ggml_decoders(&n), n > 0)) {
            st = gs_plugin_open_ggml(c->ggml, &po, &p, &e);
        }
        if (st != GS_OK) {
            fprintf(stderr, "gs_golden: --ggml '%s': %s: %s\n", c->ggml, gs_status_name(st),
                    e.detail);
            return 2;
        }
        if (p != NULL && add_decoders(c, p) != 0) {
            return 2;
        }
    }
    if (c->n_defs + c->n_decoders == 0) {
        return 0;
    }
    gsw_model m;
    gsw_model_init(&m, 3);
    gsw_bytes_init(&c->empty);
    char why[256];
    const int wrote = gsw_write(&m, 0, &c->empty, NULL, why, sizeof why);
    gsw_model_free(&m);
    gs_options o;
    gs_options_init(&o);
    o.type_defs = c->defs;
    o.n_type_defs = c->n_defs;
    o.decoders = c->decoders;
    o.n_decoders = c->n_decoders;
    const gs_status st = wrote != 0 ? GS_E_INTERNAL
                                    : gs_open_memory(c->empty.data, c->empty.len, &o, &c->file, &e);
    if (st != GS_OK) {
        fprintf(stderr, "gs_golden: the caller's types: %s: %s\n", gs_status_name(st),
                wrote != 0 ? why : e.detail);
        return 2;
    }
    return 0;
}

/* Whether the active decoder path decodes a registry type: GGUFSAFE_KERNEL=ggml decodes only
 * what the loaded ggml converts (not Q8_1), and says so for one block of zeros. */
static bool path_decodes(int32_t id, const gs_type_info *info)
{
    bool usable;
    if (gs_active_kernel(&usable) != GS_KERNEL_GGML || !usable) {
        return true;
    }
    uint8_t block[GS_TYPE_DEF_MAX_BLOCK_BYTES] = {0};
    float out[GS_TYPE_DEF_MAX_BLOCK_ELEMS];
    return info->block_bytes > sizeof block || info->block_elems > GS_TYPE_DEF_MAX_BLOCK_ELEMS ||
           gs_dequantize((gs_type)id, block, info->block_bytes, out, info->block_elems) !=
               GS_E_KERNEL_UNAVAILABLE;
}

/* Appends type id to the run (once), as the file known (or the registry) describes it. */
static int add_type(run *r, const gs_file *known, int32_t id, bool caller_type, bool raw)
{
    for (size_t k = 0; k < r->n_types; k++) {
        if (r->types[k].id == id) {
            return 0;
        }
    }
    gs_type_info info;
    if (gs_file_type_info(known, id, &info) != GS_OK || !info.decodable) {
        if (caller_type) {
            fprintf(stderr, "gs_golden: type %d (%s): --type gives its geometry, but no --plugin "
                            "or --ggml decodes it\n", (int)id, gs_file_type_name(known, id));
            return 2;
        }
        return 0;
    }
    if (!caller_type && !path_decodes(id, &info)) {
        printf("skipped %s: the decoder path has no decoder for it (GS_E_KERNEL_UNAVAILABLE)\n",
               gs_type_name(id));
        r->scoped = true; /* its lines are left alone, not stale */
        return 0;
    }
    golden_type *t = &r->types[r->n_types++];
    memset(t, 0, sizeof *t);
    t->id = id;
    snprintf(t->name, sizeof t->name, "%s", gs_file_type_name(known, id));
    t->block_elems = info.block_elems;
    t->block_bytes = info.block_bytes;
    t->caller = caller_type;
    t->raw = raw || caller_type;
    return 0;
}

/* The run's types: the caller's if there are any, else every decodable registry type; then
 * only those --only names. 0, or 2 after a message. */
static int choose_types(run *r, const caller *c, const char *const *only, size_t n_only, bool raw)
{
    r->types = calloc(GS_TYPE_COUNT + GS_TYPE_DEF_MAX + MAX_SOURCES, sizeof *r->types);
    if (r->types == NULL) {
        fprintf(stderr, "gs_golden: out of memory\n");
        return 2;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < c->n_defs; i++) {
        rc = add_type(r, c->file, c->defs[i].id, true, raw);
    }
    for (size_t i = 0; rc == 0 && i < c->n_decoders; i++) {
        rc = add_type(r, c->file, c->decoders[i].type.id, true, raw);
    }
    const bool registry = r->n_types == 0;
    for (int32_t t = 0; rc == 0 && registry && t < GS_TYPE_COUNT; t++) {
        rc = add_type(r, NULL, t, false, raw);
    }
    size_t kept = 0;
    for (size_t k = 0; rc == 0 && k < r->n_types; k++) {
        bool wanted = n_only == 0;
        for (size_t i = 0; i < n_only; i++) {
            wanted = wanted || strcmp(only[i], r->types[k].name) == 0;
        }
        if (wanted) {
            r->types[kept++] = r->types[k];
        }
    }
    for (size_t i = 0; rc == 0 && i < n_only; i++) {
        bool found = false;
        for (size_t k = 0; k < kept; k++) {
            found = found || strcmp(only[i], r->types[k].name) == 0;
        }
        if (!found) {
            fprintf(stderr, "gs_golden: --only %s: not a decodable type of this run\n", only[i]);
            rc = 2;
        }
    }
    r->n_types = kept;
    r->scoped = r->scoped || n_only > 0 || c->n_defs + c->n_decoders > 0;
    r->known = c->file;
    return rc;
}

/* One --type value into the caller's definitions. */
static int add_spec(caller *c, const char *spec)
{
    char why[256];
    cli_type_spec *ts = &c->specs[c->n_defs];
    if (!cli_type_spec_parse(spec, strlen(spec), ts, why, sizeof why)) {
        fprintf(stderr, "gs_golden: --type '%s': %s\n", spec, why);
        return 2;
    }
    c->defs[c->n_defs] = ts->def;
    c->defs[c->n_defs++].name = ts->name;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], GS_PLUGIN_HOST_COMMAND) == 0) {
        return gs_plugin_host_main(argc, argv); /* the child of load_caller */
    }
    const char *mode = NULL, *kat_dir = NULL, *manifest_path = NULL, *dump_dir = NULL;
    const char *only[MAX_SOURCES];
    size_t n_only = 0;
    bool skip_unavailable = false, raw = false;
    static caller c;
    for (int i = 1; i < argc; i++) {
        const bool has_value = i + 1 < argc;
        if (strcmp(argv[i], "--skip-unavailable") == 0) {
            skip_unavailable = true;
        } else if (strcmp(argv[i], "--raw") == 0) {
            raw = true;
        } else if (strcmp(argv[i], "--check") == 0 || strcmp(argv[i], "--update") == 0) {
            mode = argv[i];
        } else if (strcmp(argv[i], "--dump") == 0 && has_value) {
            mode = argv[i];
            dump_dir = argv[++i];
        } else if (strcmp(argv[i], "--kat") == 0 && has_value) {
            kat_dir = argv[++i];
        } else if (strcmp(argv[i], "--manifest") == 0 && has_value) {
            manifest_path = argv[++i];
        } else if (strcmp(argv[i], "--ggml") == 0 && has_value) {
            c.ggml = argv[++i];
        } else if (strcmp(argv[i], "--plugin") == 0 && has_value &&
                   c.n_plugin_paths < MAX_SOURCES) {
            c.plugin_paths[c.n_plugin_paths++] = argv[++i];
        } else if (strcmp(argv[i], "--only") == 0 && has_value && n_only < MAX_SOURCES) {
            only[n_only++] = argv[++i];
        } else if (strcmp(argv[i], "--type") == 0 && has_value && c.n_defs < MAX_SOURCES) {
            if (add_spec(&c, argv[++i]) != 0) {
                return 2;
            }
        } else {
            return usage();
        }
    }
    if (mode == NULL || kat_dir == NULL || (dump_dir == NULL && manifest_path == NULL)) {
        return usage();
    }
    run r = {.kat_dir = kat_dir};
    entry_list manifest = {0}, now = {0};
    int rc = load_caller(&c);
    if (rc == 0) {
        rc = choose_types(&r, &c, only, n_only, raw);
    }
    if (rc == 0 && skip_unavailable && gsk_kernel_unavailable()) {
        rc = GSK_EXIT_SKIP;
    } else if (rc == 0 && dump_dir != NULL) {
        rc = dump(&r, dump_dir);
    } else if (rc == 0) {
        rc = 2;
        if (read_manifest(manifest_path, &manifest) != 0) {
            fprintf(stderr, "gs_golden: cannot read %s\n", manifest_path);
        } else if (generate(&r, &now) == 0) {
            rc = strcmp(mode, "--check") == 0 ? check(&r, &manifest, &now)
                                              : update(&r, manifest_path, &manifest, &now);
        }
    }
    free(manifest.items);
    free(now.items);
    for (size_t i = 0; i < r.n_pending; i++) {
        free(r.pending[i].data);
    }
    free(r.pending);
    free(r.types);
    gs_close(c.file); /* before the plugins that decode for it */
    gsw_bytes_free(&c.empty);
    for (size_t i = 0; i < n_plugins; i++) {
        gs_plugin_close(plugins[i]);
    }
    return rc;
}
