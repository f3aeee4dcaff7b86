/* Caller-defined types of an open file (gs_options.type_defs and .decoders): their checks, the
 * file's copy of them, and the lookup every part of the reader uses instead of the registry
 * alone, so that a defined type is sized, laid out, checked and decoded like a built-in one. */
#ifndef GGUFSAFE_TYPE_DEFS_H
#define GGUFSAFE_TYPE_DEFS_H

#include "ggufsafe.h"
#include "type_registry.h"

typedef struct gs_file gs_file;
struct gsi_mem;

/* One defined type as the file keeps it: sorted by id in gs_file.ext_types. */
typedef struct gsi_ext_type {
    int32_t id;
    gsi_type_row row;                 /* row.name points at name */
    char name[GS_TYPE_NAME_MAX + 1];
    gs_decode_fn decode;              /* NULL: geometry only (not decodable) */
    void *ctx;
    char source[GS_ERROR_TEXT_MAX];   /* the decoder's gs_decoder.source, or "" */
} gsi_ext_type;

/* Checks opts' definitions and decoders and copies them into the file (f->ext_types), through
 * f->mem. GS_OK, or GS_E_INVALID_ARGUMENT / a memory status with err filled. */
gs_status gsi_file_types_load(gs_file *f, const gs_options *opts, gs_error *err);
void gsi_file_types_free(gs_file *f);

/* The defined type of id, or NULL. */
const gsi_ext_type *gsi_file_ext_type(const gs_file *f, int32_t id);
/* The geometry of id as the file knows it: its defined type, else the registry's row (NULL
 * outside 0..GS_TYPE_COUNT-1). */
const gsi_type_row *gsi_file_type_row(const gs_file *f, int32_t id);

#endif
