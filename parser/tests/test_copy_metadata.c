/* copy_metadata and reopen_for_data: the metadata is read with pread into the heap, in one pass
 * that refills as the parse goes (64 KiB, then reads that double up to 4 MiB at a time), so a
 * file truncated after it was opened cannot fault any getter. Results equal the mapped parse,
 * at every refill boundary; a file that shrinks while it is read is GS_E_FILE_CHANGED. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#define SAMPLE "conformance/samples/ggml-written.gguf"

static gs_options copy_options(gs_profile profile)
{
    gs_options o = tu_options(profile);
    o.copy_metadata = true;
    return o;
}

/* The sample's bytes and a temporary file for a test to write them to, open in fd. */
typedef struct sample_file {
    uint8_t *data;
    size_t n;
    char path[32];
    int fd;
} sample_file;

static void sample_file_open(sample_file *t)
{
    t->data = tu_read_file(tu_source_path(SAMPLE), &t->n);
    snprintf(t->path, sizeof t->path, "/tmp/gs_copy_XXXXXX");
    t->fd = mkstemp(t->path);
    cr_assert_geq(t->fd, 0);
}

static void sample_file_close(sample_file *t)
{
    close(t->fd);
    unlink(t->path);
    free(t->data);
}

static bool same_str(gs_str s, gs_str t)
{
    return s.len == t.len && memcmp(s.ptr, t.ptr, s.len) == 0;
}

/* Record i (what: "kv" or "tensor") is the same in both parses: its name, offset and size. */
static void expect_same_record(const char *what, size_t i, gs_str name_a, gs_str name_b,
                               uint64_t offset_a, uint64_t offset_b, uint64_t size_a,
                               uint64_t size_b)
{
    cr_assert(same_str(name_a, name_b), "%s %zu: name", what, i);
    cr_assert_eq(offset_a, offset_b, "%s %zu: offset", what, i);
    cr_assert_eq(size_a, size_b, "%s %zu: size", what, i);
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
        expect_same_record("kv", i, x.key, y.key, x.offset, y.offset, x.size, y.size);
        if (x.type == GS_VALUE_ARRAY && x.elem_type == GS_VALUE_STRING) {
            for (uint64_t k = 0; k < x.count; k++) {
                gs_str s, t;
                gs_kv_get_array_string(a, i, k, &s);
                gs_kv_get_array_string(b, i, k, &t);
                cr_assert(same_str(s, t), "kv %zu string %llu", i, (unsigned long long)k);
            }
        }
    }
    for (size_t i = 0; i < gs_tensor_count(a); i++) {
        gs_tensor_info x, y;
        gs_tensor_info_at(a, i, &x);
        gs_tensor_info_at(b, i, &y);
        expect_same_record("tensor", i, x.name, y.name, x.data_offset, y.data_offset, x.size,
                           y.size);
        cr_assert(x.size == 0 || memcmp(x.data, y.data, x.size) == 0, "tensor %zu data", i);
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
    sample_file sf;
    sample_file_open(&sf);
    gs_profile profiles[2] = {GS_PROFILE_STRICT, GS_PROFILE_LENIENT};
    for (size_t len = 0; len <= sf.n; len += len < 200 ? 1 : 331) {
        gsw_bytes b = {sf.data, len, len};
        cr_assert_eq(gsw_bytes_save(&b, sf.path), 0);
        for (int i = 0; i < 4; i++) {
            gs_options o = copy_options(profiles[i % 2]);
            o.reopen_for_data = i >= 2;
            gs_error want, got;
            gs_file *f = NULL;
            gs_status st_mem = gs_open_memory(sf.data, len, &o, &f, &want);
            gs_close(f);
            gs_status st_file = gs_open_file(sf.path, &o, &f, &got);
            gs_close(f);
            cr_assert_eq(st_file, st_mem, "prefix %zu: %s vs %s", len, gs_status_name(st_file),
                         gs_status_name(st_mem));
            if (st_mem != GS_OK) {
                cr_assert_eq(got.offset, want.offset, "prefix %zu", len);
                cr_assert_str_eq(got.context, want.context);
                cr_assert_str_eq(got.detail, want.detail);
            }
        }
    }
    sample_file_close(&sf);
}

