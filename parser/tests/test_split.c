#define _DEFAULT_SOURCE
/* Split sets: from buffers and from files named <prefix>-0000i-of-0000N.gguf. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

typedef struct part_spec {
    int no_type;        /* value type of split.no */
    uint64_t no, count, tensors;
    const char *tensor; /* one F32 tensor of 4 elements, or NULL */
    bool omit_count;
} part_spec;

static void build_part(gsw_bytes *b, const part_spec *p)
{
    tu_raw_start(b, p->tensor ? 1 : 0, p->omit_count ? 2 : 3);
    gsw_raw_kv_head(b, "split.no", 8, (uint32_t)p->no_type);
    if (p->no_type == GS_VALUE_U16) {
        gsw_put_u16(b, (uint16_t)p->no);
    } else if (p->no_type == GS_VALUE_I32) {
        gsw_put_u32(b, (uint32_t)p->no);
    } else {
        gsw_put_cstr(b, "zero");
    }
    if (!p->omit_count) {
        gsw_raw_kv_head(b, "split.count", 11, GS_VALUE_U16);
        gsw_put_u16(b, (uint16_t)p->count);
    }
    gsw_raw_kv_head(b, "split.tensors.count", 19, GS_VALUE_I32);
    gsw_put_u32(b, (uint32_t)p->tensors);
    if (p->tensor) {
        uint64_t ne[1] = {4};
        gsw_raw_tensor(b, p->tensor, 1, ne, GS_TYPE_F32, 0);
    }
    gsw_pad_to(b, 32);
    if (p->tensor) {
        gsw_put_fill(b, 0, 32);
    }
}

static gs_status open_parts(const part_spec *specs, size_t n, gs_split **out, gs_error *e)
{
    gsw_bytes b[4];
    const void *data[4];
    size_t sizes[4];
    for (size_t i = 0; i < n; i++) {
        build_part(&b[i], &specs[i]);
        data[i] = b[i].data;
        sizes[i] = b[i].len;
    }
    gs_split *s = NULL;
    gs_status st = gs_open_split_memory(data, sizes, n, NULL, &s, e);
    if (out != NULL) {
        *out = s;
    } else {
        gs_split_close(s);
    }
    if (out == NULL || st != GS_OK) {
        for (size_t i = 0; i < n; i++) {
            gsw_bytes_free(&b[i]);
        }
    }
    return st;
}

Test(split, consistent_set_from_buffers)
{
    part_spec p[3] = {{GS_VALUE_U16, 0, 3, 3, "a", false},
                      {GS_VALUE_U16, 1, 3, 3, "b", false},
                      {GS_VALUE_U16, 2, 3, 3, "c", false}};
    gsw_bytes b[3];
    const void *data[3];
    size_t sizes[3];
    for (int i = 0; i < 3; i++) {
        build_part(&b[i], &p[i]);
        data[i] = b[i].data;
        sizes[i] = b[i].len;
    }
    gs_split *s;
    gs_error e;
    cr_assert_eq(gs_open_split_memory(data, sizes, 3, NULL, &s, &e), GS_OK, "%s", e.detail);
    cr_assert_eq(gs_split_part_count(s), 3);
    cr_assert_eq(gs_split_tensor_count(s), 3);
    size_t part, idx;
    cr_assert_eq(gs_split_find_tensor(s, "c", &part, &idx), GS_OK);
    cr_assert_eq(part, 2);
    cr_assert_eq(idx, 0);
    cr_assert_eq(gs_split_find_tensor(s, "d", &part, &idx), GS_E_NOT_FOUND);
    cr_assert_not_null(gs_split_part(s, 1));
    cr_assert_null(gs_split_part(s, 3));
    gs_split_close(s);
    for (int i = 0; i < 3; i++) {
        gsw_bytes_free(&b[i]);
    }
}

