/* `ggufsafe info` on a split set: the first part of x-0000N-of-00002.gguf reports the whole set
 * (per part and in total), --part-only reports that part alone, any other part is a plain file,
 * and a set with a missing part is invalid. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_test.h"

static char *dir;
static char *parts[2]; /* x-00001-of-00002.gguf ("a"), x-00002-of-00002.gguf ("b") */

static void setup(void)
{
    cr_assert_not_null(cli_binary(), "GS_CLI is not set: run through ctest");
    dir = scratch_dir();
    cr_assert_not_null(dir);
    char why[256];
    cr_assert(write_split_pair(dir, "x", parts, why, sizeof why), "%s", why);
}

static void teardown(void)
{
    free(parts[0]);
    free(parts[1]);
    scratch_remove(dir);
}

TestSuite(split, .init = setup, .fini = teardown);

Test(split, text_reports_the_whole_set)
{
    run_result r;
    cr_assert(run_cli(&r, "info", parts[0], NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(contains(r.out, "parts:       2, 2 tensors in all\n"), "%s", r.out);
    cr_expect(contains(r.out, "\n== part 1 of 2 ==\n"));
    cr_expect(contains(r.out, "x-00001-of-00002.gguf\n"));
    cr_expect(contains(r.out, "\n== part 2 of 2 ==\n"));
    cr_expect(contains(r.out, "x-00002-of-00002.gguf\n"));
    cr_expect(contains(r.out, "  a  8  F32  offset 0\n"), "%s", r.out);
    cr_expect(contains(r.out, "  b  8  F32  offset 0\n"), "%s", r.out);
    cr_expect(contains(r.out, "\n== set total: 2 parts ==\ntensors:     2\n"), "%s", r.out);
    cr_expect(contains(r.out, "parameters:  0.02 K (16)\n"), "%s", r.out);
    cr_expect(contains(r.out, "predicted:   384 bytes\nactual:      384 bytes (stat)\nEXACT\n"),
              "%s", r.out);
    run_result_free(&r);
}

Test(split, json_reports_the_whole_set)
{
    run_result r;
    cr_assert(run_cli(&r, "info", "--json", parts[0], NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    int st = check_json(dir, "info.schema.json", r.out, "/kind=\"split\"", "/part_count=2",
                        "/tensor_count=2", "/parts/0/kv_count=3", "/parts/0/tensor_count=1",
                        "/parts/0/tensors/0/name=\"a\"", "/parts/1/tensors/0/name=\"b\"",
                        "/parts/1/metadata/0/value=1", "/parameters=16", "/tensor_bytes=64",
                        "/file_size=384", "/predicted_size=384", "/size_check=\"EXACT\"", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
}

Test(split, part_only_reports_one_part)
{
    run_result r;
    cr_assert(run_cli(&r, "info", "--part-only", parts[0], NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(contains(r.out, "header:      GGUF v3, 1 tensors, 3 metadata pairs\n"), "%s", r.out);
    cr_expect(!contains(r.out, "== part"));
    cr_expect(!contains(r.out, "  b  "));
    cr_expect(contains(r.out, "\nEXACT\n"));
    run_result_free(&r);

    cr_assert(run_cli(&r, "info", "--json", "--part-only", parts[0], NULL));
    cr_assert_eq(r.status, 0);
    int st = check_json(dir, "info.schema.json", r.out, "/kind=\"file\"", "/tensor_count=1",
                        "/kv_count=3", "kv:split.count=2", "kv:split.tensors.count=2", NULL);
    cr_expect_eq(st, 0, "check_json.py exit %d", st);
    run_result_free(&r);
}

Test(split, later_part_is_a_plain_file)
{
    run_result r;
    cr_assert(run_cli(&r, "info", parts[1], NULL));
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(!contains(r.out, "== part"));
    cr_expect(contains(r.out, "  b  8  F32  offset 0\n"), "%s", r.out);
    run_result_free(&r);
}

Test(split, missing_part_exits_1)
{
    cr_assert_eq(remove(parts[1]), 0);
    run_result r;
    CLI_RUN(r, 1, "info", parts[0]);
    cr_expect_eq(r.out_len, 0);
    cr_expect(strncmp(r.err, "error: GS_E_SPLIT_PART_MISSING at byte 0 (", 42) == 0, "%s", r.err);
    cr_expect(contains(r.err, "x-00002-of-00002.gguf): a part of the split set cannot be opened: "
                              "part 2 of 2: open: "),
              "%s", r.err);
    run_result_free(&r);
}
