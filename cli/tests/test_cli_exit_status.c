/* The error line and exit status of the command (docs/cli.md, "Exit status"): 0 for GS_OK, 2 for
 * the caller's or the environment's statuses (1-19: usage, I/O, a decoder path this machine
 * lacks), 1 for every status that judges the file's contents (20 and up). Iterates over every
 * status the library names, so a status added later is held to the same rule. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_common.h"
#include "ggufsafe.h"

Test(exit_status, every_named_status_maps_by_its_range)
{
    int named = 0;
    for (int s = 0; s < 256; s++) {
        if (strcmp(gs_status_name((gs_status)s), "GS_E_UNKNOWN_STATUS") == 0) {
            continue;
        }
        named++;
        const int want = s == 0 ? CLI_EXIT_OK : s < 20 ? CLI_EXIT_USAGE : CLI_EXIT_INVALID;
        cr_expect_eq(cli_exit_for_status((gs_status)s), want, "%s exits %d, not %d",
                     gs_status_name((gs_status)s), cli_exit_for_status((gs_status)s), want);
    }
    cr_expect_geq(named, 59, "only %d statuses named (59 in this release)", named);
}

Test(exit_status, the_codes_are_the_documented_numbers)
{
    cr_expect_eq(CLI_EXIT_OK, 0);
    cr_expect_eq(CLI_EXIT_INVALID, 1);
    cr_expect_eq(CLI_EXIT_USAGE, 2);
}

/* What cli_print_error writes to stderr for err, NUL-terminated (the caller frees it). */
static char *error_line_of(const gs_error *err)
{
    FILE *tmp = tmpfile();
    cr_assert_not_null(tmp);
    fflush(stderr);
    const int saved = dup(STDERR_FILENO);
    cr_assert_geq(saved, 0);
    cr_assert_geq(dup2(fileno(tmp), STDERR_FILENO), 0);
    cli_print_error(err);
    fflush(stderr);
    cr_assert_geq(dup2(saved, STDERR_FILENO), 0);
    close(saved);
    const long n = ftell(tmp);
    cr_assert_geq(n, 0);
    char *line = calloc((size_t)n + 1, 1);
    cr_assert_not_null(line);
    rewind(tmp);
    cr_assert_eq(fread(line, 1, (size_t)n, tmp), (size_t)n);
    fclose(tmp);
    return line;
}

/* The detail can quote a path from the command line: its control bytes are escaped on the
 * error line like every other text from outside. */
Test(exit_status, the_detail_on_the_error_line_is_escaped)
{
    gs_error err = {.status = GS_E_IO, .offset = 0, .context_kind = GS_CONTEXT_NONE};
    snprintf(err.detail, sizeof err.detail, "open 'a\x1b[2Jb': No such file");
    char *line = error_line_of(&err);
    cr_expect_str_eq(line, "error: GS_E_IO at byte 0 (-): I/O error while opening, mapping or "
                           "reading the file: open 'a\\x1b[2Jb': No such file\n");
    free(line);
}
