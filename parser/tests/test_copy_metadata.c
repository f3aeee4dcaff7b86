/* copy_metadata: the metadata is read with pread into the heap (in growing prefixes), so a file
 * truncated after it was opened cannot fault any getter. Results equal the mapped parse. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#define SAMPLE "conformance/samples/ggml-written.gguf"

static gs_options copy_options(gs_profile profile)
{
    gs_options o;
    gs_options_init(&o);
    o.profile = profile;
    o.copy_metadata = true;
    return o;
}

/* Every key, value view and tensor record of a and b are equal (bytes, not pointers). */
static void expect_same(const gs_file *a, const gs_file *b)
{
    cr_assert_eq(gs_kv_count(a), gs_kv_count(b));
    cr_assert_eq(gs_tensor_count(a), gs_tensor_count(b));
    for (size_t i = 0; i < gs_kv_count(a); i++) {
        gs_kv_info x, y;
        gs_kv_info_at(a, i, &x);
        gs_kv_info_at(b, i, &y);
        cr_assert(x.key.len == y.key.len && memcmp(x.key.ptr, y.key.ptr, x.key.len) == 0);
        cr_assert_eq(x.offset, y.offset);
        cr_assert_eq(x.size, y.size);
        if (x.type == GS_VALUE_ARRAY && x.elem_type == GS_VALUE_STRING) {
            for (uint64_t k = 0; k < x.count; k++) {
                gs_str s, t;
                gs_kv_get_array_string(a, i, k, &s);
                gs_kv_get_array_string(b, i, k, &t);
                cr_assert(s.len == t.len && memcmp(s.ptr, t.ptr, s.len) == 0);
            }
        }
    }
    for (size_t i = 0; i < gs_tensor_count(a); i++) {
        gs_tensor_info x, y;
        gs_tensor_info_at(a, i, &x);
        gs_tensor_info_at(b, i, &y);
        cr_assert(x.name.len == y.name.len && memcmp(x.name.ptr, y.name.ptr, x.name.len) == 0);
        cr_assert_eq(x.data_offset, y.data_offset);
        cr_assert_eq(x.size, y.size);
        cr_assert(x.size == 0 || memcmp(x.data, y.data, x.size) == 0);
    }
    gs_layout la, lb;
    gs_file_layout(a, &la);
    gs_file_layout(b, &lb);
    cr_assert(memcmp(&la, &lb, sizeof la) == 0);
}

Test(copy_metadata, same_result_as_the_mapped_parse)
{
    gs_profile profiles[2] = {GS_PROFILE_STRICT, GS_PROFILE_LENIENT};
    for (int i = 0; i < 2; i++) {
        gs_options o = copy_options(profiles[i]);
        gs_file *copied, *mapped;
        cr_assert_eq(gs_open_file(tu_source_path(SAMPLE), &o, &copied, NULL), GS_OK);
        o.copy_metadata = false;
        cr_assert_eq(gs_open_file(tu_source_path(SAMPLE), &o, &mapped, NULL), GS_OK);
        expect_same(copied, mapped);
        gs_close(copied);
        gs_close(mapped);
    }
}

/* Prefixes of the sample (64 KB of metadata: several doublings from the first 4 KiB read) as
 * files: the status and offset equal those of the same bytes parsed from memory. */
Test(copy_metadata, truncated_files_report_what_the_memory_parse_reports)
{
    size_t n;
    uint8_t *data = tu_read_file(tu_source_path(SAMPLE), &n);
    char path[] = "/tmp/gs_copy_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    gs_profile profiles[2] = {GS_PROFILE_STRICT, GS_PROFILE_LENIENT};
    for (size_t len = 0; len <= n; len += len < 200 ? 1 : 331) {
        gsw_bytes b = {data, len, len};
        cr_assert_eq(gsw_bytes_save(&b, path), 0);
        for (int i = 0; i < 2; i++) {
            gs_options o = copy_options(profiles[i]);
            gs_error want, got;
            gs_file *f = NULL;
            gs_status st_mem = gs_open_memory(data, len, &o, &f, &want);
            gs_close(f);
            gs_status st_file = gs_open_file(path, &o, &f, &got);
            gs_close(f);
            cr_assert_eq(st_file, st_mem, "prefix %zu: %s vs %s", len, gs_status_name(st_file),
                         gs_status_name(st_mem));
            if (st_mem != GS_OK) {
                cr_assert_eq(got.offset, want.offset, "prefix %zu", len);
                cr_assert_str_eq(got.context, want.context);
            }
        }
    }
    unlink(path);
    free(data);
}

Test(copy_metadata, getters_survive_the_file_being_truncated)
{
    size_t n;
    uint8_t *data = tu_read_file(tu_source_path(SAMPLE), &n);
    char path[] = "/tmp/gs_copy_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_eq(write(fd, data, n), (ssize_t)n);
    gs_options o = copy_options(GS_PROFILE_STRICT);
    gs_file *f;
    cr_assert_eq(gs_open_file(path, &o, &f, NULL), GS_OK);
    cr_assert_eq(ftruncate(fd, 0), 0);
    /* every metadata view reads the heap copy: with the mapping this would be SIGBUS */
    size_t total = 0;
    for (size_t i = 0; i < gs_kv_count(f); i++) {
        gs_kv_info k;
        gs_kv_info_at(f, i, &k);
        total += (size_t)k.key.ptr[0];
        if (k.type == GS_VALUE_ARRAY && k.elem_type == GS_VALUE_STRING) {
            for (uint64_t e = 0; e < k.count; e++) {
                gs_str s;
                gs_kv_get_array_string(f, i, e, &s);
                total += s.len;
            }
        }
    }
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        gs_tensor_info_at(f, i, &t);
        total += (size_t)t.name.ptr[0];
    }
    cr_assert_gt(total, 0);
    float out[4096];
    cr_assert_eq(gs_tensor_dequantize(f, 0, out, 4096), GS_E_TRUNCATED);
    uint8_t buf[8];
    cr_assert_eq(gs_file_read(f, 0, buf, 8), GS_E_TRUNCATED);
    gs_close(f);
    close(fd);
    unlink(path);
    free(data);
}

Test(copy_metadata, allocation_failures_are_clean)
{
    for (long fail_at = 0;; fail_at++) {
        tu_counter c;
        gs_options o;
        tu_counting_options(&o, &c, fail_at);
        o.copy_metadata = true;
        gs_file *f = NULL;
        gs_status st = gs_open_file(tu_source_path(SAMPLE), &o, &f, NULL);
        if (st == GS_OK) {
            gs_close(f);
            cr_assert_eq(c.live, 0);
            cr_assert_gt(fail_at, 10, "the growing prefix allocates several times");
            break;
        }
        cr_assert_eq(st, GS_E_NO_MEMORY, "allocation %ld: %s", fail_at, gs_status_name(st));
        cr_assert_eq(c.live, 0, "allocation %ld: %ld leaked", fail_at, c.live);
    }
}
