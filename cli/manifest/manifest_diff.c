/* What ggufsafe verify reports: every key-value and tensor that changed, was added, is missing
 * or was renamed, part by part, then the whole file's digest. Entries are matched by kind and
 * name (binary search over a sorted copy), renames by type, shape and data digest (sorted too),
 * so the cost is O(n log n) whatever the manifest holds. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "json_writer.h"
#include "manifest_diff.h"
#include "report_header.h"

typedef struct ref {
    const mf_entry *e;
    bool matched;
} ref;

static int cmp_ref(const void *a, const void *b)
{
    const mf_entry *x = ((const ref *)a)->e, *y = ((const ref *)b)->e;
    if (x->kind != y->kind) {
        return x->kind < y->kind ? -1 : 1;
    }
    return strcmp(x->name, y->name);
}

typedef struct builder {
    gs_manifest_diff *d;
    size_t part;
    bool prefixed;
    bool tensors_only;
    bool failed; /* out of memory */
} builder;

static void add_v(builder *b, gs_manifest_change change, gs_manifest_item item,
                  const char *subject, const char *detail)
{
    gs_manifest_diff *d = b->d;
    char *s = cli_strndup(subject, strlen(subject));
    char *t = detail != NULL ? cli_strndup(detail, strlen(detail)) : NULL;
    if (s == NULL || (detail != NULL && t == NULL) ||
        !cli_reserve((void **)&d->items, &d->cap, d->n + 1, sizeof *d->items)) {
        free(s);
        free(t);
        b->failed = true;
        return;
    }
    d->items[d->n++] = (mf_difference){change, item, b->part, b->prefixed, s, t, NULL, NULL, NULL};
}

