#define _DEFAULT_SOURCE
#include "cli_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_source.h"
#include "text_out.h"

static cli_types current;
static cli_type_spec specs_storage[GS_TYPE_DEF_MAX]; /* the names the definitions point at */

int cli_types_use(const char *command, const cli_list *specs)
{
    current.n_defs = 0;
    if (specs->n > GS_TYPE_DEF_MAX) {
        return cli_usage_error(command, "%zu --type definitions, at most %u", specs->n,
                               GS_TYPE_DEF_MAX);
    }
    for (size_t i = 0; i < specs->n; i++) {
        char why[GS_ERROR_TEXT_MAX];
        const char *s = specs->items[i];
        if (!cli_type_spec_parse(s, strlen(s), &specs_storage[i], why, sizeof why)) {
            cli_text v;
            cli_text_escape_cstr(&v, s);
            return cli_usage_error(command, "--type '%s': %s (the form is " CLI_TYPE_ARG
                                   "[:override])", v.s, why);
        }
        current.defs[i] = specs_storage[i].def;
        current.defs[i].name = specs_storage[i].name;
    }
    gs_error err;
    if (gs_type_defs_check(current.defs, specs->n, &err) != GS_OK) {
        cli_text v;
        cli_text_escape_cstr(&v, specs->items[err.offset < specs->n ? err.offset : 0]);
        return cli_usage_error(command, "--type '%s': %s", v.s, err.detail);
    }
    current.n_defs = specs->n;
    return -1;
}

static gs_plugin *plugins[GS_TYPE_DEF_MAX + 1]; /* the --plugin ones, then ggml's host */
static char self[4096];
static size_t n_plugins;

static void close_plugins(void)
{
    for (size_t i = 0; i < n_plugins; i++) {
        gs_plugin_close(plugins[i]); /* stops the children */
    }
    n_plugins = 0;
}

static void register_close(void)
{
    static bool registered;
    if (!registered) {
        atexit(close_plugins);
        registered = true;
    }
}

/* This program, to re-execute as the plugin host: /proc/self/exe resolved. */
static bool self_path(char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    if (n <= 0 || (size_t)n >= cap - 1) {
        return false;
    }
    buf[n] = '\0';
    return true;
}

/* Keeps p (closed at exit) and adds its decoders to the set, checked as one; the registry's
 * types only unless new_types. */
static int add_plugin(const char *command, gs_plugin *p, bool new_types)
{
    plugins[n_plugins++] = p;
    size_t n;
    const gs_decoder *d = gs_plugin_decoders(p, &n);
    for (size_t k = 0; k < n; k++) {
        if (!new_types && d[k].type.id >= GS_TYPE_COUNT) {
            continue;
        }
        if (current.n_decoders == GS_TYPE_DEF_MAX) {
            return cli_usage_error(command, "--plugin: more than %u decoder types in all",
                                   GS_TYPE_DEF_MAX);
        }
        /* the set as one: a type two plugins serve, or a --type of another geometry */
        for (size_t j = 0; j < current.n_decoders; j++) {
            if (current.decoders[j].type.id == d[k].type.id) {
                return cli_usage_error(command, "--plugin: type id %d is served by %s and %s",
                                       (int)d[k].type.id, current.decoders[j].source,
                                       d[k].source);
            }
        }
        for (size_t j = 0; j < current.n_defs; j++) {
            const gs_type_def *t = &current.defs[j];
            if (t->id == d[k].type.id && (t->block_elems != d[k].type.block_elems ||
                                          t->block_bytes != d[k].type.block_bytes)) {
                return cli_usage_error(command, "--plugin: %s serves type id %d with %u "
                                       "elements in %u bytes, --type says %u in %u",
                                       d[k].source, (int)t->id, d[k].type.block_elems,
                                       d[k].type.block_bytes, t->block_elems,
                                       t->block_bytes);
            }
        }
        current.decoders[current.n_decoders++] = d[k];
    }
    return -1;
}

