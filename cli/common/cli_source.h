/* A GGUF named by a path, opened as every command and tool library opens it: the first part of a
 * split set (<prefix>-00001-of-NNNNN.gguf, NNNNN > 1) opens the whole set unless part_only;
 * anything else opens as one file. Users then walk parts and tensors the same way in both cases.
 * Also the chunked decoding of one tensor. Nothing here prints: failures are statuses. */
#ifndef GGUFSAFE_CLI_SOURCE_H
#define GGUFSAFE_CLI_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "ggufsafe.h"

typedef struct cli_source {
    gs_split *split; /* set when a split set was opened */
    gs_file *file;   /* set when a single file was opened */
} cli_source;

/* The reader options every command and tool library opens files with: defaults and the
 * profile; the metadata read once with pread into the heap (no getter can fault when a file is
 * truncated underneath); and no descriptor or mapping held once a file is open, so that a split
 * set of any size opens within the descriptor limit: tensor data is read by reopening the path,
 * GS_E_FILE_CHANGED when the file changed meanwhile (reopen_for_data). */
void cli_reader_options(gs_options *opts, gs_profile profile);
/* The caller-defined types and decoders an engine's options carry, into the reader's. */
void cli_reader_types(gs_options *opts, const gs_type_def *defs, size_t n_defs,
                      const gs_decoder *decoders, size_t n_decoders);

/* True when a read of an opened file failed because the file changed under the run: it ends
 * before what its open saw (GS_E_TRUNCATED) or another file took its place (GS_E_FILE_CHANGED). */
bool cli_file_changed(gs_status st);

/* True when path names part 1 of a set of more than one part (*name filled; name may be NULL). */
bool cli_first_of_set(const char *path, gs_split_name *name);

/* Opens path with opts. GS_OK, or the reader's status with err filled; with a label (commands
 * that open several files), the detail ends with " (<label>: <path>)", cut to fit, so that the
 * error says which file it was. */
gs_status cli_source_open(cli_source *s, const char *path, bool part_only, const gs_options *opts,
                          const char *label, gs_error *err);
/* The path of part i (0-based) of the set named by its first part, into buf: the same length as
 * first_part, so cap = strlen(first_part) + 1 is enough. */
void cli_source_part_path(char *buf, size_t cap, const char *first_part, size_t i);

size_t cli_source_parts(const cli_source *s);
const gs_file *cli_source_part(const cli_source *s, size_t i);
void cli_source_close(cli_source *s);

/* The tensor named name in any part of s, in O(1) (the set's index, or the file's): true with
 * *file and *index set, false (both untouched) when there is none. The one lookup of a tensor by name in a file
 * or set for every command and engine. */
bool cli_source_find_tensor(const cli_source *s, gs_str name, const gs_file **file, size_t *index);

/* Elements per chunk of cli_decode_chunks (rounded down to whole blocks of the tensor's type):
 * 512 KiB of f32, small enough to stay in the L2 cache while it is hashed or summed after
 * decoding (4 MiB did not: dequant --sha256 of 1 GiB of F16 took 1.75 s, at this size 1.49 to
 * 1.57 s). */
#define CLI_DECODE_CHUNK_ELEMS (1u << 17)

/* Decodes tensor `index` of `file` in chunks of at most CLI_DECODE_CHUNK_ELEMS, whole blocks each
 * (the last one shorter), and hands every chunk, in order, to fn. Returns GS_OK, the decode's
 * failure, GS_E_NO_MEMORY, or the first non-OK status fn returns. The tensor must be decodable. */
typedef gs_status (*cli_chunk_fn)(void *ctx, const float *values, size_t n);
gs_status cli_decode_chunks(const gs_file *file, size_t index, cli_chunk_fn fn, void *ctx);

#endif
