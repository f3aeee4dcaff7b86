/* Which scalar decoder serves which type id: every type of decoder_types.h. */
#include "decode.h"
#include "decode_scalar.h"

#define SCALAR_ENTRY(id, name) [GS_TYPE_##id] = gsi_scalar_##name,
GSI_DECODER_TABLE(scalar, SCALAR_ENTRY)
#undef SCALAR_ENTRY
