/* Which scalar decoder serves which type id: every type of decoder_types.h. */
#include "decode.h"
#include "decode_scalar.h"

#define SCALAR_ENTRY(id, name) [GS_TYPE_##id] = gsi_scalar_##name,
static const gsi_decode_fn scalar_decoders[GS_TYPE_COUNT] = {
    GSI_DECODED_TYPES(SCALAR_ENTRY)
};
#undef SCALAR_ENTRY

gsi_decode_fn gsi_decoder_scalar(int32_t type)
{
    return gsi_decoder_in(scalar_decoders, type);
}
