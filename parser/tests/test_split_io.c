/* Split sets in hostile surroundings: parts that are one file (symlinks, hard links), parts that
 * are FIFOs, devices or directories, a first part without split keys, the set-wide memory
 * limit, sets of thousands of parts under a descriptor limit of 64, and a part replaced after
 * the set was opened. Tests that could hang run under an alarm and a ctest TIMEOUT. */
#define _GNU_SOURCE /* mkfifo, link, symlink */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

TU_SCRATCH_SUITE(split_io, 120, 240);

/* dir/<prefix>-%05u-of-%05u.gguf in a static buffer (four in turn). */
static const char *part_path(const char *prefix, unsigned part, unsigned count)
{
    static char paths[4][256];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s-%05u-of-%05u.gguf", dir, prefix, part, count);
    return p;
}

/* Part `no` (0-based) of a set of `count`: the split keys, then extra KVs (a vocabulary of
 * `tokens` strings, for sets whose parts take memory), and one F32 tensor "t<no>" of 4 elements
 * holding no, no + 1, no + 2, no + 3. */
static void build_part(gsw_bytes *b, unsigned no, unsigned count, unsigned tokens,
                       bool split_keys)
{
    gsw_bytes_init(b);
    gsw_raw_header(b, 3, 1, (split_keys ? 3 : 0) + (tokens > 0 ? 1 : 0));
    if (split_keys) {
        gsw_raw_kv_head(b, "split.no", 8, GS_VALUE_U16);
        gsw_put_u16(b, (uint16_t)no);
        gsw_raw_kv_head(b, "split.count", 11, GS_VALUE_U16);
        gsw_put_u16(b, (uint16_t)count);
        gsw_raw_kv_head(b, "split.tensors.count", 19, GS_VALUE_I32);
        gsw_put_u32(b, count);
    }
    if (tokens > 0) {
        gsw_raw_kv_head(b, "tokenizer.ggml.tokens", 21, GS_VALUE_ARRAY);
        gsw_put_u32(b, GS_VALUE_STRING);
        gsw_put_u64(b, tokens);
        char tok[32];
        for (unsigned i = 0; i < tokens; i++) {
            int n = snprintf(tok, sizeof tok, "token_%u_of_part_%u", i, no);
            gsw_put_str(b, tok, (size_t)n);
        }
    }
    char name[16];
    snprintf(name, sizeof name, "t%u", no);
    uint64_t ne[1] = {4};
    gsw_raw_tensor(b, name, 1, ne, GS_TYPE_F32, 0);
    gsw_pad_to(b, 32);
    for (unsigned i = 0; i < 4; i++) {
        gsw_put_f32(b, (float)(no + i));
    }
}

static void write_part(const char *prefix, unsigned no, unsigned count, unsigned tokens)
{
    gsw_bytes b;
    build_part(&b, no, count, tokens, true);
    cr_assert_eq(gsw_bytes_save(&b, part_path(prefix, no + 1, count)), 0);
    gsw_bytes_free(&b);
}

static void write_set(const char *prefix, unsigned count, unsigned tokens)
{
    for (unsigned i = 0; i < count; i++) {
        write_part(prefix, i, count, tokens);
    }
}

static gs_options detached(void)
{
    gs_options o;
    gs_options_init(&o);
    o.reopen_for_data = true;
    return o;
}

/* Detached options with the counting allocator (test_util.h), which keeps the peak of the bytes
 * live at once. */
static gs_options counting(tu_counter *c)
{
    gs_options o;
    tu_counting_options(&o, c, -1);
    o.reopen_for_data = true;
    return o;
}

/* Sixteen symbolic links to one part of a 40,000-token vocabulary: refused at part 2, before it
 * is parsed, in about the memory of part 1 alone (the set took 16 times that before). */
