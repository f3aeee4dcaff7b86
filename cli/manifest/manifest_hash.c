/* One pass over a file for every digest of its manifest. The calling thread reads the file in
 * order, in large chunks, through gs_file_read (pread: a file that shrinks gives
 * GS_E_TRUNCATED, never a SIGBUS), into a ring of buffers, and feeds the whole-file digest. With
 * more than one job, jobs-1 range hashers feed the key-value and tensor digests from the same
 * buffers, each owning every n-th range; a buffer is reused once every hasher is done with it.
 * With one job the reading thread does everything. The file is read once, so a model larger than
 * the page cache costs one pass of disk reads, not two. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "manifest.h"
#include "sha256.h"
#include "spans.h"

#define CHUNK (4u << 20)
#define RING 4

typedef cli_span range; /* index: the entry */

typedef struct slot {
    uint8_t *buf;
    uint64_t seq; /* the chunk it holds; UINT64_MAX before the first */
    size_t len;
    unsigned pending; /* range hashers still reading it */
} slot;

/* A range hasher's position: its ranges are every n-th of the sorted list, from its own. */
typedef struct lane {
    struct hasher *h;
    size_t next;     /* index into h->ranges of its current range */
    bool active;     /* a digest is open for it */
    bool failed;     /* libcrypto failed (the lane's own flag: no shared writes) */
    cli_sha256 *ctx;
} lane;

typedef struct hasher {
    const gs_file *f;
    mf_part *part;
    range *ranges;
    size_t n_ranges;
    unsigned n_lanes;
    uint64_t n_chunks;
    slot slots[RING];
    pthread_mutex_t mu;
    pthread_cond_t published, freed;
    bool stop;
    bool failed; /* libcrypto failed on the reading thread: a result would be wrong */
} hasher;

static void finish(hasher *h, lane *l, size_t r)
{
    if (!cli_sha256_final(l->ctx, h->part->entries[h->ranges[r].index].digest)) {
        l->failed = true;
    }
    l->active = false;
}

/* Feeds the lane's ranges that meet chunk [cs, cs + len). */
static void feed(hasher *h, lane *l, unsigned stride, const uint8_t *buf, uint64_t cs, size_t len)
{
    const uint64_t ce = cs + len;
    while (l->next < h->n_ranges) {
        const range *r = &h->ranges[l->next];
        if (r->start >= ce) {
            return;
        }
        l->active = true; /* the context is ready: new, or started afresh by the last final */
        uint64_t from = r->start > cs ? r->start : cs;
        uint64_t to = r->end < ce ? r->end : ce;
        if (to > from && !cli_sha256_update(l->ctx, buf + (from - cs), (size_t)(to - from))) {
            l->failed = true;
        }
        if (r->end > ce) {
            return; /* continues in the next chunk */
        }
        finish(h, l, l->next);
        l->next += stride;
    }
}

typedef struct lane_arg {
    hasher *h;
    lane *l;
} lane_arg;

static void *lane_main(void *arg)
{
    lane_arg *a = arg;
    hasher *h = a->h;
    for (uint64_t k = 0; k < h->n_chunks; k++) {
        slot *s = &h->slots[k % RING];
        pthread_mutex_lock(&h->mu);
        while (!h->stop && s->seq != k) {
            pthread_cond_wait(&h->published, &h->mu);
        }
        bool have = s->seq == k;
        pthread_mutex_unlock(&h->mu);
        if (!have) {
            break;
        }
        feed(h, a->l, h->n_lanes, s->buf, k * CHUNK, s->len);
        pthread_mutex_lock(&h->mu);
        if (--s->pending == 0) {
            pthread_cond_broadcast(&h->freed);
        }
        pthread_mutex_unlock(&h->mu);
    }
    return NULL;
}

static void aliased(void *ctx, size_t entry)
{
    ((mf_part *)ctx)->entries[entry].state = MF_ALIASED;
}

/* Appends the entry of a key or tensor name (raw bytes); NULL when out of memory. */
static mf_entry *add_named(mf_part *part, mf_kind kind, gs_str raw)
{
    char *name = mf_escape(raw.ptr, raw.len);
    mf_entry *e = name != NULL ? mf_part_add(part, kind, name, strlen(name)) : NULL;
    free(name);
    return e;
}

