/* The types with an f32 decoder, family by family (one family a source file in each of
 * kernels/scalar/, avx2/ and neon/). One list serves the three paths: each path's header
 * declares its decoders from it, each path's table maps type ids to them from it, and each
 * family file defines its row loops from its family's list. So the three paths cannot drift
 * apart, and a new type is one line here plus a block function in each path.
 *
 * X(ID, name): ID is the suffix of GS_TYPE_<ID> (ggufsafe.h) and of GSI_<ID>_BYTES /
 * GSI_<ID>_ELEMS (block_layout.h); name is the decoders' suffix: gsi_scalar_<name>,
 * gsi_avx2_<name>, gsi_neon_<name>. */
#ifndef GGUFSAFE_DECODER_TYPES_H
#define GGUFSAFE_DECODER_TYPES_H

/* *_float.c */
#define GSI_FLOAT_TYPES(X) X(F32, f32) X(F16, f16) X(BF16, bf16)

/* *_legacy.c */
#define GSI_LEGACY_TYPES(X) \
    X(Q4_0, q4_0) X(Q4_1, q4_1) X(Q5_0, q5_0) X(Q5_1, q5_1) X(Q8_0, q8_0) X(Q8_1, q8_1) \
    X(Q1_0, q1_0) X(Q2_0, q2_0)

/* *_kquants.c */
#define GSI_KQUANT_TYPES(X) \
    X(Q2_K, q2_K) X(Q3_K, q3_K) X(Q4_K, q4_K) X(Q5_K, q5_K) X(Q6_K, q6_K) X(Q8_K, q8_K)

/* *_iquants.c */
#define GSI_IQUANT_TYPES(X) \
    X(IQ2_XXS, iq2_xxs) X(IQ2_XS, iq2_xs) X(IQ2_S, iq2_s) X(IQ3_XXS, iq3_xxs) X(IQ3_S, iq3_s) \
    X(IQ1_S, iq1_s) X(IQ1_M, iq1_m)

/* *_codebook.c */
#define GSI_CODEBOOK_TYPES(X) X(IQ4_NL, iq4_nl) X(IQ4_XS, iq4_xs) X(MXFP4, mxfp4) X(NVFP4, nvfp4)

/* *_ternary.c */
#define GSI_TERNARY_TYPES(X) X(TQ1_0, tq1_0) X(TQ2_0, tq2_0)

#define GSI_DECODED_TYPES(X) \
    GSI_FLOAT_TYPES(X) GSI_LEGACY_TYPES(X) GSI_KQUANT_TYPES(X) GSI_IQUANT_TYPES(X) \
    GSI_CODEBOOK_TYPES(X) GSI_TERNARY_TYPES(X)

#endif
