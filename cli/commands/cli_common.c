#include "cli_common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_escape.h"
#include "text_out.h"

int cli_exit_for_status(gs_status status)
{
    if (status == GS_OK) {
        return CLI_EXIT_OK;
    }
    /* Codes below 20 are the caller or the environment, never the file's contents; a file that
     * is not GGUF at all is a bad file under test like any other (docs/cli.md, "Exit status"). */
    if ((int)status < 20) {
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_INVALID;
}

void cli_print_error(const gs_error *err)
{
    const char *context = "-";
    if (err->context_kind == GS_CONTEXT_HEADER) {
        context = "header";
    } else if (err->context[0] != '\0') {
        context = err->context; /* already escaped by the reader */
    }
    /* The detail is the library's own text, but it can quote a path from the command line. */
    char detail[4 * GS_ERROR_TEXT_MAX + 4];
    gsi_escape_text(detail, sizeof detail, (const uint8_t *)err->detail,
                    strlen(err->detail));
    fprintf(stderr, "error: %s at byte %llu (%s): %s%s%s\n", gs_status_name(err->status),
            (unsigned long long)err->offset, context, gs_status_message(err->status),
            detail[0] != '\0' ? ": " : "", detail);
}

int cli_print_failure(const gs_error *err)
{
    if (err->status == GS_E_NO_MEMORY) {
        fflush(stdout);
        fprintf(stderr, "error: out of memory\n");
    } else {
        cli_print_error(err);
    }
    return cli_exit_for_status(err->status);
}

int cli_kernel_unavailable(void)
{
    bool usable;
    gs_kernel k = gs_active_kernel(&usable);
    if (usable) {
        return -1;
    }
    if (k == GS_KERNEL_AUTO) {
        cli_text env;
        const char *v = getenv("GGUFSAFE_KERNEL");
        cli_text_escape_cstr(&env, v != NULL ? v : "");
        fprintf(stderr, "error: %s: GGUFSAFE_KERNEL='%s' names no decoder path (scalar, avx2, "
                        "neon)\n", gs_status_name(GS_E_KERNEL_UNAVAILABLE), env.s);
    } else {
        fprintf(stderr, "error: %s: decoder path '%s' (GGUFSAFE_KERNEL) is not available on this "
                        "CPU or build\n", gs_status_name(GS_E_KERNEL_UNAVAILABLE),
                gs_kernel_name(k));
    }
    return CLI_EXIT_USAGE;
}

static void usage_hint(const char *command)
{
    if (command != NULL) {
        fprintf(stderr, "run '" CLI_TOOL_NAME " %s --help' for usage\n", command);
    } else {
        fprintf(stderr, "run '" CLI_TOOL_NAME " --help' for usage\n");
    }
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    usage_hint(command);
    return CLI_EXIT_USAGE;
}

int cli_usage_error_arg(const char *command, const char *what, const char *arg)
{
    cli_text t;
    cli_text_escape_cstr(&t, arg);
    return cli_usage_error(command, "%s '%s'", what, t.s);
}

void cli_common_init(cli_common *c)
{
    c->json = false;
    c->profile = GS_PROFILE_STRICT;
}

cli_match cli_match_value(const char *command, const char *name, int argc, char **argv, int *i,
                          const char **value)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) {
        return CLI_MATCH_NO;
    }
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return CLI_MATCH_YES;
    }
    if (arg[n] != '\0') {
        return CLI_MATCH_NO; /* a longer option that merely starts with name */
    }
    if (*i + 1 >= argc) {
        cli_usage_error(command, "option %s needs a value", name);
        return CLI_MATCH_ERROR;
    }
    *i += 1;
    *value = argv[*i];
    return CLI_MATCH_YES;
}

cli_match cli_match_common(cli_common *c, const char *command, int argc, char **argv, int *i)
{
    if (strcmp(argv[*i], "--json") == 0) {
        c->json = true;
        return CLI_MATCH_YES;
    }
    const char *value;
    cli_match m = cli_match_value(command, "--profile", argc, argv, i, &value);
    if (m != CLI_MATCH_YES) {
        return m;
    }
    if (strcmp(value, "strict") == 0) {
        c->profile = GS_PROFILE_STRICT;
    } else if (strcmp(value, "lenient") == 0) {
        c->profile = GS_PROFILE_LENIENT;
    } else {
        cli_usage_error_arg(command, "--profile must be strict or lenient, not", value);
        return CLI_MATCH_ERROR;
    }
    return CLI_MATCH_YES;
}

cli_match cli_match_jobs(const char *command, int argc, char **argv, int *i, uint64_t *jobs)
{
    const char *value;
    cli_match m = cli_match_value(command, "--jobs", argc, argv, i, &value);
    if (m == CLI_MATCH_YES && (!cli_parse_u64(value, CLI_MAX_JOBS, jobs) || *jobs == 0)) {
        cli_usage_error_arg(command, "--jobs needs a count from 1 to 256, not", value);
        return CLI_MATCH_ERROR;
    }
    return m;
}

int cli_match_final(const char *command, const char *usage, const char *arg, bool *part_only,
                    bool *options_done)
{
    if (strcmp(arg, "--part-only") == 0) {
        *part_only = true;
    } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
        fputs(usage, stdout);
        return cli_finish_output(CLI_EXIT_OK);
    } else if (strcmp(arg, "--") == 0) {
        *options_done = true;
    } else {
        return cli_usage_error_arg(command, "unknown option", arg);
    }
    return -1;
}

bool cli_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (*s == '\0') {
        return false;
    }
    uint64_t v = 0;
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9') {
            return false;
        }
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (max - d) / 10) {
            return false;
        }
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

bool cli_is_option(const char *arg)
{
    return arg[0] == '-' && arg[1] != '\0';
}

void cli_options(const cli_common *c, gs_options *opts)
{
    gs_options_init(opts);
    opts->profile = c->profile;
    /* Files from elsewhere can change under us: no getter may fault on a truncated mapping. */
    opts->copy_metadata = true;
}

void cli_stdout_sink(gs_sink *sink)
{
    gs_sink_file(sink, stdout);
}

void cli_stdout_out(cli_out *out)
{
    gs_sink sink;
    cli_stdout_sink(&sink);
    (void)cli_out_init(out, &sink);
}

int cli_finish_output(int code)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno;
        fprintf(stderr, "error: writing the report: %s\n", e != 0 ? strerror(e) : "write failed");
        return CLI_EXIT_USAGE;
    }
    return code;
}

void *cli_xmalloc(size_t size)
{
    void *p = malloc(size > 0 ? size : 1);
    if (p == NULL) {
        fflush(stdout);
        fprintf(stderr, "error: out of memory\n");
        exit(CLI_EXIT_USAGE);
    }
    return p;
}
