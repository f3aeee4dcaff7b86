#include "type_registry.h"

#include "abi_compat.h"
#include "block_layout.h"

#define LIVE GS_TYPE_LIVE
#define ACT GS_TYPE_ACTIVATION
#define GONE GS_TYPE_REMOVED

/* Geometry from ggml's type_traits (ggml.c) at commit d99724f2 (THIRD_PARTY.md), through the
 * named block layouts (block_layout.h, which checks each against ggml's size). Columns: name,
 * elements and bytes per block, status, decodable, quantized. */
static const gsi_type_row type_table[GS_TYPE_COUNT] = {
    [0] = {"f32", GSI_F32_ELEMS, GSI_F32_BYTES, LIVE, true, false},
    [1] = {"f16", GSI_F16_ELEMS, GSI_F16_BYTES, LIVE, true, false},
    [2] = {"q4_0", GSI_Q4_0_ELEMS, GSI_Q4_0_BYTES, LIVE, true, true},
    [3] = {"q4_1", GSI_Q4_1_ELEMS, GSI_Q4_1_BYTES, LIVE, true, true},
    [4] = {"q4_2", 0, 0, GONE, false, false},
    [5] = {"q4_3", 0, 0, GONE, false, false},
    [6] = {"q5_0", GSI_Q5_0_ELEMS, GSI_Q5_0_BYTES, LIVE, true, true},
    [7] = {"q5_1", GSI_Q5_1_ELEMS, GSI_Q5_1_BYTES, LIVE, true, true},
    [8] = {"q8_0", GSI_Q8_0_ELEMS, GSI_Q8_0_BYTES, LIVE, true, true},
    [9] = {"q8_1", GSI_Q8_1_ELEMS, GSI_Q8_1_BYTES, ACT, true, true},
    [10] = {"q2_K", GSI_Q2_K_ELEMS, GSI_Q2_K_BYTES, LIVE, true, true},
    [11] = {"q3_K", GSI_Q3_K_ELEMS, GSI_Q3_K_BYTES, LIVE, true, true},
    [12] = {"q4_K", GSI_Q4_K_ELEMS, GSI_Q4_K_BYTES, LIVE, true, true},
    [13] = {"q5_K", GSI_Q5_K_ELEMS, GSI_Q5_K_BYTES, LIVE, true, true},
    [14] = {"q6_K", GSI_Q6_K_ELEMS, GSI_Q6_K_BYTES, LIVE, true, true},
    [15] = {"q8_K", GSI_Q8_K_ELEMS, GSI_Q8_K_BYTES, ACT, true, true},
    [16] = {"iq2_xxs", GSI_IQ2_XXS_ELEMS, GSI_IQ2_XXS_BYTES, LIVE, true, true},
    [17] = {"iq2_xs", GSI_IQ2_XS_ELEMS, GSI_IQ2_XS_BYTES, LIVE, true, true},
    [18] = {"iq3_xxs", GSI_IQ3_XXS_ELEMS, GSI_IQ3_XXS_BYTES, LIVE, true, true},
    [19] = {"iq1_s", GSI_IQ1_S_ELEMS, GSI_IQ1_S_BYTES, LIVE, true, true},
    [20] = {"iq4_nl", GSI_IQ4_NL_ELEMS, GSI_IQ4_NL_BYTES, LIVE, true, true},
    [21] = {"iq3_s", GSI_IQ3_S_ELEMS, GSI_IQ3_S_BYTES, LIVE, true, true},
    [22] = {"iq2_s", GSI_IQ2_S_ELEMS, GSI_IQ2_S_BYTES, LIVE, true, true},
    [23] = {"iq4_xs", GSI_IQ4_XS_ELEMS, GSI_IQ4_XS_BYTES, LIVE, true, true},
    [24] = {"i8", GSI_I8_ELEMS, GSI_I8_BYTES, LIVE, false, false},
    [25] = {"i16", GSI_I16_ELEMS, GSI_I16_BYTES, LIVE, false, false},
    [26] = {"i32", GSI_I32_ELEMS, GSI_I32_BYTES, LIVE, false, false},
    [27] = {"i64", GSI_I64_ELEMS, GSI_I64_BYTES, LIVE, false, false},
    [28] = {"f64", GSI_F64_ELEMS, GSI_F64_BYTES, LIVE, false, false},
    [29] = {"iq1_m", GSI_IQ1_M_ELEMS, GSI_IQ1_M_BYTES, LIVE, true, true},
    [30] = {"bf16", GSI_BF16_ELEMS, GSI_BF16_BYTES, LIVE, true, false},
    [31] = {"q4_0_4_4", 0, 0, GONE, false, false},
    [32] = {"q4_0_4_8", 0, 0, GONE, false, false},
    [33] = {"q4_0_8_8", 0, 0, GONE, false, false},
    [34] = {"tq1_0", GSI_TQ1_0_ELEMS, GSI_TQ1_0_BYTES, LIVE, true, true},
    [35] = {"tq2_0", GSI_TQ2_0_ELEMS, GSI_TQ2_0_BYTES, LIVE, true, true},
    [36] = {"iq4_nl_4_4", 0, 0, GONE, false, false},
    [37] = {"iq4_nl_4_8", 0, 0, GONE, false, false},
    [38] = {"iq4_nl_8_8", 0, 0, GONE, false, false},
    [39] = {"mxfp4", GSI_MXFP4_ELEMS, GSI_MXFP4_BYTES, LIVE, true, true},
    [40] = {"nvfp4", GSI_NVFP4_ELEMS, GSI_NVFP4_BYTES, LIVE, true, true},
    [41] = {"q1_0", GSI_Q1_0_ELEMS, GSI_Q1_0_BYTES, LIVE, true, true},
    [42] = {"q2_0", GSI_Q2_0_ELEMS, GSI_Q2_0_BYTES, LIVE, true, true},
};

const gsi_type_row *gsi_type_lookup(int32_t id)
{
    if (id < 0 || id >= GS_TYPE_COUNT) {
        return NULL;
    }
    return &type_table[id];
}

gs_status gs_type_get_info_sized(int32_t type, gs_type_info *out, size_t out_size)
{
    if (out == NULL || out_size < GSI_TYPE_INFO_SIZE_0_1_0) {
        return GS_E_INVALID_ARGUMENT;
    }
    const gsi_type_row *row = gsi_type_lookup(type);
    gs_type_info info;
    memset(&info, 0, sizeof info);
    gs_status st = GS_E_UNKNOWN_TENSOR_TYPE;
    if (row == NULL) {
        info.name = "unknown";
        info.status = GS_TYPE_UNKNOWN;
    } else {
        info.name = row->name;
        info.block_elems = row->block_elems;
        info.block_bytes = row->block_bytes;
        info.status = row->status;
        info.decodable = row->decodable;
        info.quantized = row->quantized;
        st = row->status == GS_TYPE_REMOVED ? GS_E_REMOVED_TENSOR_TYPE : GS_OK;
    }
    gsi_copy_sized(out, out_size, &info, sizeof info);
    return st;
}

/* The 0.1.0 symbol, for programs built against 0.1.0: writes 0.1.0's sizeof(gs_type_info)
 * (today's quantized lies in what was its tail padding). */
#undef gs_type_get_info
gs_status gs_type_get_info(int32_t type, gs_type_info *out)
{
    return gs_type_get_info_sized(type, out, GSI_TYPE_INFO_SIZE_0_1_0);
}

const char *gs_type_name(int32_t type)
{
    const gsi_type_row *row = gsi_type_lookup(type);
    return row != NULL ? row->name : "unknown";
}