Test(split, inconsistencies)
{
    /* each set, the status it opens with and, where given, the context that names */
    static const struct {
        part_spec parts[2];
        size_t n;
        gs_status want;
        const char *context;
    } sets[] = {
        {{{GS_VALUE_U16, 0, 2, 2, "a", false}, {GS_VALUE_U16, 0, 2, 2, "b", false}},
         2, GS_E_SPLIT_NUMBER_MISMATCH, NULL},
        {{{GS_VALUE_U16, 0, 2, 2, "a", false}, {GS_VALUE_U16, 1, 3, 2, "b", false}},
         2, GS_E_SPLIT_COUNT_MISMATCH, NULL},
        {{{GS_VALUE_U16, 0, 2, 3, "a", false}, {GS_VALUE_U16, 1, 2, 3, "b", false}},
         2, GS_E_SPLIT_TENSOR_COUNT_MISMATCH, NULL},
        {{{GS_VALUE_U16, 0, 2, 2, "a", false}, {GS_VALUE_U16, 1, 2, 3, "b", false}},
         2, GS_E_SPLIT_TENSOR_COUNT_MISMATCH, NULL},
        {{{GS_VALUE_U16, 0, 2, 2, "a", false}, {GS_VALUE_U16, 1, 2, 2, "a", false}},
         2, GS_E_SPLIT_DUPLICATE_TENSOR, "a"},
        {{{GS_VALUE_U16, 0, 2, 2, "a", false}, {GS_VALUE_U16, 1, 2, 2, "b", true}},
         2, GS_E_SPLIT_KEY_MISSING, "split.count"},
        {{{GS_VALUE_STRING, 0, 1, 1, "a", false}}, 1, GS_E_SPLIT_KEY_TYPE, NULL},
        {{{GS_VALUE_I32, (uint64_t)-1, 1, 1, "a", false}}, 1, GS_E_SPLIT_KEY_TYPE, NULL},
        {{{GS_VALUE_I32, 0, 1, 1, "a", false}}, 1, GS_OK, NULL},
    };
    gs_error e;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        cr_assert_eq(open_parts(sets[i].parts, sets[i].n, NULL, &e), sets[i].want, "set %zu", i);
        if (sets[i].context != NULL) {
            cr_assert_str_eq(e.context, sets[i].context, "set %zu", i);
        }
    }
    /* a part that is itself malformed reports its own status, naming the part */
    const void *data[1] = {"GGUF\x09"};
    size_t sizes[1] = {5};
    gs_split *s;
    cr_assert_eq(gs_open_split_memory(data, sizes, 1, NULL, &s, &e), GS_E_TRUNCATED);
    cr_assert(strncmp(e.detail, "part 1", 6) == 0, "%s", e.detail);
    cr_assert_eq(gs_open_split_memory(data, sizes, 0, NULL, &s, &e), GS_E_INVALID_ARGUMENT);
}

/* Where build_part puts things, counted by hand: the header (24 bytes); split.no's key length,
 * key and type (8 + 8 + 4), its value at 44 (u16 or i32, or a string's length field); then
 * split.count's record (8 + 11 + 4) and split.tensors.count's (8 + 19 + 4, its value i32). */
#define AT_NO 44u
#define AT_COUNT(no_bytes) (AT_NO + (no_bytes) + 23u)
#define AT_TENSORS(no_bytes) (AT_COUNT(no_bytes) + 2u + 31u)
#define AT_TENSOR_INFO(no_bytes) (AT_TENSORS(no_bytes) + 4u)

/* The value offset the reader gives key of part data[0..len). */
static uint64_t value_offset(const void *data, size_t len, const char *key)
{
    gs_file *f;
    cr_assert_eq(gs_open_memory(data, len, NULL, &f, NULL), GS_OK);
    size_t i;
    cr_assert_eq(gs_kv_find(f, key, &i), GS_OK);
    gs_kv_info kv;
    cr_assert_eq(gs_kv_info_at(f, i, &kv), GS_OK);
    gs_close(f);
    return kv.value_offset;
}

/* Every inconsistency points at the value that is wrong, in the part that holds it: never at
 * the key, the record or part 1. */
