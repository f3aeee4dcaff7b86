/* Truncation at every byte. A file is built field by field while an independent model records,
 * in parse order, every check the documented rules imply: (where the failing field starts, how far
 * the file must reach for the check to pass, the status). For a prefix of length L the expected
 * result is the first check whose reach exceeds L. */
#define _DEFAULT_SOURCE /* mkstemp, ftruncate */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

typedef struct check {
    size_t at;
    size_t reach;
    gs_status status;
} check;

typedef struct model {
    gsw_bytes b;
    check checks[4096];
    size_t n;
} model;

static void need(model *m, size_t at, size_t reach, gs_status st)
{
    cr_assert_lt(m->n, sizeof m->checks / sizeof m->checks[0]);
    m->checks[m->n++] = (check){at, reach, st};
}

static void fixed_u32(model *m, uint32_t v)
{
    need(m, m->b.len, m->b.len + 4, GS_E_TRUNCATED);
    gsw_put_u32(&m->b, v);
}

static void fixed_u64(model *m, uint64_t v)
{
    need(m, m->b.len, m->b.len + 8, GS_E_TRUNCATED);
    gsw_put_u64(&m->b, v);
}

static void string(model *m, const char *s)
{
    size_t n = strlen(s);
    need(m, m->b.len, m->b.len + 8, GS_E_TRUNCATED);
    need(m, m->b.len, m->b.len + 8 + n, GS_E_STRING_EXCEEDS_FILE);
    gsw_put_cstr(&m->b, s);
}

static void kv_head(model *m, const char *key, uint32_t type)
{
    string(m, key);
    fixed_u32(m, type);
}

static void array_head(model *m, uint32_t elem, uint64_t count, unsigned min_elem)
{
    fixed_u32(m, elem);
    size_t count_at = m->b.len;
    fixed_u64(m, count);
    need(m, count_at, count_at + 8 + (size_t)count * min_elem, GS_E_COUNT_EXCEEDS_FILE);
}

/* Builds a file with scalars of several sizes, a string, numeric and string arrays, an
 * alignment, and three tensors (one empty), recording every check. With long_len, a string KV
 * of that many bytes comes first, so that everything after it lies beyond the first read of a
 * file's metadata. */
