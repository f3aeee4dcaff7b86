#define _DEFAULT_SOURCE
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

gs_status gsi_source_map(const char *path, gsi_source *src, const uint8_t **base, uint64_t *size,
                         char *detail, size_t detail_cap)
{
    *src = (gsi_source){-1, NULL, 0};
    *base = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(detail, detail_cap, "open: %s", strerror(errno));
        return GS_E_IO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(detail, detail_cap, "fstat: %s", strerror(errno));
        close(fd);
        return GS_E_IO;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(detail, detail_cap, "not a regular file");
        close(fd);
        return GS_E_IO;
    }
    if (st.st_size < 0 || (uint64_t)st.st_size > (uint64_t)SIZE_MAX) {
        snprintf(detail, detail_cap, "file too large to map");
        close(fd);
        return GS_E_IO;
    }
    src->fd = fd;
    if (st.st_size == 0) {
        return GS_OK;
    }
    size_t len = (size_t)st.st_size;
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
        snprintf(detail, detail_cap, "mmap: %s", strerror(errno));
        close(fd);
        src->fd = -1;
        return GS_E_IO;
    }
    /* Parsing reads the metadata front to back; tensor pages are never touched. */
    (void)madvise(map, len, MADV_RANDOM);
    src->map = map;
    src->map_len = len;
    *base = map;
    *size = len;
    return GS_OK;
}

void gsi_source_unmap(gsi_source *src)
{
    if (src->map != NULL) {
        munmap(src->map, src->map_len);
    }
    if (src->fd >= 0) {
        close(src->fd);
    }
    *src = (gsi_source){-1, NULL, 0};
}

gs_status gsi_source_pread(const gsi_source *src, uint64_t pos, void *dst, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(src->fd, (uint8_t *)dst + got, n - got, (off_t)(pos + got));
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            return GS_E_IO;
        }
        if (r == 0) {
            return GS_E_TRUNCATED;
        }
        got += (size_t)r;
    }
    return GS_OK;
}
