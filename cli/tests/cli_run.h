/* Test helpers for the CLI tests: run a program and capture its exit status, stdout and stderr;
 * per-test scratch directories; small file helpers. */
#ifndef GGUFSAFE_CLI_RUN_H
#define GGUFSAFE_CLI_RUN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct run_result {
    int status;  /* exit code, or 128 + signal number when killed */
    long max_rss_kb; /* the child's peak resident set (getrusage's ru_maxrss) */
    char *out;   /* NUL-terminated (the NUL is not counted in out_len) */
    size_t out_len;
    char *err;
    size_t err_len;
} run_result;

/* Runs argv[0] with argv (NULL-terminated), stdin from /dev/null. Returns false when the program
 * could not be started at all. A sanitizer report in the child's stderr is copied to ours, where
 * ctest's FAIL_REGULAR_EXPRESSION sees it. */
bool run_program(const char *const argv[], run_result *r);
/* The same with stderr a pseudo-terminal (for what is drawn only on a terminal): r->err is what
 * the terminal received. */
bool run_program_tty(const char *const argv[], run_result *r);
void run_result_free(run_result *r);
/* In a forked child: replaces it with argv[0] run with argv (NULL-terminated); exits 127 when
 * the program cannot be run. */
_Noreturn void exec_program(const char *const argv[]);

/* Limits for the programs run from now on in this process: an alarm of timeout_s seconds
 * (0: none), so that a program that hangs is killed (status 128 + SIGALRM) instead of hanging
 * the test; and, when spare_fds >= 0, RLIMIT_NOFILE set so that only spare_fds descriptors
 * beyond those the program starts with can be open at once. */
void run_set_limits(unsigned timeout_s, int spare_fds);

/* A fresh directory under TMPDIR or /tmp; scratch_remove removes it and all it holds. */
char *scratch_dir(void);
void scratch_remove(char *dir);

/* dir + "/" + name, allocated. */
char *path_join(const char *dir, const char *name);

/* Reads a whole file; NULL on failure. */
char *read_file(const char *path, size_t *len);
bool write_file(const char *path, const void *data, size_t len);

/* True when s contains needle. */
bool contains(const char *s, const char *needle);
/* True when s begins with prefix. */
bool starts_with(const char *s, const char *prefix);

#endif
