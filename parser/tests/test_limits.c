/* Every configurable limit: an input just inside it opens, one just past it fails with the
 * limit's status at the field concerned. Also the documented defaults. */
#include <criterion/criterion.h>
#include <string.h>

#include "test_util.h"

static gs_status open_with(const gsw_bytes *b, const gs_options *o, gs_error *e)
{
    return tu_open_opts(b, o, e);
}

#define EXPECT_WITH(b, o, want, at)                                                               \
    do {                                                                                          \
        gs_error e_;                                                                              \
        gs_status st_ = open_with((b), (o), &e_);                                                 \
        cr_assert_eq(st_, (want), "got %s (%s), want %s", gs_status_name(st_), e_.detail,         \
                     gs_status_name(want));                                                       \
        if ((want) != GS_OK) {                                                                    \
            cr_assert_eq(e_.offset, (uint64_t)(at), "offset %llu", (unsigned long long)e_.offset);\
        }                                                                                         \
    } while (0)

Test(limits, defaults_are_documented_values)
{
    gs_options o;
    gs_options_init(&o);
    cr_assert_eq(o.struct_size, sizeof o);
    cr_assert_eq(o.profile, GS_PROFILE_STRICT);
    cr_assert_eq(o.limits.max_kv_count, 1048576);
    cr_assert_eq(o.limits.max_tensor_count, 1048576);
    cr_assert_eq(o.limits.max_string_length, 64ull << 20);
    cr_assert_eq(o.limits.max_array_length, 1ull << 26);
    cr_assert_eq(o.limits.max_alignment, 1u << 20);
    cr_assert_eq(o.limits.max_metadata_memory, 1ull << 30);
    cr_assert_null(o.allocator.malloc_fn);
}

Test(limits, kv_and_tensor_counts)
{
    gsw_bytes b;
    gsw_bytes_init(&b);
    tu_small_file(&b, 0); /* 1 KV, 2 tensors */
    gs_options o;
    gs_options_init(&o);
    o.limits.max_kv_count = 1;
    o.limits.max_tensor_count = 2;
    EXPECT_WITH(&b, &o, GS_OK, 0);
    o.limits.max_kv_count = 0;
    EXPECT_WITH(&b, &o, GS_E_LIMIT_KV_COUNT, 16);
    o.limits.max_kv_count = 1;
    o.limits.max_tensor_count = 1;
    EXPECT_WITH(&b, &o, GS_E_LIMIT_TENSOR_COUNT, 8);
    gsw_bytes_free(&b);
}

Test(limits, string_length_applies_to_keys_values_and_names)
{
    gsw_bytes b;
    tu_raw_start(&b, 1, 2);
    gsw_raw_kv_str(&b, "abcdefgh", "x");               /* key of 8 bytes */
    size_t v = gsw_raw_kv_str(&b, "k", "0123456789"); /* value of 10 bytes */
    uint64_t ne[1] = {1};
    size_t t = gsw_raw_tensor(&b, "name_of_9", 1, ne, GS_TYPE_F32, 0);
    gsw_pad_to(&b, 32);
    gsw_put_fill(&b, 0, 32);
    gs_options o;
    gs_options_init(&o);
    o.limits.max_string_length = 10;
    EXPECT_WITH(&b, &o, GS_OK, 0);
    o.limits.max_string_length = 9;
    EXPECT_WITH(&b, &o, GS_E_LIMIT_STRING_LENGTH, v + 8 + 1 + 4);
    o.limits.max_string_length = 8;
    EXPECT_WITH(&b, &o, GS_E_LIMIT_STRING_LENGTH, v + 8 + 1 + 4);
    /* raise the value limit out of the way: only key and name remain */
    gsw_bytes c;
    tu_raw_start(&c, 1, 1);
    gsw_raw_kv_str(&c, "abcdefgh", "x");
    t = gsw_raw_tensor(&c, "name_of_9", 1, ne, GS_TYPE_F32, 0);
    gsw_pad_to(&c, 32);
    gsw_put_fill(&c, 0, 32);
    o.limits.max_string_length = 8;
    EXPECT_WITH(&c, &o, GS_E_LIMIT_STRING_LENGTH, t);
    o.limits.max_string_length = 7;
    EXPECT_WITH(&c, &o, GS_E_LIMIT_STRING_LENGTH, 24);
    gsw_bytes_free(&b);
    gsw_bytes_free(&c);
}

