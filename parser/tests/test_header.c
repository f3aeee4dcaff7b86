/* Header: magic, version, counts. */
#include <criterion/criterion.h>

#include "test_util.h"

#define STRICT GS_PROFILE_STRICT
#define LENIENT GS_PROFILE_LENIENT

Test(header, empty_file_is_truncated)
{
    gsw_bytes b;
    gsw_bytes_init(&b);
    TU_EXPECT(&b, STRICT, GS_E_TRUNCATED, 0);
    TU_EXPECT(&b, LENIENT, GS_E_TRUNCATED, 0);
}

Test(header, partial_magic_is_truncated)
{
    gsw_bytes b;
    gsw_bytes_init(&b);
    gsw_put(&b, "GGU", 3);
    TU_EXPECT(&b, STRICT, GS_E_TRUNCATED, 0);
    gsw_bytes_free(&b);
}

Test(header, bad_magic)
{
    gsw_bytes b;
    tu_raw_start(&b, 0, 0);
    memcpy(b.data, "FUGG", 4);
    TU_EXPECT(&b, STRICT, GS_E_BAD_MAGIC, 0);
    TU_EXPECT(&b, LENIENT, GS_E_BAD_MAGIC, 0);
    /* a short file that is not a GGUF prefix is not "truncated" */
    b.len = 2;
    TU_EXPECT(&b, STRICT, GS_E_BAD_MAGIC, 0);
    gsw_bytes_free(&b);
}

Test(header, versions)
{
    static const struct {
        uint32_t version;
        gs_status want;
    } cases[] = {
        {0, GS_E_UNSUPPORTED_VERSION},          {1, GS_E_UNSUPPORTED_VERSION},
        {2, GS_OK},                             {3, GS_OK},
        {4, GS_E_UNSUPPORTED_VERSION},          {0x00010002u, GS_E_UNSUPPORTED_VERSION},
        {0x03000000u, GS_E_BYTE_SWAPPED},       {0x02000000u, GS_E_BYTE_SWAPPED},
        {0x01000000u, GS_E_BYTE_SWAPPED},       {0xFFFFFFFFu, GS_E_UNSUPPORTED_VERSION},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gsw_bytes b;
        gsw_bytes_init(&b);
        gsw_raw_header(&b, cases[i].version, 0, 0);
        TU_EXPECT(&b, STRICT, cases[i].want, 4);
        TU_EXPECT(&b, LENIENT, cases[i].want, 4);
        gsw_bytes_free(&b);
    }
}

Test(header, header_only_file_opens)
{
    gsw_bytes b;
    tu_raw_start(&b, 0, 0);
    gs_file *f;
    cr_assert_eq(gs_open_memory(b.data, b.len, NULL, &f, NULL), GS_OK);
    cr_assert_eq(gs_kv_count(f), 0);
    cr_assert_eq(gs_tensor_count(f), 0);
    cr_assert_eq(gs_file_version(f), 3);
    gs_layout l;
    gs_file_layout(f, &l);
    cr_assert_eq(l.data_offset, 32);
    cr_assert_eq(l.predicted_size, 32, "ggml's writer pads even without tensors");
    cr_assert_eq(l.missing_tail_padding, 8);
    gs_close(f);
    gsw_bytes_free(&b);
}

Test(header, truncated_fields)
{
    gsw_bytes b;
    tu_raw_start(&b, 0, 0);
    size_t lens[] = {5, 7, 8, 15, 16, 23};
    uint64_t want[] = {4, 4, 8, 8, 16, 16};
    for (size_t i = 0; i < 6; i++) {
        gsw_bytes c = b;
        c.len = lens[i];
        TU_EXPECT(&c, STRICT, GS_E_TRUNCATED, want[i]);
    }
    gsw_bytes_free(&b);
}

