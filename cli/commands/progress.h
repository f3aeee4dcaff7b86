/* A progress bar on stderr for the long scans (hash, verify, certify --deep), drawn only when
 * stderr is a terminal so that logs and pipes never see it. Redrawn at most ten times a second;
 * cleared when done. */
#ifndef GGUFSAFE_PROGRESS_H
#define GGUFSAFE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct progress {
    bool enabled;
    const char *what;
    uint64_t last_ns;
    int last_pct;
} progress;

void progress_init(progress *p, const char *what);
/* A callback shape that fits cert_options.progress and the hasher's. */
void progress_update(void *p, uint64_t done, uint64_t total);
/* Erases the bar (when one was drawn). */
void progress_done(progress *p);

#endif
