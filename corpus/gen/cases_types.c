/* Tensor type ids: every usable type accepted (from the registry), removed and unknown ids. */
#include <stdio.h>

#include "gsc_cases.h"
#include "type_registry.h"

/* Architecture key and tensor "t" of `type`, 2 blocks by 3 rows, filled. */
static void with_type(gsc_case *c, int32_t type)
{
    const gsi_type_row *row = gsi_type_lookup(type);
    gsc_begin(c, 3);
    gsc_add_arch(&c->m);
    const uint64_t ne[2] = {2 * (uint64_t)row->block_elems, 3};
    gsw_tensor_fill(gsw_add_tensor(&c->m, "t", 2, ne, type), (uint64_t)type, 1u << 20);
    gsc_write(c, 0);
}

void gsc_cases_types(gsc_sink *s)
{
    for (int32_t id = 0; id < GS_TYPE_COUNT; id++) {
        const gsi_type_row *row = gsi_type_lookup(id);
        gsc_case c;
        char file[64], desc[128];
        if (gsi_type_is_usable(row)) {
            with_type(&c, id);
            snprintf(file, sizeof file, "types/%02d_%s.gguf", id, row->name);
            snprintf(desc, sizeof desc, "type %d (%s), 2 blocks x 3 rows%s", id, row->name,
                     row->status == GS_TYPE_ACTIVATION ? " (an activation type)" : "");
            /* no general.quantization_version: quantized types are not certified */
            gsc_certify(&c, row->quantized ? GSC_NOT_CERTIFIED : GSC_CERTIFIED);
            gsc_ok(s, &c, file, desc);
            continue;
        }
        with_type(&c, GS_TYPE_F32);
        gsw_override(&c.b, &c.map, GSW_TENSOR_TYPE, 0, 0, (uint32_t)id);
        snprintf(file, sizeof file, "types/%02d_removed_%s.gguf", id, row->name);
        snprintf(desc, sizeof desc, "removed type id %d (%s)", id, row->name);
        gsc_both(s, &c, file, GS_E_REMOVED_TENSOR_TYPE, gsc_at(&c, GSW_TENSOR_TYPE, 0, 0), desc);
    }
    static const struct { const char *file; uint32_t id; const char *desc; } unknown[] = {
        {"types/unknown_43.gguf", 43, "type id 43 (GGML_TYPE_COUNT)"},
        {"types/unknown_44.gguf", 44, "type id 44"},
        {"types/unknown_153.gguf", 153, "type id 153 (a fork's id: ik_llama)"},
        {"types/unknown_1000.gguf", 1000, "type id 1000"},
        {"types/unknown_int32_max.gguf", 0x7FFFFFFFu, "type id INT32_MAX"},
        {"types/unknown_minus_1.gguf", 0xFFFFFFFFu, "type id -1"},
        {"types/unknown_int32_min.gguf", 0x80000000u, "type id INT32_MIN"},
    };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        gsc_case c;
        with_type(&c, GS_TYPE_F32);
        gsw_override(&c.b, &c.map, GSW_TENSOR_TYPE, 0, 0, unknown[i].id);
        gsc_both(s, &c, unknown[i].file, GS_E_UNKNOWN_TENSOR_TYPE,
                 gsc_at(&c, GSW_TENSOR_TYPE, 0, 0), unknown[i].desc);
    }
}
