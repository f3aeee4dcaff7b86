/* The reader's own verdicts as findings (reader.<STATUS>). Each part was opened strict and
 * lenient in diagnostic mode: a failed open contributes its error, a successful one its layout
 * findings. What the lenient reader reports breaks both profiles (strict checks everything
 * lenient does); what only the strict reader reports breaks strict. Reported in file order. */
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
    for (size_t i = 0; i < es->n; i++) {
        if (es->v[i].e.status == e->status && es->v[i].e.offset == e->offset) {
            es->v[i].profiles |= profiles;
            return;
        }
    }
    if (!cli_reserve((void **)&es->v, &es->cap, es->n + 1, sizeof *es->v)) {
        es->failed = true;
        return;
    }
    es->v[es->n] = (entry){*e, profiles, es->n};
    es->n++;
}

/* Both opens' results: the failure, or every layout finding (bounded by GS_MAX_FINDINGS; each
 * code is capped again when added). The dedup above is linear per entry, so only the first
 * few hundred are gathered: more than the report keeps of any code. */
#define MAX_GATHER 1024

/* Whether es holds a finding with e's status and offset. */
static bool holds(const entries *es, const gs_error *e)
{
    for (size_t i = 0; i < es->n; i++) {
        if (es->v[i].e.status == e->status && es->v[i].e.offset == e->offset) {
            return true;
        }
    }
    return false;
}

/* strict_only: of the findings lenient did not report, keep only the first. They are what the
 * strict reader rejects the file for; the compat.* and meta.* checks list every instance under
 * their own codes, so repeating them all as reader.* findings would count each twice. */
static void gather(entries *es, const gs_file *f, const gs_error *failure, unsigned profiles,
                   bool strict_only)
{
    if (f == NULL) {
        if (failure->status != GS_OK && failure->status != GS_E_IO) {
            push(es, failure, profiles);
        }
        return;
    }
    bool took_strict_only = false;
    size_t n = gs_file_finding_count(f);
    for (size_t i = 0; i < n && es->n < MAX_GATHER; i++) {
        gs_error e;
        if (gs_file_finding(f, i, &e) != GS_OK) {
            continue;
        }
        if (strict_only && !holds(es, &e)) {
            if (took_strict_only) {
                continue;
            }
            took_strict_only = true;
        }
        push(es, &e, profiles);
    }
}

static int by_offset(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->e.offset != y->e.offset) {
        return x->e.offset < y->e.offset ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

void cert_check_reader(cert_run *r)
{
    for (uint32_t p = 0; p < r->n_parts; p++) {
        const cert_part *part = &r->parts[p];
        if (part->missing || part->same_as != 0) {
            continue; /* split.part_missing, split.same_file */
        }
        entries es = {0};
        gather(&es, part->file, &part->lenient_err, CERT_BOTH, false);
        gather(&es, part->strict, &part->strict_err, CERT_STRICT, true);
        if (es.n > 1) {
            qsort(es.v, es.n, sizeof *es.v, by_offset);
        }
        if (es.failed) {
            cert_findings_fail(&r->findings, GS_E_NO_MEMORY);
        }
        for (size_t i = 0; i < es.n; i++) {
            cert_add_reader(&r->findings, &es.v[i].e, p, es.v[i].profiles);
        }
        free(es.v);
    }
}
