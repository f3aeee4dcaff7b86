/* Opening a path that may name anything, as every reader of files in ggufsafe does: without
 * blocking (opening a FIFO for reading otherwise waits for a writer, forever; a terminal could
 * become the controlling one) and refused unless fstat says it is a regular file. The reader's
 * file sources and the command's other inputs (manifests) use it. */
#ifndef GGUFSAFE_OPEN_REGULAR_H
#define GGUFSAFE_OPEN_REGULAR_H

#include <stddef.h>
#include <sys/stat.h>

#include "ggufsafe.h"

/* GS_OK with *fd (O_CLOEXEC, blocking reads) and *st; or GS_E_NO_SUCH_FILE (ENOENT, ENOTDIR),
 * GS_E_NOT_REGULAR_FILE (a directory, FIFO, socket or device, or an open that says so: ENXIO,
 * ENODEV), GS_E_IO (anything else: EACCES, ELOOP, EMFILE, ENFILE, ENOMEM, ...), with the reason
 * in detail (cap bytes: "open: Too many open files (the process's descriptor limit, ulimit
 * -n)", "a FIFO") and *fd -1. */
gs_status gsi_open_regular(const char *path, int *fd, struct stat *st, char *detail, size_t cap);

#endif
