#define _POSIX_C_SOURCE 200809L
/* The child runner (gsi_child_run) on small shell programs, in this process so that its lines
 * are measured outside the oracle stage: the exit status, a death by signal, the CPU-time limit
 * (SIGXCPU), the wall-clock backstop for a child that sleeps (with its output open and with it
 * closed), a program that cannot be executed (127), no descriptors left for its pipes, all of a
 * large stdout, and the head of a large stderr cut at exactly sizeof err - 1 bytes. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child_process.h"
#include "test_util.h"

static void run_sh(const char *script, double cpu_s, gsi_child *c)
{
    char sh[] = "/bin/sh", dash_c[] = "-c";
    char *s = strdup(script);
    cr_assert_not_null(s);
    char *argv[] = {sh, dash_c, s, NULL};
    gsi_child_run(argv, cpu_s, c);
    free(s);
}

typedef struct end_case {
    const char *script;
    double cpu_s;
    gsi_child_end end;
    int code;
    const char *out, *err;
} end_case;

/* How a child ends, and its short output. */
Test(child_process, end_and_output)
{
    static const end_case cases[] = {
        {"exit 3", 5, GSI_CHILD_EXITED, 3, "", ""},
        {"printf 'out'; printf 'err' >&2; exit 0", 5, GSI_CHILD_EXITED, 0, "out", "err"},
        {"kill -TERM $$", 5, GSI_CHILD_SIGNALED, SIGTERM, "", ""},
        {"printf x; kill -KILL $$", 5, GSI_CHILD_SIGNALED, SIGKILL, "x", ""},
        /* 1 s of CPU (RLIMIT_CPU): SIGXCPU, reported as a timeout */
        {"while :; do :; done", 1, GSI_CHILD_TIMEOUT, 0, "", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const end_case *k = &cases[i];
        gsi_child c;
        run_sh(k->script, k->cpu_s, &c);
        cr_assert_eq(c.end, k->end, "%s: end %d", k->script, (int)c.end);
        cr_assert_eq(c.code, k->code, "%s: code %d", k->script, c.code);
        cr_assert_str_eq(c.out, k->out, "%s", k->script);
        cr_assert_eq(c.out_len, strlen(k->out), "%s", k->script);
        cr_assert_str_eq(c.err, k->err, "%s", k->script);
        gsi_child_free(&c);
        cr_assert_null(c.out);
    }
}

Test(child_process, program_that_cannot_run_exits_127)
{
    char prog[] = "/nonexistent/gs_no_such_program";
    char *argv[] = {prog, NULL};
    gsi_child c;
    gsi_child_run(argv, 5, &c);
    cr_assert_eq(c.end, GSI_CHILD_EXITED);
    cr_assert_eq(c.code, 127);
    cr_assert_str_eq(c.out, "");
    cr_assert_eq(c.out_len, 0);
    gsi_child_free(&c);
}

/* stdout in many reads, all of it; stderr: the first 1023 bytes, the rest dropped. */
Test(child_process, large_stdout_whole_and_stderr_head)
{
    gsi_child c;
    run_sh("i=0; while [ $i -lt 5000 ]; do"
           " printf '%04d:abcdefghijklmnopqrstuvwxyz%04d\\n' $i $i; i=$((i+1)); done;"
           " i=0; while [ $i -lt 500 ]; do printf '%04d' $i >&2; i=$((i+1)); done",
           20, &c);
    cr_assert_eq(c.end, GSI_CHILD_EXITED, "%s", c.err);
    cr_assert_eq(c.code, 0);
    const size_t line = 36;
    cr_assert_eq(c.out_len, 5000 * line);
    cr_assert_eq(strlen(c.out), c.out_len);
    for (size_t i = 0; i < 5000; i += 999) {
        char want[64];
        snprintf(want, sizeof want, "%04zu:abcdefghijklmnopqrstuvwxyz%04zu\n", i, i);
        cr_assert(memcmp(c.out + i * line, want, line) == 0, "line %zu", i);
    }
    cr_assert_eq(strlen(c.err), sizeof c.err - 1);
    char want[sizeof c.err];
    size_t at = 0;
    for (int i = 0; at < sizeof want - 1; i++) {
        char four[12];
        snprintf(four, sizeof four, "%04d", i % 10000);
        for (int k = 0; k < 4 && at < sizeof want - 1; k++) {
            want[at++] = four[k];
        }
    }
    want[at] = '\0';
    cr_assert_str_eq(c.err, want);
    gsi_child_free(&c);
}

/* A child that sleeps uses no CPU: the wall-clock backstop (3 * cpu_s + 10 s) kills it, with its
 * output still open (the poll loop) and with it closed (the wait loop). */
static void expect_backstop(const char *script)
{
    gsi_child c;
    run_sh(script, 0.01, &c);
    cr_assert_eq(c.end, GSI_CHILD_TIMEOUT, "%s: end %d", script, (int)c.end);
    cr_assert_eq(c.code, 0);
    cr_assert_str_eq(c.out, "before", "%s", script);
    gsi_child_free(&c);
}

Test(child_process, sleeper_with_output_open_killed_at_the_backstop, .timeout = 60)
{
    expect_backstop("printf 'before'; exec sleep 120");
}

Test(child_process, sleeper_with_output_closed_killed_at_the_backstop, .timeout = 60)
{
    expect_backstop("printf 'before'; exec >&- 2>&-; exec sleep 120");
}

/* No descriptor for the first pipe, or for the second (the first closed again): no start. */
Test(child_process, no_descriptors_for_the_pipes)
{
    for (int n_free = 0; n_free <= 2; n_free += 2) {
        char sh[] = "/bin/sh";
        char *argv[] = {sh, NULL};
        tu_fd_squeeze s;
        cr_assert(tu_fd_squeeze_to(&s, n_free));
        gsi_child c;
        gsi_child_run(argv, 5, &c);
        int fd = open("/dev/null", O_RDONLY); /* the two of the first pipe are free again */
        int fd2 = open("/dev/null", O_RDONLY);
        tu_fd_release(&s);
        cr_assert_eq(c.end, GSI_CHILD_NO_START, "%d free", n_free);
        cr_assert_str_eq(c.out, "");
        cr_assert_eq(c.out_len, 0);
        cr_assert_eq(fd >= 0 && fd2 >= 0, n_free == 2, "%d free: %d %d", n_free, fd, fd2);
        if (fd >= 0) {
            close(fd);
        }
        if (fd2 >= 0) {
            close(fd2);
        }
        gsi_child_free(&c);
    }
}
