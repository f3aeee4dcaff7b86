/* A valid file with every kind of record, cut inside each of its fields in turn. The verdicts
 * come from gsc_cut_verdict (the documented order of checks applied to the field map). */
#include <stdio.h>

#include "gsc_cases.h"
#include "gsc_cut.h"

static void rich_model(gsw_model *m)
{
    gsc_add_arch(m);
    gsw_set_cstr(gsw_add(m, "general.name"),
                 "a name long enough that the minimum record sizes of every declared key-value "
                 "and tensor fit in the bytes before the later fields, so cuts there are "
                 "truncations");
    gsw_set_u8(gsw_add(m, "x.u8"), 7);
    gsw_set_bool(gsw_add(m, "x.bool"), 1);
    gsw_set_u64(gsw_add(m, "x.u64"), 1234567890123ull);
    const uint8_t f32s[12] = {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64};
    gsw_set_array(gsw_add(m, "x.f32s"), GS_VALUE_F32, 3, f32s);
    gsw_value *strs = gsw_add(m, "x.strings");
    gsw_set_string_array(strs, 3);
    gsw_array_string(strs, 0, "one", 3);
    gsw_array_string(strs, 2, "three", 5);
    gsw_set_array(gsw_add(m, "x.empty"), GS_VALUE_I32, 0, NULL);
    gsw_set_cstr(gsw_add(m, "x.blank"), "");
    /* A first tensor info longer than the 4 x 25 bytes the tensor count asks for after the
     * key-values, so that cuts in its last fields are truncations, not count errors. */
    const uint64_t a[4] = {4, 2, 1, 1};
    gsw_tensor_fill(gsw_add_tensor(m, "blk.0.attn_output.weight.with.a.long.name.for.the.sweep.x",
                                   4, a, GS_TYPE_F32),
                    1, 1024);
    const uint64_t b[1] = {32};
    gsw_tensor_fill(gsw_add_tensor(m, "t.b", 1, b, GS_TYPE_Q8_0), 2, 1024);
    const uint64_t e[1] = {0};
    gsw_tensor_fill(gsw_add_tensor(m, "t.empty", 1, e, GS_TYPE_I8), 3, 1024);
    gsw_tensor_fill(gsw_add_tensor(m, "t.scalar", 0, e, GS_TYPE_F16), 4, 1024);
}

static const char *record_kind(gsw_kind k)
{
    switch (k) {
    case GSW_MAGIC: case GSW_VERSION: case GSW_N_TENSORS: case GSW_N_KV: return "header";
    case GSW_KEY_LEN: case GSW_KEY: case GSW_VALUE_TYPE: case GSW_VALUE: case GSW_STR_LEN:
    case GSW_STR: case GSW_ARR_TYPE: case GSW_ARR_COUNT: case GSW_ARR_ELEM: case GSW_ARR_STR_LEN:
    case GSW_ARR_STR: return "key-value";
    case GSW_NAME_LEN: case GSW_NAME: case GSW_N_DIMS: case GSW_DIM: case GSW_TENSOR_TYPE:
    case GSW_OFFSET: return "tensor info";
    case GSW_PADDING: case GSW_DATA: case GSW_DATA_PAD: case GSW_KIND_COUNT: default:
        return "tensor";
    }
}

void gsc_cases_truncate(gsc_sink *s)
{
    gsc_case full;
    gsc_begin(&full, 3);
    rich_model(&full.m);
    gsc_write(&full, 0);
    uint64_t last_cut = UINT64_MAX;
    for (size_t i = 0; i < full.map.n; i++) {
        const gsw_field *f = &full.map.fields[i];
        /* Elements after the first of an array behave like the first. */
        if ((f->kind == GSW_ARR_ELEM || f->kind == GSW_ARR_STR || f->kind == GSW_ARR_STR_LEN) &&
            f->index > 0) {
            continue;
        }
        uint64_t cut = f->offset + f->size / 2; /* inside; at the start of 0- and 1-byte fields */
        if (cut >= full.b.len || cut == last_cut) {
            continue;
        }
        last_cut = cut;
        gsc_verdict v = gsc_cut_verdict(&full.b, &full.map, cut);
        char file[96], desc[160];
        snprintf(file, sizeof file, "truncate/at_%05llu_%s_%u_%llu.gguf", (unsigned long long)cut,
                 gsw_kind_name((gsw_kind)f->kind), f->record, (unsigned long long)f->index);
        snprintf(desc, sizeof desc, "valid file cut to %llu bytes: %s %s of %s %u",
                 (unsigned long long)cut, cut == f->offset ? "at the start of" : "inside",
                 gsw_kind_name((gsw_kind)f->kind), record_kind((gsw_kind)f->kind), f->record);
        gsc_emit(s, file, full.b.data, (size_t)cut, v, v, GSC_NOT_CERTIFIED, desc);
    }
    /* Not certifiable even whole (a blk.0 tensor without llama.block_count, a q8_0 tensor
     * without general.quantization_version), so neither is any cut of it. */
    gsc_emit(s, "truncate/uncut.gguf", full.b.data, full.b.len, GSC_OK, GSC_OK,
             GSC_NOT_CERTIFIED, "the file the truncate cases are cut from");
    gsc_end(&full);
}
