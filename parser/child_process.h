/* Running a program as a child process with a time limit, capturing its output: how the oracle's
 * tests reach ggml without ever loading it into their own process, and the one way the tree
 * runs an untrusted decoder out of its own process. */
#ifndef GGUFSAFE_CHILD_PROCESS_H
#define GGUFSAFE_CHILD_PROCESS_H

#include <stddef.h>

typedef enum gsi_child_end {
    GSI_CHILD_EXITED = 0,   /* code holds the exit status */
    GSI_CHILD_SIGNALED = 1, /* code holds the signal */
    GSI_CHILD_TIMEOUT = 2,  /* used up its CPU time, or killed at the wall-clock backstop */
    GSI_CHILD_NO_START = 3  /* fork, pipe or exec failed */
} gsi_child_end;

typedef struct gsi_child {
    gsi_child_end end;
    int code;
    char *out;          /* all of stdout, NUL-terminated (never NULL after gsi_child_run) */
    size_t out_len;
    char err[1024];     /* the first bytes of stderr, NUL-terminated */
    double seconds;
} gsi_child;

/* Runs argv (argv[0] is a path; argv ends with NULL) with a limit of cpu_s seconds of CPU time
 * (RLIMIT_CPU: the same verdict however loaded the machine is), and a wall-clock backstop of
 * 3 * cpu_s + 10 seconds for a child that blocks without computing. */
void gsi_child_run(char *const argv[], double cpu_s, gsi_child *c);
void gsi_child_free(gsi_child *c);

#endif
