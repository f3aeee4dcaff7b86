/* Which scalar decoder serves which type id. */
#include "decode.h"
#include "decode_scalar.h"

static const gsi_decode_fn scalar_decoders[GS_TYPE_COUNT] = {
    [GS_TYPE_F32] = gsi_scalar_f32,
    [GS_TYPE_F16] = gsi_scalar_f16,
    [GS_TYPE_BF16] = gsi_scalar_bf16,
    [GS_TYPE_Q4_0] = gsi_scalar_q4_0,
    [GS_TYPE_Q4_1] = gsi_scalar_q4_1,
    [GS_TYPE_Q5_0] = gsi_scalar_q5_0,
    [GS_TYPE_Q5_1] = gsi_scalar_q5_1,
    [GS_TYPE_Q8_0] = gsi_scalar_q8_0,
    [GS_TYPE_Q8_1] = gsi_scalar_q8_1,
    [GS_TYPE_Q1_0] = gsi_scalar_q1_0,
    [GS_TYPE_Q2_0] = gsi_scalar_q2_0,
    [GS_TYPE_Q2_K] = gsi_scalar_q2_K,
    [GS_TYPE_Q3_K] = gsi_scalar_q3_K,
    [GS_TYPE_Q4_K] = gsi_scalar_q4_K,
    [GS_TYPE_Q5_K] = gsi_scalar_q5_K,
    [GS_TYPE_Q6_K] = gsi_scalar_q6_K,
    [GS_TYPE_Q8_K] = gsi_scalar_q8_K,
    [GS_TYPE_IQ2_XXS] = gsi_scalar_iq2_xxs,
    [GS_TYPE_IQ2_XS] = gsi_scalar_iq2_xs,
    [GS_TYPE_IQ2_S] = gsi_scalar_iq2_s,
    [GS_TYPE_IQ3_XXS] = gsi_scalar_iq3_xxs,
    [GS_TYPE_IQ3_S] = gsi_scalar_iq3_s,
    [GS_TYPE_IQ1_S] = gsi_scalar_iq1_s,
    [GS_TYPE_IQ1_M] = gsi_scalar_iq1_m,
    [GS_TYPE_IQ4_NL] = gsi_scalar_iq4_nl,
    [GS_TYPE_IQ4_XS] = gsi_scalar_iq4_xs,
    [GS_TYPE_MXFP4] = gsi_scalar_mxfp4,
    [GS_TYPE_NVFP4] = gsi_scalar_nvfp4,
    [GS_TYPE_TQ1_0] = gsi_scalar_tq1_0,
    [GS_TYPE_TQ2_0] = gsi_scalar_tq2_0,
};

gsi_decode_fn gsi_decoder_scalar(int32_t type)
{
    if (type < 0 || type >= GS_TYPE_COUNT) {
        return NULL;
    }
    return scalar_decoders[type];
}
