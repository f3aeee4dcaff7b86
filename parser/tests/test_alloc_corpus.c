/* Allocation failure over the whole generated corpus (expat's failing-allocator loop, style
 * rule 28): for every file of corpus/manifest.tsv, under both profiles, from memory, fail the
 * N-th allocation for N = 0, 1, ... until an open no longer reaches it. Every open that reaches
 * the failing allocation must return GS_E_NO_MEMORY with no gs_file and nothing left allocated;
 * the first one that does not must give exactly the manifest's verdict. The same for the
 * corpus's split sets through gs_open_split_memory, and for a few files through gs_open_file.
 * The corpus is generated into the build tree ($GS_BINARY_DIR/corpus/generated). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* No open needs anywhere near this many allocations; reaching it means a loop that never ends. */
#define MAX_ALLOCATIONS 10000

typedef struct verdict {
    gs_status status;
    uint64_t offset;
} verdict;

typedef struct entry {
    char file[256];
    verdict want[2]; /* strict, lenient */
} entry;

static gs_status status_named(const char *name)
{
    for (int s = 0; s < 128; s++) {
        if (strcmp(gs_status_name((gs_status)s), name) == 0) {
            return (gs_status)s;
        }
    }
    cr_assert_fail("unknown status name %s in the manifest", name);
    return GS_E_INTERNAL;
}

/* corpus/manifest.tsv: file sha256 strict_status strict_offset lenient_status lenient_offset ... */
static entry *read_manifest(size_t *n)
{
    FILE *f = fopen(tu_source_path("corpus/manifest.tsv"), "r");
    cr_assert_not_null(f, "corpus/manifest.tsv");
    entry *es = NULL;
    size_t cap = 0;
    *n = 0;
    char line[4096];
    cr_assert_not_null(fgets(line, sizeof line, f)); /* header */
    while (fgets(line, sizeof line, f) != NULL) {
        char st[2][64], off[2][32], sha[80];
        if (*n == cap) {
            cap = cap ? cap * 2 : 512;
            es = realloc(es, cap * sizeof *es);
            cr_assert_not_null(es);
        }
        entry *e = &es[*n];
        cr_assert_eq(sscanf(line, "%255[^\t]\t%79[^\t]\t%63[^\t]\t%31[^\t]\t%63[^\t]\t%31[^\t]",
                            e->file, sha, st[0], off[0], st[1], off[1]),
                     6, "manifest line: %s", line);
        for (int p = 0; p < 2; p++) {
            e->want[p].status = status_named(st[p]);
            e->want[p].offset = strtoull(off[p], NULL, 10);
        }
        (*n)++;
    }
    fclose(f);
    cr_assert_gt(*n, 100, "the manifest lists the whole corpus");
    return es;
}

static uint8_t *read_corpus_file(const char *rel, size_t *n)
{
    char path[4096];
    const char *bin = getenv("GS_BINARY_DIR");
    snprintf(path, sizeof path, "%s/corpus/generated/%s", bin ? bin : ".", rel);
    return tu_read_file(path, n);
}

/* One failing-allocation sweep of one open. open_fn opens with o and returns the status, the
 * handle (to close) in *h. */
typedef gs_status (*open_fn)(const void *ctx, const gs_options *o, void **h, gs_error *e);
typedef void (*close_fn)(void *h);

/* When the failing allocation is reached the open must say GS_E_NO_MEMORY, or, when
 * first_problem is not NULL, that problem (diagnostic mode reports a failed open as its first
 * finding, as a normal open would have stopped there). */
static long sweep_diag(const char *what, open_fn op, close_fn cl, const void *ctx,
                       gs_profile profile, verdict want, const verdict *first_problem)
{
    for (long fail_at = 0; fail_at < MAX_ALLOCATIONS; fail_at++) {
        tu_counter c;
        gs_options o;
        tu_counting_options(&o, &c, fail_at);
        o.profile = profile;
        void *h = NULL;
        gs_error e;
        gs_status st = op(ctx, &o, &h, &e);
        if (c.total > fail_at) { /* the failing allocation was reached */
            const bool as_problem = first_problem != NULL && st == first_problem->status &&
                                    e.offset == first_problem->offset;
            cr_assert(st == GS_E_NO_MEMORY || as_problem,
                      "%s (%s), allocation %ld fails: %s (%s)", what,
                      profile == GS_PROFILE_STRICT ? "strict" : "lenient", fail_at,
                      gs_status_name(st), e.detail);
            cr_assert_null(h, "%s: a handle despite GS_E_NO_MEMORY", what);
            cr_assert_eq(c.live, 0, "%s, allocation %ld fails: %ld leaked", what, fail_at,
                         c.live);
            continue;
        }
        cr_assert_eq(st, want.status, "%s (%s), %ld allocations: %s, want %s (%s)", what,
                     profile == GS_PROFILE_STRICT ? "strict" : "lenient", fail_at,
                     gs_status_name(st), gs_status_name(want.status), e.detail);
        if (st == GS_OK) {
            cl(h);
        } else {
            cr_assert_eq(e.offset, want.offset, "%s: %s at %llu, want %llu", what,
                         gs_status_name(st), (unsigned long long)e.offset,
                         (unsigned long long)want.offset);
        }
        cr_assert_eq(c.live, 0, "%s: %ld leaked", what, c.live);
        return fail_at;
    }
    cr_assert_fail("%s: still allocating after %d allocations", what, MAX_ALLOCATIONS);
    return -1;
}

