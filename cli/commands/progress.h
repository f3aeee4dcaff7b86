/* A progress bar on stderr for the long scans (hash, verify, certify --deep), drawn only when
 * stderr is a terminal so that logs and pipes never see it. Redrawn at most ten times a second;
 * cleared when done. */
#ifndef GGUFSAFE_PROGRESS_H
#define GGUFSAFE_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe_sink.h"

typedef struct progress {
    bool enabled;
    const char *what;
    char label[80]; /* what, or "<what> part I/N" */
    size_t part;    /* the part the bar is drawn for */
    uint64_t last_ns;
    int last_pct;
    bool elements; /* done and total count elements (diff), not bytes */
} progress;

/* A bar for `what`; never drawn when quiet (--quiet) or when stderr is not a terminal. */
void progress_init(progress *p, const char *what, bool quiet);
void progress_update(void *p, uint64_t done, uint64_t total);
/* A gs_progress_fn (the libraries' options): one bar per part, "<what> part I/N" when the work
 * goes part by part, each erased when the next part starts. */
void progress_event(void *p, const gs_progress *event);
/* Erases the bar (when one was drawn). */
void progress_done(progress *p);

#endif
