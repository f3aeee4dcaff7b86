/* The metadata of a file read with pread as the parse asks for it (copy_metadata,
 * reopen_for_data): one pass over the bytes, each read once, into one heap copy that grows
 * geometrically, so the parse never starts again and a file that is truncated later cannot
 * fault a getter. */
#ifndef GGUFSAFE_REFILL_H
#define GGUFSAFE_REFILL_H

#include "cursor.h"
#include "error.h"
#include "file_internal.h"

/* The first read, and the most a refill reads beyond what the parse asked for (reads grow
 * with what has been read: 64 KiB, 128 KiB, ... then 4 MiB at a time), so that a model's
 * metadata costs few reads and at most 4 MiB of tensor data is read with it. Fuzzing builds
 * use tiny steps, so that small inputs cross many refills. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define GSI_REFILL_FIRST 16u
#define GSI_REFILL_AHEAD_MAX 64u
#else
#define GSI_REFILL_FIRST (64u * 1024u)
#define GSI_REFILL_AHEAD_MAX (4u * 1024u * 1024u)
#endif

struct gsi_refill {
    gs_file *file;      /* the copy is file->meta_copy (file->meta_copy_len bytes allocated) */
    int fd;
    gs_status failed;   /* GS_OK until a read or an allocation fails; then every refill fails */
    uint64_t failed_at; /* where the file ended, the read started, or the parse stood */
    uint64_t wanted;    /* the bytes the failed refill wanted in memory */
    int err_no;         /* GS_E_IO: errno of pread */
};

/* A cursor over f (f->size bytes behind fd), with nothing read yet. */
void gsi_refill_start(gsi_refill *r, gsi_cursor *c, gs_file *f, int fd);

/* After the parse returned st: the refill's own failure, reported in err, when there was one;
 * otherwise st, and on success the copy is cut to the bytes read. */
gs_status gsi_refill_finish(gsi_refill *r, const gsi_cursor *c, gs_status st, gs_error *err);

#endif
