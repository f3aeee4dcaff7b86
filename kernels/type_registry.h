/* The type registry: the single source of truth for ggml tensor type ids 0..42. The parser, the
 * decoders, the CLI and the test writer all ask it; nobody keeps a second table. */
#ifndef GGUFSAFE_TYPE_REGISTRY_H
#define GGUFSAFE_TYPE_REGISTRY_H

#include "ggufsafe.h"

typedef struct gsi_type_row {
    const char *name;
    uint32_t block_elems;
    uint32_t block_bytes;
    gs_type_status status;
    bool decodable;
    bool quantized; /* gs_type_info.quantized */
} gsi_type_row;

/* The row for id, or NULL when the id is outside 0..GS_TYPE_COUNT-1. Removed ids have a row with
 * zero geometry. */
const gsi_type_row *gsi_type_lookup(int32_t id);

/* True for ids whose data can be addressed: live and activation types. */
static inline bool gsi_type_is_usable(const gsi_type_row *row)
{
    return row != NULL && (row->status == GS_TYPE_LIVE || row->status == GS_TYPE_ACTIVATION);
}

#endif
