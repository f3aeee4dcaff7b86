/* Whole-buffer reads and writes on a file descriptor (fd_io.h). */
#define _GNU_SOURCE
#include "fd_io.h"

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

static ssize_t fd_step(const gsi_fd_io *io, const uint8_t *src, uint8_t *dst, size_t n)
{
    switch (io->op) {
    case GSI_FD_READ: return read(io->fd, dst, n);
    case GSI_FD_WRITE: return write(io->fd, src, n);
    case GSI_FD_PWRITE: return pwrite(io->fd, src, n, (off_t)io->offset);
    case GSI_FD_RECV: return recv(io->fd, dst, n, MSG_DONTWAIT);
    case GSI_FD_SEND: return send(io->fd, src, n, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    errno = EINVAL;
    return -1;
}

gsi_fd_result gsi_fd_all(gsi_fd_io *io, const void *src, void *dst, size_t n)
{
    const bool writing = io->op == GSI_FD_WRITE || io->op == GSI_FD_PWRITE || io->op == GSI_FD_SEND;
    const uint8_t *s = src;
    uint8_t *d = dst;
    while (n > 0) {
        if (io->ready != NULL && !io->ready(io->ctx, writing ? POLLOUT : POLLIN)) {
            return GSI_FD_TIMEOUT;
        }
        const ssize_t r = fd_step(io, s, d, n);
        if (r < 0 && (errno == EINTR || (io->ready != NULL && errno == EAGAIN))) {
            continue;
        }
        if (r <= 0) {
            return GSI_FD_EOF;
        }
        if (writing) {
            s += r;
        } else {
            d += r;
        }
        n -= (size_t)r;
        io->offset += (uint64_t)r;
    }
    return GSI_FD_OK;
}

bool gsi_read_all(int fd, void *dst, size_t n)
{
    gsi_fd_io io = {fd, GSI_FD_READ, 0, NULL, NULL};
    return gsi_fd_all(&io, NULL, dst, n) == GSI_FD_OK;
}

bool gsi_write_all(int fd, const void *src, size_t n)
{
    gsi_fd_io io = {fd, GSI_FD_WRITE, 0, NULL, NULL};
    return gsi_fd_all(&io, src, NULL, n) == GSI_FD_OK;
}