Test(header, counts_checked_against_remaining_bytes)
{
    /* 2^60 KVs in a 24-byte file fails before any allocation (Talos 2024-1916 shape). */
    gsw_bytes b;
    tu_raw_start(&b, 0, 1ull << 60);
    TU_EXPECT(&b, STRICT, GS_E_COUNT_EXCEEDS_FILE, 16);
    gsw_bytes_free(&b);

    gsw_bytes_init(&b);
    gsw_raw_header(&b, 3, UINT64_MAX, 0); /* n*25 wraps */
    TU_EXPECT(&b, STRICT, GS_E_COUNT_EXCEEDS_FILE, 8);
    gsw_bytes_free(&b);

    gsw_bytes_init(&b);
    gsw_raw_header(&b, 3, 0, UINT64_MAX / 14 + 1); /* n*14 wraps to a small number */
    gsw_put_fill(&b, 0, 64);
    TU_EXPECT(&b, STRICT, GS_E_COUNT_EXCEEDS_FILE, 16);
    gsw_bytes_free(&b);

    /* exactly enough bytes for one minimal KV passes the count check */
    tu_raw_start(&b, 0, 1);
    gsw_raw_kv_u8(&b, "k", 1);
    cr_assert_eq(b.len, 24 + 14);
    TU_EXPECT(&b, STRICT, GS_OK, 0);
    b.len--;
    TU_EXPECT(&b, STRICT, GS_E_COUNT_EXCEEDS_FILE, 16);
    gsw_bytes_free(&b);
}

Test(header, tensor_count_checked_to_the_byte)
{
    /* one scalar tensor info is the 25-byte minimum: 24 bytes after the header are one short */
    gsw_bytes b;
    tu_raw_start(&b, 1, 0);
    size_t at = gsw_raw_tensor(&b, "t", 0, NULL, GS_TYPE_I8, 0);
    cr_assert_eq(b.len, 24 + 25);
    TU_EXPECT(&b, STRICT, GS_E_TRUNCATED, at + 25); /* the padding to the data section */
    b.len--;
    TU_EXPECT(&b, STRICT, GS_E_COUNT_EXCEEDS_FILE, 8);
    TU_EXPECT(&b, GS_PROFILE_LENIENT, GS_E_COUNT_EXCEEDS_FILE, 8);
    gsw_bytes_free(&b);
    /* the same with a KV declared: the tensors' check comes before the KVs' (whose room, what
     * the tensors leave, would wrap if the tensors' check were one byte lax) */
    tu_raw_start(&b, 1, 1);
    gsw_put_fill(&b, 0, 24);
    TU_EXPECT(&b, STRICT, GS_E_COUNT_EXCEEDS_FILE, 8);
    gsw_bytes_free(&b);
}

Test(header, tensor_count_rechecked_after_kvs)
{
    /* 1 tensor needs 25 bytes: present after the header, but consumed by the KV. */
    gsw_bytes b;
    tu_raw_start(&b, 1, 1);
    gsw_raw_kv_str(&b, "general.name", "0123456789abcdefghijklmnopqrstuvwxyz");
    TU_EXPECT(&b, STRICT, GS_E_COUNT_EXCEEDS_FILE, 8);
    gsw_bytes_free(&b);
}

Test(header, null_arguments)
{
    gs_file *f = (gs_file *)&f;
    gs_error e;
    cr_assert_eq(gs_open_memory(NULL, 10, NULL, &f, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_null(f);
    cr_assert_eq(gs_open_memory("GGUF", 4, NULL, NULL, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_open_file(NULL, NULL, &f, &e), GS_E_INVALID_ARGUMENT);
    gs_options o;
    gs_options_init(&o);
    o.struct_size = 3;
    cr_assert_eq(gs_open_memory("GGUF", 4, &o, &f, &e), GS_E_INVALID_ARGUMENT);
    gs_options_init(&o);
    o.profile = (gs_profile)7;
    cr_assert_eq(gs_open_memory("GGUF", 4, &o, &f, &e), GS_E_INVALID_ARGUMENT);
    gs_options_init(&o);
    o.allocator.malloc_fn = NULL;
    o.allocator.free_fn = (void (*)(void *, void *))1;
    cr_assert_eq(gs_open_memory("GGUF", 4, &o, &f, &e), GS_E_INVALID_ARGUMENT);
    gs_close(NULL);
}

Test(header, missing_file_is_an_environment_error)
{
    gs_file *f;
    gs_error e;
    cr_assert_eq(gs_open_file("/nonexistent/x.gguf", NULL, &f, &e), GS_E_NO_SUCH_FILE);
    cr_assert_null(f);
    cr_assert_str_eq(e.detail, "open: No such file or directory");
    cr_assert_eq(gs_open_file("/", NULL, &f, &e), GS_E_NOT_REGULAR_FILE);
    cr_assert_str_eq(e.detail, "a directory, not a regular file");
}
