/* The writer itself: the byte layout of a small model worked out by hand from the GGUF spec,
 * ggml's padding rules, the field map, raw-mode overrides and the models the writer refuses. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "gsw_from_file.h"
#include "gsw_write.h"
#include "test_util.h"

static uint64_t le(const gsw_bytes *b, uint64_t at, unsigned width)
{
    return gsw_le_at(b->data + at, width);
}

static void write_ok(const gsw_model *m, unsigned flags, gsw_bytes *b, gsw_map *map)
{
    char why[256] = "";
    gsw_bytes_init(b);
    if (map != NULL) {
        gsw_map_init(map);
    }
    cr_assert_eq(gsw_write(m, flags, b, map, why, sizeof why), 0, "%s", why);
}

/* b opens under the strict profile; then m, b and (unless NULL) map are freed. */
static void opens_then_free(gsw_model *m, gsw_bytes *b, gsw_map *map)
{
    TU_EXPECT(b, GS_PROFILE_STRICT, GS_OK, 0);
    if (map != NULL) {
        gsw_map_free(map);
    }
    gsw_bytes_free(b);
    gsw_model_free(m);
}

/* The model read back from f writes exactly the bytes b. */
static void expect_rewrites_to(const gs_file *f, const gsw_bytes *b)
{
    gsw_model back;
    char why[256] = "";
    cr_assert_eq(gsw_model_from_file(f, &back, why, sizeof why), 0, "%s", why);
    gsw_bytes again;
    write_ok(&back, 0, &again, NULL);
    cr_assert(again.len == b->len && memcmp(again.data, b->data, b->len) == 0);
    gsw_bytes_free(&again);
    gsw_model_free(&back);
}

/* One u32 key "a" = 7 and one f32 tensor "w" of 2 elements. By the spec: header 24 bytes; the KV
 * record is 8 + 1 + 4 + 4 = 17 bytes (24..41); the tensor info 8 + 1 + 4 + 8 + 4 + 8 = 33 bytes
 * (41..74); zero padding to 96; 8 data bytes; zero padding to 128. */
static void tiny_model(gsw_model *m)
{
    gsw_model_init(m, 3);
    gsw_set_u32(gsw_add(m, "a"), 7);
    uint64_t ne[1] = {2};
    gsw_tensor *t = gsw_add_tensor(m, "w", 1, ne, GS_TYPE_F32);
    const uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    gsw_tensor_set_data(t, data, sizeof data);
}

Test(writer, layout_of_a_tiny_model_by_hand)
{
    gsw_model m;
    tiny_model(&m);
    gsw_bytes b;
    gsw_map map;
    write_ok(&m, 0, &b, &map);
    cr_assert_eq(b.len, 128u);
    cr_assert_eq(memcmp(b.data, "GGUF", 4), 0);
    cr_assert_eq(le(&b, 4, 4), 3u);
    cr_assert_eq(le(&b, 8, 8), 1u);
    cr_assert_eq(le(&b, 16, 8), 1u);
    cr_assert_eq(le(&b, 24, 8), 1u);
    cr_assert_eq(b.data[32], 'a');
    cr_assert_eq(le(&b, 33, 4), GS_VALUE_U32);
    cr_assert_eq(le(&b, 37, 4), 7u);
    cr_assert_eq(le(&b, 41, 8), 1u);
    cr_assert_eq(b.data[49], 'w');
    cr_assert_eq(le(&b, 50, 4), 1u);
    cr_assert_eq(le(&b, 54, 8), 2u);
    cr_assert_eq(le(&b, 62, 4), GS_TYPE_F32);
    cr_assert_eq(le(&b, 66, 8), 0u);
    for (size_t i = 74; i < 96; i++) {
        cr_assert_eq(b.data[i], 0, "padding byte %zu", i);
    }
    cr_assert_eq(b.data[96], 1);
    cr_assert_eq(b.data[103], 8);
    for (size_t i = 104; i < 128; i++) {
        cr_assert_eq(b.data[i], 0, "tail padding byte %zu", i);
    }

    static const struct { gsw_kind kind; uint64_t index, at, size; } want[] = {
        {GSW_MAGIC, 0, 0, 4},        {GSW_VERSION, 0, 4, 4},     {GSW_N_TENSORS, 0, 8, 8},
        {GSW_N_KV, 0, 16, 8},        {GSW_KEY_LEN, 0, 24, 8},    {GSW_KEY, 0, 32, 1},
        {GSW_VALUE_TYPE, 0, 33, 4},  {GSW_VALUE, 0, 37, 4},      {GSW_NAME_LEN, 0, 41, 8},
        {GSW_NAME, 0, 49, 1},        {GSW_N_DIMS, 0, 50, 4},     {GSW_DIM, 0, 54, 8},
        {GSW_TENSOR_TYPE, 0, 62, 4}, {GSW_OFFSET, 0, 66, 8},     {GSW_PADDING, 0, 74, 22},
        {GSW_DATA, 0, 96, 8},        {GSW_DATA_PAD, 0, 104, 24},
    };
    cr_assert_eq(map.n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const gsw_field *f = gsw_map_find(&map, want[i].kind, 0, want[i].index);
        cr_assert_not_null(f, "%s", gsw_kind_name(want[i].kind));
        cr_assert(f->offset == want[i].at && f->size == want[i].size, "%s at %llu size %llu",
                  gsw_kind_name(want[i].kind), (unsigned long long)f->offset,
                  (unsigned long long)f->size);
    }
    cr_assert_null(gsw_map_find(&map, GSW_DIM, 0, 1));
    opens_then_free(&m, &b, &map);
}

