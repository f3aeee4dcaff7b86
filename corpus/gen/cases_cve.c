/* The shapes of published GGUF reader vulnerabilities and of ggml's open holes, one file each,
 * named after the report. */
#include <stdio.h>

#include "gsc_cases.h"

/* Architecture key, then a key-value (record 1) for the value under test, then one tensor. */
static gsw_value *with_value(gsc_case *c)
{
    gsc_begin(c, 3);
    gsc_add_arch(&c->m);
    gsc_add_f32(&c->m, "w", 4);
    return gsw_add(&c->m, "x.value");
}

static void talos_2024(gsc_sink *s)
{
    gsc_case c;
    gsw_value *v = with_value(&c);
    gsw_set_string_array(v, 2);
    gsw_array_string(v, 0, "a", 1);
    gsw_array_string(v, 1, "b", 1);
    gsc_write(&c, 0);
    gsw_override(&c.b, &c.map, GSW_ARR_COUNT, 1, 0, (1ull << 60) + 1);
    gsc_both(s, &c, "cve/talos_2024_1912_string_array.gguf", GS_E_COUNT_EXCEEDS_FILE,
             gsc_at(&c, GSW_ARR_COUNT, 1, 0),
             "CVE-2024-21825: string array of 2^60+1, count x 16-byte gguf_str wraps the malloc");

    gsw_set_array(with_value(&c), GS_VALUE_U32, 2, NULL);
    gsc_write(&c, 0);
    gsw_override(&c.b, &c.map, GSW_ARR_COUNT, 1, 0, (1ull << 62) + 1);
    gsc_both(s, &c, "cve/talos_2024_1912_numeric_array.gguf", GS_E_COUNT_EXCEEDS_FILE,
             gsc_at(&c, GSW_ARR_COUNT, 1, 0),
             "CVE-2024-21825: u32 array of 2^62+1, count x 4 wraps to 4");

    gsw_set_cstr(with_value(&c), "payload");
    gsc_write(&c, 0);
    gsc_bad_len(s, &c, GSW_STR_LEN, UINT64_MAX, "cve/talos_2024_1913_string_len.gguf",
                "CVE-2024-23496: string length 2^64-1, calloc(len+1 = 0) then fread(len)");

    gsc_begin(&c, 3);
    const uint64_t ne[5] = {1, 1, 1, 1, 0x4141414141414141ull};
    gsw_add_tensor(&c.m, "w", 5, ne, GS_TYPE_F32);
    gsc_write(&c, GSW_LAX);
    gsc_both(s, &c, "cve/talos_2024_1914_n_dims.gguf", GS_E_TOO_MANY_DIMS,
             gsc_at(&c, GSW_N_DIMS, 0, 0),
             "CVE-2024-21802: n_dims 5, the fifth dimension written past ne[4]");

    gsc_base(&c);
    gsc_write(&c, 0);
    gsw_override(&c.b, &c.map, GSW_N_TENSORS, 0, 0, 0x0400000000000001ull);
    gsc_both(s, &c, "cve/talos_2024_1915_n_tensors.gguf", GS_E_COUNT_EXCEEDS_FILE, 8,
             "CVE-2024-21836: tensor count 2^58+1, count x sizeof(info) wraps the malloc");

    gsc_base(&c);
    gsc_write(&c, 0);
    gsw_override(&c.b, &c.map, GSW_N_KV, 0, 0, 0x0800000000000001ull);
    gsc_both(s, &c, "cve/talos_2024_1916_n_kv.gguf", GS_E_COUNT_EXCEEDS_FILE, 16,
             "CVE-2024-23605: key-value count 2^59+1, count x sizeof(kv) wraps the malloc");
}

static void later_ggml(gsc_sink *s)
{
    gsc_case c;
    gsc_begin(&c, 3);
    gsc_add_numbered_keys(&c.m, "x.k", 0, 5, GS_VALUE_U32);
    gsc_write(&c, 0);
    gsw_override(&c.b, &c.map, GSW_VALUE_TYPE, 3, 0, 13);
    gsc_both(s, &c, "cve/cve_2024_32878_fail_midway.gguf", GS_E_BAD_VALUE_TYPE,
             gsc_at(&c, GSW_VALUE_TYPE, 3, 0),
             "CVE-2024-32878: the parse fails at the 4th of 5 key-values (uninitialised free)");

    gsc_two_tensors(&c, 4, 4);
    gsc_bad_len(s, &c, GSW_NAME_LEN, UINT64_MAX, "cve/cve_2024_41130_name_unread.gguf",
                "CVE-2024-41130: second tensor name unreadable, then compared (NULL strcmp)");

    /* Two i8 tensors of 2^63-64 elements and 32 bytes of data each: sizes that wrap ggml's
     * running total and its context size (test-gguf MEM_SIZE_OVERFLOW). */
    static const char *files[] = {"cve/cve_2025_53630_size_sum.gguf",
                                  "cve/cve_2026_27940_mem_size.gguf"};
    static const char *descs[] = {
        "CVE-2025-53630: two tensors of 2^63-64 bytes, their padded sum wraps",
        "CVE-2026-27940: the same with 32 data bytes each, (n+1) x overhead + size wraps",
    };
    for (int k = 0; k < 2; k++) {
        gsc_begin(&c, 3);
        const uint64_t n = 0x7FFFFFFFFFFFFFC0ull;
        for (int i = 0; i < 2; i++) {
            gsw_tensor *t = gsw_add_tensor(&c.m, i ? "b" : "a", 1, &n, GS_TYPE_I8);
            if (k == 1) {
                gsw_tensor_set_data(t, NULL, 32);
            }
        }
        gsc_write(&c, GSW_LAX);
        gsc_both(s, &c, files[k], GS_E_DATA_OUTSIDE_FILE, gsc_at(&c, GSW_OFFSET, 0, 0), descs[k]);
    }
}