/* The same with a formatted detail. */
__attribute__((format(printf, 5, 6))) static void add(builder *b, gs_manifest_change change,
                                                      gs_manifest_item item,
                                                      const char *subject, const char *fmt, ...)
{
    char detail[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    add_v(b, change, item, subject, detail);
}

/* A changed key-value whose old and new values are both known (a version 2 manifest):
 * "value: old 4096 -> new 8192", "element 17: old 5 -> new 6", or what else differs. */
static void changed_value(builder *b, const char *name, const char *old_value,
                          const char *new_value)
{
    mf_value_diff v;
    if (!mf_value_change(old_value, new_value, &v)) {
        b->failed = true;
        return;
    }
    if (!v.has_values) {
        add_v(b, GS_MANIFEST_CHANGED, GS_MANIFEST_ITEM_KV, name, v.detail);
        return;
    }
    size_t n = strlen(v.detail) + strlen(v.old_text) + strlen(v.new_text) + 32;
    char *detail = malloc(n);
    if (detail == NULL) {
        b->failed = true;
        return;
    }
    snprintf(detail, n, "%s: old %s -> new %s", v.detail, v.old_text, v.new_text);
    size_t before = b->d->n;
    add_v(b, GS_MANIFEST_CHANGED, GS_MANIFEST_ITEM_KV, name, detail);
    free(detail);
    if (b->d->n == before) {
        return;
    }
    mf_difference *x = &b->d->items[before];
    x->old_value = cli_strndup(v.old_text, strlen(v.old_text));
    x->new_value = cli_strndup(v.new_text, strlen(v.new_text));
    if (x->old_value == NULL || x->new_value == NULL) {
        b->failed = true;
    }
}

static gs_manifest_item item_of(mf_kind k)
{
    return k == MF_KV ? GS_MANIFEST_ITEM_KV : GS_MANIFEST_ITEM_TENSOR;
}

/* Renames: tensors of the file whose name the manifest lacks (added), and tensors of the
 * manifest whose name the file lacks (missing), matched by type, shape and data digest. */
typedef struct loose {
    const mf_entry *e;
    size_t index;          /* in its part's entries */
} loose;

static int cmp_content(const void *a, const void *b)
{
    const mf_entry *x = ((const loose *)a)->e, *y = ((const loose *)b)->e;
    int c = memcmp(x->digest, y->digest, 32);
    if (c == 0) {
        c = strcmp(x->type, y->type);
    }
    if (c == 0) {
        c = strcmp(x->shape, y->shape);
    }
    return c;
}

static bool hashed_tensor(const mf_entry *e)
{
    return e->kind == MF_TENSOR && e->state == MF_HASHED;
}

/* The run of entries in sorted[0..n) with e's content: *count of them from the returned one. */
static const loose *content_run(const loose *sorted, size_t n, const mf_entry *e, size_t *count)
{
    loose key = {e, 0};
    const loose *hit = n ? bsearch(&key, sorted, n, sizeof *sorted, cmp_content) : NULL;
    *count = 0;
    if (hit == NULL) {
        return NULL;
    }
    while (hit > sorted && cmp_content(hit - 1, &key) == 0) {
        hit--;
    }
    while (hit + *count < sorted + n && cmp_content(hit + *count, &key) == 0) {
        (*count)++;
    }
    return hit;
}

typedef struct renames {
    const mf_entry **from;  /* per got entry: the manifest entry it was renamed from, or NULL */
    size_t *ambiguous;      /* per got entry: candidates when there were several (else 0) */
    bool *taken;            /* per want entry: a rename's source */
} renames;

/* Finds the renames of one part: unique (type, shape, digest) matches between the file's added
 * tensors and the manifest's missing ones. */
static bool find_renames(const mf_part *want, const mf_part *got, const ref *want_sorted,
                         renames *rn)
{
    ref *got_sorted = cli_alloc_array(got->n, sizeof *got_sorted);
    loose *added = cli_alloc_array(got->n, sizeof *added);
    loose *missing = cli_alloc_array(want->n, sizeof *missing);
    rn->from = cli_alloc_array(got->n, sizeof *rn->from);
    rn->ambiguous = cli_alloc_array(got->n, sizeof *rn->ambiguous);
    rn->taken = cli_alloc_array(want->n, sizeof *rn->taken);
    bool ok = got_sorted != NULL && added != NULL && missing != NULL && rn->from != NULL &&
              rn->ambiguous != NULL && rn->taken != NULL;
    if (ok) {
        memset(rn->from, 0, got->n * sizeof *rn->from);
        memset(rn->ambiguous, 0, got->n * sizeof *rn->ambiguous);
        memset(rn->taken, 0, want->n * sizeof *rn->taken);
        for (size_t i = 0; i < got->n; i++) {
            got_sorted[i] = (ref){&got->entries[i], false};
        }
        if (got->n > 1) {
            qsort(got_sorted, got->n, sizeof *got_sorted, cmp_ref);
        }
        size_t n_added = 0, n_missing = 0;
        for (size_t i = 0; i < got->n; i++) {
            ref key = {&got->entries[i], false};
            if (hashed_tensor(key.e) &&
                (want->n == 0 || bsearch(&key, want_sorted, want->n, sizeof *want_sorted, cmp_ref) == NULL)) {
                added[n_added++] = (loose){key.e, i};
            }
        }
        for (size_t i = 0; i < want->n; i++) {
            ref key = {&want->entries[i], false};
            if (hashed_tensor(key.e) &&
                (got->n == 0 || bsearch(&key, got_sorted, got->n, sizeof *got_sorted, cmp_ref) == NULL)) {
                missing[n_missing++] = (loose){key.e, i};
            }
        }
        if (n_added > 1) {
            qsort(added, n_added, sizeof *added, cmp_content);
        }
        if (n_missing > 1) {
            qsort(missing, n_missing, sizeof *missing, cmp_content);
        }
        for (size_t i = 0; i < n_added; i++) {
            size_t same_added, same_missing;
            content_run(added, n_added, added[i].e, &same_added);
            const loose *m = content_run(missing, n_missing, added[i].e, &same_missing);
            if (same_added == 1 && same_missing == 1) {
                rn->from[added[i].index] = m->e;
                rn->taken[m->index] = true;
            } else if (same_missing > 0) {
                rn->ambiguous[added[i].index] = same_missing;
            }
        }
    }
    free(got_sorted);
    free(added);
    free(missing);
    return ok;
}

static void free_renames(renames *rn)
{
    free(rn->from);
    free(rn->ambiguous);
    free(rn->taken);
}

/* The entry-level differences of one part; true when there is one. */
static bool compare_entries(builder *b, const mf_part *want, const mf_part *got, ref *refs,
                            renames *rn)
{
    bool differs = false;
    for (size_t i = 0; i < want->n; i++) {
        refs[i] = (ref){&want->entries[i], false};
    }
    if (want->n > 1) {
        qsort(refs, want->n, sizeof *refs, cmp_ref);
    }
    if (!find_renames(want, got, refs, rn)) {
        b->failed = true;
        return false;
    }
    for (size_t i = 0; i < got->n; i++) {
        const mf_entry *g = &got->entries[i];
        ref key = {g, false};
        ref *hit = want->n ? bsearch(&key, refs, want->n, sizeof *refs, cmp_ref) : NULL;
        gs_manifest_item item = item_of(g->kind);
        if (b->tensors_only && g->kind != MF_TENSOR) {
            if (hit != NULL) {
                hit->matched = true;
            }
            continue;
        }
        if (hit == NULL && rn->from[i] != NULL) {
            add_v(b, GS_MANIFEST_RENAMED, item, g->name, NULL);
            if (!b->failed) {
                mf_difference *x = &b->d->items[b->d->n - 1];
                x->from = cli_strndup(rn->from[i]->name, strlen(rn->from[i]->name));
                size_t n = strlen(rn->from[i]->name) + 16;
                x->detail = malloc(n);
                if (x->from == NULL || x->detail == NULL) {
                    b->failed = true;
                } else {
                    snprintf(x->detail, n, "from %s", rn->from[i]->name);
                }
            }
            differs = true;
            continue;
        }
        if (hit == NULL && rn->ambiguous[i] > 0) {
            add(b, GS_MANIFEST_ADDED, item, g->name,
                "same type, shape and data as %zu missing tensors: which one was renamed "
                "cannot be told", rn->ambiguous[i]);
            differs = true;
            continue;
        }
        if (hit == NULL) {
            add_v(b, GS_MANIFEST_ADDED, item, g->name, NULL);
            differs = true;
            continue;
        }
        hit->matched = true;
        const mf_entry *w = hit->e;
        bool same = false;
        if (g->kind == MF_TENSOR && strcmp(g->type, w->type) != 0) {
            add(b, GS_MANIFEST_CHANGED, item, g->name, "type %s -> %s", w->type, g->type);
        } else if (g->kind == MF_TENSOR && strcmp(g->shape, w->shape) != 0) {
            add(b, GS_MANIFEST_CHANGED, item, g->name, "shape %s -> %s", w->shape, g->shape);
        } else if (g->state == MF_NO_DATA) {
            add_v(b, GS_MANIFEST_DAMAGED, item, g->name,
                  "its data is not in the file (cut short?)");
        } else if (g->state == MF_ALIASED) {
            add_v(b, GS_MANIFEST_DAMAGED, item, g->name, "its data overlaps another tensor's");
        } else if (memcmp(g->digest, w->digest, 32) != 0 && g->kind == MF_KV &&
                   g->value != NULL && w->value != NULL) {
            changed_value(b, g->name, w->value, g->value);
        } else if (memcmp(g->digest, w->digest, 32) != 0) {
            add_v(b, GS_MANIFEST_CHANGED, item, g->name, g->kind == MF_TENSOR ? "data" : "value");
        } else {
            same = true;
        }
        differs |= !same;
    }
    return differs;
}

static void compare_part(builder *b, const mf_part *want, const mf_part *got)
{
    if (got->error[0] != '\0') {
        add_v(b, GS_MANIFEST_DAMAGED, GS_MANIFEST_ITEM_FILE, got->error, NULL);
        return;
    }
    ref *refs = cli_alloc_array(want->n, sizeof *refs);
    bool *gone = cli_alloc_array(want->n, sizeof *gone);
    if (refs == NULL || gone == NULL) {
        free(refs);
        free(gone);
        b->failed = true;
        return;
    }
    renames rn = {NULL, NULL, NULL};
    bool entry_differs = compare_entries(b, want, got, refs, &rn);
    if (b->failed) {
        free_renames(&rn);
        free(gone);
        free(refs);
        return;
    }
    /* Missing ones in manifest order, which is the file order they were hashed in. */
    memset(gone, 0, want->n * sizeof *gone);
    for (size_t i = 0; i < want->n; i++) {
        if (!refs[i].matched) {
            gone[refs[i].e - want->entries] = true;
        }
    }
    for (size_t i = 0; i < want->n; i++) {
        if (b->tensors_only && want->entries[i].kind != MF_TENSOR) {
            continue;
        }
        if (gone[i] && !rn.taken[i]) {
            add_v(b, GS_MANIFEST_MISSING, item_of(want->entries[i].kind), want->entries[i].name,
                  NULL);
            entry_differs = true;
        }
    }
    free_renames(&rn);
    free(gone);
    free(refs);
    if (b->tensors_only) {
        return; /* the whole-file digest covers the metadata too */
    }
    if (got->size != want->size || memcmp(got->digest, want->digest, 32) != 0) {
        const char *subject = entry_differs ? "sha256"
                                            : "sha256 (every key-value and tensor matches: the "
                                              "header, tensor infos, padding or order differ)";
        if (got->size != want->size) {
            add(b, GS_MANIFEST_CHANGED, GS_MANIFEST_ITEM_FILE, subject, "size %llu -> %llu",
                (unsigned long long)want->size, (unsigned long long)got->size);
        } else {
            add_v(b, GS_MANIFEST_CHANGED, GS_MANIFEST_ITEM_FILE, subject, NULL);
        }
    }
}

gs_status mf_compare(const mf_doc *want, const mf_doc *got, bool tensors_only,
                     gs_manifest_diff *out)
{
    memset(out, 0, sizeof *out);
    builder b = {out, GS_MANIFEST_NO_PART, false, tensors_only, false};
    if (want->n_parts != got->n_parts) {
        char counts[96];
        snprintf(counts, sizeof counts, "the manifest lists %zu, the file has %zu",
                 want->n_parts, got->n_parts);
        add_v(&b, GS_MANIFEST_CHANGED, GS_MANIFEST_ITEM_PARTS, counts, NULL);
    }
    size_t n = want->n_parts < got->n_parts ? want->n_parts : got->n_parts;
    for (size_t p = 0; p < n && !b.failed; p++) {
        b.part = p;
        b.prefixed = got->n_parts > 1 || want->n_parts > 1;
        compare_part(&b, &want->parts[p], &got->parts[p]);
    }
    if (b.failed) {
        mf_diff_free(out);
        return GS_E_NO_MEMORY;
    }
    return GS_OK;
}

void mf_diff_free(gs_manifest_diff *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->items[i].subject);
        free(d->items[i].detail);
        free(d->items[i].from);
        free(d->items[i].old_value);
        free(d->items[i].new_value);
    }
    free(d->items);
    memset(d, 0, sizeof *d);
}

