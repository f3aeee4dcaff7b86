#define _POSIX_C_SOURCE 200809L
/* The command line of every command, through its option table (cli_opts.h): the tables are
 * consistent (a letter means one thing in every command); every option that is not repeatable,
 * given twice in any mix of long and short forms, is a usage error naming it; each short form
 * gives the same bytes as its long form (attached values and bundles too); unknown options,
 * missing and bad values, exclusive options and wrong operand counts give their exact error
 * lines; "--" and "-"; --help from the same table. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_test.h"
#include "commands.h"

CLI_SAMPLE_SUITE(options);

/* ---- the tables -------------------------------------------------------------------------- */

Test(options, tables_are_consistent)
{
    for (size_t c = 0; c < cli_command_count; c++) {
        const cli_command *cmd = cli_commands[c];
        cr_expect_leq(cmd->n_options, CLI_MAX_OPTIONS, "%s", cmd->name);
        cr_expect_not_null(cmd->description, "%s", cmd->name);
        cr_expect_not_null(cmd->exit_status, "%s", cmd->name);
        for (size_t i = 0; i < cmd->n_options; i++) {
            const cli_opt *o = &cmd->options[i];
            cr_expect_str_neq(o->name, "help", "%s: --help is every command's", cmd->name);
            cr_expect_neq(o->letter, 'h', "%s --%s: -h is every command's", cmd->name, o->name);
            cr_expect(o->kind == CLI_KIND_FLAG || o->arg != NULL, "%s --%s has no value name",
                      cmd->name, o->name);
            cr_expect((o->flags & CLI_HIDDEN) != 0 || o->help != NULL, "%s --%s has no help",
                      cmd->name, o->name);
            cr_expect(!o->repeatable || o->kind == CLI_KIND_PATH || o->kind == CLI_KIND_GLOB ||
                          o->kind == CLI_KIND_TEXT,
                      "%s --%s: only text values repeat", cmd->name, o->name);
            cr_expect(o->kind != CLI_KIND_CHOICE || (o->choices != NULL && o->choices[0]),
                      "%s --%s", cmd->name, o->name);
            cr_expect(o->kind != CLI_KIND_COUNT || o->min <= o->max, "%s --%s", cmd->name,
                      o->name);
            cr_expect(o->excludes == NULL || cli_find_option(cmd, o->excludes) != NULL,
                      "%s --%s excludes an option it does not have", cmd->name, o->name);
            for (size_t k = 0; k < i; k++) {
                cr_expect_str_neq(cmd->options[k].name, o->name, "%s: --%s twice", cmd->name,
                                  o->name);
                cr_expect(o->letter == 0 || cmd->options[k].letter != o->letter,
                          "%s: -%c twice", cmd->name, o->letter);
            }
            /* one letter, one meaning: in every command the same long name */
            for (size_t d = 0; d < cli_command_count && o->letter != 0; d++) {
                for (size_t k = 0; k < cli_commands[d]->n_options; k++) {
                    const cli_opt *p = &cli_commands[d]->options[k];
                    bool same = p->letter != o->letter || strcmp(p->name, o->name) == 0 ||
                                o->letter == 'o'; /* each command's own output file */
                    cr_expect(same, "-%c is --%s in %s but --%s in %s", o->letter, o->name,
                              cmd->name, p->name, cli_commands[d]->name);
                }
            }
        }
        for (size_t i = 0; i + 1 < cmd->n_operands; i++) {
            cr_expect(!cmd->operands[i].repeatable, "%s: only the last operand repeats",
                      cmd->name);
        }
    }
    /* the letters the conventions promise */
    static const struct {
        const char *command, *name;
        char letter;
    } promised[] = {
        {"info", "output", 'o'},    {"certify", "output", 'o'}, {"verify", "output", 'o'},
        {"hash", "manifest", 'o'},  {"dequant", "out", 'o'},    {"certify", "jobs", 'j'},
        {"hash", "jobs", 'j'},      {"verify", "jobs", 'j'},    {"diff", "jobs", 'j'},
        {"certify", "quiet", 'q'},  {"hash", "quiet", 'q'},     {"verify", "quiet", 'q'},
        {"diff", "quiet", 'q'},     {"diff", "output", 0},      /* -o is left for diff --html */
    };
    for (size_t i = 0; i < sizeof promised / sizeof promised[0]; i++) {
        const cli_command *cmd = cli_find_command(promised[i].command);
        cr_assert_not_null(cmd);
        const cli_opt *o = cli_find_option(cmd, promised[i].name);
        cr_assert_not_null(o, "%s --%s", promised[i].command, promised[i].name);
        cr_expect_eq(o->letter, promised[i].letter, "%s --%s", promised[i].command,
                     promised[i].name);
        cr_expect(o->letter != 'o' || o->kind == CLI_KIND_PATH);
    }
}

