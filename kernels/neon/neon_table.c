/* Which NEON decoder serves which type id: every type of decoder_types.h, as scalar_table.c. */
#include "neon_table.h"

#include "neon_common.h"

#if GSI_NEON_ENABLED

#define NEON_ENTRY(id, name) [GS_TYPE_##id] = gsi_neon_##name,
static const gsi_decode_fn neon_decoders[GS_TYPE_COUNT] = {
    GSI_DECODED_TYPES(NEON_ENTRY)
};
#undef NEON_ENTRY

gsi_decode_fn gsi_decoder_neon(int32_t type)
{
    return gsi_decoder_in(neon_decoders, type);
}

#else

/* Big-endian AArch64: no NEON decoders (see neon_common.h); the dispatcher keeps scalar. */
gsi_decode_fn gsi_decoder_neon(int32_t type)
{
    (void)type;
    return NULL;
}

#endif
