/* Decoder plugins (gs_plugin_*): loaded into this process, or run in a child started from the
 * caller's host program (posix_spawn, never a bare fork) that speaks plugin_proto.h over a
 * socket pair, with its stderr on a pipe of its own. Every answer of the child is awaited with
 * a deadline and checked before use; a child that dies, hangs or writes out of bounds makes the
 * plugin failed for good (GS_E_DECODER_FAILED, gs_plugin_failure says why). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "fd_io.h"
#include "le_load.h"
#include "plugin_proto.h"
#include "plugin_table.h"
#include "text_escape.h"

extern char **environ;

#define STDERR_KEEP 512u /* bytes of the child's stderr kept for the message */
#define FAILURE_MAX 1024u

/* What the child serves: a plugin, ggml's new types (`--ggml`), or every type ggml decodes
 * (`--ggml-kernel`, GGUFSAFE_KERNEL=ggml in a child). */
typedef enum host_mode { HOST_PLUGIN, HOST_GGML, HOST_GGML_KERNEL } host_mode;

typedef struct slot {
    struct gs_plugin *plugin;
    gs_plugin_decode_fn fn; /* in-process */
} slot;

struct gs_plugin {
    char path[256];
    char source[GS_ERROR_TEXT_MAX]; /* "plugin 'NAME' (PATH)" */
    gsi_plugin_desc *desc;
    gs_decoder *decoders;
    slot *slots;
    void *dl;
    /* the child */
    bool child;
    pid_t pid;
    int sock, err_fd;
    unsigned timeout_ms;
    uint8_t *buf; /* one frame from the child */
    size_t buf_cap;
    char err_text[STDERR_KEEP + 1];
    size_t err_len;
    uint64_t err_total;
    pthread_mutex_t mu;
    bool failed;
    char failure[FAILURE_MAX];
};

void gs_plugin_options_init(gs_plugin_options *o)
{
    if (o != NULL) {
        memset(o, 0, sizeof *o);
        o->struct_size = sizeof *o;
        o->timeout_ms = GS_PLUGIN_DEFAULT_TIMEOUT_MS;
    }
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads what the child wrote to stderr, keeping the first STDERR_KEEP bytes. */
static void drain_stderr(gs_plugin *p)
{
    uint8_t b[4096];
    for (;;) {
        ssize_t r = read(p->err_fd, b, sizeof b);
        if (r <= 0) {
            return; /* EAGAIN, EOF or an error: nothing more now */
        }
        size_t n = (size_t)r;
        size_t keep = STDERR_KEEP - p->err_len < n ? STDERR_KEEP - p->err_len : n;
        memcpy(p->err_text + p->err_len, b, keep);
        p->err_len += keep;
        p->err_total += n;
    }
}

/* Waits until fd is ready for events (draining stderr meanwhile) or the deadline passes. */
static bool wait_fd(gs_plugin *p, short events, int64_t deadline)
{
    for (;;) {
        int64_t left = deadline - now_ms();
        if (left <= 0) {
            return false;
        }
        struct pollfd fds[2] = {{p->sock, events, 0}, {p->err_fd, POLLIN, 0}};
        int n = poll(fds, p->err_fd >= 0 ? 2 : 1, left > 1000000 ? 1000000 : (int)left);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return false;
        }
        if (p->err_fd >= 0 && (fds[1].revents & (POLLIN | POLLHUP))) {
            drain_stderr(p);
        }
        if (fds[0].revents != 0) {
            return true;
        }
    }
}

typedef struct io_wait {
    gs_plugin *p;
    int64_t deadline;
} io_wait;

static bool io_ready(void *ctx, short events)
{
    const io_wait *w = ctx;
    return wait_fd(w->p, events, w->deadline);
}

/* Sends or receives all n bytes on the socket, draining stderr while it waits (wait_fd). */
static gsi_fd_result sock_all(gs_plugin *p, gsi_fd_op op, const void *src, void *dst, size_t n,
                              int64_t deadline)
{
    io_wait w = {p, deadline};
    gsi_fd_io io = {p->sock, op, 0, io_ready, &w};
    return gsi_fd_all(&io, src, dst, n);
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGABRT: return "SIGABRT";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    default: return "a signal";
    }
}

