/* Where the bytes come from: a read-only mapping of a file, or a caller's buffer. */
#ifndef GGUFSAFE_SOURCE_H
#define GGUFSAFE_SOURCE_H

#include "ggufsafe.h"

typedef struct gsi_source {
    int fd;           /* -1 for memory sources */
    void *map;        /* NULL for memory sources and empty files */
    size_t map_len;
} gsi_source;

/* Maps path read-only. An empty file yields a source of size 0 (reported as truncated by the
 * parser). Returns GS_E_IO with errno-level detail in *detail on failure. */
gs_status gsi_source_map(const char *path, gsi_source *src, const uint8_t **base, uint64_t *size,
                         char *detail, size_t detail_cap);
void gsi_source_unmap(gsi_source *src);

/* Reads n bytes at pos from the file behind src with pread (retrying short reads and EINTR):
 * GS_OK, GS_E_TRUNCATED when the file now ends before pos + n (it shrank after opening), or
 * GS_E_IO. Only for file sources (fd >= 0). */
gs_status gsi_source_pread(const gsi_source *src, uint64_t pos, void *dst, size_t n);

#endif