/* ggml pads before the data section even with no tensors: a header-only file is 32 bytes. */
Test(writer, pads_the_data_section_without_tensors)
{
    gsw_model m;
    gsw_model_init(&m, 2);
    gsw_bytes b;
    write_ok(&m, 0, &b, NULL);
    cr_assert_eq(b.len, 32u);
    cr_assert_eq(le(&b, 4, 4), 2u);
    gsw_bytes_free(&b);
    gsw_set_u8(gsw_add(&m, "b"), 1); /* 24 + 14 = 38 bytes, padded to 64 */
    write_ok(&m, 0, &b, NULL);
    cr_assert_eq(b.len, 64u);
    opens_then_free(&m, &b, NULL);
}

/* Offsets are the running sum of padded sizes, and every tensor is padded, the last included. */
Test(writer, offsets_follow_the_declared_alignment)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    gsw_set_u32(gsw_add(&m, "general.alignment"), 64);
    uint64_t ne[1] = {3};
    for (int i = 0; i < 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "t%d", i);
        gsw_tensor *t = gsw_add_tensor(&m, name, 1, ne, GS_TYPE_I8);
        gsw_tensor_set_data(t, "xyz", 3);
    }
    gsw_bytes b;
    gsw_map map;
    write_ok(&m, 0, &b, &map);
    for (uint32_t i = 0; i < 3; i++) {
        uint64_t at = gsw_at(&map, GSW_OFFSET, i, 0);
        cr_assert_eq(le(&b, at, 8), 64u * i);
        cr_assert_eq(gsw_at(&map, GSW_DATA, i, 0) % 64, 0u);
    }
    cr_assert_eq(b.len % 64, 0u);
    cr_assert_eq(gsw_end(&map, GSW_DATA_PAD, 2, 0), b.len);
    opens_then_free(&m, &b, &map);
}

/* A general.alignment that is not a u32 does not move the layout (the reader rejects it). */
Test(writer, alignment_of_another_type_is_not_used)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    gsw_set_i32(gsw_add(&m, "general.alignment"), 64);
    cr_assert_eq(gsw_model_alignment(&m), 32u);
    m.alignment_override = 16;
    cr_assert_eq(gsw_model_alignment(&m), 16u);
    gsw_model_free(&m);
}

