#define _DEFAULT_SOURCE /* mkdtemp */
/* The API's answers to misuse and to the rarer input paths: NULL arguments, indexes past the
 * end, invalid options, split-set names and parts that fail, strings that fail inside the
 * UTF-8 validator's 8-byte loop, string-array elements over the length limit, and a file the
 * kernel will not map. Every answer is an exact status (and offset where the input caused it);
 * nothing may crash. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"
#include "utf8.h"

Test(misuse, options)
{
    gs_options_init(NULL); /* a no-op */
    gsw_bytes b = tu_small(32);
    gs_file *f = NULL;
    gs_split *s = NULL;
    gs_error e;
    const void *parts[1] = {b.data};
    const size_t sizes[1] = {b.len};

    gs_options o;
    gs_options_init(&o);
    o.struct_size = sizeof o - 1; /* an options struct of another version */
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_open_file("/nonexistent.gguf", &o, &f, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_open_split("/tmp/m-00001-of-00001.gguf", &o, &s, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_open_split_memory(parts, sizes, 1, &o, &s, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_null(f);
    cr_assert_null(s);

    gs_options_init(&o);
    o.profile = (gs_profile)2;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_E_INVALID_ARGUMENT);
    gs_options_init(&o);
    o.allocator.malloc_fn = NULL;
    o.allocator.free_fn = NULL;
    o.allocator.realloc_fn = NULL;
    o.allocator.opaque = &o;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_OK); /* all NULL: libc */
    gs_close(f);
    tu_counter c;
    tu_counting_options(&o, &c, -1);
    o.allocator.realloc_fn = NULL; /* some hooks but not all */
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_E_INVALID_ARGUMENT);

    /* record limits above 2^31 are accepted (and honoured as 2^31) */
    gs_options_init(&o);
    o.limits.max_kv_count = UINT64_MAX;
    o.limits.max_tensor_count = UINT64_MAX;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_OK);
    cr_assert_eq(gs_kv_count(f), 2);
    gs_close(f);
    gsw_bytes_free(&b);
}

