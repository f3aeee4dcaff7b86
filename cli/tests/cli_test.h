/* What the CLI tests share: where the built tool, the sample, the schemas and the checker are
 * (ctest passes GS_CLI and GS_SOURCE_DIR), running the tool, and validating its JSON. */
#ifndef GGUFSAFE_CLI_TEST_H
#define GGUFSAFE_CLI_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_run.h"

/* The built ggufsafe binary ($GS_CLI); NULL when the test runs outside ctest. */
const char *cli_binary(void);
/* $GS_SOURCE_DIR/<rel>, allocated; NULL without GS_SOURCE_DIR. */
char *source_path(const char *rel);

/* Runs the tool with the NULL-terminated arguments after the program name. */
bool run_cli(run_result *r, const char *arg, ...) __attribute__((sentinel));
/* The same from an array (NULL-terminated, at most 32); with tty, stderr is a pseudo-terminal
 * (run_program_tty). */
bool run_cli_v(run_result *r, bool tty, const char *const *args);

/* Writes json to dir/report.json and runs check_json.py on it against
 * conformance/schema/<schema>, with the NULL-terminated POINTER=JSON expectations. Returns the
 * checker's exit status (0: valid and as expected) and prints its complaints to stderr. */
int check_json(const char *dir, const char *schema, const char *json, const char *expect, ...)
    __attribute__((sentinel));

/* The fixture of the tests that check a file against its manifest: a fresh scratch directory
 * (*dir), the sample conformance/samples/ggml-written.gguf (*sample) and its manifest
 * *dir/sample.manifest (*manifest), written by `ggufsafe hash --manifest`. False, with why,
 * when a step fails; sample_with_manifest_free releases all three either way. */
bool sample_with_manifest(char **dir, char **sample, char **manifest, char *why, size_t why_cap);
void sample_with_manifest_free(char *dir, char *sample, char *manifest);

/* The writer's model (corpus/writer/gsw_model.h). */
struct gsw_model;

/* m initialised (version 3) with general.architecture "llama", the key most test models start
 * with. */
void llama_model(struct gsw_model *m);

/* Writes m to dir/name and frees m: the path (allocated), or NULL when it cannot be written
 * (the writer's reason on stderr). */
char *model_to_file(struct gsw_model *m, const char *dir, const char *name);

/* Sets the split keys of part `part` (from 0) of a set of `count` parts holding `tensors`
 * tensors in all: split.no, split.count (u16) and split.tensors.count (i32). */
void split_keys(struct gsw_model *m, unsigned part, unsigned count, unsigned tensors);

/* Writes m as part `part` (from 0) of a set of `count`, dir/<prefix>-NNNNN-of-MMMMM.gguf, and
 * frees m. *path_out takes the path (allocated) unless path_out is NULL. False, with why, when
 * it cannot be written. */
bool write_split_part(struct gsw_model *m, const char *dir, const char *prefix, unsigned part,
                      unsigned count, char **path_out, char *why, size_t why_cap);

/* Writes the split set dir/<prefix>-0000N-of-00002.gguf, N = 1, 2: split.no, split.count,
 * split.tensors.count and one f32 tensor of 8 elements per part ("a", then "b"), and sets
 * paths[0..1] to the two files (allocated), unless paths is NULL. False, with why, when a part
 * cannot be written. */
bool write_split_pair(const char *dir, const char *prefix, char *paths[2], char *why,
                      size_t why_cap);

/* Writes the many-file runs' mixed repository dir/repo/: good.gguf (a copy of sample), cut.gguf
 * (its first 100,000 bytes) and the split pair set-0000N-of-00002.gguf (write_split_pair).
 * False, with why, when a step fails. */
bool write_mixed_repo(const char *dir, const char *sample, char *why, size_t why_cap);

/* Writes the split set dir/<prefix>-NNNNN-of-MMMMM.gguf of count parts: part 1 with
 * general.architecture "llama", every part with its split keys and one f32 tensor "t<i>" of 8
 * elements (i from 0). The path of part 1 (allocated), or NULL with why. */
char *write_split_set(const char *dir, const char *prefix, unsigned count, char *why,
                      size_t why_cap);

/* True when none of the n bytes is a control byte other than '\n' (nor DEL). */
bool no_control_bytes(const char *s, size_t n);

/* True when s[0..n) is valid UTF-8 holding no character of the escaping rule's list (docs/cli.md
 * "Escaping") but '\n': nothing in it can move a terminal's cursor, reorder text or hide. Its
 * own decoder and its own copy of the list, so that it checks the command's rule rather than
 * repeat it. */
bool no_hidden_chars(const char *s, size_t n);

