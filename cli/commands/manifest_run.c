#include "manifest_run.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_common.h"
#include "cli_types.h"
#include "open_notes.h"
#include "progress.h"

int cli_hash_path(const char *path, gs_manifest_mode mode, bool part_only, bool metadata_only,
                  gs_profile profile, unsigned jobs, bool quiet, gs_manifest **out)
{
    progress bar;
    progress_init(&bar, "hash", quiet);
    gs_manifest_options o;
    gs_manifest_options_init(&o);
    o.mode = mode;
    o.profile = profile;
    o.part_only = part_only;
    o.metadata_only = metadata_only;
    o.jobs = jobs;
    o.progress = progress_event;
    o.progress_ctx = &bar;
    const cli_types *ct = cli_types_current();
    o.type_defs = ct->defs;
    o.n_type_defs = ct->n_defs;
    o.decoders = ct->decoders;
    o.n_decoders = ct->n_decoders;
    gs_manifest_input *in;
    gs_error err;
    *out = NULL;
    gs_status st = gs_manifest_open(path, &o, &in, &err);
    if (st != GS_OK) {
        int code = cli_print_open_failure(&err, path, NULL);
        gs_options ro;
        cli_options(profile, &ro);
        ro.metadata_only = metadata_only;
        cli_open_notes(path, &err, &ro,
                       mode == GS_MANIFEST_HASH ? "ggufsafe hash --metadata-only" : NULL);
        return code;
    }
    st = gs_manifest_hash(in, &o, out, &err);
    progress_done(&bar);
    gs_manifest_input_close(in);
    if (st == GS_OK) {
        return -1;
    }
    if (st == GS_E_IO || st == GS_E_TRUNCATED) {
        return cli_print_read_error(&err, path, NULL); /* the file changed or the disk failed */
    }
    cli_print_failure(&err); /* memory, libcrypto */
    return CLI_EXIT_USAGE;
}

static const char *base_name(const char *file)
{
    const char *slash = strrchr(file, '/');
    return slash != NULL ? slash + 1 : file;
}

char *cli_manifest_path(const char *dir, const char *file)
{
    const char *name = base_name(file);
    size_t d = strlen(dir), n = strlen(name);
    bool sep = d > 0 && dir[d - 1] != '/';
    char *path = malloc(d + sep + n + sizeof ".manifest");
    if (path != NULL) {
        memcpy(path, dir, d);
        if (sep) {
            path[d] = '/';
        }
        memcpy(path + d + sep, name, n);
        memcpy(path + d + sep + n, ".manifest", sizeof ".manifest");
    }
    return path;
}

static int cmp_base(const void *a, const void *b)
{
    return strcmp(base_name(*(const char *const *)a), base_name(*(const char *const *)b));
}

int cli_manifest_dir_check(const char *command, const char *dir, const char *const *files,
                           size_t n)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        return cli_usage_error_arg(command, "--manifest-dir: not a directory", dir);
    }
    const char **sorted = malloc((n > 0 ? n : 1) * sizeof *sorted);
    if (sorted == NULL) {
        return cli_print_out_of_memory();
    }
    memcpy(sorted, files, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_base); /* O(n log n): any number of files */
    int code = -1;
    for (size_t i = 1; i < n && code < 0; i++) {
        if (cmp_base(&sorted[i - 1], &sorted[i]) == 0) {
            code = cli_usage_error_arg(command,
                                       "--manifest-dir: two files have the same name, so one "
                                       "manifest; give them in separate runs",
                                       base_name(sorted[i]));
        }
    }
    free(sorted);
    return code;
}
