#define _POSIX_C_SOURCE 200809L
#include "cli_outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_common.h"
#include "commands.h"

/* The temporaries of this process, removed by the signal handler: a killed run leaves none. A
 * command writes at most a few outputs at once. */
#define PENDING_MAX 4
static char *volatile pending[PENDING_MAX];

static void remove_pending(int sig)
{
    for (int i = 0; i < PENDING_MAX; i++) {
        char *p = pending[i];
        if (p != NULL) {
            (void)unlink(p);
        }
    }
    /* SA_RESETHAND restored the default action: die of the signal, as without us. */
    (void)raise(sig);
}

static void watch_signals(void)
{
    static bool installed;
    if (installed) {
        return;
    }
    installed = true;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        /* a signal the caller ignores (nohup) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) {
            continue;
        }
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_pending;
        sa.sa_flags = (int)SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        (void)sigaction(sigs[i], &sa, NULL);
    }
}

static bool track(char *tmp)
{
    for (int i = 0; i < PENDING_MAX; i++) {
        if (pending[i] == NULL) {
            pending[i] = tmp;
            return true;
        }
    }
    return false;
}

static void untrack(const char *tmp)
{
    for (int i = 0; i < PENDING_MAX; i++) {
        if (pending[i] == tmp) {
            pending[i] = NULL;
        }
    }
}

bool cli_outfile_is_stdout(const cli_outfile *o)
{
    return o->f == stdout;
}

/* "<dir>/.<name>.XXXXXX" beside path. */
static char *temp_name(const char *path)
{
    size_t len = strlen(path);
    const char *slash = strrchr(path, '/');
    size_t dir = slash != NULL ? (size_t)(slash - path) + 1 : 0;
    static const char suffix[] = ".XXXXXX";
    if (len > SIZE_MAX - sizeof suffix - 2) {
        return NULL;
    }
    char *t = malloc(len + sizeof suffix + 2);
    if (t != NULL) {
        snprintf(t, len + sizeof suffix + 2, "%.*s.%s%s", (int)dir, path, path + dir, suffix);
    }
    return t;
}

static int create_failed(const char *path, const char *why)
{
    return cli_path_error("create", path, NULL, why);
}

static bool same_file(const struct stat *out, const char *input)
{
    struct stat in;
    return stat(input, &in) == 0 && in.st_dev == out->st_dev && in.st_ino == out->st_ino;
}

/* Whether the existing file out is one of the command's operands. */
static bool is_input(const struct stat *out, const cli_args *args)
{
    if (args == NULL) {
        return false;
    }
    const cli_command *cmd = args->command;
    const char *base = (const char *)args;
    for (size_t i = 0; i < cmd->n_operands; i++) {
        const void *field = base + cmd->operands[i].dest;
        if (cmd->operands[i].repeatable) {
            const cli_list *l = field;
            for (size_t k = 0; k < l->n; k++) {
                if (same_file(out, l->items[k])) {
                    return true;
                }
            }
        } else {
            const char *const *path = field;
            if (*path != NULL && same_file(out, *path)) {
                return true;
            }
        }
    }
    return false;
}

int cli_outfile_open(cli_outfile *o, const char *path, const cli_args *args)
{
    o->path = path != NULL ? path : "-";
    o->f = NULL;
    o->tmp = NULL;
    if (strcmp(o->path, "-") == 0) {
        o->f = stdout;
        return -1;
    }
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        return create_failed(path, strerror(EISDIR));
    }
    if (exists && is_input(&st, args)) {
        return create_failed(path, "it is one of the command's input files");
    }
    if (exists && !S_ISREG(st.st_mode)) {
        /* a device or a FIFO: there is nothing to rename onto, write it as it is */
        int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0 || (o->f = fdopen(fd, "wb")) == NULL) {
            int e = errno;
            if (fd >= 0) {
                close(fd);
            }
            return create_failed(path, strerror(e));
        }
        return -1;
    }
    o->tmp = temp_name(path);
    if (o->tmp == NULL) {
        return cli_print_out_of_memory();
    }
    watch_signals();
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        return create_failed(path, strerror(e));
    }
    if (!track(o->tmp)) {
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return create_failed(path, "too many output files at once");
    }
    mode_t mask = umask(0);
    umask(mask);
    mode_t mode = exists ? (st.st_mode & 0777) : (0666 & ~mask); /* no set-id bits on a report */
    if (fchmod(fd, mode) != 0 || (o->f = fdopen(fd, "wb")) == NULL) {
        int e = errno;
        close(fd);
        cli_outfile_abort(o);
        return create_failed(path, strerror(e));
    }
    return -1;
}

void cli_outfile_sink(cli_outfile *o, gs_sink *sink)
{
    gs_sink_file(sink, o->f);
}

int cli_outfile_commit(cli_outfile *o, int code)
{
    if (o->f == NULL) {
        return code;
    }
    if (o->f == stdout) {
        o->f = NULL;
        return cli_finish_output(code);
    }
    bool failed = fflush(o->f) != 0 || ferror(o->f) != 0;
    int e = errno;
    if (fclose(o->f) != 0 && !failed) {
        failed = true;
        e = errno;
    }
    o->f = NULL;
    if (!failed && o->tmp != NULL && rename(o->tmp, o->path) != 0) {
        failed = true;
        e = errno;
    }
    if (failed) {
        cli_outfile_abort(o);
        return cli_path_error("write", o->path, NULL, e != 0 ? strerror(e) : "write failed");
    }
    if (o->tmp != NULL) {
        untrack(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
    }
    return code;
}

void cli_outfile_abort(cli_outfile *o)
{
    if (o->f != NULL && o->f != stdout) {
        fclose(o->f);
    }
    o->f = NULL;
    if (o->tmp != NULL) {
        (void)unlink(o->tmp);
        untrack(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
    }
}
