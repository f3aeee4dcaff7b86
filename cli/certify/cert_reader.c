/* The reader's own verdicts as findings. Each part was opened strict and lenient in diagnostic
 * mode: a failed open contributes its error, a successful one its findings. What the lenient
 * reader reports breaks both profiles (strict checks everything lenient does); what only the
 * strict reader reports breaks strict. Every one is its own finding, in file order, whatever
 * came before it (the per-code cap bounds the report).
 *
 * Two verdicts are said in plain terms first: a file that is not GGUF at all is reader.not_gguf,
 * naming what it is (gs_detect); a file whose open ran off its end inside the metadata is
 * layout.metadata_truncated, which the reader's error then details. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "cert.h"

typedef struct entry {
    gs_error e;
    unsigned profiles;
    size_t seq; /* keeps the sort stable */
} entry;

typedef struct entries {
    entry *v;
    size_t n, cap;
    bool failed; /* out of memory */
} entries;

static void push(entries *es, const gs_error *e, unsigned profiles)
{
    if (!cli_reserve((void **)&es->v, &es->cap, es->n + 1, sizeof *es->v)) {
        es->failed = true;
        return;
    }
    es->v[es->n] = (entry){*e, profiles, es->n};
    es->n++;
}

/* A failed open's error, or every finding of a successful one (at most GS_MAX_FINDINGS). */
static void gather(entries *es, const gs_file *f, const gs_error *failure, unsigned profiles)
{
    if (f == NULL) {
        if (failure->status != GS_OK && failure->status != GS_E_IO) {
            push(es, failure, profiles);
        }
        return;
    }
    size_t n = gs_file_finding_count(f);
    for (size_t i = 0; i < n; i++) {
        gs_error e;
        if (gs_file_finding(f, i, &e) == GS_OK) {
            push(es, &e, profiles);
        }
    }
}

/* By offset, then status; the same (offset, status) from both opens side by side. */
static int by_place(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->e.offset != y->e.offset) {
        return x->e.offset < y->e.offset ? -1 : 1;
    }
    if (x->e.status != y->e.status) {
        return x->e.status < y->e.status ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

/* Sorted entries with the strict and lenient reports of one problem merged into one, breaking
 * the profiles of both: linear after the sort. */
static size_t merge_same(entries *es)
{
    size_t k = 0;
    for (size_t i = 0; i < es->n; i++) {
        if (k > 0 && es->v[k - 1].e.offset == es->v[i].e.offset &&
            es->v[k - 1].e.status == es->v[i].e.status) {
            es->v[k - 1].profiles |= es->v[i].profiles;
            continue;
        }
        es->v[k++] = es->v[i];
    }
    return k;
}

/* reader.not_gguf: what the file is instead, and what to do about it. */
static void not_gguf(cert_run *r, uint32_t p, const cert_part *part)
{
    const gs_detected *d = &part->detected;
    char inner[64] = "";
    if (d->inner != GS_FORMAT_UNKNOWN) {
        snprintf(inner, sizeof inner, "; that entry is %s", gs_format_name(d->inner));
    }
    cert_add(&r->findings, "reader.not_gguf", p, 0, CERT_SUBJECT_NONE, NULL, 0,
             "%s (kind %s%s%s%s); what to do: %s", d->description, d->name,
             d->detail[0] != '\0' ? "; " : "", d->detail, inner, d->advice);
}

/* Whether the header's counts could be a real file's: a cut file had true counts, a crafted one
 * may declare billions (then the error is not an incomplete download). */
static bool plausible_counts(const gs_detected *d)
{
    gs_options o;
    gs_options_init(&o);
    return d->n_kv <= o.limits.max_kv_count && d->n_tensors <= o.limits.max_tensor_count;
}

/* The open ran off the end of the file inside the metadata. */
static bool metadata_cut(const cert_part *part)
{
    gs_status st = part->lenient_err.status;
    bool runs_off = st == GS_E_TRUNCATED || st == GS_E_COUNT_EXCEEDS_FILE ||
                    st == GS_E_STRING_EXCEEDS_FILE;
    return part->file == NULL && !part->missing && !part->not_gguf && runs_off &&
           part->detected_valid && part->detected.format == GS_FORMAT_GGUF &&
           plausible_counts(&part->detected);
}

const char *cert_metadata_section(const gs_error *e, uint64_t file_size)
{
    if (file_size < 24) {
        return "header";
    }
    if (e->context_kind == GS_CONTEXT_KEY) {
        return "key-values";
    }
    if (e->context_kind == GS_CONTEXT_TENSOR) {
        return "tensor infos";
    }
    return "metadata";
}

static void metadata_truncated(cert_run *r, uint32_t p, const cert_part *part, uint64_t size)
{
    const gs_error *e = &part->lenient_err;
    const gs_detected *d = &part->detected;
    char where[4 * GS_ERROR_TEXT_MAX + 32] = "";
    if (e->context_kind == GS_CONTEXT_KEY || e->context_kind == GS_CONTEXT_TENSOR) {
        snprintf(where, sizeof where, " (%s '%s')",
                 e->context_kind == GS_CONTEXT_KEY ? "key" : "tensor", e->context);
    }
    char counts[112] = "";
    if (size >= 24) {
        snprintf(counts, sizeof counts, ": its header declares %llu key-values and %llu tensors, "
                 "more than the file holds",
                 (unsigned long long)d->n_kv, (unsigned long long)d->n_tensors);
    }
    cert_add(&r->findings, "layout.metadata_truncated", p, size, CERT_SUBJECT_NONE, NULL, 0,
             "the file ends at byte %llu, inside its %s%s%s (the reader's error follows)",
             (unsigned long long)size, cert_metadata_section(e, size), where, counts);
}

void cert_check_reader(cert_run *r)
{
    for (uint32_t p = 0; p < r->n_parts; p++) {
        const cert_part *part = &r->parts[p];
        if (part->missing || part->same_as != 0) {
            continue; /* split.part_missing, split.same_file */
        }
        if (part->not_gguf) {
            not_gguf(r, p, part);
            continue; /* the reader's "bad magic" says nothing more */
        }
        if (metadata_cut(part)) {
            metadata_truncated(r, p, part, part->detected.file_size);
        }
        entries es = {0};
        gather(&es, part->file, &part->lenient_err, CERT_BOTH);
        gather(&es, part->strict, &part->strict_err, CERT_STRICT);
        if (es.n > 1) {
            qsort(es.v, es.n, sizeof *es.v, by_place);
        }
        size_t n = merge_same(&es);
        if (es.failed) {
            cert_findings_fail(&r->findings, GS_E_NO_MEMORY);
        }
        for (size_t i = 0; i < n; i++) {
            cert_add_reader(&r->findings, &es.v[i].e, p, es.v[i].profiles);
        }
        free(es.v);
    }
}
