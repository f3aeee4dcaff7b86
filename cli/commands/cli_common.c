#define _POSIX_C_SOURCE 200809L /* fdopen */
#include "cli_common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_source.h"
#include "cli_types.h"
#include "sha256.h"
#include "open_regular.h"
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

/* s escaped, whole: in pieces that never split a UTF-8 sequence. */
static void print_escaped(FILE *out, const char *s)
{
    size_t n = strlen(s);
    const uint8_t *p = (const uint8_t *)s;
    char buf[4 * 256 + 8];
    while (n > 0) {
        size_t cut = n < 256 ? n : 256;
        for (int k = 0; k < 3 && cut > 1 && cut < n && (p[cut] & 0xc0) == 0x80; k++) {
            cut--;
        }
        gsi_escape_text(buf, sizeof buf, p, cut);
        fputs(buf, out);
        p += cut;
        n -= cut;
    }
}

/* "<STATUS> at byte <offset> (<context>): <message>[: <detail>]"; without a context, "(-)"
 * only when dash (the error line's fixed form). */
static void print_status(const gs_error *err, bool dash)
{
    const char *context = dash ? "-" : NULL;
    if (err->context_kind == GS_CONTEXT_HEADER) {
        context = "header";
    } else if (err->context[0] != '\0') {
        context = err->context; /* already escaped by the reader */
    }
    fprintf(stderr, "%s at byte %llu%s%s%s: %s", gs_status_name(err->status),
            (unsigned long long)err->offset, context != NULL ? " (" : "",
            context != NULL ? context : "", context != NULL ? ")" : "",
            gs_status_message(err->status));
    if (err->detail[0] != '\0') {
        /* the detail is the library's own text, but it can quote a path from the command line */
        fputs(": ", stderr);
        print_escaped(stderr, err->detail);
    }
}

/* What to do about a type id we do not know, on the error line itself: the type may be new (a
 * format under development), not the file broken. */
static void print_unknown_type_hint(const gs_error *err)
{
    if (err->status == GS_E_UNKNOWN_TENSOR_TYPE) {
        fputs("; to read a new type, define it with --type " CLI_TYPE_ARG
              " or load a decoder for it with --plugin PATH.so or --ggml PATH",
              stderr);
    }
}

void cli_print_error(const gs_error *err)
{
    fflush(stdout);
    fputs("error: ", stderr);
    print_status(err, true);
    print_unknown_type_hint(err);
    fputc('\n', stderr);
}

int cli_print_out_of_memory(void)
{
    fflush(stdout);
    fprintf(stderr, "error: out of memory\n");
    return CLI_EXIT_USAGE;
}

int cli_need_sha256(const char *command)
{
    const char *why = cli_sha256_problem();
    if (why == NULL) {
        return -1;
    }
    fflush(stdout);
    fprintf(stderr, "error: %s: %s\n", command, why);
    return CLI_EXIT_USAGE;
}

static void print_path_head(const char *verb, const char *path, const char *label)
{
    fflush(stdout);
    fprintf(stderr, "error: cannot %s '", verb);
    print_escaped(stderr, path);
    fputc('\'', stderr);
    if (label != NULL) {
        fprintf(stderr, " (%s)", label);
    }
    fputs(": ", stderr);
}

int cli_path_error(const char *verb, const char *path, const char *label, const char *why)
{
    print_path_head(verb, path, label);
    print_escaped(stderr, why);
    fputc('\n', stderr);
    return CLI_EXIT_USAGE;
}

FILE *cli_open_input(const char *what, const char *path, int *code)
{
    char verb[64];
    snprintf(verb, sizeof verb, "open the %s", what);
    int fd;
    struct stat st;
    char why[GS_ERROR_TEXT_MAX];
    if (gsi_open_regular(path, &fd, &st, why, sizeof why) != GS_OK) {
        *code = cli_path_error(verb, path, NULL, why);
        return NULL;
    }
    FILE *in = fdopen(fd, "r");
    if (in == NULL) {
        int e = errno;
        close(fd);
        *code = cli_path_error(verb, path, NULL, strerror(e));
    }
    return in;
}