/* What a report writer gives through a callback sink (gs_sink_init(&sink, sink_collect, &buf)),
 * NUL-terminated; free data when done. A failed allocation aborts the test. */
typedef struct sink_buffer {
    char *data;
    size_t len;
} sink_buffer;
int sink_collect(void *ctx, const void *data, size_t n);

/* The fixture of most suites: the tool and the source tree are known (GS_CLI, GS_SOURCE_DIR),
 * *dir is a fresh scratch directory and, unless sample is NULL, *sample the path of
 * conformance/samples/ggml-written.gguf. False, with why, when a step fails;
 * cli_fixture_close releases what it made either way. */
bool cli_fixture_open(char **dir, char **sample, char *why, size_t why_cap);
void cli_fixture_close(char *dir, char **sample);

/* Declares the Criterion suite `suite` whose every test gets that fixture in the file's `dir`
 * and `sample` (CLI_SAMPLE_SUITE) or `dir` alone (CLI_SCRATCH_SUITE), released after the test.
 * The file includes <criterion/criterion.h>. */
#define CLI_SAMPLE_SUITE(suite)                                                                  \
    static char *dir;                                                                            \
    static char *sample;                                                                         \
    CLI_FIXTURE_SUITE_(suite, &sample)
#define CLI_SCRATCH_SUITE(suite)                                                                 \
    static char *dir;                                                                            \
    CLI_FIXTURE_SUITE_(suite, NULL)
#define CLI_FIXTURE_SUITE_(suite, sample_out)                                                    \
    static void suite##_setup(void)                                                              \
    {                                                                                            \
        char why[256];                                                                           \
        cr_assert(cli_fixture_open(&dir, sample_out, why, sizeof why), "%s", why);               \
    }                                                                                            \
    static void suite##_teardown(void)                                                           \
    {                                                                                            \
        cli_fixture_close(dir, sample_out);                                                      \
    }                                                                                            \
    TestSuite(suite, .init = suite##_setup, .fini = suite##_teardown)

/* Runs the tool with the arguments (the closing NULL added here) into the run_result r and
 * expects (Criterion) exit status want; the caller frees r. */
#define CLI_RUN(r, want, ...)                                                                    \
    do {                                                                                         \
        cr_assert(run_cli(&(r), __VA_ARGS__, NULL));                                             \
        cr_expect_eq((r).status, (want), "exit %d: %s", (r).status, (r).err);                    \
    } while (0)

/* Expects (Criterion) text to contain every fragment of the array fragments. */
#define CLI_EXPECT_ALL_IN(text, fragments)                                                       \
    do {                                                                                         \
        for (size_t i_ = 0; i_ < sizeof(fragments) / sizeof((fragments)[0]); i_++) {            \
            cr_expect(contains((text), (fragments)[i_]), "'%s' missing from: %s",               \
                      (fragments)[i_], (text));                                                  \
        }                                                                                        \
    } while (0)

/* One malformed input of a text reader (a policy file, a baseline) and how it must be refused:
 * GS_E_INVALID_ARGUMENT at offset, with detail. */
typedef struct text_refusal {
    const char *text;
    uint64_t offset;
    const char *detail;
} text_refusal;

/* Defines, for the text reader parse_fn(bytes, size, T **result, gs_error *e): parse(text,
 * &result, &e), the reader over the NUL-terminated text, and expect_refusals(cases, n): each
 * case's text is refused as it says (GS_E_INVALID_ARGUMENT in the status and in e, its offset
 * and detail) with no result. The file includes <criterion/criterion.h> and <string.h>. */
#define CLI_TEXT_READER(T, parse_fn)                                                             \
    static gs_status parse(const char *text, T **result, gs_error *e)                            \
    {                                                                                            \
        return parse_fn(text, strlen(text), result, e);                                          \
    }                                                                                            \
    static void expect_refusals(const text_refusal *cases, size_t n)                             \
    {                                                                                            \
        for (size_t i = 0; i < n; i++) {                                                         \
            T *result = (T *)1;                                                                  \
            gs_error e;                                                                          \
            const char *text = cases[i].text;                                                    \
            cr_assert_eq(parse(text, &result, &e), GS_E_INVALID_ARGUMENT, "'%s'", text);         \
            cr_expect_null(result, "'%s'", text);                                                \
            cr_expect_eq(e.status, GS_E_INVALID_ARGUMENT, "'%s'", text);                         \
            cr_expect_eq(e.offset, cases[i].offset, "'%s': offset %llu", text,                   \
                         (unsigned long long)e.offset);                                          \
            cr_expect_str_eq(e.detail, cases[i].detail, "'%s'", text);                           \
        }                                                                                        \
    }

#endif