/* The entries of the manifest for f, and the ranges whose bytes are to be hashed. */
static gs_status collect(hasher *h, bool skip_absent)
{
    const gs_file *f = h->f;
    mf_part *part = h->part;
    size_t n = gs_kv_count(f) + gs_tensor_count(f);
    h->n_ranges = 0;
    h->ranges = cli_alloc_array(n, sizeof *h->ranges);
    if (h->ranges == NULL) {
        return GS_E_NO_MEMORY;
    }
    mf_limits limits;
    mf_limits_default(&limits);
    uint64_t value_budget = limits.max_part_value_bytes;
    for (size_t i = 0; i < gs_kv_count(f); i++) {
        gs_kv_info kv;
        gs_kv_info_at(f, i, &kv);
        mf_entry *e = add_named(part, MF_KV, kv.key);
        if (e == NULL) {
            return GS_E_NO_MEMORY;
        }
        e->offset = kv.offset;
        e->size = kv.size;
        /* The value for verify to show, while the part's budget lasts (in file order, so the
         * same file always gets the same manifest); a value that cannot be read gets none. */
        char *value = value_budget > 0 ? mf_kv_value(f, i) : NULL;
        if (value != NULL && strlen(value) <= value_budget) {
            value_budget -= strlen(value);
            e->value = value;
        } else if (value != NULL) {
            free(value);
            value_budget = 0; /* this one and every later one go without */
        }
    }
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        gs_tensor_info_at(f, i, &t);
        if (skip_absent && !t.data_in_file) {
            continue; /* a metadata-only hash: the manifest of the file as it is */
        }
        mf_entry *e = add_named(part, MF_TENSOR, t.name);
        if (e == NULL) {
            return GS_E_NO_MEMORY;
        }
        snprintf(e->type, sizeof e->type, "%s", gs_file_type_name(f, t.type));
        size_t k = 0;
        e->shape[0] = '\0';
        for (uint32_t d = 0; d < t.n_dims && d < GS_MAX_DIMS; d++) {
            k += (size_t)snprintf(e->shape + k, sizeof e->shape - k, "%s%llu", d ? "," : "",
                                  (unsigned long long)t.ne[d]);
        }
        if (t.n_dims == 0) {
            snprintf(e->shape, sizeof e->shape, "-");
        }
        e->offset = t.data_offset;
        e->size = t.size;
        e->state = t.data_in_file ? MF_HASHED : MF_NO_DATA;
    }
    for (size_t i = 0; i < part->n; i++) {
        const mf_entry *e = &part->entries[i];
        if (e->state == MF_HASHED && e->size > 0) {
            h->ranges[h->n_ranges++] = (range){e->offset, e->offset + e->size, i};
        } else if (e->state == MF_HASHED) {
            if (!cli_sha256_of("", 0, part->entries[i].digest)) {
                h->failed = true;
            }
        }
    }
    /* A damaged file's tensors may share bytes: keep the first of each, so every range is
     * disjoint and each lane needs one open digest at a time. */
    h->n_ranges = cli_spans_first_owners(h->ranges, h->n_ranges, aliased, part);
    return GS_OK;
}

/* What one hash run holds besides the hasher's ranges: per lane, and the ring's buffers. */
/* Tells the started lane threads to stop and waits for them. */
static void stop_lanes(hasher *h, pthread_t *threads, unsigned started)
{
    pthread_mutex_lock(&h->mu);
    h->stop = true;
    pthread_cond_broadcast(&h->published);
    pthread_mutex_unlock(&h->mu);
    for (unsigned i = 0; i < started; i++) {
        pthread_join(threads[i], NULL);
    }
}

typedef struct run {
    lane *lanes;
    lane_arg *args;
    pthread_t *threads;
    cli_sha256 *whole;
} run;

static void release(hasher *h, run *rn)
{
    for (unsigned i = 0; rn->lanes != NULL && i < h->n_lanes; i++) {
        cli_sha256_free(rn->lanes[i].ctx);
    }
    for (int i = 0; i < RING; i++) {
        free(h->slots[i].buf);
    }
    cli_sha256_free(rn->whole);
    free(h->ranges);
    free(rn->lanes);
    free(rn->args);
    free(rn->threads);
}

/* The lanes and the ring; GS_E_NO_MEMORY when one cannot be had (release frees what was). */
static gs_status acquire(hasher *h, run *rn)
{
    rn->lanes = cli_alloc_array(h->n_lanes, sizeof *rn->lanes);
    rn->args = cli_alloc_array(h->n_lanes, sizeof *rn->args);
    rn->threads = cli_alloc_array(h->n_lanes, sizeof *rn->threads);
    if (rn->lanes == NULL || rn->args == NULL || rn->threads == NULL) {
        free(rn->lanes);
        rn->lanes = NULL;
        return GS_E_NO_MEMORY;
    }
    for (unsigned i = 0; i < h->n_lanes; i++) {
        rn->lanes[i] = (lane){h, i, false, false, cli_sha256_new()};
        if (rn->lanes[i].ctx == NULL) {
            h->failed = true;
        }
    }
    for (int i = 0; i < RING; i++) {
        h->slots[i] = (slot){malloc(CHUNK), UINT64_MAX, 0, 0};
        if (h->slots[i].buf == NULL) {
            return GS_E_NO_MEMORY;
        }
    }
    return GS_OK;
}

