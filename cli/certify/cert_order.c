/* Report order: what a person must read first comes first. The checks add findings in the order
 * they run; here each finding that is a consequence of another gets that cause (caused_by), and
 * the report is laid out as
 *   1. the root causes that say what happened to the file as a whole (it is not GGUF, it ends
 *      inside its metadata, it ends before its data, a part of the set is missing), by part;
 *   2. every other finding that is not a consequence, errors before warnings before notes (under
 *      the run's profile);
 * each followed at once by its consequences, in the order found. Only a stable sort over what
 * the checks found: the same file gives the same order, whatever --jobs is.
 *
 * Consequences: the reader's "tensor data outside the file" findings (and its missing padding
 * before the data section) of a part that ends before its data; the reader's errors of a part
 * that ends inside its metadata; the layer count of a set one of whose parts cannot be read. */
#include <stdlib.h>
#include <string.h>

#include "cert.h"

static bool is(const cert_finding *f, const char *code)
{
    return strcmp(f->code, code) == 0;
}

/* The findings that say what happened to a part as a whole, in order of precedence. */
static int situation_rank(const cert_finding *f)
{
    static const char *const codes[] = {"reader.not_gguf", "layout.metadata_truncated",
                                        "layout.truncated", "split.part_missing"};
    for (int i = 0; i < 4; i++) {
        if (is(f, codes[i])) {
            return i;
        }
    }
    return -1;
}

/* The situation finding of part p, or CERT_NO_CAUSE. */
static size_t situation_of(const cert_findings *fs, uint32_t p)
{
    for (size_t i = 0; i < fs->n; i++) {
        if (fs->items[i].part == p && situation_rank(&fs->items[i]) >= 0) {
            return i;
        }
    }
    return CERT_NO_CAUSE;
}

/* The first finding about part p (its root, when it has no situation finding). */
static size_t first_of_part(const cert_findings *fs, uint32_t p)
{
    for (size_t i = 0; i < fs->n; i++) {
        if (fs->items[i].part == p) {
            return i;
        }
    }
    return CERT_NO_CAUSE;
}

static void link_part(cert_run *r, uint32_t p)
{
    cert_findings *fs = &r->findings;
    size_t cause = situation_of(fs, p);
    if (cause == CERT_NO_CAUSE) {
        return;
    }
    const cert_finding *c = &fs->items[cause];
    const gs_layout *l = &r->parts[p].layout;
    for (size_t i = 0; i < fs->n; i++) {
        cert_finding *f = &fs->items[i];
        if (i == cause || f->part != p || situation_rank(f) >= 0) {
            continue; /* a situation is always a root of its own */
        }
        bool follows = false;
        if (is(c, "layout.truncated")) {
            /* the tensors that lie past the end, and the padding the end cut off */
            follows = cert_is_reader_code(f, GS_E_DATA_OUTSIDE_FILE) ||
                      (cert_is_reader_code(f, GS_E_TRUNCATED) && f->offset == l->tensor_info_end &&
                       l->data_offset > l->file_size);
        } else if (is(c, "layout.metadata_truncated")) {
            /* the reader's error where it ran off the end */
            follows = strncmp(f->code, CERT_READER_PREFIX, strlen(CERT_READER_PREFIX)) == 0;
        }
        if (follows) {
            f->caused_by = cause;
        }
    }
}

/* A set with a part that cannot be read has fewer layers than its block count says. */
static void link_set(cert_run *r)
{
    cert_findings *fs = &r->findings;
    size_t cause = CERT_NO_CAUSE;
    for (uint32_t p = 0; p < r->n_parts && cause == CERT_NO_CAUSE; p++) {
        if (r->parts[p].file == NULL) {
            cause = situation_of(fs, p);
            if (cause == CERT_NO_CAUSE) {
                cause = first_of_part(fs, p);
            }
        }
    }
    if (cause == CERT_NO_CAUSE) {
        return;
    }
    for (size_t i = 0; i < fs->n; i++) {
        if (i != cause && is(&fs->items[i], "meta.block_count_mismatch")) {
            fs->items[i].caused_by = cause;
        }
    }
}

typedef struct slot {
    size_t index; /* as found */
    int group;    /* 0: a situation, 1..3: errors, warnings, notes */
    uint32_t part;
} slot;

static int by_group(const void *a, const void *b)
{
    const slot *x = a, *y = b;
    if (x->group != y->group) {
        return x->group < y->group ? -1 : 1;
    }
    if (x->group == 0 && x->part != y->part) {
        return x->part < y->part ? -1 : 1;
    }
    return x->index < y->index ? -1 : (x->index > y->index);
}

void cert_order(cert_run *r)
{
    cert_findings *fs = &r->findings;
    r->root_cause = CERT_NO_CAUSE;
    if (fs->n == 0) {
        return;
    }
    for (uint32_t p = 0; p < r->n_parts; p++) {
        link_part(r, p);
    }
    if (r->is_set) {
        link_set(r);
    }
    /* the top-level findings in report order */
    slot *tops = cert_alloc(r, fs->n, sizeof *tops);
    size_t *place = cert_alloc(r, fs->n, sizeof *place);
    cert_finding *out = cert_alloc(r, fs->n, sizeof *out);
    if (tops == NULL || place == NULL || out == NULL) {
        free(tops);
        free(place);
        free(out);
        return;
    }
    size_t n_tops = 0;
    for (size_t i = 0; i < fs->n; i++) {
        const cert_finding *f = &fs->items[i];
        if (f->caused_by != CERT_NO_CAUSE) {
            continue;
        }
        cert_severity sev = cert_effective(f->severity, f->profiles, r->opt.profile);
        int group = situation_rank(f) >= 0 ? 0 : sev == CERT_ERROR ? 1 : sev == CERT_WARNING ? 2 : 3;
        tops[n_tops++] = (slot){i, group, f->part};
    }
    qsort(tops, n_tops, sizeof *tops, by_group);
    /* each top-level finding, then its consequences in the order found: one pass over the
     * findings per cause would be quadratic, so consequences are bucketed by cause first */
    size_t *first_child = cert_alloc(r, fs->n, sizeof *first_child);
    size_t *next_child = cert_alloc(r, fs->n, sizeof *next_child);
    if (first_child == NULL || next_child == NULL) {
        free(tops);
        free(place);
        free(out);
        free(first_child);
        free(next_child);
        return;
    }
    for (size_t i = 0; i < fs->n; i++) {
        first_child[i] = CERT_NO_CAUSE;
        next_child[i] = CERT_NO_CAUSE;
    }
    for (size_t i = fs->n; i-- > 0;) {
        size_t c = fs->items[i].caused_by;
        if (c != CERT_NO_CAUSE) {
            next_child[i] = first_child[c];
            first_child[c] = i;
        }
    }
    size_t k = 0;
    for (size_t t = 0; t < n_tops; t++) {
        size_t i = tops[t].index;
        place[i] = k;
        out[k++] = fs->items[i];
        for (size_t c = first_child[i]; c != CERT_NO_CAUSE; c = next_child[c]) {
            place[c] = k;
            out[k++] = fs->items[c];
        }
    }
    for (size_t i = 0; i < k; i++) {
        if (out[i].caused_by != CERT_NO_CAUSE) {
            out[i].caused_by = place[out[i].caused_by];
        }
    }
    memcpy(fs->items, out, k * sizeof *out);
    free(tops);
    free(place);
    free(out);
    free(first_child);
    free(next_child);
}
