/* Which AVX2 decoder serves which type id. This file is compiled without AVX2 flags: it only
 * hands out pointers, and the dispatcher calls them only on a CPU that has AVX2. */
#include "decode.h"
#include "decode_avx2.h"

#define AVX2_ENTRY(id, name) [GS_TYPE_##id] = gsi_avx2_##name,
GSI_DECODER_TABLE(avx2, AVX2_ENTRY)
#undef AVX2_ENTRY
