/* Plain float element types: F32 (a bit copy), F16 and BF16 (exact conversions). */
#include "block_layout.h"
#include "decode_scalar.h"
#include "le_load.h"

/* F32 has no ggml to_float; the identity, read as little-endian bits so that every payload
 * (signalling NaNs included) is copied unchanged. */
static void f32_block(const uint8_t *b, float *y)
{
    *y = gsi_load_f32le(b);
}

static void f16_block(const uint8_t *b, float *y)
{
    *y = gsi_load_f16(b);
}

static void bf16_block(const uint8_t *b, float *y)
{
    *y = gsi_bf16_to_f32(gsi_load_u16le(b));
}

GSI_FLOAT_TYPES(GSI_SCALAR_ROW)
