/* A persistent gs_oracle serve child (oracle_session.h). */
#define _POSIX_C_SOURCE 200809L
#include "oracle_session.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fd_io.h"
#include "oracle_proto.h"

struct gsx_session {
    char oracle[4096];
    pid_t pid;
    int to_child, from_child;
    size_t restarts;
    char *buf;
    size_t cap;
};

static void stop_child(gsx_session *s)
{
    if (s->pid > 0) {
        close(s->to_child);
        close(s->from_child);
        kill(s->pid, SIGKILL);
        while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    s->pid = -1;
}

static void close_pipe(const int p[2])
{
    close(p[0]);
    close(p[1]);
}

static int start_child(gsx_session *s)
{
    int in[2], out[2];
    if (pipe(in) != 0) {
        return -1;
    }
    if (pipe(out) != 0) {
        close_pipe(in);
        return -1;
    }
    s->pid = fork();
    if (s->pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close_pipe(in);
        close_pipe(out);
        char *argv[] = {s->oracle, "serve", NULL};
        execv(argv[0], argv);
        _exit(127);
    }
    if (s->pid < 0) {
        close_pipe(in); /* no child: none of the four ends is anyone's */
        close_pipe(out);
        return -1;
    }
    close(in[0]);
    close(out[1]);
    s->to_child = in[1];
    s->from_child = out[0];
    return 0;
}

gsx_session *gsx_session_start(const char *oracle)
{
    /* a runner that dies mid-request must not kill us with SIGPIPE */
    signal(SIGPIPE, SIG_IGN);
    gsx_session *s = calloc(1, sizeof *s);
    if (s == NULL) {
        return NULL;
    }
    snprintf(s->oracle, sizeof s->oracle, "%s", oracle);
    s->pid = -1;
    if (start_child(s) != 0) {
        fprintf(stderr, "oracle session: cannot start %s serve\n", oracle);
        free(s);
        return NULL;
    }
    return s;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Reads until the report's "end" line; 1 done, 0 EOF (crash), -1 timeout. */
static int read_report(gsx_session *s, double timeout_s, size_t *len)
{
    const double t0 = now();
    *len = 0;
    for (;;) {
        if (*len >= 4 && memcmp(s->buf + *len - 4, "end\n", 4) == 0 &&
            (*len == 4 || s->buf[*len - 5] == '\n')) {
            return 1;
        }
        const double left = timeout_s - (now() - t0);
        if (left <= 0) {
            return -1;
        }
        struct pollfd p = {s->from_child, POLLIN, 0};
        const int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return r == 0 ? -1 : 0;
        }
        if (*len + 65536 + 1 > s->cap) {
            const size_t cap = s->cap ? s->cap * 2 : 1 << 20;
            char *b = realloc(s->buf, cap);
            if (b == NULL) {
                return 0;
            }
            s->buf = b;
            s->cap = cap;
        }
        const ssize_t n = read(s->from_child, s->buf + *len, 65536);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return 0;
        }
        *len += (size_t)n;
    }
}

gsx_verdict gsx_session_report(gsx_session *s, const uint8_t *data, size_t size, unsigned flags,
                               double timeout_s, gsx_view *v)
{
    memset(v, 0, sizeof *v);
    if (s->pid < 0 && start_child(s) != 0) {
        return GSX_CRASHED;
    }
    uint8_t head[GSX_PROTO_HEADER_BYTES];
    memcpy(head, GSX_PROTO_MAGIC, 4);
    for (int i = 0; i < 4; i++) {
        head[4 + i] = (uint8_t)(flags >> (8 * i));
    }
    for (int i = 0; i < 8; i++) {
        head[8 + i] = (uint8_t)((uint64_t)size >> (8 * i));
    }
    size_t len = 0;
    int got = -2;
    if (gsi_write_all(s->to_child, head, sizeof head) && gsi_write_all(s->to_child, data, size)) {
        got = read_report(s, timeout_s, &len);
    }
    size_t used = 0;
    if (got == 1 && gsx_view_parse(s->buf, len, v, &used) == 0) {
        return v->accepted ? GSX_ACCEPTED : GSX_REJECTED;
    }
    gsx_view_free(v);
    stop_child(s); /* dead, hung or out of step: a fresh runner for the next input */
    s->restarts++;
    return got == -1 ? GSX_HUNG : GSX_CRASHED;
}

size_t gsx_session_restarts(const gsx_session *s)
{
    return s->restarts;
}

void gsx_session_stop(gsx_session *s)
{
    if (s != NULL) {
        stop_child(s);
        free(s->buf);
        free(s);
    }
}