Test(split, errors_point_at_the_wrong_value)
{
    gs_error e;
    /* split.no a string: its value, the string's length field */
    part_spec bad_type[1] = {{GS_VALUE_STRING, 0, 1, 1, "a", false}};
    cr_assert_eq(open_parts(bad_type, 1, NULL, &e), GS_E_SPLIT_KEY_TYPE);
    cr_assert_eq(e.offset, AT_NO);
    cr_assert_eq(e.context_kind, GS_CONTEXT_KEY);
    cr_assert_str_eq(e.context, "split.no");
    cr_assert_str_eq(e.detail, "part 1: type string");
    /* the counts by hand agree with the reader's */
    part_spec plain = {GS_VALUE_U16, 1, 2, 2, "b", false};
    gsw_bytes b;
    build_part(&b, &plain);
    cr_assert_eq(value_offset(b.data, b.len, "split.count"), AT_COUNT(2));
    cr_assert_eq(value_offset(b.data, b.len, "split.tensors.count"), AT_TENSORS(2));
    gsw_bytes_free(&b);
    part_spec wrong_no[2] = {{GS_VALUE_U16, 0, 2, 2, "a", false},
                             {GS_VALUE_I32, 0, 2, 2, "b", false}};
    cr_assert_eq(open_parts(wrong_no, 2, NULL, &e), GS_E_SPLIT_NUMBER_MISMATCH);
    cr_assert_eq(e.offset, AT_NO);
    cr_assert_str_eq(e.context, "split.no");
    cr_assert_str_eq(e.detail, "part 2 says split.no = 0");
    part_spec wrong_count[2] = {{GS_VALUE_U16, 0, 2, 2, "a", false},
                                {GS_VALUE_I32, 1, 3, 2, "b", false}};
    cr_assert_eq(open_parts(wrong_count, 2, NULL, &e), GS_E_SPLIT_COUNT_MISMATCH);
    cr_assert_eq(e.offset, AT_COUNT(4));
    cr_assert_str_eq(e.context, "split.count");
    cr_assert_str_eq(e.detail, "part 2 says 3 parts, set has 2");
    part_spec disagree[2] = {{GS_VALUE_U16, 0, 2, 2, "a", false},
                             {GS_VALUE_I32, 1, 2, 3, "b", false}};
    cr_assert_eq(open_parts(disagree, 2, NULL, &e), GS_E_SPLIT_TENSOR_COUNT_MISMATCH);
    cr_assert_eq(e.offset, AT_TENSORS(4), "part 2's value");
    cr_assert_str_eq(e.context, "split.tensors.count");
    cr_assert_str_eq(e.detail, "part 2 says 3, part 1 says 2");
    part_spec sum[2] = {{GS_VALUE_I32, 0, 2, 3, "a", false}, {GS_VALUE_U16, 1, 2, 3, "b", false}};
    cr_assert_eq(open_parts(sum, 2, NULL, &e), GS_E_SPLIT_TENSOR_COUNT_MISMATCH);
    cr_assert_eq(e.offset, AT_TENSORS(4), "part 1's value");
    cr_assert_str_eq(e.detail, "parts hold 2 tensors, split.tensors.count is 3");
    part_spec dup[2] = {{GS_VALUE_U16, 0, 2, 2, "a", false}, {GS_VALUE_I32, 1, 2, 2, "a", false}};
    cr_assert_eq(open_parts(dup, 2, NULL, &e), GS_E_SPLIT_DUPLICATE_TENSOR);
    cr_assert_eq(e.offset, AT_TENSOR_INFO(4), "part 2's tensor info");
    cr_assert_eq(e.context_kind, GS_CONTEXT_TENSOR);
    cr_assert_str_eq(e.detail, "in part 2 and part 1");
    part_spec missing[2] = {{GS_VALUE_U16, 0, 2, 2, "a", false}, {GS_VALUE_U16, 1, 2, 2, "b", true}};
    cr_assert_eq(open_parts(missing, 2, NULL, &e), GS_E_SPLIT_KEY_MISSING);
    cr_assert_eq(e.offset, 0);
    cr_assert_str_eq(e.detail, "part 2 has no split.count");
}

static char tmpdir[TU_DIR_SIZE];

static void write_part(const char *name, const part_spec *p)
{
    gsw_bytes b;
    build_part(&b, p);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    cr_assert_eq(gsw_bytes_save(&b, path), 0);
    gsw_bytes_free(&b);
}

static void make_tmpdir(void)
{
    cr_assert(tu_scratch_dir(tmpdir, "gs_split"));
}

