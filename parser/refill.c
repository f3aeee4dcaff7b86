#include "refill.h"

#include <string.h>

#include "source.h"

static const uint8_t empty[1] = {0};

void gsi_refill_start(gsi_refill *r, gsi_cursor *c, gs_file *f, int fd)
{
    *r = (gsi_refill){f, fd, GS_OK, 0, 0, 0};
    f->base = empty;
    *c = (gsi_cursor){f->base, f->size, 0, 0, r};
}

static bool fail(gsi_refill *r, gs_status st, uint64_t at, uint64_t wanted)
{
    r->failed = st;
    r->failed_at = at;
    r->wanted = wanted;
    return false;
}

/* Room for at least want bytes: the copy doubles (so that growing costs linear time whatever
 * the allocator does), within the file's size and the memory that may still be allocated. */
static gs_status grow(gs_file *f, uint64_t want, uint64_t size)
{
    uint64_t cap = f->meta_copy_len;
    uint64_t doubled = cap > UINT64_MAX / 2 ? UINT64_MAX : 2 * cap;
    uint64_t room = cap + gsi_mem_room(&f->mem);
    uint64_t target = doubled < size ? doubled : size;
    if (target > room) {
        target = room;
    }
    if (target < want) {
        target = want; /* over the limit: gsi_mem says so */
    }
    void *p = f->meta_copy;
    gs_status st = p == NULL ? gsi_mem_alloc(&f->mem, (size_t)target, &p)
                             : gsi_mem_realloc(&f->mem, &p, (size_t)cap, (size_t)target);
    if (st == GS_OK) {
        f->meta_copy = p;
        f->meta_copy_len = (size_t)target;
    }
    return st;
}

bool gsi_cur_refill(gsi_cursor *c, uint64_t end)
{
    gsi_refill *r = c->refill;
    if (r->failed != GS_OK) {
        return false;
    }
    gs_file *f = r->file;
    /* sizes fit a size_t: gs_open_file refuses files that do not */
    uint64_t ahead = c->avail < GSI_REFILL_AHEAD_MAX ? c->avail : GSI_REFILL_AHEAD_MAX;
    uint64_t target = c->avail + ahead;
    if (target < GSI_REFILL_FIRST) {
        target = GSI_REFILL_FIRST;
    }
    if (target < end) {
        target = end;
    }
    if (target > c->size) {
        target = c->size;
    }
    if (target <= c->avail) {
        return false; /* end <= avail: nothing to read (the callers never ask so) */
    }
    if (target > f->meta_copy_len) {
        gs_status st = grow(f, target, c->size);
        if (st != GS_OK) {
            return fail(r, st, c->pos, target);
        }
        c->base = f->base = f->meta_copy;
    }
    size_t got;
    int err_no;
    gs_status st = gsi_fd_pread(r->fd, c->avail, f->meta_copy + c->avail,
                                (size_t)(target - c->avail), &got, &err_no);
    if (st == GS_E_TRUNCATED) {
        /* the file ends before the size fstat gave: it was cut while we read it */
        return fail(r, GS_E_FILE_CHANGED, c->avail + got, target);
    }
    if (st != GS_OK) {
        r->err_no = err_no;
        return fail(r, st, c->avail, target);
    }
    c->avail = target;
    return true;
}

gs_status gsi_refill_finish(gsi_refill *r, const gsi_cursor *c, gs_status st, gs_error *err)
{
    gs_file *f = r->file;
    if (r->failed == GS_E_FILE_CHANGED) {
        return gsi_fail(err, r->failed, r->failed_at, GS_CONTEXT_NONE, NULL, 0,
                        "the file shrank to %llu bytes while its metadata was read (it had "
                        "%llu)", (unsigned long long)r->failed_at, (unsigned long long)f->size);
    }
    if (r->failed == GS_E_IO) {
        return gsi_fail(err, r->failed, r->failed_at, GS_CONTEXT_NONE, NULL, 0, "pread: %s",
                        strerror(r->err_no));
    }
    if (r->failed != GS_OK) {
        return gsi_fail(err, r->failed, r->failed_at, GS_CONTEXT_NONE, NULL, 0,
                        "metadata copy of %llu bytes", (unsigned long long)r->wanted);
    }
    if (st == GS_OK && c->avail > 0 && f->meta_copy_len > c->avail) {
        /* the doubling's unused tail goes back; a failure to shrink keeps the larger copy */
        void *p = f->meta_copy;
        if (gsi_mem_realloc(&f->mem, &p, f->meta_copy_len, (size_t)c->avail) == GS_OK) {
            f->meta_copy = p;
            f->meta_copy_len = (size_t)c->avail;
            f->base = f->meta_copy;
        }
    }
    return st;
}
