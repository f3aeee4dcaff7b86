/* Allocation: every allocation goes through the hooks and is released by gs_close or on
 * failure; failing the N-th allocation gives a clean GS_E_NO_MEMORY for every N, never a leak. */
#include <criterion/criterion.h>
#include <string.h>

#include "test_util.h"

static const char *sample_path(void)
{
    return tu_source_path("conformance/samples/ggml-written.gguf");
}

/* The sample's n bytes (malloc), and options counting into c, failing nothing. */
static uint8_t *counted_sample(size_t *n, gs_options *o, tu_counter *c)
{
    tu_counting_options(o, c, -1);
    return tu_read_file(sample_path(), n);
}

Test(alloc, no_live_allocation_after_close)
{
    size_t n;
    tu_counter c;
    gs_options o;
    uint8_t *data = counted_sample(&n, &o, &c);
    gs_file *f;
    cr_assert_eq(gs_open_memory(data, n, &o, &f, NULL), GS_OK);
    cr_assert_gt(c.live, 0);
    gs_close(f);
    cr_assert_eq(c.live, 0, "%ld allocations leaked", c.live);
    cr_assert_eq(c.live_bytes, 0);
    /* the path source too */
    cr_assert_eq(gs_open_file(sample_path(), &o, &f, NULL), GS_OK);
    gs_close(f);
    cr_assert_eq(c.live, 0);
    free(data);
}

Test(alloc, no_live_allocation_after_a_failed_open)
{
    size_t n;
    tu_counter c;
    gs_options o;
    uint8_t *data = counted_sample(&n, &o, &c);
    /* every truncation point fails somewhere inside the parse */
    for (size_t len = 0; len < n; len += 97) {
        gs_file *f = NULL;
        gs_status st = gs_open_memory(data, len, &o, &f, NULL);
        if (st == GS_OK) {
            gs_close(f);
        }
        cr_assert_eq(c.live, 0, "prefix %zu (%s): %ld leaked", len, gs_status_name(st), c.live);
    }
    free(data);
}

Test(alloc, every_allocation_failure_is_clean)
{
    size_t n;
    uint8_t *data = tu_read_file(sample_path(), &n);
    gsw_bytes small = tu_small(64);
    struct {
        const uint8_t *p;
        size_t n;
        gs_profile profile;
    } seeds[] = {{data, n, GS_PROFILE_STRICT}, {data, n, GS_PROFILE_LENIENT},
                 {small.data, small.len, GS_PROFILE_STRICT},
                 {small.data, small.len, GS_PROFILE_LENIENT}};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        long fail_at = 0;
        for (;; fail_at++) {
            tu_counter c;
            gs_options o;
            tu_counting_options(&o, &c, fail_at);
            o.profile = seeds[s].profile;
            gs_file *f = NULL;
            gs_error e;
            gs_status st = gs_open_memory(seeds[s].p, seeds[s].n, &o, &f, &e);
            if (st == GS_OK) {
                cr_assert_geq(fail_at, 1, "the open must allocate");
                gs_close(f);
                cr_assert_eq(c.live, 0);
                break;
            }
            cr_assert_eq(st, GS_E_NO_MEMORY, "seed %zu, failing allocation %ld: %s", s, fail_at,
                         gs_status_name(st));
            cr_assert_null(f);
            cr_assert_eq(c.live, 0, "seed %zu, failing allocation %ld: %ld leaked", s, fail_at,
                         c.live);
        }
        cr_log_info("seed %zu: %ld allocations", s, fail_at);
    }
    gsw_bytes_free(&small);
    free(data);
}
