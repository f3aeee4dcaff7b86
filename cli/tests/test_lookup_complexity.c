/* Lookups by name cost O(1), in split sets too (issue #14 point 4: diff probed every part's
 * index for every tensor, O(tensors x parts)). Linked with ggufsafe_testing_static, whose name
 * index counts every slot it probes (name_index.h), the engines are held to at most
 * C x (T + P) probes for a set of T tensors in P parts, at (T, P) and at (2T, 2P): a matcher
 * that tries every part needs about T x P lookups, some 9 times the bound at the first size and
 * 18 times at the second. Operations are counted, nothing is timed. Each run includes opening the sets
 * (every key and tensor name inserted into its file's index and the set's), which is O(T + P)
 * too. The commands' complexities are listed in docs/performance.md. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "cli_source.h"
#include "cli_test.h"
#include "diff_match.h"
#include "ggufsafe_certify.h"
#include "ggufsafe_manifest.h"
#include "gsw_write.h"
#include "name_index.h"

#define T 2000
#define P 100
/* Probes allowed per tensor and part: each open inserts every name (about 1.5 probes each at
 * the index's load factor of at most 1/2), certify opens every part twice, and so on. */
#define C 16

static char *dir;

static void setup(void)
{
    dir = scratch_dir();
    cr_assert_not_null(dir);
}

static void teardown(void)
{
    scratch_remove(dir);
}

TestSuite(lookups, .init = setup, .fini = teardown);

/* dir/<tag><parts>-NNNNN-of-MMMMM.gguf: `tensors` one-element f32 tensors "t<i>" in `parts`
 * parts, in order (reversed: the last names in the first part), with their split keys; then the
 * probe count starts again from 0. The path of part 1, allocated. */
static char *write_set(char tag, size_t tensors, size_t parts, bool reversed)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "%c%zu", tag, parts);
    char *first = NULL;
    for (size_t p = 0; p < parts; p++) {
        gsw_model m;
        llama_model(&m);
        split_keys(&m, (unsigned)p, (unsigned)parts, (unsigned)tensors);
        const size_t per = tensors / parts;
        for (size_t k = 0; k < per; k++) {
            size_t i = p * per + k;
            char name[32];
            snprintf(name, sizeof name, "t%zu", reversed ? tensors - 1 - i : i);
            const uint64_t ne = 1;
            const float one = 1.0f;
            gsw_tensor_set_data(gsw_add_tensor(&m, name, 1, &ne, GS_TYPE_F32), &one, sizeof one);
        }
        char why[256];
        cr_assert(write_split_part(&m, dir, prefix, (unsigned)p, (unsigned)parts,
                                   p == 0 ? &first : NULL, why, sizeof why),
                  "%s", why);
    }
    gsi_index_probes_reset();
    return first;
}

static void expect_linear(const char *what, uint64_t probes, size_t tensors, size_t parts)
{
    const uint64_t bound = (uint64_t)C * (tensors + parts);
    cr_expect_leq(probes, bound, "%s: %llu index probes for %zu tensors in %zu parts, more than "
                                 "%d x (T + P) = %llu",
                  what, (unsigned long long)probes, tensors, parts, C,
                  (unsigned long long)bound);
    cr_log_info("%s: T=%zu P=%zu: %llu probes (%.2f per tensor and part)", what, tensors, parts,
                (unsigned long long)probes, (double)probes / (double)(tensors + parts));
}

/* diff's matcher, from the opened sets: A in order, B reversed, so no tensor is in the part of
 * the same number on the other side. */
