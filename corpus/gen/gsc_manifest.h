/* corpus/manifest.tsv: one line per corpus file with the verdicts the reader must give it.
 *   file  sha256  strict_status  strict_offset  lenient_status  lenient_offset  certify_exit
 *   description
 * Tab-separated, after one header line. Statuses are gs_status enum names (GS_OK for accepted),
 * offsets decimal, "-" as the offset of an accepted file; certify_exit is the exit status
 * `ggufsafe certify FILE` must give: 0 certified, 1 not (findings), 2 not a GGUF at all. */
#ifndef GGUFSAFE_GSC_MANIFEST_H
#define GGUFSAFE_GSC_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"

#define GSC_MANIFEST_HEADER                                                                      \
    "file\tsha256\tstrict_status\tstrict_offset\tlenient_status\tlenient_offset\tcertify_exit\t"  \
    "description"

typedef struct gsc_verdict {
    gs_status status;
    uint64_t offset; /* ignored for GS_OK */
} gsc_verdict;

typedef struct gsc_entry {
    char *file;        /* relative to the corpus directory, '/'-separated; owns the strings */
    char sha256[65];
    gsc_verdict strict, lenient;
    char *certify;     /* "0", "1" or "2" */
    char *desc;
} gsc_entry;

/* Zeroed ({NULL, 0, 0}) is empty; gsc_manifest_free empties it again. */
typedef struct gsc_manifest {
    gsc_entry *entries;
    size_t n, cap;
} gsc_manifest;

void gsc_manifest_free(gsc_manifest *m);
/* Appends an entry holding copies of the strings. */
void gsc_manifest_add(gsc_manifest *m, const char *file, const char *sha256, gsc_verdict strict,
                      gsc_verdict lenient, const char *certify, const char *desc);
/* The entry for file, or NULL. */
const gsc_entry *gsc_manifest_find(const gsc_manifest *m, const char *file);

/* Reads path; 0, or -1 with the reason (and line number) in why. */
int gsc_manifest_read(const char *path, gsc_manifest *m, char *why, size_t why_cap);
/* Writes the header and every entry; 0 or -1. */
int gsc_manifest_write(const char *path, const gsc_manifest *m);
/* One entry as its manifest line, without the newline, into buf. */
void gsc_entry_format(const gsc_entry *e, char *buf, size_t cap);

/* The status whose gs_status_name is name; -1 when there is none. */
int gsc_status_from_name(const char *name, gs_status *out);

/* corpus/regress/manifest.tsv: what each regression file must reproduce, one line per run (a
 * file under one set of options; see corpus/regress/README.md):
 *   file  options  strict_status  strict_offset  lenient_status  lenient_offset  certify_exit
 *   reproduces
 * options: "default" (gs_options_init), or "fuzz_<target>:<trailer>": the file with that options
 * trailer appended (8 hex digits, the 4 bytes in file order) is an input replay_<target> must
 * pass, and for fuzz_open the verdicts are under the options fuzz_open derives from the trailer
 * (fuzz_open_options). Verdicts as in the corpus manifest; a run of another harness, which does
 * not open the file with reader options of its own choosing, may have "-" in all four verdict
 * columns: the harness is then its only check. certify_exit for the default options only ("-"
 * otherwise). The default run of a file is its line in the generated corpus (regress/<file>),
 * with reproduces as its description. */
#define GSC_RUNS_HEADER                                                                          \
    "file\toptions\tstrict_status\tstrict_offset\tlenient_status\tlenient_offset\t"             \
    "certify_exit\treproduces"

typedef struct gsc_run {
    char *file;    /* its name in corpus/regress/; owns the run's strings */
    char *options;
    int reader;    /* the verdicts are given: the reader is held to them */
    gsc_verdict strict, lenient;
    char *certify; /* "0", "1", "2", or "-" */
    char *reproduces;
} gsc_run;

typedef struct gsc_runs {
    gsc_run *runs;
    size_t n, cap;
} gsc_runs;

/* Reads path; 0, or -1 with the reason (and line number) in why. */
int gsc_runs_read(const char *path, gsc_runs *r, char *why, size_t why_cap);
void gsc_runs_free(gsc_runs *r);
/* The first run of file (with those options, unless options is NULL), or NULL. */
const gsc_run *gsc_runs_find(const gsc_runs *r, const char *file, const char *options);

#endif