int cli_types_load_plugins(const char *command, const cli_list *paths, bool in_process,
                           uint64_t timeout_ms)
{
    if (paths->n == 0) {
        return -1;
    }
    if (!in_process && !self_path(self, sizeof self)) {
        return cli_usage_error(command, "--plugin: cannot find this program to run the plugin "
                                        "in a child (/proc/self/exe); use --plugin-in-process");
    }
    register_close();
    for (size_t i = 0; i < paths->n; i++) {
        gs_plugin_options po;
        gs_plugin_options_init(&po);
        po.host_program = in_process ? NULL : self;
        po.timeout_ms = (unsigned)timeout_ms;
        gs_plugin *p;
        gs_error e;
        gs_status st = gs_plugin_open(paths->items[i], &po, &p, &e);
        if (st != GS_OK) {
            cli_text v;
            cli_text_escape_cstr(&v, paths->items[i]);
            fflush(stdout);
            fprintf(stderr, "error: cannot load plugin '%s': %s: %s\n", v.s, gs_status_name(st),
                    e.detail);
            return CLI_EXIT_USAGE;
        }
        int code = add_plugin(command, p, true);
        if (code >= 0) {
            return code;
        }
    }
    return -1;
}

int cli_types_load_ggml_child(const char *command, const char *path, bool kernel, bool new_types,
                              uint64_t timeout_ms)
{
    if (!self_path(self, sizeof self)) {
        return cli_usage_error(command, "--ggml: cannot find this program to run ggml's decoders "
                                        "in a child (/proc/self/exe); use --plugin-in-process");
    }
    register_close();
    gs_plugin_options po;
    gs_plugin_options_init(&po);
    po.host_program = self;
    po.timeout_ms = (unsigned)timeout_ms;
    gs_plugin *p;
    gs_error e;
    gs_status st = kernel ? gs_plugin_open_ggml_kernel(path, &po, &p, &e)
                          : gs_plugin_open_ggml(path, &po, &p, &e);
    if (st != GS_OK) {
        cli_text v;
        cli_text_escape_cstr(&v, path);
        fflush(stdout);
        fprintf(stderr, "error: cannot run ggml library '%s' in a child: %s: %s\nhint: "
                        "--plugin-in-process runs its decoders in this process\n", v.s,
                gs_status_name(st), e.detail);
        return CLI_EXIT_USAGE;
    }
    return add_plugin(command, p, new_types);
}

int cli_types_add_decoders(const char *command, const gs_decoder *d, size_t n)
{
    if (n > GS_TYPE_DEF_MAX - current.n_decoders) {
        return cli_usage_error(command, "more than %u decoders in all", GS_TYPE_DEF_MAX);
    }
    for (size_t i = 0; i < n; i++) {
        current.decoders[current.n_decoders++] = d[i];
    }
    return -1;
}

int cli_types_decoder_failure(const char *what)
{
    char why[1024] = "a decoder failed";
    for (size_t i = 0; i < n_plugins; i++) {
        if (gs_plugin_failure(plugins[i], why, sizeof why)) {
            break;
        }
    }
    fflush(stdout);
    fprintf(stderr, "error: GS_E_DECODER_FAILED on %s: %s\n", what, why);
    return CLI_EXIT_USAGE;
}

const cli_types *cli_types_current(void)
{
    return &current;
}

void cli_types_apply(gs_options *opts)
{
    cli_reader_types(opts, current.defs, current.n_defs, current.decoders, current.n_decoders);
}

int cli_types_load_all(const char *command, const cli_list *specs, const cli_list *plugin_paths,
                       const char *ggml, bool in_process, uint64_t timeout_ms)
{
    int code = cli_types_use(command, specs);
    if (code < 0) {
        code = cli_types_load_plugins(command, plugin_paths, in_process, timeout_ms);
    }
    if (code < 0) {
        code = cli_load_ggml(command, ggml, in_process, timeout_ms);
    }
    return code;
}
