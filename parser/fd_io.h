/* Moving a whole buffer through a file descriptor: the one loop of the tree that goes on after a
 * short read or write and retries an interrupted call, for pipes, sockets and files alike (the
 * plugin host's frames, the parent's side of them, dequant's output file, the oracle's
 * requests). */
#ifndef GGUFSAFE_FD_IO_H
#define GGUFSAFE_FD_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum gsi_fd_op {
    GSI_FD_READ,   /* read(2) */
    GSI_FD_WRITE,  /* write(2) */
    GSI_FD_PWRITE, /* pwrite(2) at offset, which advances by what was written */
    GSI_FD_RECV,   /* recv(2) without blocking (MSG_DONTWAIT) */
    GSI_FD_SEND    /* send(2) without blocking and without SIGPIPE (MSG_DONTWAIT, MSG_NOSIGNAL) */
} gsi_fd_op;

typedef enum gsi_fd_result {
    GSI_FD_OK,     /* all n bytes moved */
    GSI_FD_EOF,    /* end of file, or an error other than a retried one */
    GSI_FD_TIMEOUT /* ready said the time was up */
} gsi_fd_result;

typedef struct gsi_fd_io {
    int fd;
    gsi_fd_op op;
    uint64_t offset; /* GSI_FD_PWRITE: where the next byte goes */
    /* Called before every call with POLLIN or POLLOUT: waits until fd is ready, false when the
     * time is up. NULL for a blocking descriptor. With it, EAGAIN is retried as EINTR is. */
    bool (*ready)(void *ctx, short events);
    void *ctx;
} gsi_fd_io;

/* Moves n bytes: from src for the writing ops, into dst for the reading ones (the other NULL). */
gsi_fd_result gsi_fd_all(gsi_fd_io *io, const void *src, void *dst, size_t n);

/* gsi_fd_all on a blocking descriptor with read(2) and write(2): true when all n bytes moved. */
bool gsi_read_all(int fd, void *dst, size_t n);
bool gsi_write_all(int fd, const void *src, size_t n);

#endif