/* Reaps the child, killing it first when kill_first (a hang), within a second either way. */
static int reap(gs_plugin *p, bool kill_first)
{
    if (p->pid <= 0) {
        return 0;
    }
    if (kill_first) {
        kill(p->pid, SIGKILL);
    }
    int status = 0;
    int64_t deadline = now_ms() + 1000;
    for (;;) {
        pid_t r = waitpid(p->pid, &status, WNOHANG);
        if (r == p->pid || (r < 0 && errno != EINTR)) {
            break;
        }
        if (now_ms() > deadline) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &status, 0);
            break;
        }
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    p->pid = -1;
    return status;
}

/* Records the failure: what, then the child's stderr (escaped, cut); the plugin stays failed. */
__attribute__((format(printf, 2, 3))) static gs_status fail_plugin(gs_plugin *p,
                                                                   const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (p->err_fd >= 0) {
        drain_stderr(p);
    }
    char err[4 * STDERR_KEEP + 8] = "";
    size_t n = p->err_len;
    while (n > 0 && (p->err_text[n - 1] == '\n' || p->err_text[n - 1] == '\r')) {
        n--;
    }
    if (n > 0) {
        gsi_escape_text(err, sizeof err, (const uint8_t *)p->err_text, n);
    }
    snprintf(p->failure, sizeof p->failure, "%s %s%s%s%s%s", p->source, what,
             n > 0 ? "; its stderr: \"" : "", err, n > 0 ? "\"" : "",
             p->err_total > p->err_len ? " (cut)" : "");
    p->failed = true;
    return GS_E_DECODER_FAILED;
}

/* The child ended or stopped answering: why, from its exit status. */
static gs_status child_lost(gs_plugin *p, gsi_fd_result r, const char *during)
{
    if (r == GSI_FD_TIMEOUT) {
        reap(p, true);
        return fail_plugin(p, "did not answer within %u ms %s (hung; killed)", p->timeout_ms,
                           during);
    }
    int st = reap(p, false);
    if (WIFSIGNALED(st)) {
        return fail_plugin(p, "crashed with %s (signal %d) %s", signal_name(WTERMSIG(st)),
                           WTERMSIG(st), during);
    }
    return fail_plugin(p, "exited with status %d %s", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
                       during);
}

/* One frame from the child into p->buf: its kind and length (at most max). */
static gs_status read_frame(gs_plugin *p, uint32_t *kind, uint32_t *len, uint32_t max,
                            const char *during)
{
    int64_t deadline = now_ms() + p->timeout_ms;
    uint8_t h[GSI_PF_HEADER];
    gsi_fd_result r = sock_all(p, GSI_FD_RECV, NULL, h, sizeof h, deadline);
    if (r != GSI_FD_OK) {
        return child_lost(p, r, during);
    }
    *kind = gsi_load_u32le(h);
    *len = gsi_load_u32le(h + 4);
    if (*len > max || *len > p->buf_cap) {
        reap(p, true);
        return fail_plugin(p, "sent a frame of %u bytes (kind %u) %s, more than the %u allowed",
                           *len, *kind, during, max);
    }
    r = sock_all(p, GSI_FD_RECV, NULL, p->buf, *len, deadline);
    if (r != GSI_FD_OK) {
        return child_lost(p, r, during);
    }
    return GS_OK;
}

static gs_status child_decode(gs_plugin *p, int32_t type, const void *src, size_t src_bytes,
                              float *dst, size_t n_elems)
{
    char during[96];
    snprintf(during, sizeof during, "decoding %zu bytes of type %d", src_bytes, (int)type);
    uint8_t head[GSI_PF_HEADER + 8];
    gsi_pf_header(head, GSI_PF_DECODE, (uint32_t)(8 + src_bytes));
    for (unsigned i = 0; i < 4; i++) {
        head[GSI_PF_HEADER + i] = (uint8_t)((uint32_t)type >> (8 * i));
        head[GSI_PF_HEADER + 4 + i] = (uint8_t)((uint32_t)n_elems >> (8 * i));
    }
    int64_t deadline = now_ms() + p->timeout_ms;
    gsi_fd_result r = sock_all(p, GSI_FD_SEND, head, NULL, sizeof head, deadline);
    if (r == GSI_FD_OK) {
        r = sock_all(p, GSI_FD_SEND, src, NULL, src_bytes, deadline);
    }
    if (r != GSI_FD_OK) {
        return child_lost(p, r, during);
    }
    uint32_t kind, len;
    gs_status st = read_frame(p, &kind, &len, (uint32_t)(4 + n_elems * sizeof(float)) + 8, during);
    if (st != GS_OK) {
        return st;
    }
    if (kind == GSI_PF_OOB && len == 12) {
        uint64_t off = gsi_load_u64le(p->buf);
        bool after = p->buf[8] != 0;
        reap(p, false);
        return fail_plugin(p, "wrote out of bounds of its output %s: at byte %llu %s it (caught "
                           "in the child)", during, (unsigned long long)off,
                           after ? "past the end of" : "before the start of");
    }
    if (kind != GSI_PF_RESULT || len < 4) {
        reap(p, true);
        return fail_plugin(p, "answered with frame kind %u of %u bytes %s", kind, len, during);
    }
    int32_t rc = (int32_t)gsi_load_u32le(p->buf);
    if (rc != 0) {
        return fail_plugin(p, "returned %d %s", (int)rc, during);
    }
    if (len != 4 + n_elems * sizeof(float)) {
        reap(p, true);
        return fail_plugin(p, "answered %u bytes for %zu floats %s", len - 4, n_elems, during);
    }
    memcpy(dst, p->buf + 4, n_elems * sizeof(float));
    return GS_OK;
}