/* ---- an option given twice --------------------------------------------------------------- */

/* A value option o accepts. */
static const char *valid_value(const cli_opt *o)
{
    switch (o->kind) {
    case CLI_KIND_FLAG:
        return NULL;
    case CLI_KIND_COUNT:
        return o->min == 0 ? "0" : "1";
    case CLI_KIND_FLOAT:
        return "0.5";
    case CLI_KIND_CHOICE:
        return o->choices[0];
    case CLI_KIND_PATH:
    case CLI_KIND_GLOB:
    case CLI_KIND_TEXT:
        break;
    }
    return "x.gguf";
}

/* Appends o in its long (short = false) or short form, with its value, to args. */
static void push_option(const char **args, size_t *n, const cli_opt *o, bool letter,
                        char *buf /* 64 bytes */)
{
    const char *value = valid_value(o);
    if (letter) {
        snprintf(buf, 64, "-%c", o->letter);
    } else {
        snprintf(buf, 64, "--%s", o->name);
    }
    args[(*n)++] = buf;
    if (value != NULL) {
        args[(*n)++] = value;
    }
}

Test(options, every_option_not_repeatable_given_twice_is_a_usage_error)
{
    size_t checked = 0;
    for (size_t c = 0; c < cli_command_count; c++) {
        const cli_command *cmd = cli_commands[c];
        for (size_t i = 0; i < cmd->n_options; i++) {
            const cli_opt *o = &cmd->options[i];
            if (o->repeatable) {
                continue;
            }
            char want[256];
            snprintf(want, sizeof want,
                     "error: --%s given twice\nrun 'ggufsafe %s --help' for usage\n", o->name,
                     cmd->name);
            /* long+long, short+long, long+short, short+short */
            for (int form = 0; form < 4; form++) {
                bool first = (form & 1) != 0, second = (form & 2) != 0;
                if ((first || second) && o->letter == 0) {
                    continue;
                }
                const char *args[8];
                char b1[64], b2[64];
                size_t n = 0;
                args[n++] = cmd->name;
                push_option(args, &n, o, first, b1);
                push_option(args, &n, o, second, b2);
                args[n] = NULL;
                run_result r;
                cr_assert(run_cli_v(&r, false, args));
                cr_expect_eq(r.status, 2, "%s %s %s", cmd->name, b1, b2);
                cr_expect_str_eq(r.err, want, "%s %s %s", cmd->name, b1, b2);
                cr_expect_eq(r.out_len, 0);
                run_result_free(&r);
                checked++;
            }
        }
    }
    cr_expect_geq(checked, 60, "only %zu cases", checked);
}

Test(options, repeatable_options_take_every_value)
{
    /* --tensor twice is two patterns, not an error (the selection itself: test_cli_filters) */
    run_result r;
    CLI_RUN(r, 0, "dequant", sample, "--sha256", "--tensor", "blk.0.q4_0.weight",
            "--tensor=blk.0.f32.weight");
    cr_expect_eq(r.err_len, 0);
    size_t lines = 0;
    for (const char *c = r.out; *c != '\0'; c++) {
        lines += *c == '\n';
    }
    cr_expect_eq(lines, 2, "%s", r.out);
    run_result_free(&r);
}

