/* What ggufsafe verify reports: every key-value and tensor that changed, was added or is
 * missing, part by part, then the whole file's digest. Entries are matched by kind and name
 * (binary search over a sorted copy), so the cost is O(n log n) whatever the manifest holds. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cert_findings.h"
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

static const char *kind_name(mf_kind k)
{
    return k == MF_KV ? "kv" : "tensor";
}

typedef struct out_ctx {
    FILE *out;
    char prefix[32];
    uint64_t count;
} out_ctx;

__attribute__((format(printf, 5, 6))) static void line(out_ctx *o, const char *what, mf_kind k,
                                                       const char *name, const char *fmt, ...)
{
    fprintf(o->out, "%s%-8s %-7s %s", o->prefix, what, kind_name(k), name);
    if (fmt != NULL) {
        va_list ap;
        va_start(ap, fmt);
        fputs("  ", o->out);
        vfprintf(o->out, fmt, ap);
        va_end(ap);
    }
    fputc('\n', o->out);
    o->count++;
}

static void compare_part(out_ctx *o, const mf_part *want, const mf_part *got)
{
    if (got->error[0] != '\0') {
        fprintf(o->out, "%s%-8s %-7s %s\n", o->prefix, "damaged", "file", got->error);
        o->count++;
        return;
    }
    ref *refs = cert_xrealloc(NULL, (want->n ? want->n : 1) * sizeof *refs);
    for (size_t i = 0; i < want->n; i++) {
        refs[i] = (ref){&want->entries[i], false};
    }
    if (want->n > 1) {
        qsort(refs, want->n, sizeof *refs, cmp_ref);
    }
    bool entry_differs = false;
    for (size_t i = 0; i < got->n; i++) {
        const mf_entry *g = &got->entries[i];
        ref key = {g, false};
        ref *hit = want->n ? bsearch(&key, refs, want->n, sizeof *refs, cmp_ref) : NULL;
        if (hit == NULL) {
            line(o, "added", g->kind, g->name, NULL);
            entry_differs = true;
            continue;
        }
        hit->matched = true;
        const mf_entry *w = hit->e;
        if (g->kind == MF_TENSOR && strcmp(g->type, w->type) != 0) {
            line(o, "changed", g->kind, g->name, "type %s -> %s", w->type, g->type);
            entry_differs = true;
        } else if (g->kind == MF_TENSOR && strcmp(g->shape, w->shape) != 0) {
            line(o, "changed", g->kind, g->name, "shape %s -> %s", w->shape, g->shape);
            entry_differs = true;
        } else if (g->state == MF_NO_DATA) {
            line(o, "damaged", g->kind, g->name, "its data is not in the file (cut short?)");
            entry_differs = true;
        } else if (g->state == MF_ALIASED) {
            line(o, "damaged", g->kind, g->name, "its data overlaps another tensor's");
            entry_differs = true;
        } else if (memcmp(g->digest, w->digest, 32) != 0) {
            line(o, "changed", g->kind, g->name, g->kind == MF_TENSOR ? "data" : "value");
            entry_differs = true;
        }
    }
    /* Missing ones in manifest order, which is the file order they were hashed in. */
    bool *gone = cert_xrealloc(NULL, (want->n ? want->n : 1) * sizeof *gone);
    memset(gone, 0, want->n * sizeof *gone);
    for (size_t i = 0; i < want->n; i++) {
        if (!refs[i].matched) {
            gone[refs[i].e - want->entries] = true;
        }
    }
    for (size_t i = 0; i < want->n; i++) {
        if (gone[i]) {
            line(o, "missing", want->entries[i].kind, want->entries[i].name, NULL);
            entry_differs = true;
        }
    }
    free(gone);
    free(refs);
    if (got->size != want->size || memcmp(got->digest, want->digest, 32) != 0) {
        fprintf(o->out, "%s%-8s %-7s sha256%s", o->prefix, "changed", "file",
                entry_differs ? "" : " (every key-value and tensor matches: the header, tensor "
                                     "infos, padding or order differ)");
        if (got->size != want->size) {
            fprintf(o->out, "  size %llu -> %llu", (unsigned long long)want->size,
                    (unsigned long long)got->size);
        }
        fputc('\n', o->out);
        o->count++;
    }
}

uint64_t mf_compare(FILE *out, const mf_doc *want, const mf_doc *got)
{
    out_ctx o = {out, "", 0};
    if (want->n_parts != got->n_parts) {
        fprintf(out, "changed  parts   the manifest lists %zu, the file has %zu\n", want->n_parts,
                got->n_parts);
        o.count++;
    }
    size_t n = want->n_parts < got->n_parts ? want->n_parts : got->n_parts;
    for (size_t p = 0; p < n; p++) {
        if (got->n_parts > 1 || want->n_parts > 1) {
            snprintf(o.prefix, sizeof o.prefix, "part %zu: ", p + 1);
        }
        compare_part(&o, &want->parts[p], &got->parts[p]);
    }
    return o.count;
}