static gs_status slot_decode(void *ctx, int32_t type, const void *src, size_t src_bytes,
                             float *dst, size_t n_elems)
{
    slot *s = ctx;
    gs_plugin *p = s->plugin;
    if (n_elems > GSI_PLUGIN_MAX_OUT_ELEMS || src_bytes > GS_DECODE_CHUNK_BYTES) {
        return GS_E_SIZE_MISMATCH; /* the reader never asks for more (tensor_decode.c) */
    }
    pthread_mutex_lock(&p->mu);
    gs_status st;
    if (p->failed) {
        st = GS_E_DECODER_FAILED; /* failed for good: the first failure is the message */
    } else if (!p->child) {
        pthread_mutex_unlock(&p->mu); /* in-process: the plugin is thread-safe by contract */
        int rc = s->fn(type, src, src_bytes, dst, n_elems);
        if (rc == 0) {
            return GS_OK;
        }
        pthread_mutex_lock(&p->mu);
        st = p->failed ? GS_E_DECODER_FAILED
                       : fail_plugin(p, "returned %d decoding %zu bytes of type %d", rc,
                                     src_bytes, (int)type);
    } else {
        st = child_decode(p, type, src, src_bytes, dst, n_elems);
    }
    pthread_mutex_unlock(&p->mu);
    return st;
}

/* Starts `host __plugin-host path` (ggml: `host __plugin-host --ggml path`, or --ggml-kernel)
 * with its stdin and stdout on one end of a socket pair. */
static gs_status spawn_child(gs_plugin *p, const char *host, const char *path, host_mode mode,
                             gs_error *err)
{
    int sv[2], ep[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        return gsi_fail(err, GS_E_IO, 0, GS_CONTEXT_NONE, NULL, 0, "socketpair: %s",
                        strerror(errno));
    }
    if (pipe2(ep, O_CLOEXEC) != 0) {
        close(sv[0]);
        close(sv[1]);
        return gsi_fail(err, GS_E_IO, 0, GS_CONTEXT_NONE, NULL, 0, "pipe: %s", strerror(errno));
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
    posix_spawn_file_actions_adddup2(&fa, ep[1], 2);
    /* posix_spawn's argv is char *const[]: copies, not casts of the caller's strings */
    char *h = strdup(host), *c = strdup(GS_PLUGIN_HOST_COMMAND), *pp = strdup(path);
    char *g = strdup(mode == HOST_GGML_KERNEL ? GS_PLUGIN_HOST_GGML_KERNEL : GS_PLUGIN_HOST_GGML);
    if (h == NULL || c == NULL || pp == NULL || g == NULL) {
        free(h), free(c), free(pp), free(g);
        posix_spawn_file_actions_destroy(&fa);
        close(sv[0]), close(sv[1]), close(ep[0]), close(ep[1]);
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "spawn arguments");
    }
    char *argv[] = {h, c, pp, NULL};
    char *argv_ggml[] = {h, c, g, pp, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, host, &fa, NULL, mode != HOST_PLUGIN ? argv_ggml : argv, environ);
    free(h), free(c), free(pp), free(g);
    posix_spawn_file_actions_destroy(&fa);
    close(sv[1]);
    close(ep[1]);
    if (rc != 0) {
        close(sv[0]);
        close(ep[0]);
        return gsi_fail(err, GS_E_IO, 0, GS_CONTEXT_NONE, NULL, 0, "cannot start %.60s: %s",
                        host, strerror(rc));
    }
    fcntl(ep[0], F_SETFL, O_NONBLOCK);
    p->pid = pid;
    p->sock = sv[0];
    p->err_fd = ep[0];
    p->child = true;
    return GS_OK;
}

