/* gs_bench_time: the timer of ci/bench.sh (a program, not a test). Runs a command RUNS times and
 * prints the run with the lowest wall time as "WALL USER SYS" in seconds (user and system time
 * of the child and all its threads, from wait4), so that whole-process figures carry their CPU
 * time beside the wall time.
 *
 *   gs_bench_time [--runs N] [--expect RC] [--stdout FILE] -- COMMAND [ARGS...]
 *
 * The command's standard output goes to /dev/null (or FILE, truncated each run), its standard
 * error is kept. Any exit status other than RC (default 0), or a signal, stops the timer with
 * exit status 2 and says so: a benchmark of a failing command measures nothing. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* wait4 is BSD, not POSIX; declared by glibc under _DEFAULT_SOURCE only. */
pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage);

extern char **environ;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

static int usage(void)
{
    fprintf(stderr, "usage: gs_bench_time [--runs N] [--expect RC] [--stdout FILE] -- COMMAND "
                    "[ARGS...]\n");
    return 2;
}

/* One run: 0 and the figures, or -1 after saying why. */
static int run_once(char **cmd, const char *out_path, int expect, double *wall, double *user,
                    double *sys)
{
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0 ||
        posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out_path,
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644) != 0) {
        fprintf(stderr, "gs_bench_time: cannot set up the child's output\n");
        return -1;
    }
    const double t0 = now();
    pid_t pid;
    const int err = posix_spawnp(&pid, cmd[0], &fa, NULL, cmd, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err != 0) {
        fprintf(stderr, "gs_bench_time: cannot run '%s': %s\n", cmd[0], strerror(err));
        return -1;
    }
    int status;
    struct rusage ru;
    pid_t got;
    do {
        got = wait4(pid, &status, 0, &ru);
    } while (got < 0 && errno == EINTR);
    *wall = now() - t0;
    if (got != pid) {
        fprintf(stderr, "gs_bench_time: wait4: %s\n", strerror(errno));
        return -1;
    }
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "gs_bench_time: '%s' was killed by signal %d\n", cmd[0], WTERMSIG(status));
        return -1;
    }
    if (WEXITSTATUS(status) != expect) {
        fprintf(stderr, "gs_bench_time: '%s' exited %d, expected %d\n", cmd[0],
                WEXITSTATUS(status), expect);
        return -1;
    }
    *user = seconds(ru.ru_utime);
    *sys = seconds(ru.ru_stime);
    return 0;
}

int main(int argc, char **argv)
{
    long runs = 5, expect = 0;
    const char *out_path = "/dev/null";
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        char *end = NULL;
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = strtol(argv[++i], &end, 10);
            if (*end != '\0' || runs < 1 || runs > 1000) {
                return usage();
            }
        } else if (strcmp(argv[i], "--expect") == 0 && i + 1 < argc) {
            expect = strtol(argv[++i], &end, 10);
            if (*end != '\0' || expect < 0 || expect > 255) {
                return usage();
            }
        } else if (strcmp(argv[i], "--stdout") == 0 && i + 1 < argc) {
            out_path = argv[++i];
        } else {
            return usage();
        }
    }
    if (i + 1 >= argc) {
        return usage();
    }
    char **cmd = argv + i + 1;
    double best_wall = 0, best_user = 0, best_sys = 0;
    for (long r = 0; r < runs; r++) {
        double wall, user, sys;
        if (run_once(cmd, out_path, (int)expect, &wall, &user, &sys) != 0) {
            return 2;
        }
        if (r == 0 || wall < best_wall) {
            best_wall = wall;
            best_user = user;
            best_sys = sys;
        }
    }
    printf("%.6f %.6f %.6f\n", best_wall, best_user, best_sys);
    return 0;
}