gs_status mf_hash_part(const gs_file *f, const mf_hash_options *o, mf_part *out,
                       uint64_t *where)
{
    gs_layout layout;
    gs_file_layout(f, &layout);
    hasher h = {.f = f, .part = out};
    run rn = {NULL, NULL, NULL, NULL};
    out->size = layout.file_size;
    *where = 0;
    rn.whole = cli_sha256_new();
    if (rn.whole == NULL) {
        release(&h, &rn);
        return GS_E_INTERNAL;
    }
    gs_status st = collect(&h, o->skip_absent);
    h.n_chunks = (layout.file_size + CHUNK - 1) / CHUNK;
    unsigned jobs = o->jobs > 0 ? o->jobs : 1;
    h.n_lanes = jobs > 1 ? jobs - 1 : 1;
    if (h.n_lanes > h.n_ranges && h.n_ranges > 0) {
        h.n_lanes = (unsigned)h.n_ranges;
    }
    if (st == GS_OK) {
        st = acquire(&h, &rn);
    }
    if (st != GS_OK) {
        release(&h, &rn);
        return st;
    }
    bool threaded = jobs > 1 && h.n_ranges > 0;
    lane *lanes = rn.lanes;
    lane_arg *args = rn.args;
    pthread_t *threads = rn.threads;
    cli_sha256 *whole = rn.whole;
    pthread_mutex_init(&h.mu, NULL);
    pthread_cond_init(&h.published, NULL);
    pthread_cond_init(&h.freed, NULL);
    unsigned started = 0;
    if (threaded) {
        for (; started < h.n_lanes; started++) {
            args[started] = (lane_arg){&h, &lanes[started]};
            if (pthread_create(&threads[started], NULL, lane_main, &args[started]) != 0) {
                break;
            }
        }
        if (started < h.n_lanes) {
            /* Fewer threads than lanes: the lanes already running still cover only their own
             * ranges, so stop them and hash on this thread alone. */
            stop_lanes(&h, threads, started);
            started = 0;
            threaded = false;
            h.stop = false;
            for (unsigned i = 0; i < h.n_lanes; i++) {
                lanes[i].next = i;
                lanes[i].active = false;
            }
        }
    }
    for (uint64_t k = 0; k < h.n_chunks; k++) {
        slot *s = &h.slots[k % RING];
        pthread_mutex_lock(&h.mu);
        while (s->pending > 0) {
            pthread_cond_wait(&h.freed, &h.mu);
        }
        pthread_mutex_unlock(&h.mu);
        uint64_t at = k * CHUNK;
        size_t len = layout.file_size - at < CHUNK ? (size_t)(layout.file_size - at) : CHUNK;
        st = gs_file_read(f, at, s->buf, len);
        if (o->after_chunk != NULL) {
            o->after_chunk(o->after_chunk_ctx, k, at);
        }
        if (st != GS_OK) {
            *where = at;
            break;
        }
        pthread_mutex_lock(&h.mu);
        s->seq = k;
        s->len = len;
        s->pending = threaded ? started : 0;
        pthread_cond_broadcast(&h.published);
        pthread_mutex_unlock(&h.mu);
        if (!cli_sha256_update(whole, s->buf, len)) {
            h.failed = true;
        }
        if (!threaded) {
            for (unsigned i = 0; i < h.n_lanes; i++) {
                feed(&h, &lanes[i], h.n_lanes, s->buf, at, len);
            }
        }
        if (o->progress != NULL) {
            o->progress(o->progress_ctx, at + len, layout.file_size);
        }
    }
    stop_lanes(&h, threads, started);
    if (st == GS_OK && !cli_sha256_final(whole, out->digest)) {
        h.failed = true;
    }
    for (unsigned i = 0; i < h.n_lanes; i++) {
        h.failed |= lanes[i].failed; /* after the joins */
    }
    pthread_mutex_destroy(&h.mu);
    pthread_cond_destroy(&h.published);
    pthread_cond_destroy(&h.freed);
    release(&h, &rn);
    if (st == GS_OK && h.failed) {
        *where = 0;
        return GS_E_INTERNAL;
    }
    return st;
}
