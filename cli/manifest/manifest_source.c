/* The files hash and verify read, opened and hashed part by part, with a progress bar on a
 * terminal. hash reads a file the way every command does (the chosen profile; a split set from
 * its first part, checked as a set); verify reads each part leniently in diagnostic mode, so a
 * damaged download still yields a manifest to compare and every difference gets its name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert_split.h"
#include "cli_common.h"
#include "manifest.h"
#include "progress.h"

static int hash_one(const gs_file *f, size_t no, size_t n, unsigned jobs, mf_part *out)
{
    char what[64];
    snprintf(what, sizeof what, n > 1 ? "hash part %zu/%zu" : "hash", no + 1, n);
    progress bar;
    progress_init(&bar, what);
    mf_hash_options o = {.jobs = jobs, .progress = progress_update, .progress_ctx = &bar};
    uint64_t where = 0;
    gs_status st = mf_hash_part(f, &o, out, &where);
    progress_done(&bar);
    if (st == GS_OK) {
        return -1;
    }
    gs_error e = {.status = st, .offset = where};
    snprintf(e.detail, sizeof e.detail, "%s",
             st == GS_E_TRUNCATED ? "the file shrank while it was being hashed"
                                  : "reading the file for hashing");
    cli_print_error(&e);
    return CLI_EXIT_USAGE;
}

/* hash: one file or a consistent split set, under the chosen profile. */
static int hash_path(const char *path, bool part_only, gs_profile profile, unsigned jobs,
                     mf_doc *d)
{
    gs_options opts;
    gs_options_init(&opts);
    opts.profile = profile;
    opts.copy_metadata = true; /* a file truncated mid-hash is reported, never a SIGBUS */
    gs_error err;
    gs_split *split = NULL;
    gs_file *file = NULL;
    gs_status st = !part_only && cli_is_first_split_part(path)
                       ? gs_open_split(path, &opts, &split, &err)
                       : gs_open_file(path, &opts, &file, &err);
    if (st != GS_OK) {
        cli_print_error(&err);
        return cli_exit_for_status(st);
    }
    size_t n = split != NULL ? gs_split_part_count(split) : 1;
    mf_doc_init(d, n);
    int code = -1;
    for (size_t p = 0; p < n && code < 0; p++) {
        code = hash_one(split != NULL ? gs_split_part(split, p) : file, p, n, jobs, &d->parts[p]);
    }
    gs_split_close(split);
    gs_close(file);
    return code;
}

/* verify: every part that can be read at all, leniently; the first must be. */
static int verify_path(const char *path, bool part_only, unsigned jobs, mf_doc *d)
{
    cert_split_name name;
    bool set = !part_only && cert_split_parse_name(path, &name) && name.no == 1 && name.total > 1;
    size_t n = set ? name.total : 1;
    mf_doc_init(d, n);
    gs_options opts;
    gs_options_init(&opts);
    opts.profile = GS_PROFILE_LENIENT;
    opts.diagnostic = true;
    opts.copy_metadata = true;
    int code = -1;
    for (size_t p = 0; p < n && code < 0; p++) {
        char *part_path = set ? cert_split_part_path(path, &name, (unsigned)p + 1) : NULL;
        gs_file *f = NULL;
        gs_error err;
        gs_status st = gs_open_file(set ? part_path : path, &opts, &f, &err);
        if (st != GS_OK && p == 0) {
            cli_print_error(&err);
            code = cli_exit_for_status(st);
        } else if (st != GS_OK) {
            snprintf(d->parts[p].error, sizeof d->parts[p].error, "%s: %s",
                     gs_status_name(st), st == GS_E_IO ? "the part cannot be opened"
                                                       : gs_status_message(st));
        } else {
            code = hash_one(f, p, n, jobs, &d->parts[p]);
        }
        gs_close(f);
        free(part_path);
    }
    return code;
}

int mf_hash_path(const char *path, bool part_only, bool for_verify, gs_profile profile,
                 unsigned jobs, mf_doc *d)
{
    d->parts = NULL;
    d->n_parts = 0;
    return for_verify ? verify_path(path, part_only, jobs, d)
                      : hash_path(path, part_only, profile, jobs, d);
}