static void shapes(gsc_sink *s)
{
    static const gsc_shape sh[] = {
        {"cve/ggml_27203_nelements_zero.gguf", 2, {1ull << 32, 1ull << 32}, GS_TYPE_F32,
         "ggml #27203 (open): (2^32, 2^32) f32, nelements wraps to 0"},
        {"cve/ggml_27203_nelements_negative.gguf", 2, {INT64_MAX, 2}, GS_TYPE_I8,
         "ggml #27203 (open): (INT64_MAX, 2) i8, nbytes 2^64-2"},
        {"cve/ggml_26978_pad_wrap.gguf", 3, {4, (1ull << 30) - 1, (1ull << 30) + 1}, GS_TYPE_F32,
         "ggml #26978 (open): (4, 2^30-1, 2^30+1) f32, GGML_PAD(2^64-16) = 0"},
        {"cve/cve_2026_33298_q8_0.gguf", 2, {(1ull << 21) - 32, (1ull << 42) + 1}, GS_TYPE_Q8_0,
         "CVE-2026-33298: q8_0 with a dimension 2^42+1, bytes past int64"},
        {"cve/gguf_py_25378_dims_product.gguf", 3, {4194305, 4194305, 211106198978564ull},
         GS_TYPE_F32,
         "gguf-py #25378: dims (4194305, 4194305, 211106198978564), product wraps"},
        {"cve/candle_dims_2p40.gguf", 2, {1ull << 40, 1ull << 40}, GS_TYPE_F32,
         "candle #3714: two dimensions of 2^40"},
    };
    gsc_size_overflows(s, sh, sizeof sh / sizeof sh[0], false);

    /* The literal PoC patch of PR #18674: 32 x (2^42+1) q8_0 fits every size; the data is not
     * in the file. */
    gsc_case c;
    gsc_begin(&c, 3);
    const uint64_t poc[2] = {32, (1ull << 42) + 1};
    gsw_add_tensor(&c.m, "t", 2, poc, GS_TYPE_Q8_0);
    gsc_write(&c, GSW_LAX);
    gsc_both(s, &c, "cve/cve_2026_33298_poc_rows.gguf", GS_E_DATA_OUTSIDE_FILE,
             gsc_at(&c, GSW_OFFSET, 0, 0),
             "PR #18674 PoC shape 32 x (2^42+1) q8_0: sizes fit, 150 TB of data is not there");

    gsc_begin(&c, 3);
    gsc_add_arch(&c.m);
    gsc_add_f32(&c.m, "w", 4);
    gsw_set_u32(gsw_add(&c.m, "x.pad"), 0);
    gsc_write(&c, 0);
    gsw_override(&c.b, &c.map, GSW_OFFSET, 0, 0, 1u << 30);
    gsc_two(s, &c, "cve/bleeding_llama_offset.gguf",
            gsc_v(GS_E_OFFSET_NOT_PACKED, gsc_at(&c, GSW_OFFSET, 0, 0)),
            gsc_v(GS_E_DATA_OUTSIDE_FILE, gsc_at(&c, GSW_OFFSET, 0, 0)),
            "Ollama CVE-2026-7482 (Bleeding Llama): tensor offset 1 GiB past a small file");

    gsc_begin(&c, 3);
    gsw_set_array(gsw_add(&c.m, "a"), GS_VALUE_U8, 1, NULL);
    gsc_write(&c, 0);
    gsw_truncate(&c.b, gsc_at(&c, GSW_PADDING, 0, 0));
    gsw_override(&c.b, &c.map, GSW_ARR_COUNT, 0, 0, 1ull << 63);
    gsc_both(s, &c, "cve/gguf_py_27188_array_2p63.gguf", GS_E_COUNT_EXCEEDS_FILE,
             gsc_at(&c, GSW_ARR_COUNT, 0, 0),
             "gguf-py #27188: a 50-byte file declaring an array of 2^63 elements (endless loop)");

    gsc_begin(&c, 3);
    const uint64_t four[4] = {1, 1, 1, 1};
    gsw_add_tensor(&c.m, "t", 4, four, GS_TYPE_F32);
    gsc_write(&c, GSW_LAX);
    gsw_override(&c.b, &c.map, GSW_N_DIMS, 0, 0, UINT32_MAX);
    gsc_both(s, &c, "cve/hfjs_2028_n_dims.gguf", GS_E_TOO_MANY_DIMS,
             gsc_at(&c, GSW_N_DIMS, 0, 0),
             "huggingface.js #2028 / Ollama #14175: n_dims 2^32-1");
}

void gsc_cases_cve(gsc_sink *s)
{
    talos_2024(s);
    later_ggml(s);
    shapes(s);
}