int cli_read_input(const char *what, const char *path, bool located, cli_input_reader read,
                   void *out)
{
    int code;
    FILE *in = cli_open_input(what, path, &code);
    if (in == NULL) {
        return code;
    }
    gs_error err;
    gs_status status = read(in, out, &err);
    fclose(in);
    if (status == GS_E_NO_MEMORY) {
        return cli_print_out_of_memory();
    }
    if (status == GS_E_IO) {
        char verb[64];
        snprintf(verb, sizeof verb, "read the %s", what);
        return cli_path_error(verb, path, NULL, err.detail);
    }
    if (status != GS_OK) {
        fflush(stdout);
        cli_text t, d;
        cli_text_escape_cstr(&t, path);
        if (located) {
            fprintf(stderr, "error: malformed %s %s:%s\n", what, t.s, err.detail);
        } else {
            cli_text_escape_cstr(&d, err.detail);
            fprintf(stderr, "error: malformed %s '%s': %s\n", what, t.s, d.s);
        }
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* What the surroundings of a path got wrong, not its contents: the file names the error. */
static bool open_environment(gs_status status)
{
    return status == GS_E_IO || status == GS_E_NO_SUCH_FILE || status == GS_E_NOT_REGULAR_FILE ||
           status == GS_E_FILE_CHANGED;
}

int cli_print_open_failure(const gs_error *err, const char *path, const char *label)
{
    if (err->status == GS_E_NO_MEMORY) {
        return cli_print_out_of_memory();
    }
    if (open_environment(err->status) && err->offset == 0 &&
        err->context_kind == GS_CONTEXT_NONE) {
        return cli_path_error("read", path, label,
                              err->detail[0] != '\0' ? err->detail
                                                     : gs_status_message(err->status));
    }
    if (open_environment(err->status)) {
        return cli_print_read_error(err, path, label);
    }
    fflush(stdout);
    fputs("error: ", stderr);
    print_status(err, true);
    print_unknown_type_hint(err);
    if (label != NULL) {
        fprintf(stderr, " (%s: ", label);
        print_escaped(stderr, path);
        fputc(')', stderr);
    }
    fputc('\n', stderr);
    return cli_exit_for_status(err->status);
}

int cli_print_read_error(const gs_error *err, const char *path, const char *label)
{
    if (err->status == GS_E_NO_MEMORY) {
        return cli_print_out_of_memory();
    }
    gs_error e = *err;
    if (e.context_kind == GS_CONTEXT_PART) {
        /* the part's name is the file; it is already escaped */
        fflush(stdout);
        fprintf(stderr, "error: cannot read '%s'%s%s%s: ", e.context, label ? " (" : "",
                label ? label : "", label ? ")" : "");
        e.context_kind = GS_CONTEXT_NONE;
        e.context[0] = '\0';
    } else {
        print_path_head("read", path, label);
    }
    print_status(&e, false);
    fputc('\n', stderr);
    return CLI_EXIT_USAGE;
}

int cli_print_failure(const gs_error *err)
{
    if (err->status == GS_E_NO_MEMORY) {
        return cli_print_out_of_memory();
    }
    cli_print_error(err);
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
                        "neon, ggml)\n", gs_status_name(GS_E_KERNEL_UNAVAILABLE), env.s);
    } else if (k == GS_KERNEL_GGML) {
        char why[2048];
        (void)gs_ggml_describe(why, sizeof why);
        cli_text reason;
        cli_text_escape_cstr(&reason, why);
        fprintf(stderr, "error: %s: decoder path 'ggml' (GGUFSAFE_KERNEL) has no usable ggml "
                        "library: %s\nhint: name a libggml-base with --ggml PATH or "
                        "GGUFSAFE_GGML=PATH (ggufsafe(1), ENVIRONMENT)\n",
                gs_status_name(GS_E_KERNEL_UNAVAILABLE), reason.s);
    } else {
        fprintf(stderr, "error: %s: decoder path '%s' (GGUFSAFE_KERNEL) is not available on this "
                        "CPU or build\n", gs_status_name(GS_E_KERNEL_UNAVAILABLE),
                gs_kernel_name(k));
    }
    return CLI_EXIT_USAGE;
}