Test(writer, refuses_what_it_cannot_encode)
{
    gsw_model m;
    gsw_bytes b;
    char why[256];
    gsw_model_init(&m, 3);
    gsw_set_scalar(gsw_add(&m, "k"), 13, 0);
    gsw_bytes_init(&b);
    cr_assert_eq(gsw_write(&m, 0, &b, NULL, why, sizeof why), -1);
    gsw_model_free(&m);
    gsw_bytes_free(&b);

    gsw_model_init(&m, 3);
    gsw_set_u32(gsw_add(&m, "general.alignment"), 0);
    cr_assert_eq(gsw_write(&m, 0, &b, NULL, why, sizeof why), -1);
    m.alignment_override = 32;
    cr_assert_eq(gsw_write(&m, 0, &b, NULL, why, sizeof why), 0);
    gsw_model_free(&m);
    gsw_bytes_free(&b);

    /* Data that does not match the shape: refused unless lax. */
    gsw_model_init(&m, 3);
    uint64_t ne[2] = {32, 2};
    gsw_tensor *t = gsw_add_tensor(&m, "q", 2, ne, GS_TYPE_Q8_0);
    gsw_tensor_set_data(t, "abc", 3);
    cr_assert_eq(gsw_write(&m, 0, &b, NULL, why, sizeof why), -1);
    gsw_bytes_free(&b);
    cr_assert_eq(gsw_write(&m, GSW_LAX, &b, NULL, why, sizeof why), 0);
    gsw_bytes_free(&b);
    cr_assert(gsw_tensor_fill(t, 1, 1u << 20));
    cr_assert_eq(t->data.len, 2u * 34u);
    cr_assert_eq(gsw_write(&m, 0, &b, NULL, why, sizeof why), 0);
    gsw_bytes_free(&b);
    gsw_model_free(&m);
}

Test(writer, sizes_come_from_the_registry)
{
    uint64_t n;
    uint64_t ne[4] = {256, 3, 2, 1};
    cr_assert(gsw_tensor_nbytes(GS_TYPE_Q4_K, 4, ne, &n));
    cr_assert_eq(n, 6u * 144u);
    cr_assert_not(gsw_tensor_nbytes(4, 4, ne, &n), "removed type 4");
    cr_assert_not(gsw_tensor_nbytes(43, 4, ne, &n), "unknown type 43");
    uint64_t partial[1] = {100};
    cr_assert_not(gsw_tensor_nbytes(GS_TYPE_Q4_0, 1, partial, &n), "100 is not 32k");
    uint64_t wrap[2] = {1ull << 32, 1ull << 32};
    cr_assert_not(gsw_tensor_nbytes(GS_TYPE_F32, 2, wrap, &n), "2^64 elements wrap");
    cr_assert(gsw_tensor_nbytes(GS_TYPE_F32, 0, ne, &n));
    cr_assert_eq(n, 4u, "a 0-dim tensor is one element");
}

/* Bool bytes are written as given; the lenient reader keeps the byte and the round trip too. */
Test(writer, bool_bytes_as_given)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    gsw_set_bool(gsw_add(&m, "flag"), 2);
    gsw_bytes b;
    gsw_map map;
    write_ok(&m, 0, &b, &map);
    uint64_t at = gsw_at(&map, GSW_VALUE, 0, 0);
    cr_assert_eq(b.data[at], 2);
    TU_EXPECT(&b, GS_PROFILE_STRICT, GS_E_BAD_BOOL, at);
    TU_EXPECT(&b, GS_PROFILE_LENIENT, GS_OK, 0);

    gs_options o;
    gs_options_init(&o);
    o.profile = GS_PROFILE_LENIENT;
    gs_file *f = NULL;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, NULL), GS_OK);
    bool v = false;
    cr_assert_eq(gs_kv_get_bool(f, 0, &v), GS_OK);
    cr_assert(v);
    expect_rewrites_to(f, &b);
    gs_close(f);
    gsw_map_free(&map);
    gsw_bytes_free(&b);
    gsw_model_free(&m);
}

/* n_dims is kept as stored: trailing 1s are not dropped. */
Test(writer, n_dims_as_stored)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    uint64_t ne[4] = {4, 1, 1, 1};
    gsw_tensor_fill(gsw_add_tensor(&m, "a", 4, ne, GS_TYPE_F16), 1, 64);
    gsw_tensor_fill(gsw_add_tensor(&m, "b", 1, ne, GS_TYPE_F16), 2, 64);
    gsw_bytes b;
    write_ok(&m, 0, &b, NULL);
    gs_file *f = NULL;
    cr_assert_eq(gs_open_memory(b.data, b.len, NULL, &f, NULL), GS_OK);
    gs_tensor_info ti;
    cr_assert_eq(gs_tensor_info_at(f, 0, &ti), GS_OK);
    cr_assert_eq(ti.n_dims, 4u);
    cr_assert_eq(gs_tensor_info_at(f, 1, &ti), GS_OK);
    cr_assert_eq(ti.n_dims, 1u);
    expect_rewrites_to(f, &b);
    gs_close(f);
    gsw_bytes_free(&b);
    gsw_model_free(&m);
}

