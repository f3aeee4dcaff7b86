/* The commands of gs_oracle, one file each. */
#ifndef GGUFSAFE_ORACLE_MAIN_H
#define GGUFSAFE_ORACLE_MAIN_H

#include "ggml_api.h"

/* Exit statuses shared by every command (the clients rely on them). */
enum {
    GSX_EXIT_ACCEPTED = 0,    /* also: the command succeeded */
    GSX_EXIT_REJECTED = 1,    /* report: ggml returned NULL */
    GSX_EXIT_USAGE = 2,       /* usage or I/O error */
    GSX_EXIT_UNAVAILABLE = 3, /* the library is not in the cache (not fetched) */
    GSX_EXIT_BAD_LIBRARY = 4  /* it is there but does not load or fit our declarations */
};

int gsx_cmd_serve(const gsx_ggml *g);
/* to-float TYPE IN OUT [TYPE IN OUT]...: ggml's decoder over a file of raw blocks. */
int gsx_cmd_to_float(const gsx_ggml *g, int argc, char **argv);
/* quantize TYPE ROWS SEED OUT [...]: ggml_quantize_chunk on Gaussian rows of one block row
 * length (256 elements, or the type's block if larger), with an importance matrix where the
 * type needs one. */
int gsx_cmd_quantize(const gsx_ggml *g, int argc, char **argv);

#endif
