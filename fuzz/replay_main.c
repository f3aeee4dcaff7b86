/* A main for any compiler (gcc, aarch64 under qemu, clang without libFuzzer): runs the harness
 * it is linked with over files and directories (recursively, in name order), once each, the
 * way libFuzzer replays a corpus. An oracle failure aborts and names the file (-v names every
 * file before running it); otherwise it prints "PASS: N files". Zero files is a failure: an
 * empty or mistyped corpus path must not pass silently.
 *   replay_<target> [-v] [--trailer HEX] FILE_OR_DIR...
 * --trailer appends the options trailer HEX (fuzz_common.h: 2 hex digits a byte, in file order)
 * to every input: a finding kept without its trailer (corpus/regress/manifest.tsv) runs as it
 * was found. */
#define _DEFAULT_SOURCE /* opendir, readdir */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "gsw_bytes.h"

static size_t n_files;
static int verbose;
static uint8_t trailer[FUZZ_TAIL_BYTES];
static size_t trailer_len;
static const char *current; /* the file being run, for the abort message */

/* Oracles abort(); say which file did it (async-signal-safe: write only). */
static void on_abort(int sig)
{
    static const char msg[] = "\nreplay: aborted while running ";
    (void)sig;
    if (current != NULL) {
        (void)!write(2, msg, sizeof msg - 1);
        (void)!write(2, current, strlen(current));
        (void)!write(2, "\n", 1);
    }
    signal(SIGABRT, SIG_DFL);
    raise(SIGABRT);
}

static int run_file(const char *path)
{
    gsw_bytes buf;
    gsw_bytes_init(&buf);
    if (gsw_bytes_load(&buf, path) != 0) {
        fprintf(stderr, "replay: cannot read %s: %s\n", path, strerror(errno));
        gsw_bytes_free(&buf);
        return -1;
    }
    const size_t len = buf.len;
    /* Name the file before running it: if an oracle aborts, the log says which input. */
    if (verbose) {
        fprintf(stderr, "%s (%zu bytes)\n", path, len);
    }
    current = path;
    /* An exactly sized copy, so ASan sees a read one byte past the input. */
    uint8_t *exact = malloc(len + trailer_len > 0 ? len + trailer_len : 1);
    if (exact == NULL) {
        gsw_bytes_free(&buf);
        return -1;
    }
    if (len > 0) {
        memcpy(exact, buf.data, len);
    }
    memcpy(exact + len, trailer, trailer_len);
    gsw_bytes_free(&buf);
    LLVMFuzzerTestOneInput(exact, len + trailer_len);
    current = NULL;
    free(exact);
    n_files++;
    return 0;
}

/* 0..15, or -1 for anything that is not a hex digit (the NUL included). */
static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path);

static int run_dir(const char *path)
{
    DIR *d = opendir(path);
    if (d == NULL) {
        fprintf(stderr, "replay: cannot open directory %s: %s\n", path, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue; /* ., .., and hidden files such as .state */
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **bigger = realloc(names, cap * sizeof *names);
            if (bigger == NULL) {
                rc = -1;
                break;
            }
            names = bigger;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (names[n] == NULL) {
            rc = -1;
            break;
        }
        snprintf(names[n++], len, "%s/%s", path, e->d_name);
    }
    closedir(d);
    if (rc == 0) {
        qsort(names, n, sizeof *names, compare_names);
    }
    for (size_t i = 0; i < n; i++) {
        if (rc == 0 && run_path(names[i]) != 0) {
            rc = -1;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        return run_dir(path);
    }
    return run_file(path);
}

int main(int argc, char **argv)
{
    int first = 1;
    if (first < argc && strcmp(argv[first], "-v") == 0) {
        verbose = 1;
        first++;
    }
    if (first + 1 < argc && strcmp(argv[first], "--trailer") == 0) {
        const char *hex = argv[first + 1];
        int hi, lo;
        while (trailer_len < FUZZ_TAIL_BYTES && (hi = hex_digit(hex[2 * trailer_len])) >= 0 &&
               (lo = hex_digit(hex[2 * trailer_len + 1])) >= 0) {
            trailer[trailer_len++] = (uint8_t)(hi << 4 | lo);
        }
        if (trailer_len == 0 || hex[2 * trailer_len] != '\0') {
            fprintf(stderr, "replay: --trailer wants 2 to %d hex digits, not %s\n",
                    2 * FUZZ_TAIL_BYTES, hex);
            return 2;
        }
        first += 2;
    }
    signal(SIGABRT, on_abort);
    if (first >= argc) {
        fprintf(stderr, "usage: %s [-v] [--trailer HEX] FILE_OR_DIR...\n", argv[0]);
        return 2;
    }
    for (int i = first; i < argc; i++) {
        if (run_path(argv[i]) != 0) {
            return 1;
        }
    }
    if (n_files == 0) {
        fprintf(stderr, "replay: no files under the given paths\n");
        return 1;
    }
    printf("PASS: %zu files\n", n_files);
    return 0;
}
