/* The file written by ggml's own writer opens in strict profile with 32 KVs and 33 tensors, and
 * every value reads back as ggml wrote it: each getter is compared with an independent walk of
 * the bytes written here in the test (plain little-endian reads, no code shared with the reader). */
#include <criterion/criterion.h>
#include <string.h>

#include "test_util.h"

static unsigned scalar_size(uint32_t t)
{
    static const unsigned sizes[] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
    return t < 13 ? sizes[t] : 0;
}

/* Compares element i of KV idx (element type t, at byte p) with the typed getter. */
static void check_element(const gs_file *f, size_t idx, bool array, uint64_t i, uint32_t t,
                          const uint8_t *p)
{
    uint64_t raw = gsw_le_at(p, scalar_size(t));
    gs_status st = GS_E_INTERNAL;
    uint64_t got = 0;
    union {
        uint8_t u8; int8_t i8; uint16_t u16; int16_t i16; uint32_t u32; int32_t i32;
        uint64_t u64; int64_t i64; float f32; double f64; bool b;
    } v;
#define GET(suffix, field)                                                                        \
    st = array ? gs_kv_get_array_##suffix(f, idx, i, &v.field) : gs_kv_get_##suffix(f, idx, &v.field)
    switch (t) {
    case GS_VALUE_U8: GET(u8, u8); got = v.u8; break;
    case GS_VALUE_I8: GET(i8, i8); got = (uint8_t)v.i8; break;
    case GS_VALUE_U16: GET(u16, u16); got = v.u16; break;
    case GS_VALUE_I16: GET(i16, i16); got = (uint16_t)v.i16; break;
    case GS_VALUE_U32: GET(u32, u32); got = v.u32; break;
    case GS_VALUE_I32: GET(i32, i32); got = (uint32_t)v.i32; break;
    case GS_VALUE_U64: GET(u64, u64); got = v.u64; break;
    case GS_VALUE_I64: GET(i64, i64); got = (uint64_t)v.i64; break;
    case GS_VALUE_F32: { GET(f32, f32); uint32_t bits; memcpy(&bits, &v.f32, 4); got = bits; } break;
    case GS_VALUE_F64: GET(f64, f64); memcpy(&got, &v.f64, 8); break;
    case GS_VALUE_BOOL: GET(bool, b); got = v.b; raw = raw != 0; break;
    default: cr_assert_fail("type %u", t);
    }
#undef GET
    cr_assert_eq(st, GS_OK);
    cr_assert_eq(got, raw, "kv %zu element %llu", idx, (unsigned long long)i);
}

static size_t check_string(const gs_file *f, size_t idx, bool array, uint64_t i,
                           const uint8_t *p)
{
    uint64_t n = gsw_le_at(p, 8);
    gs_str s;
    gs_status st = array ? gs_kv_get_array_string(f, idx, i, &s) : gs_kv_get_string(f, idx, &s);
    cr_assert_eq(st, GS_OK);
    cr_assert_eq(s.len, n);
    cr_assert((const uint8_t *)s.ptr == p + 8, "a view into the file, not a copy");
    return 8 + (size_t)n;
}

