/* Files at the edges that must be accepted: empty models, a file with every value type and one
 * with every tensor type, and the large ones (160k keys, 40k tensors, a 262,144-token vocabulary)
 * that make quadratic duplicate checks or per-element overheads show, at a few MB each. */
#include <stdio.h>

#include "gsc_cases.h"
#include "type_registry.h"

static void small(gsc_sink *s)
{
    gsc_case c;
    gsc_begin(&c, 3);
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* meta.architecture_missing */
    gsc_ok(s, &c, "boundary/empty_model.gguf", "no key-values, no tensors: header and padding");

    gsc_begin(&c, 3);
    gsc_add_f32(&c.m, "w", 8);
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* meta.architecture_missing */
    gsc_ok(s, &c, "boundary/tensors_no_kv.gguf", "a tensor and no key-values");

    gsc_begin(&c, 3);
    gsc_add_arch(&c.m);
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "boundary/kv_no_tensors.gguf", "a key-value and no tensors");

    gsc_begin(&c, 2);
    gsc_add_arch(&c.m);
    gsc_add_f32(&c.m, "w", 8);
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_CERTIFIED); /* compat.version_2 is a note */
    gsc_ok(s, &c, "boundary/version_2_with_data.gguf", "version 2 with a key-value and a tensor");

    /* One key-value of every type, arrays of every element type, empty ones included. */
    gsc_begin(&c, 3);
    for (uint32_t t = 0; t <= GS_VALUE_F64; t++) {
        char key[32];
        snprintf(key, sizeof key, "x.scalar_%u", t);
        if (t == GS_VALUE_STRING) {
            gsw_set_cstr(gsw_add(&c.m, key), "text");
        } else if (t != GS_VALUE_ARRAY) {
            gsw_set_scalar(gsw_add(&c.m, key), t, t == GS_VALUE_BOOL ? 1 : t + 1);
        }
    }
    for (uint32_t t = 0; t <= GS_VALUE_F64; t++) {
        for (uint64_t n = 0; n <= 3; n += 3) {
            char key[32];
            snprintf(key, sizeof key, "x.array_%u_%llu", t, (unsigned long long)n);
            if (t == GS_VALUE_STRING) {
                gsw_value *v = gsw_add(&c.m, key);
                gsw_set_string_array(v, n);
                for (uint64_t i = 0; i < n; i++) {
                    gsw_array_string(v, i, i == 1 ? "" : "el", i == 1 ? 0 : 2);
                }
            } else if (t != GS_VALUE_ARRAY) {
                gsw_set_array(gsw_add(&c.m, key), t, n, NULL);
            }
        }
    }
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* meta.architecture_missing */
    gsc_ok(s, &c, "boundary/every_value_type.gguf",
           "every scalar type, and arrays of every element type with 0 and 3 elements");

    gsc_begin(&c, 3);
    for (int32_t id = 0; id < GS_TYPE_COUNT; id++) {
        const gsi_type_row *row = gsi_type_lookup(id);
        if (!gsi_type_is_usable(row)) {
            continue;
        }
        const uint64_t ne[4] = {row->block_elems, 2, 1, 3};
        gsw_tensor_fill(gsw_add_tensor(&c.m, row->name, 4, ne, id), (uint64_t)id, 1u << 20);
    }
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* no architecture, no quantization version */
    gsc_ok(s, &c, "boundary/every_tensor_type.gguf",
           "a 4-dimensional tensor of every usable type, one file");
}

static void large(gsc_sink *s)
{
    gsc_case c;
    gsc_begin(&c, 3);
    gsc_add_numbered_keys(&c.m, "k.", 6, 160000, GS_VALUE_U8);
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* meta.architecture_missing */
    gsc_ok(s, &c, "boundary/keys_160k.gguf",
           "160,000 keys (37 s in ggml's quadratic duplicate check)");

    gsc_begin(&c, 3);
    gsw_set_u32(gsw_add(&c.m, "general.alignment"), 8);
    for (unsigned i = 0; i < 40000; i++) {
        char name[16];
        snprintf(name, sizeof name, "t.%05u", i);
        const uint64_t ne = 8;
        gsw_tensor_fill(gsw_add_tensor(&c.m, name, 1, &ne, GS_TYPE_I8), i, 8);
    }
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* meta.architecture_missing */
    gsc_ok(s, &c, "boundary/tensors_40k.gguf", "40,000 tensors of 8 bytes, alignment 8");

    /* A Gemma-3-sized vocabulary with scores and token types. */
    const uint64_t n = 262144;
    gsc_begin(&c, 3);
    gsc_add_arch(&c.m);
    gsw_set_cstr(gsw_add(&c.m, "tokenizer.ggml.model"), "llama");
    gsw_value *tokens = gsw_add(&c.m, "tokenizer.ggml.tokens");
    gsw_set_string_array(tokens, n);
    for (uint64_t i = 0; i < n; i++) {
        char t[8];
        int len = snprintf(t, sizeof t, "%llx", (unsigned long long)i);
        gsw_array_string(tokens, i, t, (size_t)len);
    }
    gsw_set_array(gsw_add(&c.m, "tokenizer.ggml.scores"), GS_VALUE_F32, n, NULL);
    gsw_value *types = gsw_add(&c.m, "tokenizer.ggml.token_type");
    gsw_set_array(types, GS_VALUE_I32, n, NULL);
    for (uint64_t i = 0; i < n; i++) {
        types->raw.ptr[4 * i] = 1;
    }
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_CERTIFIED); /* a consistent vocabulary */
    gsc_ok(s, &c, "boundary/vocab_262144.gguf",
           "262,144 tokens with as many scores and token types");
}

void gsc_cases_boundary(gsc_sink *s)
{
    small(s);
    large(s);
}