Test(misuse, file_getters)
{
    gsw_bytes b;
    gs_file *f = tu_open_small(&b);
    gs_layout l;
    memset(&l, 0xff, sizeof l);
    gs_file_layout(NULL, &l);
    cr_assert_eq(l.file_size, 0);
    cr_assert_eq(l.alignment, 0);
    gs_file_layout(f, NULL); /* a no-op */
    cr_assert_eq(gs_file_version(NULL), 0);
    cr_assert_eq(gs_file_profile(NULL), GS_PROFILE_STRICT);
    cr_assert_eq(gs_kv_count(NULL), 0);
    cr_assert_eq(gs_tensor_count(NULL), 0);
    /* findings exist only in diagnostic mode */
    gs_error e;
    cr_assert_eq(gs_file_finding_count(NULL), 0);
    cr_assert_eq(gs_file_finding_count(f), 0);
    cr_assert_eq(gs_file_finding(NULL, 0, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_file_finding(f, 0, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_file_finding(f, 0, &e), GS_E_OUT_OF_RANGE);
    /* the bounded reader */
    uint8_t magic[4];
    cr_assert_eq(gs_file_read(NULL, 0, magic, 4), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_file_read(f, 0, NULL, 4), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_file_read(f, b.len - 3, magic, 4), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_file_read(f, UINT64_MAX, magic, 4), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_file_read(f, 0, magic, 4), GS_OK);
    cr_assert_eq(memcmp(magic, "GGUF", 4), 0);
    gs_close(f);
    gsw_bytes_free(&b);
}

Test(misuse, kv_getters)
{
    gsw_bytes b;
    gs_file *f = tu_open_small(&b);
    size_t i;
    gs_kv_info info;
    uint32_t u32;
    uint64_t u64;
    gs_str s;
    const void *data;

    cr_assert_eq(gs_kv_info_at(f, 0, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_info_at(NULL, 0, &info), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_info_at(f, 2, &info), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_kv_find_n(NULL, "a", 1, &i), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_find_n(f, NULL, 1, &i), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_find_n(f, "a", 1, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_find_n(f, NULL, 0, &i), GS_E_NOT_FOUND); /* the empty key is no key */
    cr_assert_eq(gs_kv_find(f, NULL, &i), GS_E_INVALID_ARGUMENT);

    /* scalar getters: NULL out, NULL file, index past the end */
    cr_assert_eq(gs_kv_get_u32(f, 1, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_u32(NULL, 1, &u32), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_u32(f, 2, &u32), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_kv_get_u32(f, 1, &u32), GS_OK);
    cr_assert_eq(u32, 32);
    /* array element getters */
    cr_assert_eq(gs_kv_get_array_u32(f, 1, 0, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_array_u32(NULL, 1, 0, &u32), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_array_u32(f, 2, 0, &u32), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_kv_get_array_u32(f, 1, 0, &u32), GS_E_WRONG_TYPE); /* a scalar */
    /* strings */
    cr_assert_eq(gs_kv_get_string(f, 0, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_array_string(f, 0, 0, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_array_string(NULL, 0, 0, &s), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_array_string(f, 2, 0, &s), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_kv_get_array_string(f, 0, 0, &s), GS_E_WRONG_TYPE);
    /* raw array data */
    cr_assert_eq(gs_kv_get_array_data(f, 0, NULL, &u64), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_array_data(f, 0, &data, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_array_data(NULL, 0, &data, &u64), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_array_data(f, 2, &data, &u64), GS_E_OUT_OF_RANGE);
    /* any non-negative integer */
    cr_assert_eq(gs_kv_get_unsigned(f, 1, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_unsigned(NULL, 1, &u64), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_kv_get_unsigned(f, 2, &u64), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_kv_get_unsigned(f, 1, &u64), GS_OK);
    cr_assert_eq(u64, 32);
    gs_close(f);
    gsw_bytes_free(&b);
}

Test(misuse, tensor_getters_and_decoding)
{
    gsw_bytes b;
    gs_file *f = tu_open_small(&b);
    size_t i;
    gs_tensor_info t;
    float out[8];

    cr_assert_eq(gs_tensor_find_n(NULL, "a", 1, &i), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_tensor_find_n(f, NULL, 1, &i), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_tensor_find_n(f, "a", 1, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_tensor_find(f, NULL, &i), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_tensor_find(f, "b", &i), GS_OK);
    cr_assert_eq(i, 1);
    cr_assert_eq(gs_tensor_info_at(NULL, 0, &t), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_tensor_info_at(f, 0, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_tensor_info_at(f, 2, &t), GS_E_OUT_OF_RANGE);

    cr_assert_eq(gs_tensor_dequantize(NULL, 0, out, 8), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_tensor_dequantize(f, 2, out, 8), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_tensor_dequantize_rows(NULL, 0, 0, 1, out, 8), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_tensor_dequantize_rows(f, 2, 0, 1, out, 8), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_tensor_dequantize_range(NULL, 0, 0, out, 8), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_tensor_dequantize_range(f, 0, 0, NULL, 8), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_tensor_dequantize_range(f, 2, 0, out, 8), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_tensor_dequantize_range(f, 0, 0, NULL, 0), GS_OK); /* nothing to do */
    cr_assert_eq(gs_tensor_dequantize_range(f, 1, 4, out, 4), GS_OK);  /* the second row */
    cr_assert_eq(out[0], 12.0f);
    cr_assert_eq(out[3], 15.0f);
    gs_close(f);
    gsw_bytes_free(&b);
}

/* A string value whose invalid byte sits inside the validator's 8-bytes-at-a-time loop. */
Test(misuse, invalid_utf8_in_a_long_string)
{
    static const char value[] = "abcdefghijk\xc0\xafmnopqrstuvwxyz"; /* overlong '/' */
    gsw_bytes b;
    tu_raw_start(&b, 0, 1);
    size_t at = gsw_raw_kv_head(&b, "general.name", 12, GS_VALUE_STRING);
    gsw_put_str(&b, value, sizeof value - 1);
    const size_t value_at = at + 8 + 12 + 4;
    TU_EXPECT(&b, GS_PROFILE_STRICT, GS_E_INVALID_UTF8, value_at);
    TU_EXPECT(&b, GS_PROFILE_LENIENT, GS_OK, 0);
    gsw_bytes_free(&b);
    /* the same validator, one sequence at a time */
    cr_assert_eq(gsi_utf8_seq_len((const uint8_t *)"A", 1), 1);
    cr_assert_eq(gsi_utf8_seq_len((const uint8_t *)"\xc3\xa9", 2), 2);
    cr_assert_eq(gsi_utf8_seq_len((const uint8_t *)"\xc3", 1), 0);
}

/* A string-array element longer than max_string_length is a limit, at that element. */
Test(misuse, string_array_element_over_the_length_limit)
{
    gsw_bytes b;
    tu_raw_start(&b, 0, 1);
    gsw_raw_kv_head(&b, "tok", 3, GS_VALUE_ARRAY); /* the key is a string too: keep it short */
    gsw_put_u32(&b, GS_VALUE_STRING);
    gsw_put_u64(&b, 3);
    gsw_put_str(&b, "ab", 2);
    gsw_put_str(&b, "cde", 3);
    const size_t long_at = b.len;
    gsw_put_str(&b, "fghij", 5);
    gs_options o;
    gs_options_init(&o);
    o.limits.max_string_length = 4;
    gs_error e;
    gs_file *f = NULL;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_E_LIMIT_STRING_LENGTH);
    cr_assert_eq(e.offset, long_at);
    o.limits.max_string_length = 5;
    cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, &e), GS_OK);
    gs_close(f);
    gsw_bytes_free(&b);
}

/* A regular file the kernel refuses to map (sysfs attributes have no mmap). */
Test(misuse, file_that_cannot_be_mapped)
{
    static const char path[] = "/sys/kernel/mm/transparent_hugepage/enabled";
    if (access(path, R_OK) != 0) {
        cr_skip_test("%s is not readable here", path);
    }
    gs_file *f = NULL;
    gs_error e;
    cr_assert_eq(gs_open_file(path, NULL, &f, &e), GS_E_IO);
    cr_assert_null(f);
    cr_assert_eq(strncmp(e.detail, "mmap", 4), 0, "%s", e.detail);
}

Test(misuse, split_arguments_and_names)
{
    gs_split *s = NULL;
    gs_error e;
    size_t part, index;
    gsw_bytes b = tu_small(32);
    const void *parts[1] = {b.data};
    const size_t sizes[1] = {b.len};

    cr_assert_eq(gs_split_find_tensor(NULL, "a", &part, &index), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_open_split_memory(parts, sizes, 1, NULL, NULL, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_open_split(NULL, NULL, &s, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_open_split("m-00001-of-00001.gguf", NULL, NULL, &e), GS_E_INVALID_ARGUMENT);
    /* the first part is part 1, of at least 1 */
    cr_assert_eq(gs_open_split("m-00002-of-00003.gguf", NULL, &s, &e), GS_E_SPLIT_BAD_NAME);
    cr_assert_eq(gs_open_split("m-00001-of-00000.gguf", NULL, &s, &e), GS_E_SPLIT_BAD_NAME);
    cr_assert_eq(gs_open_split("m-0000x-of-00001.gguf", NULL, &s, &e), GS_E_SPLIT_BAD_NAME);
    cr_assert_null(s);
    gsw_bytes_free(&b);
}

/* A part that opens but is not a valid GGUF: its own status, its detail prefixed with the part. */
Test(misuse, split_part_that_fails_to_parse)
{
    char dir[] = "/tmp/gs_misuse_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char first[4096], second[4096], src[4096];
    snprintf(first, sizeof first, "%s/m-00001-of-00002.gguf", dir);
    snprintf(second, sizeof second, "%s/m-00002-of-00002.gguf", dir);
    const char *bin = getenv("GS_BINARY_DIR");
    snprintf(src, sizeof src, "%s/corpus/generated/split/model-00001-of-00002.gguf",
             bin ? bin : ".");
    size_t n;
    uint8_t *data = tu_read_file(src, &n);
    gsw_bytes b;
    gsw_bytes_init(&b);
    gsw_put(&b, data, n);
    cr_assert_eq(gsw_bytes_save(&b, first), 0);
    gsw_truncate(&b, 4); /* "GGUF" and nothing else */
    cr_assert_eq(gsw_bytes_save(&b, second), 0);

    gs_split *s = NULL;
    gs_error e;
    cr_assert_eq(gs_open_split(first, NULL, &s, &e), GS_E_TRUNCATED);
    cr_assert_null(s);
    cr_assert_eq(e.offset, 4);
    cr_assert_eq(strncmp(e.detail, "part 2 ", 7), 0, "%s", e.detail);

    unlink(first);
    unlink(second);
    rmdir(dir);
    gsw_bytes_free(&b);
    free(data);
}
