#include "manifest_run.h"

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