/* ---- exact error lines --------------------------------------------------------------------- */

/* Runs args, expects exit 2, no stdout and exactly err_line + the pointer to --help. */
static void expect_usage(const char *const *args, const char *err_line)
{
    run_result r;
    cr_assert(run_cli_v(&r, false, args));
    char want[512];
    snprintf(want, sizeof want, "%s\nrun 'ggufsafe %s --help' for usage\n", err_line, args[0]);
    cr_expect_eq(r.status, 2, "%s %s: exit %d", args[0], args[1] ? args[1] : "", r.status);
    cr_expect_str_eq(r.err, want);
    cr_expect_eq(r.out_len, 0, "%s", r.out);
    run_result_free(&r);
}

#define USAGE(line, ...)                                                                         \
    do {                                                                                         \
        const char *const a_[] = {__VA_ARGS__, NULL};                                            \
        expect_usage(a_, line);                                                                  \
    } while (0)

Test(options, usage_errors_name_the_option)
{
    USAGE("error: unknown option '--frob'", "info", "--frob", "x.gguf");
    USAGE("error: unknown option '--frob'", "info", "--frob=1", "x.gguf");
    USAGE("error: unknown option '-z'", "info", "-z", "x.gguf");
    USAGE("error: unknown option '-z' (in '-qz')", "hash", "-qz", "x.gguf");
    USAGE("error: unknown option '-j'", "info", "-j", "2", "x.gguf"); /* info has no threads */
    USAGE("error: option --rows needs a value", "info", "x.gguf", "--rows");
    USAGE("error: option -j (--jobs) needs a value", "hash", "x.gguf", "-j");
    USAGE("error: option -j (--jobs) needs a value", "hash", "x.gguf", "-qj");
    USAGE("error: --json takes no value", "info", "--json=yes", "x.gguf");
    USAGE("error: --help takes no value", "info", "--help=1");
    USAGE("error: --jobs needs a count from 1 to 256, not '0'", "hash", "-j", "0", "x.gguf");
    USAGE("error: --jobs needs a count from 1 to 256, not '257'", "hash", "-j257", "x.gguf");
    USAGE("error: --jobs needs a count from 1 to 256, not 'q'", "hash", "-jq", "x.gguf");
    USAGE("error: --jobs needs a count from 1 to 256, not '+2'", "hash", "--jobs=+2", "x.gguf");
    USAGE("error: --jobs needs a count from 1 to 256, not ''", "hash", "--jobs=", "x.gguf");
    USAGE("error: --rows needs a count from 0 to 1073741824, not 'many'", "info", "--rows",
          "many", "x.gguf");
    USAGE("error: --rows needs a count from 0 to 1073741824, not '18446744073709551616'", "info",
          "--rows", "18446744073709551616", "x.gguf");
    USAGE("error: --max-nmse needs a number >= 0, not '-1'", "diff", "a", "b", "--max-nmse=-1");
    USAGE("error: --max-nmse needs a number >= 0, not 'abc'", "diff", "a", "b", "--max-nmse",
          "abc");
    USAGE("error: --max-abs needs a number >= 0, not 'nan'", "diff", "a", "b", "--max-abs",
          "nan");
    USAGE("error: --max-abs needs a number >= 0, not 'inf'", "diff", "a", "b", "--max-abs",
          "inf");
    USAGE("error: --max-abs needs a number >= 0, not ' 1'", "diff", "a", "b", "--max-abs", " 1");
    USAGE("error: --max-abs needs a number >= 0, not '0x10'", "diff", "a", "b", "--max-abs",
          "0x10");
    USAGE("error: --max-abs needs a number >= 0, not '1e999'", "diff", "a", "b", "--max-abs",
          "1e999");
    USAGE("error: --min-cos needs a number from -1 to 1, not '1.5'", "diff", "a", "b",
          "--min-cos", "1.5");
    USAGE("error: --profile must be strict or lenient, not 'medium'", "info", "--profile",
          "medium", "x.gguf");
    USAGE("error: --fail-on must be error or warning, not 'info'", "certify", "--fail-on=info",
          "x.gguf");
    USAGE("error: --output needs a file name", "info", "--output=", "x.gguf");
    USAGE("error: --tensor needs a pattern", "diff", "a", "b", "--tensor", "");
    USAGE("error: --json and --sarif are exclusive", "certify", "--json", "--sarif", "x.gguf");
    USAGE("error: --sarif and --json are exclusive", "certify", "--sarif", "x.gguf", "--json");
    USAGE("error: --sha256 and --json are exclusive", "dequant", "--sha256", "--json", "x.gguf");
    USAGE("error: FILE missing", "info");
    USAGE("error: FILE missing", "info", "--json");
    USAGE("error: MANIFEST missing (or give --manifest-dir DIR)", "verify", "x.gguf");
    USAGE("error: FILE missing", "verify");
    USAGE("error: B missing", "diff", "a.gguf");
    USAGE("error: 2 files: give --manifest-dir DIR for one manifest per file", "hash", "a.gguf",
          "b.gguf");
    USAGE("error: FILE and MANIFEST only (several files: --manifest-dir DIR); unexpected "
          "argument 'c'",
          "verify", "a", "b", "c");
    USAGE("error: diff takes two files (A B) or three (REF A B), not 4", "diff", "a", "b", "c",
          "d");
    USAGE("error: FILE and MANIFEST only (several files: --manifest-dir DIR); unexpected "
          "argument 'm2'",
          "verify", "f", "m", "m2");
    USAGE("error: 2 files: give --manifest-dir DIR for one manifest per file", "hash", "a.gguf",
          "--", "--json");
    USAGE("error: --list-codes takes no FILE", "certify", "--list-codes", "x.gguf");
    USAGE("error: --deep does not go with --list-codes", "certify", "--list-codes", "--deep");
    USAGE("error: --out - and --sha256 would both write to standard output", "dequant", "x.gguf",
          "--sha256", "-o", "-");
}

