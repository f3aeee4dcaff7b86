#define _DEFAULT_SOURCE
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "open_regular.h"

void gsi_source_init(gsi_source *src)
{
    memset(src, 0, sizeof *src);
    src->fd = -1;
}

static gs_identity identity_of(const struct stat *st)
{
    return (gs_identity){(uint64_t)st->st_dev, (uint64_t)st->st_ino, (uint64_t)st->st_size,
                         (int64_t)st->st_mtim.tv_sec, (int64_t)st->st_mtim.tv_nsec};
}

gs_status gsi_source_open(const char *path, gsi_source *src, char *detail, size_t cap)
{
    gsi_source_init(src);
    int fd;
    struct stat st;
    gs_status s = gsi_open_regular(path, &fd, &st, detail, cap);
    if (s != GS_OK) {
        return s;
    }
    if (st.st_size < 0 || (uint64_t)st.st_size > (uint64_t)SIZE_MAX) {
        snprintf(detail, cap, "a file of %lld bytes cannot be addressed here",
                 (long long)st.st_size);
        close(fd);
        return GS_E_IO;
    }
    src->is_file = true;
    src->fd = fd;
    src->id = identity_of(&st);
    return GS_OK;
}

gs_status gsi_source_map(gsi_source *src, char *detail, size_t cap)
{
    if (src->id.size == 0) {
        return GS_OK;
    }
    size_t len = (size_t)src->id.size;
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, src->fd, 0);
    if (map == MAP_FAILED) {
        snprintf(detail, cap, "mmap: %s", strerror(errno));
        return GS_E_IO;
    }
    /* Parsing reads the metadata front to back; tensor pages are never touched. */
    (void)madvise(map, len, MADV_RANDOM);
    src->map = map;
    src->map_len = len;
    return GS_OK;
}

gs_status gsi_source_detach(gsi_source *src, const char *path, gsi_mem *mem)
{
    size_t cap = strlen(path) + 1;
    char *copy;
    gs_status s = gsi_mem_alloc(mem, cap, (void **)&copy);
    if (s != GS_OK) {
        return s;
    }
    memcpy(copy, path, cap);
    src->path = copy;
    src->path_cap = cap;
    close(src->fd);
    src->fd = -1;
    return GS_OK;
}

void gsi_source_close(gsi_source *src, gsi_mem *mem)
{
    if (src->map != NULL) {
        munmap(src->map, src->map_len);
    }
    if (src->fd >= 0) {
        close(src->fd);
    }
    gsi_mem_free(mem, src->path, src->path_cap);
    gsi_source_init(src);
}

gs_status gsi_fd_pread(int fd, uint64_t pos, void *dst, size_t n, size_t *got, int *err_no)
{
    size_t done = 0;
    *got = 0;
    *err_no = 0;
    while (done < n) {
        ssize_t r = pread(fd, (uint8_t *)dst + done, n - done, (off_t)(pos + done));
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            *err_no = errno;
            *got = done;
            return GS_E_IO;
        }
        if (r == 0) {
            *got = done;
            return GS_E_TRUNCATED;
        }
        done += (size_t)r;
    }
    *got = done;
    return GS_OK;
}

/* The file at the path now, if it is still the one that was opened: same device and inode
 * (not replaced), same size and modification time (not written to). */
static gs_status reopen(const gsi_source *src, int *fd)
{
    char detail[8]; /* the reason is not reported: the status says it */
    struct stat st;
    gs_status s = gsi_open_regular(src->path, fd, &st, detail, sizeof detail);
    if (s == GS_E_NO_SUCH_FILE || s == GS_E_NOT_REGULAR_FILE) {
        return GS_E_FILE_CHANGED; /* removed, or something else put in its place */
    }
    if (s != GS_OK) {
        return s;
    }
    gs_identity now = identity_of(&st);
    if (now.device != src->id.device || now.inode != src->id.inode ||
        now.size != src->id.size || now.mtime_sec != src->id.mtime_sec ||
        now.mtime_nsec != src->id.mtime_nsec) {
        close(*fd);
        *fd = -1;
        return GS_E_FILE_CHANGED;
    }
    return GS_OK;
}

gs_status gsi_source_acquire(const gsi_source *src, int *fd)
{
    if (src->fd >= 0) {
        *fd = src->fd;
        return GS_OK;
    }
    return reopen(src, fd);
}

void gsi_source_release(const gsi_source *src, int fd)
{
    if (fd != src->fd) {
        close(fd);
    }
}

gs_status gsi_source_pread(const gsi_source *src, uint64_t pos, void *dst, size_t n)
{
    int fd;
    gs_status s = gsi_source_acquire(src, &fd);
    if (s != GS_OK) {
        return s;
    }
    size_t got;
    int err_no;
    s = gsi_fd_pread(fd, pos, dst, n, &got, &err_no);
    gsi_source_release(src, fd);
    return s;
}
