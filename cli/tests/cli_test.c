#include "cli_test.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ggufsafe.h"
#include "gsw_write.h"

#define MAX_ARGS 32

const char *cli_binary(void)
{
    return getenv("GS_CLI");
}

char *source_path(const char *rel)
{
    const char *root = getenv("GS_SOURCE_DIR");
    return root != NULL ? path_join(root, rel) : NULL;
}

bool cli_fixture_open(char **dir, char **sample, char *why, size_t why_cap)
{
    *dir = NULL;
    if (sample != NULL) {
        *sample = NULL;
    }
    if (cli_binary() == NULL) {
        snprintf(why, why_cap, "GS_CLI is not set: run through ctest");
        return false;
    }
    if (sample != NULL) {
        *sample = source_path("conformance/samples/ggml-written.gguf");
        if (*sample == NULL) {
            snprintf(why, why_cap, "GS_SOURCE_DIR is not set: run through ctest");
            return false;
        }
    }
    *dir = scratch_dir();
    if (*dir == NULL) {
        snprintf(why, why_cap, "no scratch directory");
        return false;
    }
    return true;
}

void cli_fixture_close(char *dir, char **sample)
{
    if (sample != NULL) {
        free(*sample);
    }
    scratch_remove(dir);
}

bool sample_with_manifest(char **dir, char **sample, char **manifest, char *why, size_t why_cap)
{
    *dir = scratch_dir();
    *sample = source_path("conformance/samples/ggml-written.gguf");
    *manifest = *dir != NULL ? path_join(*dir, "sample.manifest") : NULL;
    if (*sample == NULL || *manifest == NULL) {
        snprintf(why, why_cap, "no scratch directory, or GS_SOURCE_DIR is not set");
        return false;
    }
    run_result r;
    if (!run_cli(&r, "hash", *sample, "--manifest", *manifest, NULL)) {
        snprintf(why, why_cap, "ggufsafe hash did not run");
        return false;
    }
    const bool ok = r.status == 0;
    if (!ok) {
        snprintf(why, why_cap, "ggufsafe hash: exit %d: %s", r.status, r.err);
    }
    run_result_free(&r);
    return ok;
}

void sample_with_manifest_free(char *dir, char *sample, char *manifest)
{
    free(sample);
    free(manifest);
    scratch_remove(dir);
}

/* Appends first and the arguments after it in ap, up to a NULL, to argv[n..max) and ends argv
 * with NULL (argv holds max + 1); returns the new count. */
static int append_args(const char **argv, int n, int max, const char *first, va_list ap)
{
    for (const char *a = first; a != NULL && n < max; a = va_arg(ap, const char *)) {
        argv[n++] = a;
    }
    argv[n] = NULL;
    return n;
}

bool run_cli(run_result *r, const char *arg, ...)
{
    const char *args[MAX_ARGS + 1];
    va_list ap;
    va_start(ap, arg);
    append_args(args, 0, MAX_ARGS, arg, ap);
    va_end(ap);
    return run_cli_v(r, false, args);
}

bool run_cli_v(run_result *r, bool tty, const char *const *args)
{
    const char *argv[MAX_ARGS + 2];
    int n = 0;
    argv[n++] = cli_binary();
    if (argv[0] == NULL) {
        return false;
    }
    for (; *args != NULL && n <= MAX_ARGS; args++) {
        argv[n++] = *args;
    }
    argv[n] = NULL;
    return tty ? run_program_tty(argv, r) : run_program(argv, r);
}

int check_json(const char *dir, const char *schema, const char *json, const char *expect, ...)
{
    char *report = path_join(dir, "report.json");
    char *schema_rel = path_join("conformance/schema", schema);
    char *schema_path = schema_rel != NULL ? source_path(schema_rel) : NULL;
    char *checker = source_path("cli/tests/check_json.py");
    int status = -1;
    if (report != NULL && schema_path != NULL && checker != NULL &&
        write_file(report, json, strlen(json))) {
        /* Debian's interpreter, where python3-jsonschema lives; not whatever python3 is first
         * on PATH. */
        const char *argv[MAX_ARGS + 6] = {"/usr/bin/python3", checker, schema_path, report};
        va_list ap;
        va_start(ap, expect);
        append_args(argv, 4, MAX_ARGS, expect, ap);
        va_end(ap);
        run_result r;
        if (run_program(argv, &r)) {
            status = r.status;
            if (status != 0) {
                fprintf(stderr, "check_json.py (exit %d):\n%s", status, r.err);
            }
            run_result_free(&r);
        }
    }
    free(report);
    free(schema_rel);
    free(schema_path);
    free(checker);
    return status;
}

bool no_control_bytes(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\n') || c == 0x7f) {
            return false;
        }
    }
    return true;
}

static bool listed_hidden(uint32_t cp)
{
    static const uint32_t ranges[][2] = {
        {0x0000, 0x001f}, {0x007f, 0x009f}, {0x00ad, 0x00ad}, {0x061c, 0x061c},
        {0x180e, 0x180e}, {0x200b, 0x200f}, {0x2028, 0x202e}, {0x2060, 0x206f},
        {0xfeff, 0xfeff}, {0xfff9, 0xfffb}, {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a},
        {0xe0000, 0xe007f},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        if (cp >= ranges[i][0] && cp <= ranges[i][1]) {
            return true;
        }
    }
    return false;
}