Test(options, double_dash_and_lone_dash_are_operands)
{
    /* after "--", "--json" is a file name; a lone "-" is one anyway */
    static const char *const names[] = {"--json", "-"};
    for (int i = 0; i < 2; i++) {
        run_result r;
        if (i == 0) {
            cr_assert(run_cli(&r, "info", "--", "--json", NULL));
        } else {
            cr_assert(run_cli(&r, "info", "-", NULL));
        }
        char want[128];
        snprintf(want, sizeof want, "error: cannot read '%s': open: No such file or directory\n",
                 names[i]);
        cr_expect_eq(r.status, 2);
        cr_expect_str_eq(r.err, want);
        run_result_free(&r);
    }
}

/* ---- short forms ---------------------------------------------------------------------------- */

/* stdout of a run that must succeed (exit 0 or 1 as given), with nothing on stderr. */
static char *stdout_of(const char *const *args, int status)
{
    run_result r;
    cr_assert(run_cli_v(&r, false, args));
    cr_assert_eq(r.status, status, "%s: exit %d: %s", args[0], r.status, r.err);
    cr_expect_eq(r.err_len, 0, "%s: %s", args[0], r.err);
    char *out = r.out;
    r.out = NULL;
    run_result_free(&r);
    return out;
}

/* Every argument list in forms[] gives the bytes of forms[0]. */
static void same_output(const char *const *const forms[], size_t n, int status)
{
    char *want = stdout_of(forms[0], status);
    cr_expect_gt(strlen(want), 0, "%s printed nothing", forms[0][0]);
    for (size_t i = 1; i < n; i++) {
        char *got = stdout_of(forms[i], status);
        cr_expect_str_eq(got, want, "%s: form %zu", forms[0][0], i);
        free(got);
    }
    free(want);
}

#define FORMS(...) (const char *const *const[]){__VA_ARGS__}
#define ARGS(...) (const char *const[]){__VA_ARGS__, NULL}
#define N_FORMS(...) (sizeof(FORMS(__VA_ARGS__)) / sizeof(const char *const *))
#define SAME_OUTPUT(status, ...) same_output(FORMS(__VA_ARGS__), N_FORMS(__VA_ARGS__), status)