static long sweep(const char *what, open_fn op, close_fn cl, const void *ctx, gs_profile profile,
                  verdict want)
{
    return sweep_diag(what, op, cl, ctx, profile, want, NULL);
}

typedef struct buffer {
    const uint8_t *data;
    size_t size;
} buffer;

static gs_status open_memory(const void *ctx, const gs_options *o, void **h, gs_error *e)
{
    const buffer *b = ctx;
    return gs_open_memory(b->data, b->size, o, (gs_file **)h, e);
}

static gs_status open_path(const void *ctx, const gs_options *o, void **h, gs_error *e)
{
    return gs_open_file(ctx, o, (gs_file **)h, e);
}

static void close_file(void *h)
{
    gs_close(h);
}

/* Calls `each` once per corpus file and profile (0 strict, 1 lenient) with the file's bytes;
 * returns how many files the manifest lists. */
typedef void (*each_open_fn)(const entry *e, const buffer *b, int p, void *ctx);

static size_t each_corpus_open(each_open_fn each, void *ctx)
{
    size_t n;
    entry *es = read_manifest(&n);
    for (size_t i = 0; i < n; i++) {
        size_t size;
        uint8_t *data = read_corpus_file(es[i].file, &size);
        buffer b = {data, size};
        for (int p = 0; p < 2; p++) {
            each(&es[i], &b, p, ctx);
        }
        free(data);
    }
    free(es);
    return n;
}

static void sweep_memory(const entry *e, const buffer *b, int p, void *ctx)
{
    long *most = ctx;
    long allocs = sweep(e->file, open_memory, close_file, b,
                        p == 0 ? GS_PROFILE_STRICT : GS_PROFILE_LENIENT, e->want[p]);
    *most = allocs > *most ? allocs : *most;
}

Test(alloc_corpus, every_file_every_failing_allocation, .timeout = 600)
{
    long most = 0;
    size_t n = each_corpus_open(sweep_memory, &most);
    cr_log_info("%zu files, up to %ld allocations per open", n, most);
}

/* Diagnostic mode allocates more (the findings table) and must fail as cleanly. Its verdicts
 * are not in the manifest: each sweep is held to the same open without a failing allocation.
 * A failed diagnostic open reports its first finding, so once a problem has been recorded a
 * failing allocation shows as that problem (the manifest's verdict) instead of NO_MEMORY. */
static gs_status open_diagnostic(const void *ctx, const gs_options *o, void **h, gs_error *e)
{
    gs_options d = *o;
    d.diagnostic = true;
    return open_memory(ctx, &d, h, e);
}

static void sweep_diagnostic(const entry *e, const buffer *b, int p, void *ctx)
{
    size_t *with_findings = ctx;
    gs_options o = tu_options(p == 0 ? GS_PROFILE_STRICT : GS_PROFILE_LENIENT);
    void *h = NULL;
    gs_error err;
    gs_status st = open_diagnostic(b, &o, &h, &err);
    verdict want = {st, st == GS_OK ? 0 : err.offset};
    *with_findings += st == GS_OK && gs_file_finding_count(h) > 0;
    gs_close(h);
    const verdict *normal = &e->want[p];
    sweep_diag(e->file, open_diagnostic, close_file, b, o.profile, want,
               normal->status != GS_OK ? normal : NULL);
}

Test(alloc_corpus, diagnostic_mode, .timeout = 600)
{
    size_t with_findings = 0;
    each_corpus_open(sweep_diagnostic, &with_findings);
    cr_assert_gt(with_findings, 0, "the corpus has files with findings");
}

Test(alloc_corpus, file_source)
{
    /* the path source adds the mapping; one valid file per kind of content */
    static const char *const files[] = {"header/version_3.gguf", "split/model-00001-of-00002.gguf",
                                        "header/empty.gguf"};
    static const verdict want[] = {{GS_OK, 0}, {GS_OK, 0}, {GS_E_TRUNCATED, 0}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        const char *bin = getenv("GS_BINARY_DIR");
        snprintf(path, sizeof path, "%s/corpus/generated/%s", bin ? bin : ".", files[i]);
        sweep(files[i], open_path, close_file, path, GS_PROFILE_STRICT, want[i]);
    }
}