Test(copy_metadata, getters_survive_the_file_being_truncated)
{
    sample_file sf;
    sample_file_open(&sf);
    cr_assert_eq(write(sf.fd, sf.data, sf.n), (ssize_t)sf.n);
    gs_options o = copy_options(GS_PROFILE_STRICT);
    gs_file *f;
    cr_assert_eq(gs_open_file(sf.path, &o, &f, NULL), GS_OK);
    cr_assert_eq(ftruncate(sf.fd, 0), 0);
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
    sample_file_close(&sf);
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

/* Where the refills stop: the first read (64 KiB), then avail doubled up to 4 MiB a read. */
static const uint64_t refill_ends[] = {
    64u << 10, 128u << 10, 256u << 10, 512u << 10, 1u << 20, 2u << 20, 4u << 20, 8u << 20,
    12u << 20,
};

/* A file of exactly size bytes, 0 tensors, whose metadata ends with a string that ends at the
 * end of the file: one string KV ("k"), or (array) a string array ("a") of two elements. */
static void ends_with_a_string(gsw_bytes *b, size_t size, bool array)
{
    tu_raw_start(b, 0, 1);
    size_t head = b->len + 8 + 1 + 4 + (array ? 4 + 8 + 8 + 3 : 0) + 8;
    cr_assert_gt(size, head);
    size_t n = size - head;
    char *s = malloc(n);
    cr_assert_not_null(s);
    for (size_t i = 0; i < n; i++) {
        s[i] = (char)('a' + i % 26);
    }
    if (array) {
        gsw_raw_kv_head(b, "a", 1, GS_VALUE_ARRAY);
        gsw_put_u32(b, GS_VALUE_STRING);
        gsw_put_u64(b, 2);
        gsw_put_str(b, "one", 3);
    } else {
        gsw_raw_kv_head(b, "k", 1, GS_VALUE_STRING);
    }
    gsw_put_str(b, s, n);
    free(s);
    cr_assert_eq(b->len, size);
}

/* A read that ends exactly at the end of the file, just before, at or just after a refill
 * boundary, opens (a has-check off by one at avail, or a refill that stops a byte short of the
 * end, fails here), with the string's last bytes the file's. */
Test(copy_metadata, a_string_that_ends_at_the_end_of_the_file, .timeout = 120)
{
    char path[] = "/tmp/gs_copy_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    const long deltas[] = {-9, -1, 0, 1, 7, 8, 9};
    for (size_t k = 0; k < sizeof refill_ends / sizeof refill_ends[0]; k++) {
        for (size_t d = 0; d < sizeof deltas / sizeof deltas[0]; d++) {
            size_t size = (size_t)((long)refill_ends[k] + deltas[d]);
            for (int array = 0; array < 2; array++) {
                gsw_bytes b;
                ends_with_a_string(&b, size, array);
                cr_assert_eq(gsw_bytes_save(&b, path), 0);
                for (int mode = 0; mode < 4; mode++) {
                    gs_options o = copy_options(mode % 2 ? GS_PROFILE_LENIENT : GS_PROFILE_STRICT);
                    o.reopen_for_data = mode >= 2;
                    gs_file *f;
                    gs_error e;
                    cr_assert_eq(gs_open_file(path, &o, &f, &e), GS_OK,
                                 "%zu bytes, array %d, mode %d: %s at %llu (%s)", size, array,
                                 mode, gs_status_name(e.status), (unsigned long long)e.offset,
                                 e.detail);
                    gs_str v;
                    cr_assert_eq(array ? gs_kv_get_array_string(f, 0, 1, &v)
                                       : gs_kv_get_string(f, 0, &v),
                                 GS_OK);
                    cr_assert_gt(v.len, 4);
                    cr_assert(memcmp(v.ptr + v.len - 4, (const uint8_t *)b.data + size - 4, 4) ==
                                  0,
                              "%zu bytes: the last bytes", size);
                    gs_layout l;
                    gs_file_layout(f, &l);
                    cr_assert_eq(l.kv_end, size);
                    gs_close(f);
                }
                gsw_bytes_free(&b);
            }
        }
    }
    unlink(path);
}

/* The same files one byte short: the string runs past the end, as the memory parse says. */
Test(copy_metadata, one_byte_short_at_every_refill_boundary, .timeout = 120)
{
    char path[] = "/tmp/gs_copy_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    for (size_t k = 0; k < sizeof refill_ends / sizeof refill_ends[0]; k++) {
        for (long d = -1; d <= 1; d++) {
            gsw_bytes b;
            ends_with_a_string(&b, (size_t)((long)refill_ends[k] + d), false);
            gsw_bytes cut = b;
            cut.len--;
            cr_assert_eq(gsw_bytes_save(&cut, path), 0);
            gs_options o = copy_options(GS_PROFILE_STRICT);
            o.reopen_for_data = true;
            gs_file *f;
            gs_error e;
            cr_assert_eq(gs_open_file(path, &o, &f, &e), GS_E_STRING_EXCEEDS_FILE);
            cr_assert_eq(e.offset, 24 + 8 + 1 + 4, "the value's length field");
            cr_assert_str_eq(e.context, "k");
            gsw_bytes_free(&b);
        }
    }
    unlink(path);
}

/* An allocator that cuts the file down when the metadata copy first grows past the first read:
 * the next read comes up short. */
typedef struct cutter {
    const char *path;
    off_t cut_to;
    bool done;
} cutter;

static void *cut_malloc(void *opaque, size_t n)
{
    (void)opaque;
    return malloc(n);
}

static void *cut_realloc(void *opaque, void *p, size_t n)
{
    cutter *c = opaque;
    if (!c->done && n > (64u << 10)) {
        c->done = true;
        cr_assert_eq(truncate(c->path, c->cut_to), 0);
    }
    return realloc(p, n);
}

static void cut_free(void *opaque, void *p)
{
    (void)opaque;
    free(p);
}

Test(copy_metadata, a_file_that_shrinks_while_its_metadata_is_read)
{
    char path[] = "/tmp/gs_copy_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    const size_t size = 300000, cut_to = 100000;
    for (int mode = 0; mode < 2; mode++) {
        gsw_bytes b;
        ends_with_a_string(&b, size, true);
        cr_assert_eq(gsw_bytes_save(&b, path), 0);
        gsw_bytes_free(&b);
        cutter c = {path, (off_t)cut_to, false};
        gs_options o = copy_options(GS_PROFILE_STRICT);
        o.reopen_for_data = mode == 1;
        o.allocator = (gs_allocator){cut_malloc, cut_realloc, cut_free, &c};
        gs_file *f = (gs_file *)1;
        gs_error e;
        cr_assert_eq(gs_open_file(path, &o, &f, &e), GS_E_FILE_CHANGED, "mode %d: %s", mode,
                     gs_status_name(e.status));
        cr_assert(c.done);
        cr_assert_null(f);
        cr_assert_eq(e.offset, cut_to, "where the file ends now");
        cr_assert_str_eq(e.detail, "the file shrank to 100000 bytes while its metadata was read "
                                   "(it had 300000)");
    }
    unlink(path);
}
