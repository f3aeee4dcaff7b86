/* Shared helpers for the reader's tests: a small valid file (built with the writer's raw records,
 * gsw_raw.h, which the tests use for every other file too), opening bytes under a profile, and
 * an allocator that counts live allocations (and can fail the N-th one). */
#ifndef GGUFSAFE_TEST_UTIL_H
#define GGUFSAFE_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"
#include "gsw_raw.h"

/* A small valid file: KVs general.architecture="test", general.alignment=align (if align != 0),
 * then two F32 tensors "a" (8 elements) and "b" (4 x 2) with data 0..15 as floats. */
void tu_small_file(gsw_bytes *b, uint32_t align);
/* The same in fresh bytes (gsw_bytes_free them). */
gsw_bytes tu_small(uint32_t align);

/* b initialised with a version 3 header declaring n_tensors tensors and n_kv key-values, the
 * start of most hand-built files. */
void tu_raw_start(gsw_bytes *b, uint64_t n_tensors, uint64_t n_kv);

/* One tensor record of tu_tensor_file: its name, n_dims entries of ne, its type and data offset. */
typedef struct tu_tensor {
    const char *name;
    uint32_t n_dims;
    uint64_t ne[4];
    int32_t type;
    uint64_t offset;
} tu_tensor;

/* tu_tensor_file's data_bytes for a file that ends with its records: no padding, no data. */
#define TU_NO_DATA SIZE_MAX

/* b initialised and filled with a version 3 file of no key-values and the n records of t, then
 * (unless data_bytes is TU_NO_DATA) padding to 32 and data_bytes zero bytes. at[i] receives where
 * record i starts (at may be NULL). */
void tu_tensor_file(gsw_bytes *b, const tu_tensor *t, size_t n, size_t data_bytes, size_t *at);

/* b initialised and filled with tu_small_file(b, 32), opened in place with default options
 * (aborts when it does not open); the caller closes the file and frees b. */
gs_file *tu_open_small(gsw_bytes *b);

/* The default options under profile. */
gs_options tu_options(gs_profile profile);

/* Opens b under profile; returns the status and fills err. The file is closed again. */
gs_status tu_open(const gsw_bytes *b, gs_profile profile, gs_error *err);
gs_status tu_open_opts(const gsw_bytes *b, const gs_options *opts, gs_error *err);

/* Asserts (Criterion) that opening b under profile yields status at offset. */
#define TU_EXPECT(buf_, prof_, want_, at_)                                                     \
    do {                                                                                          \
        gs_error e_;                                                                              \
        gs_status st_ = tu_open((buf_), (prof_), &e_);                                            \
        cr_assert_eq(st_, (want_), "got %s at %llu (%s: %s), want %s at %llu",                    \
                     gs_status_name(st_), (unsigned long long)e_.offset, e_.context, e_.detail,   \
                     gs_status_name(want_), (unsigned long long)(at_));                           \
        if ((want_) != GS_OK) {                                                                   \
            cr_assert_eq(e_.offset, (uint64_t)(at_), "%s: offset %llu, want %llu (%s)",           \
                         gs_status_name(st_), (unsigned long long)e_.offset,                      \
                         (unsigned long long)(at_), e_.detail);                                   \
        }                                                                                         \
    } while (0)

/* Opens b with *opts_ into f_ (a gs_file *), asserting (Criterion) that it opens. */
#define TU_OPEN_OK(f_, buf_, opts_)                                                              \
    do {                                                                                          \
        gs_error e_;                                                                              \
        gs_status st_ = gs_open_memory((buf_)->data, (buf_)->len, (opts_), &(f_), &e_);           \
        cr_assert_eq(st_, GS_OK, "%s at %llu: %s", gs_status_name(st_),                          \
                     (unsigned long long)e_.offset, e_.detail);                                   \
    } while (0)

/* Counting allocator: live allocations and bytes; fail_at >= 0 makes that allocation (0-based)
 * and only that one return NULL. */
typedef struct tu_counter {
    long live;
    long total;
    long fail_at;
    size_t live_bytes;
    size_t peak_bytes; /* the most live_bytes has been */
} tu_counter;

/* Default options with the counting allocator installed, counting into c (reset here) and
 * failing allocation fail_at (-1: none). */
void tu_counting_options(gs_options *opts, tu_counter *c, long fail_at);

/* Reads a whole file into an exactly sized buffer (malloc; abort on failure); *n receives its
 * size. */
uint8_t *tu_read_file(const char *path, size_t *n);
/* Makes a fresh directory /tmp/<name>_XXXXXX, its path in dir; false if it cannot. */
#define TU_DIR_SIZE 64
bool tu_scratch_dir(char dir[TU_DIR_SIZE], const char *name);

/* Removes dir and everything below it; false if that fails. */
bool tu_scratch_remove(const char *dir);

/* Declares the Criterion suite `suite` for tests in hostile surroundings: each test gets a
 * fresh scratch directory in the file's `dir` (/tmp/gs_<suite>_XXXXXX, removed after it) and
 * runs under an alarm of alarm_s seconds, so that a blocking open fails the test instead of
 * hanging it, and Criterion's timeout of timeout_s. The file includes <criterion/criterion.h>
 * and <unistd.h>. */
#define TU_SCRATCH_SUITE(suite, alarm_s, timeout_s)                                              \
    static char dir[TU_DIR_SIZE];                                                                \
    static void suite##_setup(void)                                                              \
    {                                                                                            \
        cr_assert(tu_scratch_dir(dir, "gs_" #suite));                                            \
        alarm(alarm_s);                                                                          \
    }                                                                                            \
    static void suite##_teardown(void)                                                           \
    {                                                                                            \
        cr_assert(tu_scratch_remove(dir));                                                       \
    }                                                                                            \
    TestSuite(suite, .init = suite##_setup, .fini = suite##_teardown, .timeout = timeout_s)

/* Leaves exactly n_free file descriptors free to this process (for the failures of pipe and
 * socketpair): fills every free descriptor below TU_FD_LIMIT with /dev/null, closes n_free of
 * them again and lowers RLIMIT_NOFILE to TU_FD_LIMIT. false (nothing changed) when descriptors
 * at or above TU_FD_LIMIT are open already. tu_fd_release undoes it. */
#define TU_FD_LIMIT 256
typedef struct tu_fd_squeeze {
    unsigned long long old_soft;
    int fds[TU_FD_LIMIT];
    int n;
} tu_fd_squeeze;
bool tu_fd_squeeze_to(tu_fd_squeeze *s, int n_free);
void tu_fd_release(tu_fd_squeeze *s);

/* $GS_SOURCE_DIR/rel, or rel when the variable is unset. Returns a static buffer. */
const char *tu_source_path(const char *rel);

#endif