static void diff_at(size_t tensors, size_t parts)
{
    char *a = write_set('a', tensors, parts, false);
    char *b = write_set('b', tensors, parts, true);
    cli_source sa, sb;
    gs_error err;
    cr_assert_eq(cli_source_open(&sa, a, false, NULL, NULL, &err), GS_OK, "%s", err.detail);
    cr_assert_eq(cli_source_open(&sb, b, false, NULL, NULL, &err), GS_OK, "%s", err.detail);
    uint64_t opened = gsi_index_probes();
    diff_pairs pairs;
    cr_assert_eq(diff_match(&sa, &sb, NULL, &pairs), GS_OK);
    uint64_t matched = gsi_index_probes() - opened;
    cr_expect_eq(pairs.count[DIFF_PAIR_COMPARED], tensors);
    cr_expect_eq(pairs.count[DIFF_PAIR_ONLY_A] + pairs.count[DIFF_PAIR_ONLY_B], 0);
    /* every pair found its partner in the part that holds it */
    for (size_t i = 0; i < pairs.n; i++) {
        gs_tensor_info ta, tb;
        diff_side_info(&pairs.items[i].a, &ta);
        diff_side_info(&pairs.items[i].b, &tb);
        cr_assert(ta.name.len == tb.name.len && memcmp(ta.name.ptr, tb.name.ptr, ta.name.len) == 0,
                  "pair %zu: %.*s with %.*s", i, (int)ta.name.len, ta.name.ptr, (int)tb.name.len,
                  tb.name.ptr);
    }
    /* the matching alone: 2T lookups, about one probe each */
    expect_linear("diff: matching", matched, tensors, parts);
    cr_expect_leq(matched, 4 * (uint64_t)tensors, "%llu probes to match %zu tensors",
                  (unsigned long long)matched, tensors);
    expect_linear("diff: opening and matching", opened + matched, tensors, parts);
    diff_pairs_free(&pairs);
    cli_source_close(&sa);
    cli_source_close(&sb);
    free(a);
    free(b);
}

static void certify_at(size_t tensors, size_t parts)
{
    char *first = write_set('c', tensors, parts, false);
    gs_certify_options o;
    gs_certify_options_init(&o);
    gs_certify *r;
    gs_error err;
    cr_assert_eq(gs_certify_path(first, &o, &r, &err), GS_OK, "%s", err.detail);
    uint64_t probes = gsi_index_probes();
    gs_certify_summary sum = {.struct_size = sizeof sum};
    cr_assert_eq(gs_certify_get_summary(r, &sum), GS_OK);
    cr_expect_eq(sum.part_count, parts);
    expect_linear("certify", probes, tensors, parts);
    gs_certify_free(r);
    free(first);
}

/* hash, then verify: the set hashed as hash does, then opened part by part as verify does,
 * hashed, and compared with the first. */
static void manifest_at(size_t tensors, size_t parts)
{
    gs_manifest *want, *got;
    gs_error err;
    char *first = write_set('m', tensors, parts, false);
    gs_manifest_options o;
    gs_manifest_options_init(&o);
    cr_assert_eq(gs_manifest_hash_path(first, &o, &want, &err), GS_OK, "%s", err.detail);
    expect_linear("hash", gsi_index_probes(), tensors, parts);
    gsi_index_probes_reset();
    o.mode = GS_MANIFEST_VERIFY;
    cr_assert_eq(gs_manifest_hash_path(first, &o, &got, &err), GS_OK, "%s", err.detail);
    gs_manifest_diff *d;
    cr_assert_eq(gs_manifest_compare(want, got, &d, &err), GS_OK);
    cr_expect_eq(gs_manifest_diff_count(d), 0);
    expect_linear("verify", gsi_index_probes(), tensors, parts);
    gs_manifest_diff_free(d);
    gs_manifest_free(want);
    gs_manifest_free(got);
    free(first);
}

/* Runs check at T tensors in P parts, then at twice both. */
static void at_two_scales(void (*check)(size_t tensors, size_t parts))
{
    check(T, P);
    check(2 * T, 2 * P);
}

Test(lookups, diff_matches_split_sets_in_linear_probes)
{
    at_two_scales(diff_at);
}

Test(lookups, certify_of_a_split_set_in_linear_probes)
{
    at_two_scales(certify_at);
}

Test(lookups, hash_and_verify_of_a_split_set_in_linear_probes)
{
    at_two_scales(manifest_at);
}

/* The counter counts: a lookup probes at least one slot, and an index filled past its load
 * factor is grown, every entry moved. */
Test(lookups, the_counter_counts_lookups)
{
    char *first = write_set('k', 40, 4, false);
    cli_source s;
    gs_error err;
    cr_assert_eq(cli_source_open(&s, first, false, NULL, NULL, &err), GS_OK, "%s", err.detail);
    gsi_index_probes_reset();
    const gs_file *f;
    size_t i;
    cr_assert(cli_source_find_tensor(&s, (gs_str){"t37", 3}, &f, &i));
    cr_expect_eq(f, cli_source_part(&s, 3));
    cr_expect_eq(i, 7);
    cr_expect_geq(gsi_index_probes(), 1);
    uint64_t one = gsi_index_probes();
    cr_expect(!cli_source_find_tensor(&s, (gs_str){"t40", 3}, &f, &i));
    cr_expect_gt(gsi_index_probes(), one);
    cli_source_close(&s);
    free(first);
}