static gs_status load_in_process(gs_plugin *p, const char *path, uint8_t *enc, size_t *enc_len,
                                 gs_error *err)
{
    p->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (p->dl == NULL) {
        const char *why = dlerror();
        return gsi_fail(err, GS_E_IO, 0, GS_CONTEXT_NONE, NULL, 0, "%s",
                        why != NULL ? why : "dlopen failed");
    }
    void *sym = dlsym(p->dl, GGUFSAFE_PLUGIN_ENTRY_NAME);
    if (sym == NULL) {
        return gsi_fail(err, GS_E_IO, 0, GS_CONTEXT_NONE, NULL, 0,
                        "no " GGUFSAFE_PLUGIN_ENTRY_NAME " symbol: not a ggufsafe plugin");
    }
    gs_plugin_entry_fn entry;
    memcpy(&entry, &sym, sizeof entry);
    const gs_plugin_table *t = entry();
    gs_status st = gsi_plugin_table_encode(t, enc, enc_len, err);
    if (st != GS_OK) {
        return st;
    }
    for (size_t i = 0; i < t->n_types; i++) {
        p->slots[i].fn = t->types[i].decode; /* order as encoded */
    }
    return GS_OK;
}

static gs_status load_in_child(gs_plugin *p, const char *host, const char *path, host_mode mode,
                               uint8_t *enc, size_t *enc_len, gs_error *err)
{
    gs_status st = spawn_child(p, host, path, mode, err);
    if (st != GS_OK) {
        return st;
    }
    uint32_t kind, len;
    st = read_frame(p, &kind, &len, GSI_PLUGIN_TABLE_MAX_BYTES, "while loading");
    if (st != GS_OK) {
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "%s", p->failure);
    }
    if (kind == GSI_PF_LOAD_ERROR || kind == GSI_PF_TABLE_ERROR) {
        /* not loadable: GS_E_IO; loaded, but a table we cannot use: GS_E_INVALID_ARGUMENT, the
         * status load_in_process gives for the same plugin */
        char text[GSI_PF_TEXT_MAX * 4 + 8];
        gsi_escape_text(text, sizeof text, p->buf, len);
        reap(p, false);
        return gsi_fail(err, kind == GSI_PF_LOAD_ERROR ? GS_E_IO : GS_E_INVALID_ARGUMENT, 0,
                        GS_CONTEXT_NONE, NULL, 0, "%s", text);
    }
    if (kind != GSI_PF_TABLE) {
        reap(p, true);
        return gsi_fail(err, GS_E_DECODER_FAILED, 0, GS_CONTEXT_NONE, NULL, 0,
                        "the plugin host answered with frame kind %u", kind);
    }
    memcpy(enc, p->buf, len);
    *enc_len = len;
    return GS_OK;
}

