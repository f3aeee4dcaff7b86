#define _DEFAULT_SOURCE /* mkdtemp, fork, dup2 */
#include "cli_run.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

bool run_program(const char *const argv[], run_result *r)
{
    memset(r, 0, sizeof *r);
    FILE *out = tmpfile();
    FILE *err = tmpfile();
    if (out == NULL || err == NULL) {
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        return false;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) {
            dup2(devnull, 0);
        }
        dup2(fileno(out), 1);
        dup2(fileno(err), 2);
        /* execv's prototype predates const; it does not modify the strings. */
        union {
            const char *const *in;
            char *const *out;
        } args = {argv};
        execv(argv[0], args.out);
        _exit(127);
    }
    int ws;
    if (waitpid(pid, &ws, 0) != pid) {
        return false;
    }
    r->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    r->out = slurp(out, &r->out_len);
    r->err = slurp(err, &r->err_len);
    fclose(out);
    fclose(err);
    if (r->out == NULL || r->err == NULL) {
        run_result_free(r);
        return false;
    }
    if (strstr(r->err, "Sanitizer") != NULL || strstr(r->err, "runtime error") != NULL) {
        fprintf(stderr, "%s: child's stderr:\n%s\n", argv[0], r->err);
    }
    return true;
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

void scratch_remove(char *dir)
{
    if (dir == NULL) {
        return;
    }
    DIR *d = opendir(dir);
    if (d != NULL) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                char *p = path_join(dir, e->d_name);
                if (p != NULL) {
                    unlink(p);
                    free(p);
                }
            }
        }
        closedir(d);
    }
    rmdir(dir);
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
