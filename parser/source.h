/* Where the bytes come from: a regular file, or a caller's buffer (no source at all).
 *
 * A path is opened without blocking (a FIFO with no writer, a tape or a terminal cannot hang the
 * open) and refused unless fstat says it is a regular file; what fstat said is the file's
 * identity. The file is then mapped and kept open (the default), kept open and read with pread
 * (copy_metadata), or closed once the metadata is read and reopened for every data read
 * (reopen_for_data), each reopen checked against the identity. */
#ifndef GGUFSAFE_SOURCE_H
#define GGUFSAFE_SOURCE_H

#include <stdbool.h>

#include "ggufsafe.h"
#include "mem.h"

typedef struct gsi_source {
    bool is_file;   /* false for memory sources */
    int fd;         /* -1 for memory sources and detached files */
    void *map;      /* NULL unless mapped (never for empty files) */
    size_t map_len;
    char *path;     /* detached files: the path to reopen, NUL-terminated (path_cap bytes) */
    size_t path_cap;
    gs_identity id; /* files: fstat at open */
} gsi_source;

/* A source that is no file (memory). */
void gsi_source_init(gsi_source *src);

/* Opens path read-only and non-blocking, and fstats it: GS_OK; GS_E_NO_SUCH_FILE;
 * GS_E_NOT_REGULAR_FILE (a directory, FIFO, socket or device, or an open that says so: ENXIO,
 * ENODEV); GS_E_IO for everything else (EACCES, ELOOP, EMFILE, ENFILE, ENOMEM, ...). The
 * system's reason is written to detail (cap bytes) on failure. */
gs_status gsi_source_open(const char *path, gsi_source *src, char *detail, size_t cap);

/* Maps the whole file read-only (not for empty files): GS_OK or GS_E_IO with detail. */
gs_status gsi_source_map(gsi_source *src, char *detail, size_t cap);

/* reopen_for_data: keeps a copy of path (allocated from mem) and closes the descriptor. GS_OK,
 * or the allocation's failure (the source is unchanged). */
gs_status gsi_source_detach(gsi_source *src, const char *path, gsi_mem *mem);

/* Unmaps, closes and frees what src holds; back to a memory source. */
void gsi_source_close(gsi_source *src, gsi_mem *mem);

/* Reads n > 0 bytes at pos from a file source with pread (retrying short reads and EINTR):
 * GS_OK; GS_E_TRUNCATED when the file now ends before pos + n (it shrank after opening); GS_E_IO.
 * A detached source is reopened for the call and closed again: GS_E_FILE_CHANGED, nothing read,
 * when the path no longer names the same, unchanged file. Thread-safe. */
gs_status gsi_source_pread(const gsi_source *src, uint64_t pos, void *dst, size_t n);

/* A descriptor to read a file source with: the one it holds, or (detached) its path reopened
 * and checked as gsi_source_pread checks it. Give it back with gsi_source_release. */
gs_status gsi_source_acquire(const gsi_source *src, int *fd);
void gsi_source_release(const gsi_source *src, int fd);

/* The same on an open descriptor, for the metadata read of gs_open_file: *got receives the bytes
 * read when the file ends early (GS_E_TRUNCATED), *err_no the errno of GS_E_IO. */
gs_status gsi_fd_pread(int fd, uint64_t pos, void *dst, size_t n, size_t *got, int *err_no);

#endif