/* HOST_GGML*: path is a libggml-base served by the host, only ever in a child. */
static gs_status plugin_open(const char *path, host_mode mode, const gs_plugin_options *opts,
                             gs_plugin **out, gs_error *err)
{
    const bool ggml = mode != HOST_PLUGIN;
    gsi_error_clear(err);
    if (path == NULL || out == NULL ||
        (opts != NULL && opts->struct_size < sizeof(gs_plugin_options)) ||
        (ggml && (opts == NULL || opts->host_program == NULL))) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "path, out or options");
    }
    *out = NULL;
    gs_plugin_options o;
    gs_plugin_options_init(&o);
    if (opts != NULL) {
        o = *opts;
    }
    gs_plugin *p = calloc(1, sizeof *p);
    uint8_t *enc = malloc(GSI_PLUGIN_TABLE_MAX_BYTES);
    if (p != NULL) {
        p->desc = malloc(sizeof *p->desc);
        p->slots = calloc(GGUFSAFE_PLUGIN_MAX_TYPES, sizeof *p->slots);
        p->buf_cap = GSI_PLUGIN_TABLE_MAX_BYTES > 8 + GSI_PLUGIN_MAX_OUT_ELEMS * sizeof(float)
                         ? GSI_PLUGIN_TABLE_MAX_BYTES
                         : 8 + GSI_PLUGIN_MAX_OUT_ELEMS * sizeof(float);
        p->buf = malloc(p->buf_cap);
    }
    if (p == NULL || enc == NULL || p->desc == NULL || p->slots == NULL || p->buf == NULL) {
        free(enc);
        gs_plugin_close(p);
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "plugin");
    }
    pthread_mutex_init(&p->mu, NULL);
    p->pid = -1;
    p->sock = p->err_fd = -1;
    p->timeout_ms = o.timeout_ms != 0 ? o.timeout_ms : GS_PLUGIN_DEFAULT_TIMEOUT_MS;
    snprintf(p->path, sizeof p->path, "%s", path);
    char shown[GS_ERROR_TEXT_MAX];
    gsi_escape_text(shown, sizeof shown, (const uint8_t *)path, strlen(path));
    snprintf(p->source, sizeof p->source, "%s %.100s", ggml ? "ggml library" : "plugin", shown);
    size_t enc_len = 0;
    gs_status st = o.host_program == NULL
                       ? load_in_process(p, path, enc, &enc_len, err)
                       : load_in_child(p, o.host_program, path, mode, enc, &enc_len, err);
    if (st == GS_OK) {
        st = gsi_plugin_table_parse(enc, enc_len, mode == HOST_GGML_KERNEL, p->desc, err);
    }
    free(enc);
    if (st != GS_OK) {
        gs_plugin_close(p);
        return st;
    }
    if (ggml) {
        snprintf(p->source, sizeof p->source, "ggml library %.100s", shown);
    } else {
        snprintf(p->source, sizeof p->source, "plugin '%.40s' (%.70s)", p->desc->title, shown);
    }
    p->decoders = calloc(p->desc->n, sizeof *p->decoders);
    if (p->decoders == NULL) {
        gs_plugin_close(p);
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "plugin decoders");
    }
    for (size_t i = 0; i < p->desc->n; i++) {
        p->slots[i].plugin = p;
        p->decoders[i] = (gs_decoder){p->desc->entries[i].def, slot_decode, &p->slots[i],
                                      p->source};
        p->decoders[i].type.name = p->desc->entries[i].name;
    }
    *out = p;
    return GS_OK;
}

gs_status gs_plugin_open(const char *path, const gs_plugin_options *opts, gs_plugin **out,
                         gs_error *err)
{
    return plugin_open(path, HOST_PLUGIN, opts, out, err);
}

gs_status gs_plugin_open_ggml(const char *ggml_path, const gs_plugin_options *opts,
                              gs_plugin **out, gs_error *err)
{
    return plugin_open(ggml_path, HOST_GGML, opts, out, err);
}

gs_status gs_plugin_open_ggml_kernel(const char *ggml_path, const gs_plugin_options *opts,
                                     gs_plugin **out, gs_error *err)
{
    return plugin_open(ggml_path, HOST_GGML_KERNEL, opts, out, err);
}

void gs_plugin_close(gs_plugin *p)
{
    if (p == NULL) {
        return;
    }
    if (p->child && p->pid > 0) {
        uint8_t h[GSI_PF_HEADER];
        gsi_pf_header(h, GSI_PF_QUIT, 0);
        (void)send(p->sock, h, sizeof h, MSG_NOSIGNAL | MSG_DONTWAIT);
        shutdown(p->sock, SHUT_RDWR);
        reap(p, false);
    }
    if (p->sock >= 0) {
        close(p->sock);
    }
    if (p->err_fd >= 0) {
        close(p->err_fd);
    }
    if (p->dl != NULL) {
        dlclose(p->dl);
    }
    if (p->buf != NULL) {
        pthread_mutex_destroy(&p->mu);
    }
    free(p->decoders);
    free(p->slots);
    free(p->desc);
    free(p->buf);
    free(p);
}

const gs_decoder *gs_plugin_decoders(const gs_plugin *p, size_t *n)
{
    if (n != NULL) {
        *n = p != NULL ? p->desc->n : 0;
    }
    return p != NULL ? p->decoders : NULL;
}

const char *gs_plugin_name(const gs_plugin *p)
{
    return p != NULL ? p->desc->title : "";
}

bool gs_plugin_failure(const gs_plugin *p, char *buf, size_t cap)
{
    if (p == NULL) {
        return false;
    }
    gs_plugin *m = (gs_plugin *)(uintptr_t)p; /* the lock only; nothing else is changed */
    pthread_mutex_lock(&m->mu);
    bool failed = p->failed;
    if (failed && buf != NULL && cap > 0) {
        snprintf(buf, cap, "%s", p->failure);
    }
    pthread_mutex_unlock(&m->mu);
    return failed;
}