Test(limits, array_length)
{
    gsw_bytes b;
    tu_raw_start(&b, 0, 2);
    size_t a = gsw_raw_kv_head(&b, "a", 1, GS_VALUE_ARRAY);
    gsw_put_u32(&b, GS_VALUE_U16);
    gsw_put_u64(&b, 5);
    gsw_put_fill(&b, 0, 10);
    size_t s = gsw_raw_kv_head(&b, "s", 1, GS_VALUE_ARRAY);
    gsw_put_u32(&b, GS_VALUE_STRING);
    gsw_put_u64(&b, 4);
    for (int i = 0; i < 4; i++) {
        gsw_put_cstr(&b, "t");
    }
    gs_options o;
    gs_options_init(&o);
    o.limits.max_array_length = 5;
    EXPECT_WITH(&b, &o, GS_OK, 0);
    o.limits.max_array_length = 4;
    EXPECT_WITH(&b, &o, GS_E_LIMIT_ARRAY_LENGTH, a + 8 + 1 + 4 + 4);
    o.limits.max_array_length = 3;
    EXPECT_WITH(&b, &o, GS_E_LIMIT_ARRAY_LENGTH, a + 8 + 1 + 4 + 4);
    (void)s;
    gsw_bytes_free(&b);
}

Test(limits, alignment)
{
    gsw_bytes b = tu_small(64);
    gs_options o;
    gs_options_init(&o);
    o.limits.max_alignment = 64;
    EXPECT_WITH(&b, &o, GS_OK, 0);
    o.limits.max_alignment = 63;
    gs_error e;
    cr_assert_eq(open_with(&b, &o, &e), GS_E_LIMIT_ALIGNMENT);
    cr_assert_str_eq(e.context, "general.alignment");
    gsw_bytes_free(&b);
}

Test(limits, metadata_memory)
{
    /* The smallest limit that admits the sample is the reader's peak heap; one byte less fails
     * with GS_E_LIMIT_MEMORY (never GS_E_NO_MEMORY, never a crash). */
    size_t n;
    uint8_t *data = tu_read_file(tu_source_path("conformance/samples/ggml-written.gguf"), &n);
    gsw_bytes b = {data, n, n};
    gs_options o;
    gs_options_init(&o);
    uint64_t lo = 0, hi = 1u << 24;
    o.limits.max_metadata_memory = hi;
    EXPECT_WITH(&b, &o, GS_OK, 0);
    while (lo + 1 < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        o.limits.max_metadata_memory = mid;
        gs_error e;
        gs_status st = open_with(&b, &o, &e);
        cr_assert(st == GS_OK || st == GS_E_LIMIT_MEMORY, "%s", gs_status_name(st));
        if (st == GS_OK) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    o.limits.max_metadata_memory = hi;
    EXPECT_WITH(&b, &o, GS_OK, 0);
    o.limits.max_metadata_memory = hi - 1;
    gs_error e;
    cr_assert_eq(open_with(&b, &o, &e), GS_E_LIMIT_MEMORY);
    /* O(metadata): a few tens of bytes per KV, tensor and array string */
    uint64_t records = 32 + 33 + 1000 + 2000;
    cr_assert_lt(hi, records * 48 + 8192, "peak heap %llu bytes", (unsigned long long)hi);
    cr_log_info("peak heap for the sample: %llu bytes", (unsigned long long)hi);
    free(data);
}