Test(options, short_forms_equal_long_forms)
{
    SAME_OUTPUT(0, ARGS("hash", "--jobs", "2", sample), ARGS("hash", "-j", "2", sample),
                ARGS("hash", "-j2", sample), ARGS("hash", "--jobs=2", sample),
                ARGS("hash", sample, "--quiet", "--jobs", "2"), ARGS("hash", "-q", "-j", "2", sample),
                ARGS("hash", "-qj2", sample), ARGS("hash", "-qj", "2", sample));
    SAME_OUTPUT(0, ARGS("certify", "--quiet", "--jobs", "3", "--deep", sample),
                ARGS("certify", "-qj3", "--deep", sample),
                ARGS("certify", "--deep", "-j", "3", "-q", sample));
    SAME_OUTPUT(0, ARGS("certify", sample, "--output", "-"), ARGS("certify", sample, "-o", "-"),
                ARGS("certify", sample, "-o-"), ARGS("certify", sample));
    SAME_OUTPUT(0, ARGS("certify", "--help"), ARGS("certify", "-qh"), ARGS("certify", "-hq"));
    for (size_t c = 0; c < cli_command_count; c++) {
        const char *name = cli_commands[c]->name;
        SAME_OUTPUT(0, ARGS(name, "--help"), ARGS(name, "-h"), ARGS(name, "x.gguf", "--help"),
                    ARGS("help", name));
    }
    /* -o FILE and its long form write the same file */
    char *one = path_join(dir, "one.manifest"), *two = path_join(dir, "two.manifest");
    char *manifest = stdout_of(ARGS("hash", sample), 0);
    char *empty = stdout_of(ARGS("hash", "-o", one, sample), 0);
    cr_expect_str_eq(empty, "");
    free(empty);
    empty = stdout_of(ARGS("hash", "--manifest", two, sample), 0);
    free(empty);
    size_t n1, n2;
    char *b1 = read_file(one, &n1), *b2 = read_file(two, &n2);
    cr_assert_not_null(b1);
    cr_assert_not_null(b2);
    cr_expect_str_eq(b1, manifest);
    cr_expect_str_eq(b2, manifest);
    free(b1);
    free(b2);
    free(manifest);
    free(one);
    free(two);
}

Test(options, help_comes_from_the_table)
{
    for (size_t c = 0; c < cli_command_count; c++) {
        const cli_command *cmd = cli_commands[c];
        char *help = stdout_of(ARGS(cmd->name, "--help"), 0);
        char head[64];
        snprintf(head, sizeof head, "usage: ggufsafe %s ", cmd->name);
        cr_expect(strncmp(help, head, strlen(head)) == 0, "%s", help);
        for (size_t i = 0; i < cmd->n_options; i++) {
            const cli_opt *o = &cmd->options[i];
            char line[80];
            if (o->letter != 0) {
                snprintf(line, sizeof line, "\n  -%c, --%s", o->letter, o->name);
            } else {
                snprintf(line, sizeof line, "\n      --%s", o->name);
            }
            bool listed = contains(help, line);
            cr_expect(listed == ((o->flags & CLI_HIDDEN) == 0), "%s --%s: listed %d", cmd->name,
                      o->name, listed);
        }
        cr_expect(contains(help, "\n  -h, --help "), "%s", cmd->name);
        cr_expect(contains(help, "\nexit status: "), "%s", cmd->name);
        /* no line is wider than 79 columns but a path that cannot be broken */
        for (const char *line = help; *line != '\0';) {
            const char *end = strchr(line, '\n');
            size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
            cr_expect(len <= 79 || memchr(line, '/', len) != NULL, "%s: %.*s", cmd->name,
                      (int)len, line);
            line += len + (end != NULL);
        }
        free(help);
    }
    /* the schemas are named where they are installed, not in the source tree */
    char *help = stdout_of(ARGS("info", "--help"), 0);
    cr_expect(contains(help, GGUFSAFE_SCHEMA_DIR "/info.schema.json"), "%s", help);
    cr_expect(!contains(help, "conformance/"), "%s", help);
    free(help);
    help = stdout_of(ARGS("certify", "--help"), 0);
    cr_expect(contains(help, "ggufsafe certify --list-codes"), "%s", help);
    cr_expect(!contains(help, "docs/"), "%s", help);
    free(help);
}

