#define _DEFAULT_SOURCE /* mkdtemp, fork, dup2 */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include "cli_run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Reads everything written to a capture file from its start. */
static char *slurp(FILE *f, size_t *len)
{
    fflush(f);
    long end = (fseek(f, 0, SEEK_END) == 0) ? ftell(f) : -1;
    size_t n = end > 0 ? (size_t)end : 0;
    char *buf = malloc(n + 1);
    if (buf == NULL) {
        return NULL;
    }
    rewind(f);
    n = fread(buf, 1, n, f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Appends what fd has now to buf; false when out of memory. */
static bool take(int fd, char **buf, size_t *n, size_t *cap)
{
    for (;;) {
        if (*n + 4096 + 1 > *cap) {
            char *grown = realloc(*buf, *cap * 2);
            if (grown == NULL) {
                return false;
            }
            *buf = grown;
            *cap *= 2;
        }
        ssize_t got = read(fd, *buf + *n, *cap - *n - 1);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return true; /* EAGAIN: nothing more for now */
        }
        *n += (size_t)got;
    }
}

/* Everything the terminal received until the child exited, and its wait status. The parent
 * holds the slave side open, so the master never reports EIO while the child's last writes are
 * still on their way through the kernel (reading until EIO lost a tail now and then under
 * load); once the child is gone, what remains is read without blocking. */
static char *drain(int master, pid_t pid, int *ws, struct rusage *ru, size_t *len)
{
    size_t cap = 8192, n = 0;
    char *buf = malloc(cap);
    int fl = fcntl(master, F_GETFL);
    bool ok = buf != NULL && fl >= 0 && fcntl(master, F_SETFL, fl | O_NONBLOCK) == 0;
    bool exited = false;
    while (ok) {
        struct pollfd p = {master, POLLIN, 0};
        (void)poll(&p, 1, exited ? 0 : 20);
        ok = take(master, &buf, &n, &cap);
        if (exited) {
            break; /* the read after the exit took the rest */
        }
        pid_t w = wait4(pid, ws, WNOHANG, ru);
        if (w == pid) {
            exited = true;
        } else if (w < 0 && errno != EINTR) {
            ok = false;
        }
    }
    if (!exited) {
        (void)wait4(pid, ws, 0, ru);
    }
    if (!ok) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static unsigned child_timeout_s;
static int child_spare_fds = -1;

void run_set_limits(unsigned timeout_s, int spare_fds)
{
    child_timeout_s = timeout_s;
    child_spare_fds = spare_fds;
}

/* In the child, before exec: the lowest free descriptor plus the spares is the limit. */
static void apply_limits(void)
{
    if (child_spare_fds >= 0) {
        int fd = dup(0);
        if (fd >= 0) {
            close(fd);
            rlim_t n = (rlim_t)fd + (rlim_t)child_spare_fds;
            struct rlimit lim = {n, n};
            (void)setrlimit(RLIMIT_NOFILE, &lim);
        }
    }
    if (child_timeout_s > 0) {
        alarm(child_timeout_s); /* kept across exec */
    }
}

/* Runs argv; stderr a pseudo-terminal when tty (then r->err is what the terminal received). */
static bool run(const char *const argv[], run_result *r, bool tty)
{
    memset(r, 0, sizeof *r);
    FILE *out = tmpfile();
    FILE *err = tty ? NULL : tmpfile();
    int master = -1, slave_fd = -1;
    const char *slave = NULL;
    if (tty) {
        master = posix_openpt(O_RDWR | O_NOCTTY);
        if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0 ||
            (slave = ptsname(master)) == NULL ||
            (slave_fd = open(slave, O_RDWR | O_NOCTTY)) < 0) {
            if (master >= 0) {
                close(master);
            }
            return false;
        }
    }
    if (out == NULL || (!tty && err == NULL)) {
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        if (tty) {
            close(slave_fd);
            close(master);
        }
        return false;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) {
            dup2(devnull, 0);
        }
        dup2(fileno(out), 1);
        if (tty) {
            setsid();
            int fd = open(slave, O_RDWR);
            if (fd < 0) {
                _exit(126);
            }
            dup2(fd, 2);
            close(fd);
            close(slave_fd);
            close(master);
        } else {
            dup2(fileno(err), 2);
        }
        apply_limits();
        exec_program(argv);
    }
    int ws = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (tty) {
        r->err = drain(master, pid, &ws, &ru, &r->err_len);
        close(slave_fd);
        close(master);
    } else if (wait4(pid, &ws, 0, &ru) != pid) {
        return false;
    }
    r->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    r->max_rss_kb = ru.ru_maxrss;
    r->out = slurp(out, &r->out_len);
    if (!tty) {
        r->err = slurp(err, &r->err_len);
        fclose(err);
    }
    fclose(out);
    if (r->out == NULL || r->err == NULL) {
        run_result_free(r);
        return false;
    }
    if (strstr(r->err, "Sanitizer") != NULL || strstr(r->err, "runtime error") != NULL) {
        fprintf(stderr, "%s: child's stderr:\n%s\n", argv[0], r->err);
    }
    return true;
}

bool run_program(const char *const argv[], run_result *r)
{
    return run(argv, r, false);
}

bool run_program_tty(const char *const argv[], run_result *r)
{
    return run(argv, r, true);
}

_Noreturn void exec_program(const char *const argv[])
{
    /* execv's prototype predates const; it does not modify the strings. */
    union {
        const char *const *in;
        char *const *out;
    } args = {argv};
    execv(argv[0], args.out);
    _exit(127);
}

void run_result_free(run_result *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}

char *scratch_dir(void)
{
    const char *base = getenv("TMPDIR");
    if (base == NULL || base[0] == '\0') {
        base = "/tmp";
    }
    char *dir = path_join(base, "gs-cli-test-XXXXXX");
    if (dir != NULL && mkdtemp(dir) == NULL) {
        free(dir);
        return NULL;
    }
    return dir;
}

/* Removes path: a file, or a directory and everything in it. */
static void remove_tree(const char *path)
{
    if (unlink(path) == 0 || errno == ENOENT) {
        return;
    }
    DIR *d = opendir(path);
    if (d != NULL) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                char *p = path_join(path, e->d_name);
                if (p != NULL) {
                    remove_tree(p);
                    free(p);
                }
            }
        }
        closedir(d);
    }
    rmdir(path);
}

void scratch_remove(char *dir)
{
    if (dir == NULL) {
        return;
    }
    remove_tree(dir);
    free(dir);
}

char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + 1 + strlen(name) + 1;
    char *p = malloc(n);
    if (p != NULL) {
        snprintf(p, n, "%s/%s", dir, name);
    }
    return p;
}

char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    char *buf = slurp(f, len);
    fclose(f);
    return buf;
}

bool write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return false;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

bool contains(const char *s, const char *needle)
{
    return s != NULL && strstr(s, needle) != NULL;
}

bool starts_with(const char *s, const char *prefix)
{
    return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}
