/* What the `ggufsafe diff` tests share: models written with the test-only writer, numbers read
 * back from a --json report, and an independent whole-tensor computation of the metrics that the
 * chunked, streaming engine must reproduce bit for bit. */
#ifndef GGUFSAFE_TEST_DIFF_TEST_UTIL_H
#define GGUFSAFE_TEST_DIFF_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gsw_model.h"

/* A scratch directory for one test and the files named in it, removed together. */
typedef struct dt_scratch {
    char *dir;
    char **paths;
    size_t n_paths;
} dt_scratch;

/* Makes the directory; false when it cannot. */
bool dt_scratch_open(dt_scratch *s);
/* dir/name, valid until dt_scratch_close. */
const char *dt_scratch_path(dt_scratch *s, const char *name);
void dt_scratch_close(dt_scratch *s);

/* Declares the Criterion suite `suite` whose every test gets a fresh dt_scratch in the file's
 * `scratch`, closed after the test (the suite fails at once when GS_CLI is not set). The file
 * includes <criterion/criterion.h> and cli_test.h. */
#define DT_SCRATCH_SUITE(suite)                                                                  \
    static dt_scratch scratch;                                                                   \
    static void suite##_setup(void)                                                              \
    {                                                                                            \
        cr_assert_not_null(cli_binary(), "GS_CLI is not set: run through ctest");                \
        cr_assert(dt_scratch_open(&scratch));                                                    \
    }                                                                                            \
    static void suite##_teardown(void)                                                           \
    {                                                                                            \
        dt_scratch_close(&scratch);                                                              \
    }                                                                                            \
    TestSuite(suite, .init = suite##_setup, .fini = suite##_teardown)

/* Adds a tensor of `type` holding vals (n = product of ne) encoded as F32, Q8_0 or Q4_0 (the
 * latter two with quant_ref.h). */
void dt_add_tensor(gsw_model *m, const char *name, uint32_t n_dims, const uint64_t *ne,
                   int32_t type, const float *vals);
/* Writes m to path; false (with the reason on stderr) when the writer refuses. */
bool dt_save(const gsw_model *m, const char *path);
/* Writes m to the scratch directory's file name and frees m: the path (valid until
 * dt_scratch_close), or NULL (the reason on stderr). */
const char *dt_save_in(dt_scratch *s, gsw_model *m, const char *name);
/* path = dt_save_in on the suite's scratch (DT_SCRATCH_SUITE), asserting (Criterion) that m was
 * written. */
#define DT_SAVE(path, m, name)                                                                   \
    do {                                                                                         \
        (path) = dt_save_in(&scratch, (m), (name));                                              \
        cr_assert_not_null((path), "%s", (name));                                                \
    } while (0)

/* The number stored under "key" in the report's entry for tensor `name` (the first member
 * "key" after "name": "<name>"), or in the "total" object when name is NULL. "NaN" and
 * "Infinity" read as NAN and INFINITY. False when not found. */
bool dt_json_number(const char *json, const char *name, const char *key, double *out);

/* Occurrences of needle in s. */
size_t dt_count(const char *s, const char *needle);

/* The metrics of two finite vectors computed in one pass over the whole arrays, in element
 * order, by the definitions of docs/diff.md (no NaN or Inf handling: the callers' data is
 * finite). Blocks of block_elems elements; worst = first block of largest SSE. */
typedef struct dt_metrics {
    double max_abs, rmse, nmse, cosine;
    uint64_t equal, changed_blocks, worst_block;
    double worst_rmse;
} dt_metrics;
void dt_metrics_whole(const float *a, const float *b, size_t n, uint32_t block_elems,
                      dt_metrics *out);

/* Decodes the whole tensor `name` of the file at path; NULL on failure. *n gets its size. */
float *dt_decode_whole(const char *path, const char *name, size_t *n);

#endif