/* ---- the error lines of files, in process ---------------------------------------------------- */

typedef struct read_error_case {
    gs_error err;
    const char *path, *label;
    bool open; /* cli_print_open_failure, else cli_print_read_error */
} read_error_case;

/* What the case prints on stderr, and its exit code. */
static char *stderr_of(const read_error_case *c, int *code)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    cr_assert_not_null(tmp);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    *code = c->open ? cli_print_open_failure(&c->err, c->path, c->label)
                    : cli_print_read_error(&c->err, c->path, c->label);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long n = ftell(tmp);
    char *out = calloc(1, (size_t)n + 1);
    rewind(tmp);
    cr_assert_eq(fread(out, 1, (size_t)n, tmp), (size_t)n);
    fclose(tmp);
    return out;
}

Test(options, file_error_lines_name_the_file_first)
{
    /* a long path with a control byte: escaped whole, never cut */
    char hostile[400];
    memset(hostile, 'a', 300);
    static const char tail[] = "\x1b[2J\xc3\xa9.gguf";
    memcpy(hostile + 300, tail, sizeof tail);
    char hostile_escaped[400];
    snprintf(hostile_escaped, sizeof hostile_escaped, "%.300s\\x1b[2J\xc3\xa9.gguf", hostile);
    /* want = before + (the status's message, or middle) + after */
    const struct {
        read_error_case c;
        const char *before, *middle, *after;
        int code;
    } cases[] = {
        /* a part that shrank while it was hashed: the part is the file */
        {{{GS_E_TRUNCATED, 4096, GS_CONTEXT_PART, "m-00002-of-00003.gguf", "the file changed"},
          "m-00001-of-00003.gguf", NULL, false},
         "error: cannot read 'm-00002-of-00003.gguf': GS_E_TRUNCATED at byte 4096: ", NULL,
         ": the file changed\n", 2},
        /* a read that failed inside a tensor, on side B */
        {{{GS_E_IO, 96, GS_CONTEXT_TENSOR, "blk.0.w", ""}, "b.gguf", "B", true},
         "error: cannot read 'b.gguf' (B): GS_E_IO at byte 96 (blk.0.w): ", NULL, "\n", 2},
        /* the file's contents: the reader's line, then the side and the path */
        {{{GS_E_BAD_MAGIC, 0, GS_CONTEXT_HEADER, "", "magic"}, "a.gguf", "A", true},
         "error: GS_E_BAD_MAGIC at byte 0 (header): ", NULL, ": magic (A: a.gguf)\n", 1},
        {{{GS_E_TOO_MANY_DIMS, 77, GS_CONTEXT_TENSOR, "t", "5 > 4"}, "a.gguf", NULL, true},
         "error: GS_E_TOO_MANY_DIMS at byte 77 (t): ", NULL, ": 5 > 4\n", 1},
        {{{GS_E_IO, 0, GS_CONTEXT_NONE, "", "open: No such file or directory"}, hostile, NULL,
          true},
         "error: cannot read '", hostile_escaped, "': open: No such file or directory\n", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char want[2048];
        snprintf(want, sizeof want, "%s%s%s", cases[i].before,
                 cases[i].middle != NULL ? cases[i].middle
                                         : gs_status_message(cases[i].c.err.status),
                 cases[i].after);
        int code;
        char *got = stderr_of(&cases[i].c, &code);
        cr_expect_str_eq(got, want, "case %zu", i);
        cr_expect_eq(code, cases[i].code, "case %zu", i);
        free(got);
    }
}
