/* Running gs_oracle (or any program) as a child process with a time limit, capturing its
 * output: how the tests reach ggml without ever loading it into their own process. */
#ifndef GGUFSAFE_ORACLE_CHILD_H
#define GGUFSAFE_ORACLE_CHILD_H

#include <stddef.h>

typedef enum gsx_child_end {
    GSX_CHILD_EXITED = 0,   /* code holds the exit status */
    GSX_CHILD_SIGNALED = 1, /* code holds the signal */
    GSX_CHILD_TIMEOUT = 2,  /* used up its CPU time, or killed at the wall-clock backstop */
    GSX_CHILD_NO_START = 3  /* fork, pipe or exec failed */
} gsx_child_end;

typedef struct gsx_child {
    gsx_child_end end;
    int code;
    char *out;          /* all of stdout, NUL-terminated (never NULL after gsx_child_run) */
    size_t out_len;
    char err[1024];     /* the first bytes of stderr, NUL-terminated */
    double seconds;
} gsx_child;

/* Runs argv (argv[0] is a path; argv ends with NULL) with a limit of cpu_s seconds of CPU time
 * (RLIMIT_CPU: the same verdict however loaded the machine is), and a wall-clock backstop of
 * 3 * cpu_s + 10 seconds for a child that blocks without computing. */
void gsx_child_run(char *const argv[], double cpu_s, gsx_child *c);
void gsx_child_free(gsx_child *c);

#endif