static const char *const change_names[] = {"changed", "added", "missing", "damaged", "renamed"};
static const char *const item_names[] = {"kv", "tensor", "file", "parts"};

void mf_diff_write(cli_out *out, const gs_manifest_diff *d)
{
    for (size_t i = 0; i < d->n; i++) {
        const mf_difference *x = &d->items[i];
        if (x->prefixed) {
            cli_out_printf(out, "part %zu: ", x->part + 1);
        }
        cli_out_printf(out, "%-8s %-7s %s", change_names[x->change], item_names[x->item],
                       x->subject);
        if (x->detail != NULL) {
            cli_out_printf(out, "  %s", x->detail);
        }
        cli_out_putc(out, '\n');
    }
}

void mf_diff_write_json(cli_out *out, const gs_manifest_diff *d, const mf_doc *got,
                        const char *path, const char *manifest_path, bool tensors_only)
{
    cli_json j;
    cli_json_init(&j, out);
    cli_json_begin_object(&j);
    gs_options opts;
    gs_options_init(&opts);
    opts.profile = GS_PROFILE_LENIENT; /* verify reads leniently */
    cli_json_report_header(&j, "verify", &opts);
    cli_json_key(&j, "path");
    cli_json_string(&j, path, strlen(path));
    cli_json_key(&j, "manifest");
    cli_json_string(&j, manifest_path, strlen(manifest_path));
    cli_json_key_bool(&j, "tensors_only", tensors_only);
    cli_json_key_bool(&j, "ok", d->n == 0);
    uint64_t kvs = 0, tensors = 0;
    for (size_t p = 0; p < got->n_parts; p++) {
        for (size_t i = 0; i < got->parts[p].n; i++) {
            got->parts[p].entries[i].kind == MF_KV ? kvs++ : tensors++;
        }
    }
    cli_json_key(&j, "counts");
    cli_json_begin_object(&j);
    cli_json_key_u64(&j, "parts", got->n_parts);
    cli_json_key_u64(&j, "key_values", kvs);
    cli_json_key_u64(&j, "tensors", tensors);
    cli_json_key_u64(&j, "differences", d->n);
    cli_json_end_object(&j);
    cli_json_key(&j, "differences");
    cli_json_begin_array(&j);
    for (size_t i = 0; i < d->n; i++) {
        const mf_difference *x = &d->items[i];
        cli_json_begin_object(&j);
        cli_json_key_cstring(&j, "change", change_names[x->change]);
        cli_json_key_cstring(&j, "item", item_names[x->item]);
        cli_json_key(&j, "part");
        x->part == GS_MANIFEST_NO_PART ? cli_json_null(&j) : cli_json_u64(&j, x->part + 1);
        cli_json_key_cstring(&j, "subject", x->subject);
        if (x->from != NULL) {
            cli_json_key_cstring(&j, "from", x->from);
        }
        if (x->old_value != NULL) {
            cli_json_key_cstring(&j, "old", x->old_value);
            cli_json_key_cstring(&j, "new", x->new_value);
        }
        cli_json_key(&j, "detail");
        x->detail != NULL ? cli_json_cstring(&j, x->detail) : cli_json_null(&j);
        cli_json_end_object(&j);
    }
    cli_json_end_array(&j);
    cli_json_end_object(&j);
    cli_json_finish(&j);
}
