/* Which NEON decoder serves which type id: every type of decoder_types.h, as scalar_table.c. */
#include "neon_table.h"

#include "neon_common.h"

#if GSI_NEON_ENABLED

#define NEON_ENTRY(id, name) [GS_TYPE_##id] = gsi_neon_##name,
GSI_DECODER_TABLE(neon, NEON_ENTRY)
#undef NEON_ENTRY

#else

/* Big-endian AArch64: no NEON decoders (see neon_common.h); the dispatcher keeps scalar. */
gsi_decode_fn gsi_decoder_neon(int32_t type)
{
    (void)type;
    return NULL;
}

#endif
