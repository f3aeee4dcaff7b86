/* Which AVX2 decoder serves which type id. This file is compiled without AVX2 flags: it only
 * hands out pointers, and the dispatcher calls them only on a CPU that has AVX2. */
#include "decode.h"
#include "decode_avx2.h"

static const gsi_decode_fn avx2_decoders[GS_TYPE_COUNT] = {
    [GS_TYPE_F32] = gsi_avx2_f32,
    [GS_TYPE_F16] = gsi_avx2_f16,
    [GS_TYPE_BF16] = gsi_avx2_bf16,
    [GS_TYPE_Q4_0] = gsi_avx2_q4_0,
    [GS_TYPE_Q4_1] = gsi_avx2_q4_1,
    [GS_TYPE_Q5_0] = gsi_avx2_q5_0,
    [GS_TYPE_Q5_1] = gsi_avx2_q5_1,
    [GS_TYPE_Q8_0] = gsi_avx2_q8_0,
    [GS_TYPE_Q8_1] = gsi_avx2_q8_1,
    [GS_TYPE_Q1_0] = gsi_avx2_q1_0,
    [GS_TYPE_Q2_0] = gsi_avx2_q2_0,
    [GS_TYPE_Q2_K] = gsi_avx2_q2_K,
    [GS_TYPE_Q3_K] = gsi_avx2_q3_K,
    [GS_TYPE_Q4_K] = gsi_avx2_q4_K,
    [GS_TYPE_Q5_K] = gsi_avx2_q5_K,
    [GS_TYPE_Q6_K] = gsi_avx2_q6_K,
    [GS_TYPE_Q8_K] = gsi_avx2_q8_K,
    [GS_TYPE_IQ2_XXS] = gsi_avx2_iq2_xxs,
    [GS_TYPE_IQ2_XS] = gsi_avx2_iq2_xs,
    [GS_TYPE_IQ2_S] = gsi_avx2_iq2_s,
    [GS_TYPE_IQ3_XXS] = gsi_avx2_iq3_xxs,
    [GS_TYPE_IQ3_S] = gsi_avx2_iq3_s,
    [GS_TYPE_IQ1_S] = gsi_avx2_iq1_s,
    [GS_TYPE_IQ1_M] = gsi_avx2_iq1_m,
    [GS_TYPE_IQ4_NL] = gsi_avx2_iq4_nl,
    [GS_TYPE_IQ4_XS] = gsi_avx2_iq4_xs,
    [GS_TYPE_MXFP4] = gsi_avx2_mxfp4,
    [GS_TYPE_NVFP4] = gsi_avx2_nvfp4,
    [GS_TYPE_TQ1_0] = gsi_avx2_tq1_0,
    [GS_TYPE_TQ2_0] = gsi_avx2_tq2_0,
};

gsi_decode_fn gsi_decoder_avx2(int32_t type)
{
    if (type < 0 || type >= GS_TYPE_COUNT) {
        return NULL;
    }
    return avx2_decoders[type];
}