/* ---- split sets ------------------------------------------------------------------------------ */

static gs_status open_split_path(const void *ctx, const gs_options *o, void **h, gs_error *e)
{
    return gs_open_split(ctx, o, (gs_split **)h, e);
}

typedef struct split_set {
    const void *parts[2];
    size_t sizes[2];
} split_set;

static gs_status open_split(const void *ctx, const gs_options *o, void **h, gs_error *e)
{
    const split_set *s = ctx;
    return gs_open_split_memory(s->parts, s->sizes, 2, o, (gs_split **)h, e);
}

static void close_split(void *h)
{
    gs_split_close(h);
}

Test(alloc_corpus, split_sets)
{
    /* the corpus's 2-part sets and the verdicts their descriptions give */
    static const char *const prefixes[] = {"split/model", "split/badno", "split/dup"};
    static const gs_status want[] = {GS_OK, GS_E_SPLIT_NUMBER_MISMATCH,
                                     GS_E_SPLIT_DUPLICATE_TENSOR};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        split_set s;
        uint8_t *data[2];
        for (int k = 0; k < 2; k++) {
            char rel[256];
            snprintf(rel, sizeof rel, "%s-0000%d-of-00002.gguf", prefixes[i], k + 1);
            data[k] = read_corpus_file(rel, &s.sizes[k]);
            s.parts[k] = data[k];
        }
        /* the offset of a set-level failure: found once without failures, then held fixed */
        gs_split *sp = NULL;
        gs_error e;
        cr_assert_eq(gs_open_split_memory(s.parts, s.sizes, 2, NULL, &sp, &e), want[i], "%s: %s",
                     prefixes[i], e.detail);
        gs_split_close(sp);
        verdict v = {want[i], e.offset};
        for (int p = 0; p < 2; p++) {
            sweep(prefixes[i], open_split, close_split, &s,
                  p == 0 ? GS_PROFILE_STRICT : GS_PROFILE_LENIENT, v);
        }
        free(data[0]);
        free(data[1]);
    }
    /* from the files: the set object, the part path and every part through the allocator */
    char path[4096];
    const char *bin = getenv("GS_BINARY_DIR");
    snprintf(path, sizeof path, "%s/corpus/generated/split/model-00001-of-00002.gguf",
             bin ? bin : ".");
    sweep(path, open_split_path, close_split, path, GS_PROFILE_STRICT, (verdict){GS_OK, 0});
}

/* Strict is lenient plus rules, under any limit: with exactly the metadata memory strict needs
 * for a file, lenient opens it too (a fuzz_open finding: lenient's overlap check once took a
 * sorted copy of the tensor spans even for files laid out in order, as every strict file is). */
static gs_status open_with_memory_limit(const uint8_t *data, size_t size, gs_profile profile,
                                        uint64_t limit)
{
    gs_options o = tu_options(profile);
    o.limits.max_metadata_memory = limit;
    gs_file *f = NULL;
    gs_status st = gs_open_memory(data, size, &o, &f, NULL);
    gs_close(f);
    return st;
}

Test(alloc_corpus, memory_limit_strict_implies_lenient)
{
    size_t n, checked = 0;
    entry *es = read_manifest(&n);
    for (size_t i = 0; i < n; i++) {
        if (es[i].want[0].status != GS_OK) {
            continue;
        }
        size_t size;
        uint8_t *data = read_corpus_file(es[i].file, &size);
        /* the least limit strict opens the file with: it needs at least 1 byte, and opens it
         * with the default limit */
        gs_options defaults;
        gs_options_init(&defaults);
        uint64_t lo = 0, hi = defaults.limits.max_metadata_memory;
        cr_assert_eq(open_with_memory_limit(data, size, GS_PROFILE_STRICT, hi), GS_OK, "%s",
                     es[i].file);
        while (hi - lo > 1) {
            const uint64_t mid = lo + (hi - lo) / 2;
            if (open_with_memory_limit(data, size, GS_PROFILE_STRICT, mid) == GS_OK) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        cr_assert_eq(open_with_memory_limit(data, size, GS_PROFILE_LENIENT, hi), GS_OK,
                     "%s: strict opens it with %llu bytes of metadata memory, lenient does not",
                     es[i].file, (unsigned long long)hi);
        checked++;
        free(data);
    }
    cr_assert_gt(checked, 100, "the corpus has files strict accepts");
    free(es);
}