Test(split, from_files)
{
    make_tmpdir();
    part_spec p[2] = {{GS_VALUE_U16, 0, 2, 2, "a", false}, {GS_VALUE_U16, 1, 2, 2, "b", false}};
    write_part("m-00001-of-00002.gguf", &p[0]);
    write_part("m-00002-of-00002.gguf", &p[1]);
    char path[512];
    snprintf(path, sizeof path, "%s/m-00001-of-00002.gguf", tmpdir);
    gs_split *s;
    gs_error e;
    cr_assert_eq(gs_open_split(path, NULL, &s, &e), GS_OK, "%s %s", gs_status_name(e.status),
                 e.detail);
    cr_assert_eq(gs_split_part_count(s), 2);
    gs_split_close(s);
    /* a single part opens alone with gs_open_file */
    gs_file *f;
    cr_assert_eq(gs_open_file(path, NULL, &f, &e), GS_OK);
    cr_assert_eq(gs_tensor_count(f), 1);
    gs_close(f);

    /* bad names */
    snprintf(path, sizeof path, "%s/m-00002-of-00002.gguf", tmpdir);
    cr_assert_eq(gs_open_split(path, NULL, &s, &e), GS_E_SPLIT_BAD_NAME);
    cr_assert_eq(gs_open_split("model.gguf", NULL, &s, &e), GS_E_SPLIT_BAD_NAME);
    cr_assert_eq(gs_open_split("m-0001-of-00002.gguf", NULL, &s, &e), GS_E_SPLIT_BAD_NAME);

    /* a missing part */
    part_spec first_of_3 = {GS_VALUE_U16, 0, 3, 2, "a", false};
    write_part("n-00001-of-00003.gguf", &first_of_3);
    snprintf(path, sizeof path, "%s/n-00001-of-00003.gguf", tmpdir);
    cr_assert_eq(gs_open_split(path, NULL, &s, &e), GS_E_SPLIT_PART_MISSING);
    cr_assert(strstr(e.context, "n-00002-of-00003.gguf") != NULL, "%s", e.context);
    cr_assert_str_eq(e.detail, "part 2 of 3: open: No such file or directory");

    /* the names say 3 parts, the keys of part 2 say 2 */
    write_part("n-00002-of-00003.gguf", &p[1]);
    part_spec third = {GS_VALUE_U16, 2, 2, 2, "c", false};
    write_part("n-00003-of-00003.gguf", &third);
    cr_assert_eq(gs_open_split(path, NULL, &s, &e), GS_E_SPLIT_COUNT_MISMATCH);
    cr_assert(tu_scratch_remove(tmpdir));
}

/* Part names: the one parser and formatter of <prefix>-NNNNN-of-MMMMM.gguf. */
Test(split, part_names)
{
    gs_split_name n;
    const char *p = "dir/model-00002-of-00010.gguf";
    cr_assert(gs_split_name_parse(p, strlen(p), &n));
    cr_expect_eq(n.prefix_len, strlen("dir/model"));
    cr_expect_eq(n.part, 2);
    cr_expect_eq(n.count, 10);
    char buf[64];
    cr_assert_eq(gs_split_name_format(p, &n, 7, buf, sizeof buf), GS_OK);
    cr_expect_str_eq(buf, "dir/model-00007-of-00010.gguf");
    size_t exact = n.prefix_len + GS_SPLIT_NAME_SUFFIX_LEN + 1;
    cr_expect_eq(gs_split_name_format(p, &n, 1, buf, exact), GS_OK);
    cr_expect_str_eq(buf, "dir/model-00001-of-00010.gguf");
    cr_expect_eq(gs_split_name_format(p, &n, 1, buf, exact - 1), GS_E_OUT_OF_RANGE);
    cr_expect_str_eq(buf, "");
    cr_expect_eq(gs_split_name_format(p, &n, 0, buf, sizeof buf), GS_E_INVALID_ARGUMENT);
    cr_expect_eq(gs_split_name_format(p, &n, 100000, buf, sizeof buf), GS_E_INVALID_ARGUMENT);
    /* a part number above the count is a wrong name, still parsed: callers report it */
    p = "-00005-of-00003.gguf";
    cr_assert(gs_split_name_parse(p, strlen(p), &n));
    cr_expect_eq(n.prefix_len, 0);
    cr_expect_eq(n.part, 5);
    static const char *const bad[] = {"m-00000-of-00002.gguf", "m-00001-of-00000.gguf",
                                      "m-0001-of-00002.gguf",  "m-00001-of-00002.ggu",
                                      "m_00001-of-00002.gguf", "m-00001-0f-00002.gguf",
                                      "m-0000a-of-00002.gguf", "00001-of-00002.gguf", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        n.part = 77;
        cr_expect(!gs_split_name_parse(bad[i], strlen(bad[i]), &n), "%s", bad[i]);
        cr_expect_eq(n.part, 77, "%s: out untouched", bad[i]);
    }
    cr_expect(!gs_split_name_parse(NULL, 0, &n));
    p = "m-00001-of-00002.gguf";
    cr_expect(!gs_split_name_parse(p, strlen(p), NULL));
    /* the length is what is parsed, not the NUL */
    cr_expect(gs_split_name_parse("m-00001-of-00002.gguf.bak", 21, &n));
}
