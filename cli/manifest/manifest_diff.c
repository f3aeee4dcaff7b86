/* What ggufsafe verify reports: every key-value and tensor that changed, was added or is
 * missing, part by part, then the whole file's digest. Entries are matched by kind and name
 * (binary search over a sorted copy), so the cost is O(n log n) whatever the manifest holds. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "manifest_diff.h"

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
    d->items[d->n++] = (mf_difference){change, item, b->part, b->prefixed, s, t};
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

static gs_manifest_item item_of(mf_kind k)
{
    return k == MF_KV ? GS_MANIFEST_ITEM_KV : GS_MANIFEST_ITEM_TENSOR;
}

/* The entry-level differences of one part; true when there is one. */
static bool compare_entries(builder *b, const mf_part *want, const mf_part *got, ref *refs)
{
    bool differs = false;
    for (size_t i = 0; i < want->n; i++) {
        refs[i] = (ref){&want->entries[i], false};
    }
    if (want->n > 1) {
        qsort(refs, want->n, sizeof *refs, cmp_ref);
    }
    for (size_t i = 0; i < got->n; i++) {
        const mf_entry *g = &got->entries[i];
        ref key = {g, false};
        ref *hit = want->n ? bsearch(&key, refs, want->n, sizeof *refs, cmp_ref) : NULL;
        gs_manifest_item item = item_of(g->kind);
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
    bool entry_differs = compare_entries(b, want, got, refs);
    /* Missing ones in manifest order, which is the file order they were hashed in. */
    memset(gone, 0, want->n * sizeof *gone);
    for (size_t i = 0; i < want->n; i++) {
        if (!refs[i].matched) {
            gone[refs[i].e - want->entries] = true;
        }
    }
    for (size_t i = 0; i < want->n; i++) {
        if (gone[i]) {
            add_v(b, GS_MANIFEST_MISSING, item_of(want->entries[i].kind), want->entries[i].name,
                  NULL);
            entry_differs = true;
        }
    }
    free(gone);
    free(refs);
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

gs_status mf_compare(const mf_doc *want, const mf_doc *got, gs_manifest_diff *out)
{
    memset(out, 0, sizeof *out);
    builder b = {out, GS_MANIFEST_NO_PART, false, false};
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
    }
    free(d->items);
    memset(d, 0, sizeof *d);
}

static const char *const change_names[] = {"changed", "added", "missing", "damaged"};
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
