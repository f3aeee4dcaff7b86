/* The file a command writes its report or output to (--output, --manifest, --out): written to a
 * temporary file in the same directory and renamed onto the name when the run completes, so that
 * a failed or interrupted run (SIGINT, SIGTERM, SIGHUP) never leaves a partial file, and an
 * existing file stays as it was until the new one is whole. "-" is standard output. A name that
 * is not a regular file (/dev/null, a FIFO) is written directly; a directory is refused. The
 * file keeps the mode of the one it replaces, else 0666 less the umask; a name that is one of the
 * command's input files is refused. Every failure is one error line naming the file; the exit
 * code is CLI_EXIT_USAGE. */
#ifndef GGUFSAFE_CLI_OUTFILE_H
#define GGUFSAFE_CLI_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "ggufsafe_sink.h"

typedef struct cli_outfile {
    const char *path; /* as given; "-" for standard output */
    FILE *f;          /* where to write */
    char *tmp;        /* the temporary renamed onto path by commit; NULL when f is written
                         directly (standard output, a device or a FIFO) */
} cli_outfile;

struct cli_args;

/* Opens path (NULL or "-": standard output) for the command whose parsed arguments are args
 * (its operands are its inputs; NULL: none). -1, or CLI_EXIT_USAGE after
 * "error: cannot create '<path>': <why>". */
int cli_outfile_open(cli_outfile *o, const char *path, const struct cli_args *args);

/* Whether o is standard output. */
bool cli_outfile_is_stdout(const cli_outfile *o);

/* A gs_sink writing to o->f. */
void cli_outfile_sink(cli_outfile *o, gs_sink *sink);

/* The run ended with exit code code and the output is whole: flushes, closes and renames.
 * Returns code, or CLI_EXIT_USAGE after "error: cannot write '<path>': <why>" (the temporary
 * removed, an existing file untouched). */
int cli_outfile_commit(cli_outfile *o, int code);

/* The run failed: closes and removes the temporary. Idempotent; a no-op after commit. */
void cli_outfile_abort(cli_outfile *o);

#endif