Test(sample, ggml_written_file_reads_back_exactly)
{
    size_t n;
    uint8_t *data = tu_read_file(tu_source_path("conformance/samples/ggml-written.gguf"), &n);
    gs_file *f;
    gs_error e;
    cr_assert_eq(gs_open_memory(data, n, NULL, &f, &e), GS_OK, "%s", e.detail);
    cr_assert_eq(gs_file_profile(f), GS_PROFILE_STRICT);
    cr_assert_eq(gs_kv_count(f), 32);
    cr_assert_eq(gs_tensor_count(f), 33);
    cr_assert_eq(gs_file_version(f), 3);

    size_t pos = 24;
    for (size_t k = 0; k < 32; k++) {
        uint64_t klen = gsw_le_at(data + pos, 8);
        gs_kv_info info;
        cr_assert_eq(gs_kv_info_at(f, k, &info), GS_OK);
        cr_assert_eq(info.offset, pos);
        cr_assert_eq(info.key.len, klen);
        cr_assert(memcmp(info.key.ptr, data + pos + 8, klen) == 0);
        size_t idx;
        cr_assert_eq(gs_kv_find_n(f, info.key.ptr, info.key.len, &idx), GS_OK);
        cr_assert_eq(idx, k);
        pos += 8 + (size_t)klen;
        uint32_t type = (uint32_t)gsw_le_at(data + pos, 4);
        pos += 4;
        cr_assert_eq(info.type, type);
        if (type == GS_VALUE_ARRAY) {
            uint32_t et = (uint32_t)gsw_le_at(data + pos, 4);
            uint64_t cnt = gsw_le_at(data + pos + 4, 8);
            pos += 12;
            cr_assert_eq(info.elem_type, et);
            cr_assert_eq(info.count, cnt);
            for (uint64_t i = 0; i < cnt; i++) {
                if (et == GS_VALUE_STRING) {
                    pos += check_string(f, k, true, i, data + pos);
                } else {
                    check_element(f, k, true, i, et, data + pos);
                    pos += scalar_size(et);
                }
            }
        } else if (type == GS_VALUE_STRING) {
            pos += check_string(f, k, false, 0, data + pos);
        } else {
            check_element(f, k, false, 0, type, data + pos);
            pos += scalar_size(type);
        }
        cr_assert_eq(info.offset + info.size, pos);
    }
    gs_layout l;
    gs_file_layout(f, &l);
    cr_assert_eq(l.kv_end, pos);

    uint64_t running = 0;
    for (size_t t = 0; t < 33; t++) {
        gs_tensor_info ti;
        cr_assert_eq(gs_tensor_info_at(f, t, &ti), GS_OK);
        uint64_t nlen = gsw_le_at(data + pos, 8);
        cr_assert_eq(ti.info_offset, pos);
        cr_assert_eq(ti.name.len, nlen);
        cr_assert(memcmp(ti.name.ptr, data + pos + 8, nlen) == 0);
        pos += 8 + (size_t)nlen;
        uint32_t nd = (uint32_t)gsw_le_at(data + pos, 4);
        pos += 4;
        cr_assert_eq(ti.n_dims, nd);
        for (uint32_t j = 0; j < nd; j++, pos += 8) {
            cr_assert_eq(ti.ne[j], gsw_le_at(data + pos, 8));
        }
        cr_assert_eq((uint32_t)ti.type, (uint32_t)gsw_le_at(data + pos, 4));
        pos += 4;
        cr_assert_eq(ti.offset, gsw_le_at(data + pos, 8));
        pos += 8;
        cr_assert_eq(ti.offset, running);
        running += (ti.size + 31) / 32 * 32;
        size_t idx;
        cr_assert_eq(gs_tensor_find_n(f, ti.name.ptr, ti.name.len, &idx), GS_OK);
        cr_assert_eq(idx, t);
        cr_assert_eq((const uint8_t *)ti.data, data + l.data_offset + ti.offset);
    }
    cr_assert_eq(l.tensor_info_end, pos);
    cr_assert_eq(l.alignment, 32);
    cr_assert_eq(l.predicted_size, n, "EXACT");
    cr_assert_eq(l.trailing_bytes, 0);
    cr_assert_eq(l.header_padding_nonzero, 0);

    /* a few values with meaning, from the sample's README */
    size_t idx;
    gs_str s;
    cr_assert_eq(gs_kv_find(f, "general.architecture", &idx), GS_OK);
    cr_assert_eq(gs_kv_get_string(f, idx, &s), GS_OK);
    cr_assert(s.len == 5 && memcmp(s.ptr, "llama", 5) == 0);
    gs_kv_info info;
    cr_assert_eq(gs_kv_find(f, "tokenizer.ggml.tokens", &idx), GS_OK);
    gs_kv_info_at(f, idx, &info);
    cr_assert_eq(info.count, 1000);
    cr_assert_eq(gs_kv_find(f, "tokenizer.ggml.merges", &idx), GS_OK);
    gs_kv_info_at(f, idx, &info);
    cr_assert_eq(info.count, 2000);
    gs_close(f);

    /* lenient opens it identically; so does the mmap path */
    gs_options o;
    gs_options_init(&o);
    o.profile = GS_PROFILE_LENIENT;
    cr_assert_eq(gs_open_file(tu_source_path("conformance/samples/ggml-written.gguf"), &o, &f,
                              NULL), GS_OK);
    cr_assert_eq(gs_kv_count(f), 32);
    cr_assert_eq(gs_tensor_count(f), 33);
    gs_close(f);
    free(data);
}
