#include "type_registry.h"

#define LIVE GS_TYPE_LIVE
#define ACT GS_TYPE_ACTIVATION
#define GONE GS_TYPE_REMOVED

/* Geometry from ggml's type_traits (ggml.c) at commit d99724f2; see THIRD_PARTY.md. */
static const gsi_type_row type_table[GS_TYPE_COUNT] = {
    [0] = {"f32", 1, 4, LIVE, true},
    [1] = {"f16", 1, 2, LIVE, true},
    [2] = {"q4_0", 32, 18, LIVE, true},
    [3] = {"q4_1", 32, 20, LIVE, true},
    [4] = {"q4_2", 0, 0, GONE, false},
    [5] = {"q4_3", 0, 0, GONE, false},
    [6] = {"q5_0", 32, 22, LIVE, true},
    [7] = {"q5_1", 32, 24, LIVE, true},
    [8] = {"q8_0", 32, 34, LIVE, true},
    [9] = {"q8_1", 32, 36, ACT, true},
    [10] = {"q2_K", 256, 84, LIVE, true},
    [11] = {"q3_K", 256, 110, LIVE, true},
    [12] = {"q4_K", 256, 144, LIVE, true},
    [13] = {"q5_K", 256, 176, LIVE, true},
    [14] = {"q6_K", 256, 210, LIVE, true},
    [15] = {"q8_K", 256, 292, ACT, true},
    [16] = {"iq2_xxs", 256, 66, LIVE, true},
    [17] = {"iq2_xs", 256, 74, LIVE, true},
    [18] = {"iq3_xxs", 256, 98, LIVE, true},
    [19] = {"iq1_s", 256, 50, LIVE, true},
    [20] = {"iq4_nl", 32, 18, LIVE, true},
    [21] = {"iq3_s", 256, 110, LIVE, true},
    [22] = {"iq2_s", 256, 82, LIVE, true},
    [23] = {"iq4_xs", 256, 136, LIVE, true},
    [24] = {"i8", 1, 1, LIVE, false},
    [25] = {"i16", 1, 2, LIVE, false},
    [26] = {"i32", 1, 4, LIVE, false},
    [27] = {"i64", 1, 8, LIVE, false},
    [28] = {"f64", 1, 8, LIVE, false},
    [29] = {"iq1_m", 256, 56, LIVE, true},
    [30] = {"bf16", 1, 2, LIVE, true},
    [31] = {"q4_0_4_4", 0, 0, GONE, false},
    [32] = {"q4_0_4_8", 0, 0, GONE, false},
    [33] = {"q4_0_8_8", 0, 0, GONE, false},
    [34] = {"tq1_0", 256, 54, LIVE, true},
    [35] = {"tq2_0", 256, 66, LIVE, true},
    [36] = {"iq4_nl_4_4", 0, 0, GONE, false},
    [37] = {"iq4_nl_4_8", 0, 0, GONE, false},
    [38] = {"iq4_nl_8_8", 0, 0, GONE, false},
    [39] = {"mxfp4", 32, 17, LIVE, true},
    [40] = {"nvfp4", 64, 36, LIVE, true},
    [41] = {"q1_0", 128, 18, LIVE, true},
    [42] = {"q2_0", 64, 18, LIVE, true},
};

const gsi_type_row *gsi_type_lookup(int32_t id)
{
    if (id < 0 || id >= GS_TYPE_COUNT) {
        return NULL;
    }
    return &type_table[id];
}

gs_status gs_type_get_info(int32_t type, gs_type_info *out)
{
    if (out == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    const gsi_type_row *row = gsi_type_lookup(type);
    if (row == NULL) {
        *out = (gs_type_info){"unknown", 0, 0, GS_TYPE_UNKNOWN, false};
        return GS_E_UNKNOWN_TENSOR_TYPE;
    }
    *out = (gs_type_info){row->name, row->block_elems, row->block_bytes, row->status,
                          row->decodable};
    return row->status == GS_TYPE_REMOVED ? GS_E_REMOVED_TENSOR_TYPE : GS_OK;
}

const char *gs_type_name(int32_t type)
{
    const gsi_type_row *row = gsi_type_lookup(type);
    return row != NULL ? row->name : "unknown";
}