int cli_load_ggml(const char *command, const char *path, bool in_process, uint64_t timeout_ms)
{
    gs_error err;
    const gs_status st = path != NULL ? gs_set_ggml_library(path, &err) : GS_OK;
    if (st != GS_OK) {
        char why[2048];
        (void)gs_ggml_describe(why, sizeof why); /* the whole reason; err.detail is its head */
        cli_text reason;
        cli_text_escape_cstr(&reason, st == GS_E_INVALID_ARGUMENT ? err.detail : why);
        fprintf(stderr, "error: %s: --ggml: %s\nhint: give the path of a libggml-base.so, 0.9 or "
                        "a later 0.x release (ggufsafe(1), ENVIRONMENT)\n",
                gs_status_name(st), reason.s);
        return CLI_EXIT_USAGE;
    }
    bool usable = false;
    if (!in_process && gs_active_kernel(&usable) == GS_KERNEL_GGML && usable) {
        /* GGUFSAFE_KERNEL=ggml: every type ggml decodes, in the child; the library here only
         * vouches, copies F32 and refuses what ggml cannot convert. Without --ggml, the one
         * GGUFSAFE_GGML named, and (as in-process) none of its new types. */
        const char *lib = path != NULL ? path : getenv("GGUFSAFE_GGML");
        if (lib != NULL) {
            return cli_types_load_ggml_child(command, lib, true, path != NULL, timeout_ms);
        }
    }
    if (path == NULL) {
        return -1;
    }
    size_t n = 0;
    const gs_decoder *d = gs_ggml_decoders(&n);
    if (n > 0 && !in_process) {
        return cli_types_load_ggml_child(command, path, false, true, timeout_ms);
    }
    return cli_types_add_decoders(command, d, n);
}

int cli_kernel_tensor_unavailable(const char *tensor_name, size_t name_len, int32_t type)
{
    bool usable;
    if (gs_active_kernel(&usable) != GS_KERNEL_GGML || !usable) {
        return -1;
    }
    char lib[2048];
    (void)gs_ggml_describe(lib, sizeof lib);
    char name[4 * CLI_TEXT_MAX_SRC + 8];
    gsi_escape_text(name, sizeof name, (const uint8_t *)tensor_name, name_len);
    cli_text where;
    cli_text_escape_cstr(&where, lib);
    fprintf(stderr, "error: %s: tensor '%s' (%s): %s has no decoder for this type, and "
                    "ggufsafe does not decode it in ggml's place\nhint: leave the tensor out "
                    "(--exclude) or compare it on another path (GGUFSAFE_KERNEL=scalar)\n",
            gs_status_name(GS_E_KERNEL_UNAVAILABLE), name, gs_type_name(type), where.s);
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
    fflush(stdout);
    fputs("error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    usage_hint(command);
    return CLI_EXIT_USAGE;
}

int cli_no_tensor_left(const char *command, const char *where, const cli_list *tensors,
                       size_t n_excludes)
{
    if (tensors->n == 1 && n_excludes == 0) {
        const char *only = tensors->items[0];
        char what[64];
        snprintf(what, sizeof what, "no tensor%s %s", where,
                 strpbrk(only, "*?[\\") != NULL ? "matches" : "named");
        return cli_usage_error_arg(command, what, only);
    }
    return cli_usage_error(command, "no tensor%s is left by the --tensor and --exclude patterns",
                           where);
}

int cli_usage_error_arg(const char *command, const char *what, const char *arg)
{
    cli_text t;
    cli_text_escape_cstr(&t, arg);
    return cli_usage_error(command, "%s '%s'", what, t.s);
}

void cli_options(gs_profile profile, gs_options *opts)
{
    cli_reader_options(opts, profile);
    cli_types_apply(opts); /* --type (and --plugin) of the command */
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
        fprintf(stderr, "error: cannot write to standard output: %s\n",
                e != 0 ? strerror(e) : "write failed");
        return CLI_EXIT_USAGE;
    }
    return code;
}

void *cli_xmalloc(size_t size)
{
    void *p = malloc(size > 0 ? size : 1);
    if (p == NULL) {
        exit(cli_print_out_of_memory());
    }
    return p;
}
