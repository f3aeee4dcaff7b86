/* ggufsafe-roundtrip IN OUT: reads IN with our reader and writes it to OUT with the test writer.
 * For a canonical file (what ggml's writer produces) OUT is byte-identical to IN. Built in the
 * build tree only, never installed.
 * Exit status: 0 written; 1 IN is not a GGUF our reader accepts; 2 usage or I/O error. */
#include <stdio.h>
#include <string.h>

#include "ggufsafe.h"
#include "gsw_from_file.h"
#include "gsw_write.h"

static int usage(void)
{
    fprintf(stderr, "usage: ggufsafe-roundtrip [--lenient] IN OUT\n");
    return 2;
}

int main(int argc, char **argv)
{
    gs_options opts;
    gs_options_init(&opts);
    int arg = 1;
    if (arg < argc && strcmp(argv[arg], "--lenient") == 0) {
        opts.profile = GS_PROFILE_LENIENT;
        arg++;
    }
    if (argc - arg != 2) {
        return usage();
    }
    const char *in = argv[arg], *out = argv[arg + 1];

    gs_file *f = NULL;
    gs_error err;
    gs_status st = gs_open_file(in, &opts, &f, &err);
    if (st != GS_OK) {
        fprintf(stderr, "%s: %s at byte %llu: %s\n", in, gs_status_name(st),
                (unsigned long long)err.offset, err.detail);
        return st == GS_E_IO ? 2 : 1;
    }
    gsw_model m;
    char why[256] = "";
    int rc = gsw_model_from_file(f, &m, why, sizeof why);
    if (rc == 0) {
        rc = gsw_write_file(&m, 0, out, why, sizeof why);
    }
    gsw_model_free(&m);
    gs_close(f);
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", out, why);
        return 2;
    }
    return 0;
}
