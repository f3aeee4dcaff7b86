/* A GGUF named on the command line, opened as the commands open it: the first part of a split set
 * (<prefix>-00001-of-NNNNN.gguf, NNNNN > 1) opens the whole set unless --part-only; anything else
 * opens as one file. Commands then walk parts and tensors the same way in both cases. */
#ifndef GGUFSAFE_CLI_SOURCE_H
#define GGUFSAFE_CLI_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "ggufsafe.h"

typedef struct cli_source {
    gs_split *split; /* set when a split set was opened */
    gs_file *file;   /* set when a single file was opened */
} cli_source;

/* Opens path; on failure prints the error line and returns the exit code, else returns -1. */
int cli_source_open(cli_source *s, const char *path, bool part_only, const gs_options *opts);
/* The same for commands that open several files: a failure's detail ends with
 * " (<label>: <path>)", so the error line says which file it was. */
int cli_source_open_as(cli_source *s, const char *path, bool part_only, const gs_options *opts,
                       const char *label);
size_t cli_source_parts(const cli_source *s);
const gs_file *cli_source_part(const cli_source *s, size_t i);
void cli_source_close(cli_source *s);

/* Decodes tensor `index` of `file` in bounded chunks (about 4 MiB of f32 each) and hands every
 * chunk, in order, to fn. Returns GS_OK, the decode's failure, or the first non-OK status fn
 * returns. The tensor must be decodable. */
typedef gs_status (*cli_chunk_fn)(void *ctx, const float *values, size_t n);
gs_status cli_decode_chunks(const gs_file *file, size_t index, cli_chunk_fn fn, void *ctx);

#endif
