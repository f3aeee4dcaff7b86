/* A child process with a time limit and captured output (child_process.h). */
#define _POSIX_C_SOURCE 200809L
#include "child_process.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Appends what is readable on fd; returns 0 at EOF. */
static int drain(int fd, char **buf, size_t *len, size_t *cap, size_t limit)
{
    char chunk[65536];
    const ssize_t r = read(fd, chunk, sizeof chunk);
    if (r < 0) {
        return errno == EINTR || errno == EAGAIN ? 1 : 0;
    }
    if (r == 0) {
        return 0;
    }
    size_t n = (size_t)r;
    if (*len + n > limit) {
        n = limit - *len; /* keep the head, drop the rest */
    }
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (c < *len + n + 1) {
            c *= 2;
        }
        char *p = realloc(*buf, c);
        if (p == NULL) {
            return 0;
        }
        *buf = p;
        *cap = c;
    }
    memcpy(*buf + *len, chunk, n);
    *len += n;
    (*buf)[*len] = '\0';
    return 1;
}

void gsi_child_run(char *const argv[], double cpu_s, gsi_child *c)
{
    const double timeout_s = 3 * cpu_s + 10;
    memset(c, 0, sizeof *c);
    c->end = GSI_CHILD_NO_START;
    int out[2], err[2];
    if (pipe(out) != 0) {
        c->out = calloc(1, 1);
        return;
    }
    if (pipe(err) != 0) {
        close(out[0]);
        close(out[1]);
        c->out = calloc(1, 1);
        return;
    }
    const double t0 = now();
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        close(out[0]);
        close(out[1]);
        close(err[0]);
        close(err[1]);
        const rlim_t cpu = (rlim_t)(cpu_s + 0.999);
        const struct rlimit lim = {cpu, cpu + 1};
        setrlimit(RLIMIT_CPU, &lim);
        execv(argv[0], argv);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    char *ebuf = NULL;
    size_t olen = 0, ocap = 0, elen = 0, ecap = 0;
    int open_fds = 2;
    int killed = 0;
    struct pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    while (pid > 0 && open_fds > 0) {
        const double left = timeout_s - (now() - t0);
        if (left <= 0 && !killed) {
            kill(pid, SIGKILL);
            killed = 1;
        }
        const int ms = killed ? 1000 : (int)(left * 1000.0) + 1;
        if (poll(fds, 2, ms) < 0 && errno != EINTR) {
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                const int more = i == 0 ? drain(fds[i].fd, &c->out, &olen, &ocap, (size_t)1 << 30)
                                        : drain(fds[i].fd, &ebuf, &elen, &ecap, sizeof c->err - 1);
                if (!more) {
                    close(fds[i].fd);
                    fds[i].fd = -1;
                    open_fds--;
                }
            }
        }
    }
    for (int i = 0; i < 2; i++) {
        if (fds[i].fd >= 0) {
            close(fds[i].fd);
        }
    }
    if (c->out == NULL) {
        c->out = calloc(1, 1);
    }
    c->out_len = olen;
    if (ebuf != NULL) {
        snprintf(c->err, sizeof c->err, "%s", ebuf);
        free(ebuf);
    }
    if (pid < 0) {
        return;
    }
    /* Its output is closed; it may still run (a child that closed stdio and hangs). */
    int status = 0;
    for (;;) {
        const pid_t w = waitpid(pid, &status, killed ? 0 : WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR)) {
            break;
        }
        if (w == 0 && timeout_s - (now() - t0) <= 0) {
            kill(pid, SIGKILL);
            killed = 1;
        } else if (w == 0) {
            const struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
        }
    }
    c->seconds = now() - t0;
    if (killed || (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)) {
        c->end = GSI_CHILD_TIMEOUT;
    } else if (WIFSIGNALED(status)) {
        c->end = GSI_CHILD_SIGNALED;
        c->code = WTERMSIG(status);
    } else {
        c->end = GSI_CHILD_EXITED;
        c->code = WEXITSTATUS(status);
    }
}

void gsi_child_free(gsi_child *c)
{
    free(c->out);
    c->out = NULL;
}