Test(split_io, links_to_one_file_are_refused_before_they_are_parsed)
{
    write_part("v", 0, 16, 40000);
    for (unsigned i = 2; i <= 16; i++) {
        cr_assert_eq(symlink(part_path("v", 1, 16), part_path("v", i, 16)), 0);
    }
    tu_counter one;
    gs_options o = counting(&one);
    gs_file *f;
    cr_assert_eq(gs_open_file(part_path("v", 1, 16), &o, &f, NULL), GS_OK);
    gs_close(f);
    cr_assert_gt(one.peak_bytes, 1000000, "part 1 takes memory: %zu", one.peak_bytes);

    tu_counter set;
    o = counting(&set);
    gs_split *s = (gs_split *)1;
    gs_error e;
    cr_assert_eq(gs_open_split(part_path("v", 1, 16), &o, &s, &e), GS_E_SPLIT_SAME_FILE, "%s %s",
                 gs_status_name(e.status), e.detail);
    cr_assert_null(s);
    cr_assert_eq(e.offset, 0);
    cr_assert_eq(e.context_kind, GS_CONTEXT_PART);
    cr_assert_str_eq(e.context, part_path("v", 2, 16));
    struct stat st;
    cr_assert_eq(stat(part_path("v", 1, 16), &st), 0);
    char want[GS_ERROR_TEXT_MAX];
    snprintf(want, sizeof want, "part 2 is part 1 again (device %llu, inode %llu)",
             (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
    cr_assert_str_eq(e.detail, want);
    cr_assert_lt(set.peak_bytes, one.peak_bytes + one.peak_bytes / 4, "set %zu, one part %zu",
                 set.peak_bytes, one.peak_bytes);
    cr_assert_eq(set.live_bytes, 0, "leaked");
}

Test(split_io, hard_links_are_one_file_too)
{
    write_set("h", 3, 0);
    cr_assert_eq(unlink(part_path("h", 3, 3)), 0);
    cr_assert_eq(link(part_path("h", 2, 3), part_path("h", 3, 3)), 0);
    gs_options o = detached();
    gs_split *s;
    gs_error e;
    cr_assert_eq(gs_open_split(part_path("h", 1, 3), &o, &s, &e), GS_E_SPLIT_SAME_FILE);
    cr_assert_str_eq(e.context, part_path("h", 3, 3));
    cr_assert(strncmp(e.detail, "part 3 is part 2 again (device ", 31) == 0, "%s", e.detail);
    /* and without reopen_for_data, which keeps every part open */
    cr_assert_eq(gs_open_split(part_path("h", 1, 3), NULL, &s, &e), GS_E_SPLIT_SAME_FILE);
}

/* Part 1 says it is no split part at all: refused before part 2 is touched (here a FIFO, which
 * would give another status, or hang an open that blocks). */
Test(split_io, a_first_part_without_split_keys_is_refused_at_once)
{
    gsw_bytes b;
    build_part(&b, 0, 3, 0, false);
    cr_assert_eq(gsw_bytes_save(&b, part_path("k", 1, 3)), 0);
    gsw_bytes_free(&b);
    cr_assert_eq(mkfifo(part_path("k", 2, 3), 0600), 0);
    gs_options o = detached();
    gs_split *s;
    gs_error e;
    cr_assert_eq(gs_open_split(part_path("k", 1, 3), &o, &s, &e), GS_E_SPLIT_KEY_MISSING, "%s",
                 gs_status_name(e.status));
    cr_assert_str_eq(e.context, "split.no");
    cr_assert_str_eq(e.detail, "part 1 has no split.no");
}

/* A part that is a FIFO, a directory or a device: the environment's status, naming the part;
 * never GS_E_SPLIT_PART_MISSING (a verdict on the set), never a hang. */
Test(split_io, a_part_that_is_no_regular_file)
{
    struct {
        const char *prefix;
        const char *detail;
    } cases[] = {{"fifo", "part 2 of 2: a FIFO, not a regular file"},
                 {"dir", "part 2 of 2: a directory, not a regular file"},
                 {"dev", "part 2 of 2: a character device, not a regular file"}};
    cr_assert_eq(mkfifo(part_path("fifo", 2, 2), 0600), 0);
    cr_assert_eq(mkdir(part_path("dir", 2, 2), 0700), 0);
    cr_assert_eq(symlink("/dev/zero", part_path("dev", 2, 2)), 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_part(cases[i].prefix, 0, 2, 0);
        for (int mode = 0; mode < 2; mode++) {
            gs_options o = detached();
            o.reopen_for_data = mode == 1;
            gs_split *s;
            gs_error e;
            cr_assert_eq(gs_open_split(part_path(cases[i].prefix, 1, 2), &o, &s, &e),
                         GS_E_NOT_REGULAR_FILE, "%s: %s", cases[i].prefix,
                         gs_status_name(e.status));
            cr_assert_eq(e.context_kind, GS_CONTEXT_PART);
            cr_assert_str_eq(e.context, part_path(cases[i].prefix, 2, 2));
            cr_assert_str_eq(e.detail, cases[i].detail);
        }
    }
}

/* The set-wide limit: the parts together, checked as they are opened. */
Test(split_io, the_metadata_of_the_set_has_one_limit)
{
    write_set("m", 4, 20000);
    tu_counter one;
    gs_options o = counting(&one);
    gs_file *f;
    cr_assert_eq(gs_open_file(part_path("m", 1, 4), &o, &f, NULL), GS_OK);
    const uint64_t kept = one.live_bytes; /* what an open part holds */
    gs_close(f);
    cr_assert_gt(kept, 500000);
    /* room for two parts and the growing of the next, not for three parts */
    const uint64_t two_parts = 2 * kept + kept / 2;

    /* every part fits its own limit, but not four of them the set's */
    o = detached();
    o.max_split_metadata_memory = two_parts;
    gs_split *s;
    gs_error e;
    cr_assert_eq(gs_open_split(part_path("m", 1, 4), &o, &s, &e), GS_E_LIMIT_MEMORY);
    cr_assert_str_eq(e.context, part_path("m", 3, 4));
    char want[GS_ERROR_TEXT_MAX];
    snprintf(want, sizeof want,
             "part 3 of 4: the set's metadata needs more than %llu bytes "
             "(max_split_metadata_memory)",
             (unsigned long long)o.max_split_metadata_memory);
    cr_assert_str_eq(e.detail, want);

    /* the default: what one part may use */
    o = detached();
    o.limits.max_metadata_memory = two_parts;
    cr_assert_eq(gs_open_split(part_path("m", 1, 4), &o, &s, &e), GS_E_LIMIT_MEMORY);
    cr_assert_str_eq(e.context, part_path("m", 3, 4));

    /* room for all: the set opens */
    o = detached();
    o.limits.max_metadata_memory = two_parts;
    o.max_split_metadata_memory = 6 * kept;
    cr_assert_eq(gs_open_split(part_path("m", 1, 4), &o, &s, &e), GS_OK, "%s", e.detail);
    cr_assert_eq(gs_split_part_count(s), 4);
    gs_split_close(s);

    /* the same limit for sets in memory */
    gsw_bytes parts[4];
    const void *data[4];
    size_t sizes[4];
    for (unsigned i = 0; i < 4; i++) {
        build_part(&parts[i], i, 4, 20000, true);
        data[i] = parts[i].data;
        sizes[i] = parts[i].len;
    }
    o = detached();
    o.max_split_metadata_memory = kept; /* no copy from memory: less than a file, not two */
    cr_assert_eq(gs_open_split_memory(data, sizes, 4, &o, &s, &e), GS_E_LIMIT_MEMORY);
    cr_assert(strstr(e.detail, "(max_split_metadata_memory)") == NULL, "%s", e.detail);
    o.max_split_metadata_memory = 0;
    cr_assert_eq(gs_open_split_memory(data, sizes, 4, &o, &s, &e), GS_OK);
    gs_split_close(s);
    for (unsigned i = 0; i < 4; i++) {
        gsw_bytes_free(&parts[i]);
    }
}

static void limit_descriptors(rlim_t n)
{
    struct rlimit lim = {n, n};
    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
}

/* Opens a set of count parts under a limit of 64 descriptors and reads tensors of its first,
 * middle and last parts. */
static void open_large_set(const char *prefix, unsigned count)
{
    write_set(prefix, count, 0);
    limit_descriptors(64);
    gs_options o = detached();
    gs_split *s;
    gs_error e;
    cr_assert_eq(gs_open_split(part_path(prefix, 1, count), &o, &s, &e), GS_OK, "%s: %s",
                 gs_status_name(e.status), e.detail);
    cr_assert_eq(gs_split_part_count(s), count);
    cr_assert_eq(gs_split_tensor_count(s), count);
    unsigned probe[3] = {0, count / 2, count - 1};
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%u", probe[i]);
        size_t part, index;
        cr_assert_eq(gs_split_find_tensor(s, name, &part, &index), GS_OK);
        cr_assert_eq(part, probe[i]);
        float v[4];
        cr_assert_eq(gs_tensor_dequantize(gs_split_part(s, part), index, v, 4), GS_OK);
        cr_assert_eq(v[3], (float)(probe[i] + 3));
    }
    gs_split_close(s);
}

Test(split_io, a_thousand_parts_under_64_descriptors)
{
    open_large_set("k1", 1000);
}

Test(split_io, four_thousand_parts_under_64_descriptors)
{
    open_large_set("k4", 4000);
}

/* Parts that each keep a descriptor run out of them: an I/O error naming the part, not a
 * missing part. */
Test(split_io, running_out_of_descriptors_is_no_verdict_on_the_set)
{
    write_set("e", 100, 0);
    limit_descriptors(64);
    gs_split *s;
    gs_error e;
    cr_assert_eq(gs_open_split(part_path("e", 1, 100), NULL, &s, &e), GS_E_IO, "%s",
                 gs_status_name(e.status));
    cr_assert_eq(e.context_kind, GS_CONTEXT_PART);
    cr_assert(strstr(e.detail, "open: Too many open files (the process's descriptor limit") !=
                  NULL,
              "%s", e.detail);
    cr_assert(strncmp(e.detail, "part ", 5) == 0, "%s", e.detail);
    /* with no descriptor free at all, even reopen_for_data fails at part 1, as an I/O error */
    int fd = dup(0);
    close(fd);
    limit_descriptors((rlim_t)fd);
    gs_options o = detached();
    cr_assert_eq(gs_open_split(part_path("e", 1, 100), &o, &s, &e), GS_E_IO);
    cr_assert_str_eq(e.context, part_path("e", 1, 100));
}

/* A part replaced after the set was opened: its reads refuse, the other parts' go on. */
Test(split_io, a_part_replaced_after_the_open)
{
    write_set("r", 3, 0);
    gs_options o = detached();
    gs_split *s;
    cr_assert_eq(gs_open_split(part_path("r", 1, 3), &o, &s, NULL), GS_OK);
    /* part 3 rewritten with other values: a new file renamed over it */
    gsw_bytes b;
    build_part(&b, 2, 3, 0, true);
    ((uint8_t *)b.data)[b.len - 1] ^= 0x40;
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s/tmp.gguf", dir);
    cr_assert_eq(gsw_bytes_save(&b, tmp), 0);
    cr_assert_eq(rename(tmp, part_path("r", 3, 3)), 0);
    gsw_bytes_free(&b);
    float v[4];
    cr_assert_eq(gs_tensor_dequantize(gs_split_part(s, 2), 0, v, 4), GS_E_FILE_CHANGED);
    cr_assert_eq(gs_tensor_dequantize(gs_split_part(s, 1), 0, v, 4), GS_OK);
    cr_assert_eq(v[0], 1.0f);
    gs_split_close(s);
}
