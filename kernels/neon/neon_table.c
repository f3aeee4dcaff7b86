/* Which NEON decoder serves which type id: the same set of types as scalar_table.c. */
#include "neon_table.h"

#include "neon_common.h"

#if GSI_NEON_ENABLED

static const gsi_decode_fn neon_decoders[GS_TYPE_COUNT] = {
    [GS_TYPE_F32] = gsi_neon_f32,
    [GS_TYPE_F16] = gsi_neon_f16,
    [GS_TYPE_BF16] = gsi_neon_bf16,
    [GS_TYPE_Q4_0] = gsi_neon_q4_0,
    [GS_TYPE_Q4_1] = gsi_neon_q4_1,
    [GS_TYPE_Q5_0] = gsi_neon_q5_0,
    [GS_TYPE_Q5_1] = gsi_neon_q5_1,
    [GS_TYPE_Q8_0] = gsi_neon_q8_0,
    [GS_TYPE_Q8_1] = gsi_neon_q8_1,
    [GS_TYPE_Q1_0] = gsi_neon_q1_0,
    [GS_TYPE_Q2_0] = gsi_neon_q2_0,
    [GS_TYPE_Q2_K] = gsi_neon_q2_K,
    [GS_TYPE_Q3_K] = gsi_neon_q3_K,
    [GS_TYPE_Q4_K] = gsi_neon_q4_K,
    [GS_TYPE_Q5_K] = gsi_neon_q5_K,
    [GS_TYPE_Q6_K] = gsi_neon_q6_K,
    [GS_TYPE_Q8_K] = gsi_neon_q8_K,
    [GS_TYPE_IQ2_XXS] = gsi_neon_iq2_xxs,
    [GS_TYPE_IQ2_XS] = gsi_neon_iq2_xs,
    [GS_TYPE_IQ2_S] = gsi_neon_iq2_s,
    [GS_TYPE_IQ3_XXS] = gsi_neon_iq3_xxs,
    [GS_TYPE_IQ3_S] = gsi_neon_iq3_s,
    [GS_TYPE_IQ1_S] = gsi_neon_iq1_s,
    [GS_TYPE_IQ1_M] = gsi_neon_iq1_m,
    [GS_TYPE_IQ4_NL] = gsi_neon_iq4_nl,
    [GS_TYPE_IQ4_XS] = gsi_neon_iq4_xs,
    [GS_TYPE_MXFP4] = gsi_neon_mxfp4,
    [GS_TYPE_NVFP4] = gsi_neon_nvfp4,
    [GS_TYPE_TQ1_0] = gsi_neon_tq1_0,
    [GS_TYPE_TQ2_0] = gsi_neon_tq2_0,
};

gsi_decode_fn gsi_decoder_neon(int32_t type)
{
    if (type < 0 || type >= GS_TYPE_COUNT) {
        return NULL;
    }
    return neon_decoders[type];
}

#else

/* Big-endian AArch64: no NEON decoders (see neon_common.h); the dispatcher keeps scalar. */
gsi_decode_fn gsi_decoder_neon(int32_t type)
{
    (void)type;
    return NULL;
}

#endif