static void build_with(model *m, uint32_t align, size_t long_len)
{
    memset(m, 0, sizeof *m);
    gsw_bytes_init(&m->b);
    const uint64_t n_tensors = 3, n_kv = long_len > 0 ? 8 : 7;
    need(m, 0, 4, GS_E_TRUNCATED);
    gsw_put(&m->b, "GGUF", 4);
    fixed_u32(m, 3);
    fixed_u64(m, n_tensors);
    fixed_u64(m, n_kv);
    need(m, 8, 24 + 25 * n_tensors, GS_E_COUNT_EXCEEDS_FILE);
    need(m, 16, 24 + 25 * n_tensors + 14 * n_kv, GS_E_COUNT_EXCEEDS_FILE);

    if (long_len > 0) {
        char *v = malloc(long_len + 1);
        cr_assert_not_null(v);
        memset(v, 'x', long_len);
        v[long_len] = '\0';
        kv_head(m, "t.long", GS_VALUE_STRING);
        string(m, v);
        free(v);
    }
    kv_head(m, "general.architecture", GS_VALUE_STRING);
    string(m, "llama");
    kv_head(m, "general.alignment", GS_VALUE_U32);
    fixed_u32(m, align);
    kv_head(m, "t.u8", GS_VALUE_U8);
    need(m, m->b.len, m->b.len + 1, GS_E_TRUNCATED);
    gsw_put_u8(&m->b, 5);
    kv_head(m, "t.f64", GS_VALUE_F64);
    fixed_u64(m, 0x400921fb54442d18ull);
    kv_head(m, "t.tokens", GS_VALUE_ARRAY);
    array_head(m, GS_VALUE_STRING, 4, 8);
    string(m, "<s>");
    string(m, "");
    string(m, "hello");
    string(m, "w\xc3\xb6rld");
    kv_head(m, "t.scores", GS_VALUE_ARRAY);
    array_head(m, GS_VALUE_F32, 4, 4);
    for (int i = 0; i < 4; i++) {
        gsw_put_f32(&m->b, (float)i / 4);
    }
    kv_head(m, "t.empty", GS_VALUE_ARRAY);
    array_head(m, GS_VALUE_I64, 0, 8);

    need(m, 8, m->b.len + 25 * n_tensors, GS_E_COUNT_EXCEEDS_FILE);
    static const struct {
        const char *name;
        uint32_t n_dims;
        uint64_t ne[2];
        int32_t type;
        uint64_t nbytes;
    } ts[3] = {
        {"blk.0.attn_q.weight", 2, {64, 2}, GS_TYPE_Q8_0, 2 * 2 * 34},
        {"blk.0.empty", 2, {32, 0}, GS_TYPE_Q4_0, 0},
        {"output_norm.weight", 1, {7, 1}, GS_TYPE_F32, 28},
    };
    size_t offset_field[3];
    uint64_t offsets[3];
    uint64_t running = 0;
    for (int i = 0; i < 3; i++) {
        string(m, ts[i].name);
        fixed_u32(m, ts[i].n_dims);
        for (uint32_t j = 0; j < ts[i].n_dims; j++) {
            fixed_u64(m, ts[i].ne[j]);
        }
        fixed_u32(m, (uint32_t)ts[i].type);
        offset_field[i] = m->b.len;
        offsets[i] = running;
        fixed_u64(m, running);
        running += (ts[i].nbytes + align - 1) / align * align;
    }
    size_t info_end = m->b.len;
    gsw_pad_to(&m->b, align);
    size_t data_start = m->b.len;
    need(m, info_end, data_start, GS_E_TRUNCATED);
    for (int i = 0; i < 3; i++) {
        need(m, offset_field[i], data_start + offsets[i] + ts[i].nbytes, GS_E_DATA_OUTSIDE_FILE);
        for (uint64_t k = 0; k < ts[i].nbytes; k++) {
            gsw_put_u8(&m->b, (uint8_t)(k * 7 + (uint64_t)i));
        }
        gsw_pad_to(&m->b, align);
    }
}

static void build(model *m, uint32_t align)
{
    build_with(m, align, 0);
}

/* What the model says a prefix of len bytes gives. */
static gs_status expected(const model *m, size_t len, size_t *at)
{
    for (size_t i = 0; i < m->n; i++) {
        if (m->checks[i].reach > len) {
            *at = m->checks[i].at;
            return m->checks[i].status;
        }
    }
    *at = 0;
    return GS_OK;
}

static void expect_prefix(const model *m, size_t len, gs_profile profile)
{
    size_t want_at;
    gs_status want = expected(m, len, &want_at);
    gsw_bytes cut = m->b;
    cut.len = len;
    gs_error e;
    gs_status st = tu_open(&cut, profile, &e);
    cr_assert_eq(st, want, "prefix %zu of %zu: got %s at %llu (%s), want %s at %zu", len,
                 m->b.len, gs_status_name(st), (unsigned long long)e.offset, e.detail,
                 gs_status_name(want), want_at);
    if (want != GS_OK) {
        cr_assert_eq(e.offset, want_at, "prefix %zu: %s at %llu, want at %zu (%s)", len,
                     gs_status_name(st), (unsigned long long)e.offset, want_at, e.detail);
    }
}

Test(truncation, every_prefix_of_a_valid_file)
{
    static model m;
    uint32_t aligns[] = {32, 8, 64, 256};
    for (size_t a = 0; a < 4; a++) {
        build(&m, aligns[a]);
        expect_prefix(&m, m.b.len, GS_PROFILE_STRICT); /* the whole file opens */
        for (size_t len = 0; len < m.b.len; len++) {
            expect_prefix(&m, len, GS_PROFILE_STRICT);
            expect_prefix(&m, len, GS_PROFILE_LENIENT);
        }
        gsw_bytes_free(&m.b);
    }
}