bool no_hidden_chars(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned char b = u[i];
        size_t len = b < 0x80 ? 1 : (b & 0xe0) == 0xc0 ? 2 : (b & 0xf0) == 0xe0 ? 3
                   : (b & 0xf8) == 0xf0 ? 4 : 0;
        if (len == 0 || i + len > n) {
            return false;
        }
        uint32_t cp = len == 1 ? b : (uint32_t)(b & (0x7f >> len));
        for (size_t k = 1; k < len; k++) {
            if ((u[i + k] & 0xc0) != 0x80) {
                return false;
            }
            cp = cp << 6 | (u[i + k] & 0x3fu);
        }
        static const uint32_t min_for_len[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min_for_len[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            return false;
        }
        if (cp != '\n' && listed_hidden(cp)) {
            return false;
        }
        i += len;
    }
    return true;
}

bool write_mixed_repo(const char *dir, const char *sample, char *why, size_t why_cap)
{
    char *repo = path_join(dir, "repo");
    char *good = path_join(repo, "good.gguf");
    char *cut = path_join(repo, "cut.gguf");
    size_t n = 0;
    char *data = read_file(sample, &n);
    bool ok = mkdir(repo, 0755) == 0 && data != NULL && n >= 100000;
    if (!ok) {
        snprintf(why, why_cap, "cannot make %s from %s", repo, sample);
    } else if (!write_file(good, data, n) || !write_file(cut, data, 100000)) {
        snprintf(why, why_cap, "cannot write %s or %s", good, cut);
        ok = false;
    }
    ok = ok && write_split_pair(repo, "set", NULL, why, why_cap);
    free(data);
    free(cut);
    free(good);
    free(repo);
    return ok;
}

void llama_model(gsw_model *m)
{
    gsw_model_init(m, 3);
    gsw_set_cstr(gsw_add(m, "general.architecture"), "llama");
}

char *model_to_file(gsw_model *m, const char *dir, const char *name)
{
    char *path = path_join(dir, name);
    char why[256] = "no memory for the path";
    if (path == NULL || gsw_write_file(m, 0, path, why, sizeof why) != 0) {
        fprintf(stderr, "cannot write %s/%s: %s\n", dir, name, why);
        free(path);
        path = NULL;
    }
    gsw_model_free(m);
    return path;
}

void split_keys(gsw_model *m, unsigned part, unsigned count, unsigned tensors)
{
    gsw_set_u16(gsw_add(m, "split.no"), (uint16_t)part);
    gsw_set_u16(gsw_add(m, "split.count"), (uint16_t)count);
    gsw_set_i32(gsw_add(m, "split.tensors.count"), (int32_t)tensors);
}

bool write_split_part(gsw_model *m, const char *dir, const char *prefix, unsigned part,
                      unsigned count, char **path_out, char *why, size_t why_cap)
{
    char name[256];
    snprintf(name, sizeof name, "%s-%05u-of-%05u.gguf", prefix, part + 1, count);
    char *path = path_join(dir, name);
    bool ok = path != NULL && gsw_write_file(m, 0, path, why, why_cap) == 0;
    if (path == NULL) {
        snprintf(why, why_cap, "no memory for the path of %s", name);
    }
    gsw_model_free(m);
    if (path_out != NULL) {
        *path_out = path;
    } else {
        free(path);
    }
    return ok;
}

bool write_split_pair(const char *dir, const char *prefix, char *paths[2], char *why,
                      size_t why_cap)
{
    if (paths != NULL) {
        paths[0] = paths[1] = NULL;
    }
    for (unsigned p = 0; p < 2; p++) {
        gsw_model m;
        gsw_model_init(&m, 3);
        split_keys(&m, p, 2, 2);
        uint64_t n = 8;
        if (!gsw_tensor_fill(gsw_add_tensor(&m, p ? "b" : "a", 1, &n, GS_TYPE_F32), 1, 64)) {
            snprintf(why, why_cap, "cannot fill tensor %s", p ? "b" : "a");
            gsw_model_free(&m);
            return false;
        }
        if (!write_split_part(&m, dir, prefix, p, 2, paths != NULL ? &paths[p] : NULL, why,
                              why_cap)) {
            return false;
        }
    }
    return true;
}

char *write_split_set(const char *dir, const char *prefix, unsigned count, char *why,
                      size_t why_cap)
{
    char *first = NULL;
    for (unsigned p = 0; p < count; p++) {
        gsw_model m;
        gsw_model_init(&m, 3);
        if (p == 0) {
            gsw_set_cstr(gsw_add(&m, "general.architecture"), "llama");
        }
        split_keys(&m, p, count, count);
        char tensor[16];
        snprintf(tensor, sizeof tensor, "t%u", p);
        uint64_t n = 8;
        if (!gsw_tensor_fill(gsw_add_tensor(&m, tensor, 1, &n, GS_TYPE_F32), p + 1, 64)) {
            snprintf(why, why_cap, "cannot fill tensor %s", tensor);
            gsw_model_free(&m);
            free(first);
            return NULL;
        }
        if (!write_split_part(&m, dir, prefix, p, count, p == 0 ? &first : NULL, why, why_cap)) {
            free(first);
            return NULL;
        }
    }
    return first;
}

int sink_collect(void *ctx, const void *data, size_t n)
{
    sink_buffer *b = ctx;
    char *grown = realloc(b->data, b->len + n + 1);
    if (grown == NULL) {
        fprintf(stderr, "sink_collect: out of memory\n");
        abort();
    }
    b->data = grown;
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}
