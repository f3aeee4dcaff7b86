#define _DEFAULT_SOURCE
#include "open_regular.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* What a file that is not a regular one is, for the error. */
static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode)) {
        return "a directory, not a regular file";
    }
    if (S_ISFIFO(mode)) {
        return "a FIFO, not a regular file";
    }
    if (S_ISSOCK(mode)) {
        return "a socket, not a regular file";
    }
    if (S_ISCHR(mode)) {
        return "a character device, not a regular file";
    }
    if (S_ISBLK(mode)) {
        return "a block device, not a regular file";
    }
    return "not a regular file";
}

/* The system's reason, with what to do where it is not obvious. */
static void describe_errno(char *detail, size_t cap, const char *call, int e)
{
    const char *hint = "";
    if (e == EMFILE) {
        hint = " (the process's descriptor limit, ulimit -n)";
    } else if (e == ENFILE) {
        hint = " (the system's open-file table is full)";
    } else if (e == ENXIO || e == ENODEV) {
        hint = " (a socket, or a device without a driver)";
    }
    snprintf(detail, cap, "%s: %s%s", call, strerror(e), hint);
}

gs_status gsi_open_regular(const char *path, int *fd_out, struct stat *st, char *detail,
                           size_t cap)
{
    *fd_out = -1;
    /* O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, forever. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        describe_errno(detail, cap, "open", e);
        if (e == ENOENT || e == ENOTDIR) {
            return GS_E_NO_SUCH_FILE;
        }
        return e == ENXIO || e == ENODEV ? GS_E_NOT_REGULAR_FILE : GS_E_IO;
    }
    if (fstat(fd, st) != 0) {
        describe_errno(detail, cap, "fstat", errno);
        close(fd);
        return GS_E_IO;
    }
    if (!S_ISREG(st->st_mode)) {
        snprintf(detail, cap, "%s", kind_of(st->st_mode));
        close(fd);
        return GS_E_NOT_REGULAR_FILE;
    }
    /* A regular file: reads block as usual from here on. */
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        describe_errno(detail, cap, "fcntl", errno);
        close(fd);
        return GS_E_IO;
    }
    *fd_out = fd;
    return GS_OK;
}

