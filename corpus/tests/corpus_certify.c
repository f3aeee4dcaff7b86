/* gs_corpus_certify CLI MANIFEST DIR: runs `CLI certify FILE` on every corpus file and checks
 * its exit status against the manifest's certify_exit column (declared by the recipes), that the
 * report starts with its verdict, and that a file the strict reader rejects is reported with that
 * status at that offset ("reader.<STATUS> at byte <offset>"), or, for a file that is not a GGUF
 * at all (GS_E_BAD_MAGIC, or empty), as reader.not_gguf at byte 0, its first finding. Checks
 * each file's sha256 first, so a stale corpus cannot pass. Prints one line per failure (with the
 * command's output) and "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gsc_manifest.h"
#include "gsw_sha256.h"
#include "gsw_bytes.h"

/* Runs cli certify path with stdout and stderr into *out (NUL-terminated, allocated); returns
 * the exit status, 128 + signal when killed, or -1 when it could not be run. */
static int run_certify(const char *cli, const char *path, char **out)
{
    int fds[2];
    if (pipe(fds) != 0) {
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execl(cli, cli, "certify", path, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t len = 0, cap = 65536;
    char *buf = malloc(cap);
    ssize_t n;
    while (buf != NULL && (n = read(fds[0], buf + len, cap - len - 1)) > 0) {
        len += (size_t)n;
        if (cap - len < 4096) {
            cap *= 2;
            char *grown = realloc(buf, cap);
            if (grown == NULL) {
                free(buf);
                buf = NULL;
            }
            buf = grown;
        }
    }
    close(fds[0]);
    int status;
    if (waitpid(pid, &status, 0) != pid || buf == NULL) {
        free(buf);
        return -1;
    }
    buf[len] = '\0';
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int read_sha(const char *path, char sha[65])
{
    gsw_bytes b;
    gsw_bytes_init(&b);
    const int rc = gsw_bytes_load(&b, path);
    if (rc == 0) {
        gsw_sha256_hex(b.data, b.len, sha);
    }
    gsw_bytes_free(&b);
    return rc;
}

/* "reader.<STATUS> at byte <offset>" followed by the end of the location: ',' (a key or tensor
 * follows), the end of the line, or ':' (a consequence's line goes on with its message). */
static int reports(const char *out, const gsc_verdict *v)
{
    char want[128];
    int n = snprintf(want, sizeof want, "reader.%s at byte %llu", gs_status_name(v->status),
                     (unsigned long long)v->offset);
    if (v->status == GS_E_UNKNOWN_TENSOR_TYPE) {
        /* certify names a type nobody defined by its own code (the tensor stays listed) */
        n = snprintf(want, sizeof want, "compat.unknown_type at byte %llu",
                     (unsigned long long)v->offset);
    }
    for (const char *p = strstr(out, want); p != NULL; p = strstr(p + 1, want)) {
        if (p[n] == ',' || p[n] == '\n' || p[n] == ':') {
            return 1;
        }
    }
    return 0;
}

#define EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define NOT_GGUF_LINE "error   reader.not_gguf at byte 0\n"

static int check(const char *cli, const gsc_entry *e, const char *dir)
{
    char path[4096], sha[65];
    snprintf(path, sizeof path, "%s/%s", dir, e->file);
    if (read_sha(path, sha) != 0 || strcmp(sha, e->sha256) != 0) {
        printf("FAIL %s: missing, or its sha256 is not the manifest's\n", e->file);
        return 1;
    }
    char *out = NULL;
    int status = run_certify(cli, path, &out);
    int want = e->certify[0] - '0';
    const char *why = NULL;
    bool not_gguf = e->strict.status == GS_E_BAD_MAGIC || strcmp(sha, EMPTY_SHA256) == 0;
    const char *first = out != NULL ? strstr(out, "\n\nerror   ") : NULL;
    if (status != want) {
        why = "exit status";
    } else if (out == NULL || strncmp(out, "verdict: ", 9) != 0) {
        why = "the report does not start with its verdict";
    } else if (not_gguf && (first == NULL || strncmp(first + 2, NOT_GGUF_LINE,
                                                     strlen(NOT_GGUF_LINE)) != 0)) {
        why = "not reported as reader.not_gguf, first";
    } else if (e->strict.status != GS_OK && !not_gguf && !reports(out, &e->strict)) {
        why = "the strict reader's status is not reported at its offset";
    }
    if (out != NULL && (strstr(out, "Sanitizer") != NULL || strstr(out, "runtime error") != NULL)) {
        why = "sanitizer report";
    }
    if (why != NULL) {
        printf("FAIL %s: %s: exit %d, want %s; strict %s at %llu\n%s\n", e->file, why, status,
               e->certify, gs_status_name(e->strict.status),
               (unsigned long long)e->strict.offset, out != NULL ? out : "(no output)");
    }
    free(out);
    return why != NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gs_corpus_certify CLI MANIFEST DIR\n");
        return 2;
    }
    gsc_manifest m;
    char why[512];
    if (gsc_manifest_read(argv[2], &m, why, sizeof why) != 0) {
        fprintf(stderr, "gs_corpus_certify: %s\n", why);
        return 2;
    }
    size_t failed = 0;
    for (size_t i = 0; i < m.n; i++) {
        failed += (size_t)check(argv[1], &m.entries[i], argv[3]);
    }
    printf("%zu passed, %zu failed\n", m.n - failed, failed);
    gsc_manifest_free(&m);
    return failed == 0 ? 0 : 1;
}