/* The same from a file read in one pass (copy_metadata, reopen_for_data), cut at every byte of
 * its metadata from the end down (ftruncate: nothing is rewritten) but the middle of the long
 * first string: everything after that string lies past the first 64 KiB read, so each field is
 * cut across the refill. The status and offset are the model's. */
Test(truncation, every_prefix_read_from_a_file, .timeout = 120)
{
    static model m;
    const size_t long_len = (64u << 10) - 60; /* the next KV straddles the first refill */
    build_with(&m, 32, long_len);
    char path[] = "/tmp/gs_trunc_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, m.b.data, m.b.len), (ssize_t)m.b.len);
    const size_t long_start = 24 + 8 + 6 + 4 + 8, long_end = long_start + long_len;
    size_t opened = 0;
    for (size_t len = m.b.len + 1; len-- > 0;) {
        if (len > long_start + 64 && len + 64 < long_end) {
            continue; /* inside the long string: every such cut says the same */
        }
        cr_assert_eq(ftruncate(fd, (off_t)len), 0);
        size_t want_at;
        gs_status want = expected(&m, len, &want_at);
        for (int mode = 0; mode < 4; mode++) {
            gs_options o;
            gs_options_init(&o);
            o.profile = mode % 2 ? GS_PROFILE_LENIENT : GS_PROFILE_STRICT;
            o.copy_metadata = mode < 2;
            o.reopen_for_data = mode >= 2;
            gs_file *f = NULL;
            gs_error e;
            gs_status st = gs_open_file(path, &o, &f, &e);
            gs_close(f);
            cr_assert_eq(st, want, "prefix %zu, mode %d: got %s at %llu (%s), want %s at %zu",
                         len, mode, gs_status_name(st), (unsigned long long)e.offset, e.detail,
                         gs_status_name(want), want_at);
            if (want != GS_OK) {
                cr_assert_eq(e.offset, want_at, "prefix %zu, mode %d: %s at %llu, want %zu", len,
                             mode, gs_status_name(st), (unsigned long long)e.offset, want_at);
            }
        }
        opened++;
    }
    cr_assert_gt(opened, 500, "%zu prefixes", opened);
    close(fd);
    unlink(path);
    gsw_bytes_free(&m.b);
}

/* The sample written by ggml: every prefix is rejected with one of the two truncation statuses
 * (or, in the data section, data outside the file), never accepted, never anything else, and the
 * reported field starts inside the prefix. */
Test(truncation, every_prefix_of_the_ggml_sample)
{
    size_t n;
    uint8_t *data = tu_read_file(tu_source_path("conformance/samples/ggml-written.gguf"), &n);
    gs_file *f;
    cr_assert_eq(gs_open_memory(data, n, NULL, &f, NULL), GS_OK);
    gs_layout l;
    gs_file_layout(f, &l);
    uint64_t last_data_end = l.data_end;
    gs_close(f);
    for (size_t len = 0; len < n; len++) {
        gs_error e;
        gs_status st = gs_open_memory(data, len, NULL, &f, &e);
        if (len >= last_data_end) {
            cr_assert_eq(st, GS_OK, "prefix %zu cuts only the last padding", len);
            gs_close(f);
            continue;
        }
        cr_assert(st == GS_E_TRUNCATED || st == GS_E_STRING_EXCEEDS_FILE ||
                      st == GS_E_COUNT_EXCEEDS_FILE || st == GS_E_DATA_OUTSIDE_FILE,
                  "prefix %zu: %s", len, gs_status_name(st));
        cr_assert(e.offset <= len, "prefix %zu: offset %llu", len, (unsigned long long)e.offset);
        if (st == GS_E_DATA_OUTSIDE_FILE) {
            cr_assert_geq(len, l.data_offset, "prefix %zu", len);
        }
    }
    free(data);
}