/* Nested arrays are encoded as the spec describes them (each element an array body), and both
 * profiles reject them at the outer element type. */
Test(writer, nested_arrays)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    gsw_value *items = gsw_set_nested_array(gsw_add(&m, "n"), 2);
    const uint8_t one = 5;
    gsw_set_array(&items[0], GS_VALUE_U8, 1, &one);
    gsw_set_string_array(&items[1], 1);
    gsw_array_string(&items[1], 0, "hi", 2);
    gsw_bytes b;
    gsw_map map;
    write_ok(&m, 0, &b, &map);
    uint64_t outer = gsw_at(&map, GSW_ARR_TYPE, 0, 0);
    cr_assert_eq(le(&b, outer, 4), GS_VALUE_ARRAY);
    cr_assert_eq(le(&b, outer + 4, 8), 2u);
    cr_assert_eq(le(&b, outer + 12, 4), GS_VALUE_U8);
    cr_assert_eq(le(&b, outer + 16, 8), 1u);
    cr_assert_eq(b.data[outer + 24], 5);
    cr_assert_eq(le(&b, outer + 25, 4), GS_VALUE_STRING);
    cr_assert_eq(le(&b, outer + 29, 8), 1u);
    cr_assert_eq(le(&b, outer + 37, 8), 2u);
    cr_assert_eq(memcmp(b.data + outer + 45, "hi", 2), 0);
    TU_EXPECT(&b, GS_PROFILE_STRICT, GS_E_NESTED_ARRAY, outer);
    TU_EXPECT(&b, GS_PROFILE_LENIENT, GS_E_NESTED_ARRAY, outer);
    gsw_map_free(&map);
    gsw_bytes_free(&b);
    gsw_model_free(&m);
}

/* Overrides land on the field the map names, and the reader's error points at it. */
Test(writer, overrides_address_fields)
{
    static const struct {
        gsw_kind kind;
        uint64_t value;
        gs_profile profile;
        gs_status want;
        uint64_t at;
    } overrides[] = {
        {GSW_VALUE_TYPE, 13, GS_PROFILE_STRICT, GS_E_BAD_VALUE_TYPE, 33},
        {GSW_N_DIMS, 5, GS_PROFILE_LENIENT, GS_E_TOO_MANY_DIMS, 50},
        {GSW_OFFSET, 32, GS_PROFILE_STRICT, GS_E_OFFSET_NOT_PACKED, 66},
    };
    gsw_model m;
    tiny_model(&m);
    gsw_bytes b;
    gsw_map map;
    for (size_t i = 0; i < sizeof overrides / sizeof overrides[0]; i++) {
        write_ok(&m, 0, &b, &map);
        gsw_override(&b, &map, overrides[i].kind, 0, 0, overrides[i].value);
        TU_EXPECT(&b, overrides[i].profile, overrides[i].want, overrides[i].at);
        gsw_bytes_free(&b);
        gsw_map_free(&map);
    }

    write_ok(&m, 0, &b, &map);
    gsw_truncate(&b, 103);
    TU_EXPECT(&b, GS_PROFILE_STRICT, GS_E_DATA_OUTSIDE_FILE, 66);
    gsw_bytes_free(&b);
    gsw_map_free(&map);
    gsw_model_free(&m);
}

/* The tiny model written, then the override of field (kind, record 0, index) to value. */
static void override_tiny(gsw_kind kind, uint64_t index, uint64_t value)
{
    gsw_model m;
    tiny_model(&m);
    gsw_bytes b;
    gsw_map map;
    write_ok(&m, 0, &b, &map);
    gsw_override(&b, &map, kind, 0, index, value);
}

Test(writer, override_wider_than_the_field_aborts, .signal = SIGABRT)
{
    override_tiny(GSW_VALUE_TYPE, 0, 1ull << 32);
}

Test(writer, override_of_a_missing_field_aborts, .signal = SIGABRT)
{
    override_tiny(GSW_DIM, 3, 1);
}
