#define _GNU_SOURCE
/* Decoder plugins out of process and in (parser/plugin_host.c, parser/plugin.c), in this process
 * so that both sides are measured:
 *   - the host's side: gs_plugin_host_main run here, its standard input and output a socket pair
 *     the test filled with frames beforehand, its stderr a pipe: the table it sends, its answers,
 *     its exit statuses for a frame it does not take, every load failure's text, its usage;
 *   - the parent's side: gs_plugin_open with host_program = gs_plugin_host_fake, a host that
 *     answers garbage on purpose (short, oversize and mistyped frames, a wrong float count, a
 *     crash by each signal, a hang, stderr to quote), each reported with its exact message, and
 *     the real host in that program for the example and the failing plugin;
 *   - in-process plugins: the example, a decoder that fails, and each refusal of loading.
 * The plugins are conformance/plugins' (GS_PLUGIN_DIR). */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ggufsafe.h"
#include "le_load.h"
#include "plugin_proto.h"
#include "plugin_table.h"
#include "test_util.h"

#define DURING "decoding 34 bytes of type 200"

static const char *plugin(const char *name)
{
    static char path[8][512];
    static unsigned next;
    const char *dir = getenv("GS_PLUGIN_DIR");
    cr_assert_not_null(dir, "GS_PLUGIN_DIR is not set: run through ctest");
    char *p = path[next++ % 8];
    snprintf(p, sizeof path[0], "%s/%s.so", dir, name);
    return p;
}

static const char *fake_host(void)
{
    const char *h = getenv("GS_FAKE_HOST");
    cr_assert_not_null(h, "GS_FAKE_HOST is not set: run through ctest");
    return h;
}

/* What a gs_error's detail keeps of s: its first GS_ERROR_TEXT_MAX - 1 bytes. */
static void error_text(char want[GS_ERROR_TEXT_MAX], const char *s)
{
    size_t n = strlen(s) < GS_ERROR_TEXT_MAX - 1 ? strlen(s) : GS_ERROR_TEXT_MAX - 1;
    memcpy(want, s, n);
    want[n] = '\0';
}

/* One Q8_0-shaped block: scale 1.0 (half 0x3c00), q[j] = j - 16. */
static void example_block(uint8_t b[34])
{
    b[0] = 0x00;
    b[1] = 0x3c;
    for (int j = 0; j < 32; j++) {
        b[2 + j] = (uint8_t)(int8_t)(j - 16);
    }
}

/* ---- the host's side, in this process -------------------------------------------------------- */

typedef struct host_run {
    int rc;
    uint8_t out[8192];
    size_t out_len;
    char err[2048];
} host_run;

static size_t read_all_fd(int fd, void *buf, size_t cap)
{
    size_t n = 0;
    for (;;) {
        cr_assert_lt(n, cap, "more output than expected");
        ssize_t r = read(fd, (uint8_t *)buf + n, cap - n);
        cr_assert_geq(r, 0);
        if (r == 0) {
            return n;
        }
        n += (size_t)r;
    }
}

/* Runs gs_plugin_host_main(argc, argv) with in[0..in_len) waiting on its standard input (then
 * the end of it), and collects what it wrote to standard output and error. */
static void run_host(int argc, char **argv, const uint8_t *in, size_t in_len, host_run *r)
{
    int sv[2], ep[2];
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    cr_assert_eq(pipe(ep), 0);
    cr_assert_eq(write(sv[0], in, in_len), (ssize_t)in_len);
    cr_assert_eq(shutdown(sv[0], SHUT_WR), 0);
    int saved[3] = {dup(0), dup(1), dup(2)};
    cr_assert(saved[0] >= 0 && saved[1] >= 0 && saved[2] >= 0);
    dup2(sv[1], 0);
    dup2(sv[1], 1);
    dup2(ep[1], 2);
    close(sv[1]);
    close(ep[1]);
    r->rc = gs_plugin_host_main(argc, argv);
    for (int i = 0; i < 3; i++) {
        dup2(saved[i], i);
        close(saved[i]);
    }
    r->out_len = read_all_fd(sv[0], r->out, sizeof r->out);
    size_t e = read_all_fd(ep[0], r->err, sizeof r->err - 1);
    r->err[e] = '\0';
    close(sv[0]);
    close(ep[0]);
}

static void run_host_plugin(const char *path, const uint8_t *in, size_t in_len, host_run *r)
{
    char prog[] = "ggufsafe", cmd[] = GS_PLUGIN_HOST_COMMAND;
    char *p = strdup(path);
    cr_assert_not_null(p);
    char *argv[] = {prog, cmd, p, NULL};
    run_host(3, argv, in, in_len, r);
    free(p);
}

/* Appends a frame (header announcing len, then n bytes of payload) to b at *at. */
static void add_frame(uint8_t *b, size_t *at, uint32_t kind, uint32_t len, const void *p,
                      size_t n)
{
    gsi_pf_header(b + *at, kind, len);
    *at += GSI_PF_HEADER;
    if (n > 0) {
        memcpy(b + *at, p, n);
        *at += n;
    }
}

/* A decode frame of one block for type `type` and n_elems elements. */
static void add_decode(uint8_t *b, size_t *at, int32_t type, uint32_t n_elems)
{
    uint8_t p[8 + 34];
    for (unsigned i = 0; i < 4; i++) {
        p[i] = (uint8_t)((uint32_t)type >> (8 * i));
        p[4 + i] = (uint8_t)(n_elems >> (8 * i));
    }
    example_block(p + 8);
    add_frame(b, at, GSI_PF_DECODE, sizeof p, p, sizeof p);
}

/* The frame at out[*at]: its kind and length checked, the payload returned, *at past it. */
static const uint8_t *next_frame(const host_run *r, size_t *at, uint32_t kind, uint32_t len)
{
    cr_assert_leq(*at + GSI_PF_HEADER, r->out_len, "no frame at %zu", *at);
    cr_assert_eq(gsi_load_u32le(r->out + *at), kind, "frame kind at %zu", *at);
    cr_assert_eq(gsi_load_u32le(r->out + *at + 4), len, "frame length at %zu", *at);
    const uint8_t *p = r->out + *at + GSI_PF_HEADER;
    *at += GSI_PF_HEADER + len;
    cr_assert_leq(*at, r->out_len);
    return p;
}

/* The example's table frame: 16 + "q8_0 example" + 16 + "q8_0_example". */
static void expect_example_table(const host_run *r, size_t *at)
{
    const uint8_t *t = next_frame(r, at, GSI_PF_TABLE, 56);
    gsi_plugin_desc d;
    gs_error e;
    cr_assert_eq(gsi_plugin_table_parse(t, 56, false, &d, &e), GS_OK, "%s", e.detail);
    cr_assert_str_eq(d.title, "q8_0 example");
    cr_assert_eq(d.n, 1);
    cr_assert_eq(d.entries[0].def.id, 200);
    cr_assert_str_eq(d.entries[0].name, "q8_0_example");
    cr_assert_eq(d.entries[0].def.block_elems, 32);
    cr_assert_eq(d.entries[0].def.block_bytes, 34);
}

static void expect_example_result(const host_run *r, size_t *at)
{
    const uint8_t *p = next_frame(r, at, GSI_PF_RESULT, 4 + 32 * 4);
    cr_assert_eq(gsi_load_u32le(p), 0);
    for (int j = 0; j < 32; j++) {
        float f;
        memcpy(&f, p + 4 + 4 * j, 4);
        cr_assert(f == (float)(j - 16), "element %d: %a", j, (double)f);
    }
}

Test(plugin_host, serves_the_example_until_quit_or_eof)
{
    static uint8_t in[512];
    for (int quit = 0; quit < 2; quit++) {
        size_t n = 0;
        add_decode(in, &n, 200, 32);
        add_decode(in, &n, 200, 32);
        if (quit) {
            add_frame(in, &n, GSI_PF_QUIT, 0, NULL, 0);
        }
        host_run r;
        run_host_plugin(plugin("plugin_example"), in, n, &r);
        cr_assert_eq(r.rc, 0, "%s", r.err);
        size_t at = 0;
        expect_example_table(&r, &at);
        expect_example_result(&r, &at);
        expect_example_result(&r, &at);
        cr_assert_eq(at, r.out_len);
        cr_assert_str_eq(r.err, "");
    }
}

/* A plugin that returns 7: the result frame carries it, without floats, and the host goes on. */
Test(plugin_host, passes_on_the_plugins_failure)
{
    static uint8_t in[512];
    size_t n = 0;
    add_decode(in, &n, 200, 32);
    add_decode(in, &n, 200, 32);
    add_frame(in, &n, GSI_PF_QUIT, 0, NULL, 0);
    host_run r;
    run_host_plugin(plugin("plugin_fail"), in, n, &r);
    cr_assert_eq(r.rc, 0);
    size_t at = 0;
    next_frame(&r, &at, GSI_PF_TABLE, 16 + 6 + 16 + 6);
    for (int i = 0; i < 2; i++) {
        const uint8_t *p = next_frame(&r, &at, GSI_PF_RESULT, 4);
        cr_assert_eq(gsi_load_u32le(p), 7);
    }
    cr_assert_eq(at, r.out_len);
}

/* A frame the host does not take ends it with status 5, after the table. */
Test(plugin_host, stops_at_a_frame_it_does_not_take)
{
    static uint8_t in[512];
    static const uint8_t ten[10];
    for (int k = 0; k < 3; k++) {
        size_t n = 0;
        add_decode(in, &n, 200, 32);
        if (k == 0) {
            add_frame(in, &n, 9, 0, NULL, 0); /* no such kind */
        } else if (k == 1) {
            add_frame(in, &n, GSI_PF_DECODE, 8 + GS_DECODE_CHUNK_BYTES + GSI_PF_HEADER + 1, NULL,
                      0); /* more than its buffer */
        } else {
            add_frame(in, &n, GSI_PF_DECODE, 42, ten, sizeof ten); /* then the input ends */
        }
        host_run r;
        run_host_plugin(plugin("plugin_example"), in, n, &r);
        cr_assert_eq(r.rc, 5, "case %d", k);
        size_t at = 0;
        expect_example_table(&r, &at);
        expect_example_result(&r, &at);
        cr_assert_eq(at, r.out_len, "case %d", k);
    }
}

/* A decode frame that contradicts the table (an unknown type, a wrong element count, no room
 * for its fields): the host sends nothing more and ends with 5. */
Test(plugin_host, stops_at_a_decode_frame_that_contradicts_the_table)
{
    static const struct {
        int32_t type;
        uint32_t n_elems, len;
    } rows[] = {{201, 32, 8 + 34}, {200, 31, 8 + 34}, {200, 32, 7}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        static uint8_t in[512];
        size_t n = 0;
        if (rows[i].len == 8 + 34) {
            add_decode(in, &n, rows[i].type, rows[i].n_elems);
        } else {
            add_frame(in, &n, GSI_PF_DECODE, rows[i].len, "\xc8\0\0\0\x20\0\0", rows[i].len);
        }
        host_run r;
        run_host_plugin(plugin("plugin_example"), in, n, &r);
        cr_assert_eq(r.rc, 5, "row %zu", i);
        size_t at = 0;
        expect_example_table(&r, &at);
        cr_assert_eq(at, r.out_len, "row %zu", i);
    }
}

/* A plugin that writes 12 bytes before its output: the canary finds it, the host says how far
 * (GSI_PF_OOB, 0: before the start) and ends with 4. */
Test(plugin_host, canary_catches_a_write_before_the_output)
{
    static uint8_t in[512];
    size_t n = 0;
    add_decode(in, &n, 200, 32);
    host_run r;
    run_host_plugin(plugin("plugin_under"), in, n, &r);
    cr_assert_eq(r.rc, 4);
    size_t at = 0;
    next_frame(&r, &at, GSI_PF_TABLE, 16 + 6 + 16 + 6);
    const uint8_t *p = next_frame(&r, &at, GSI_PF_OOB, 12);
    cr_assert_eq(gsi_load_u64le(p), 12);
    cr_assert_eq(gsi_load_u32le(p + 8), 0);
    cr_assert_eq(at, r.out_len);
}

/* A load failure: one frame of kind (LOAD_ERROR, or TABLE_ERROR for a table this library cannot
 * use) with the text (at most GSI_PF_TEXT_MAX bytes), exit 1. */
static void expect_load_error(const host_run *r, uint32_t kind, const char *text)
{
    cr_assert_eq(r->rc, 1, "%s", r->err);
    size_t len = strlen(text) < GSI_PF_TEXT_MAX ? strlen(text) : GSI_PF_TEXT_MAX;
    size_t at = 0;
    const uint8_t *p = next_frame(r, &at, kind, (uint32_t)len);
    cr_assert_eq(at, r->out_len);
    cr_assert(memcmp(p, text, len) == 0, "%.*s", (int)len, (const char *)p);
}

Test(plugin_host, load_failures_are_one_frame_of_text)
{
    host_run r;
    run_host_plugin(plugin("plugin_nosym"), NULL, 0, &r);
    expect_load_error(&r, GSI_PF_LOAD_ERROR, "no ggufsafe_plugin_v1 symbol: not a ggufsafe "
                                             "plugin (include/ggufsafe_plugin.h)");
    run_host_plugin(plugin("plugin_abi"), NULL, 0, &r);
    expect_load_error(&r, GSI_PF_TABLE_ERROR,
                      "plugin ABI version 2; this ggufsafe reads version 1");
    /* dlopen's own reason, whole and cut at GSI_PF_TEXT_MAX bytes */
    char longer[700] = "/nonexistent/";
    for (size_t i = strlen(longer); i < sizeof longer - 4; i++) {
        longer[i] = i % 200 == 0 ? '/' : 'x';
    }
    strcpy(longer + sizeof longer - 4, ".so");
    const char *paths[] = {"/nonexistent/gs_plugin.so", longer};
    for (size_t i = 0; i < 2; i++) {
        run_host_plugin(paths[i], NULL, 0, &r);
        cr_assert_null(dlopen(paths[i], RTLD_NOW | RTLD_LOCAL));
        const char *why = dlerror();
        cr_assert_not_null(why);
        cr_assert_eq(strlen(why) > GSI_PF_TEXT_MAX, i == 1, "%s", why);
        expect_load_error(&r, GSI_PF_LOAD_ERROR, why);
    }
}

/* `--ggml PATH` that does not load: the reason gs_ggml_describe gives. */
Test(plugin_host, ggml_that_does_not_load)
{
    char prog[] = "ggufsafe", cmd[] = GS_PLUGIN_HOST_COMMAND, ggml[] = GS_PLUGIN_HOST_GGML;
    char path[] = "/nonexistent/libggml-base.so";
    char *argv[] = {prog, cmd, ggml, path, NULL};
    host_run r;
    run_host(4, argv, NULL, 0, &r);
    char why[GSI_PF_TEXT_MAX];
    cr_assert(!gs_ggml_describe(why, sizeof why));
    cr_assert_str_eq(why, "/nonexistent/libggml-base.so: no readable ggml library there");
    expect_load_error(&r, GSI_PF_LOAD_ERROR, why);
}

Test(plugin_host, usage)
{
    static const char usage[] = " " GS_PLUGIN_HOST_COMMAND " PLUGIN | " GS_PLUGIN_HOST_COMMAND
                                " " GS_PLUGIN_HOST_GGML " LIBGGML | " GS_PLUGIN_HOST_COMMAND " "
                                GS_PLUGIN_HOST_GGML_KERNEL " LIBGGML (internal: started by "
                                "ggufsafe to run a decoder plugin or ggml's decoders)\n";
    char prog[] = "prog", cmd[] = GS_PLUGIN_HOST_COMMAND, other[] = "__other", x[] = "x";
    char *argvs[][5] = {{prog, cmd, NULL}, {prog, other, x, NULL}, {prog, cmd, x, x, NULL},
                        {NULL}};
    const int argcs[] = {2, 3, 4, 0};
    for (size_t i = 0; i < 4; i++) {
        host_run r;
        run_host(argcs[i], argvs[i], NULL, 0, &r);
        cr_assert_eq(r.rc, 2);
        cr_assert_eq(r.out_len, 0);
        char want[512];
        snprintf(want, sizeof want, "usage: %s%s", argcs[i] > 0 ? "prog" : "ggufsafe", usage);
        cr_assert_str_eq(r.err, want, "case %zu", i);
    }
}

/* ---- the parent's side, against a host that misbehaves ------------------------------------- */

static gs_status open_child(const char *path, unsigned timeout_ms, gs_plugin **p, gs_error *e)
{
    gs_plugin_options o;
    gs_plugin_options_init(&o);
    o.host_program = fake_host();
    o.timeout_ms = timeout_ms;
    return gs_plugin_open(path, &o, p, e);
}

/* The plugin at path in a child of the fake host, asserted to open. */
static gs_plugin *open_ok(const char *path)
{
    gs_plugin *p;
    gs_error e;
    cr_assert_eq(open_child(path, 0, &p, &e), GS_OK, "%s: %s", path, e.detail);
    return p;
}

typedef struct load_case {
    const char *path;
    unsigned timeout_ms;
    gs_status status;
    const char *detail; /* whole; err.detail holds its first GS_ERROR_TEXT_MAX - 1 bytes */
} load_case;

Test(plugin_host, parent_refuses_a_host_that_does_not_send_a_table)
{
    char oversize[160], long_err[1024];
    snprintf(oversize, sizeof oversize,
             "plugin fake:load:oversize sent a frame of %u bytes (kind 1) while loading, more "
             "than the %u allowed",
             GSI_PLUGIN_TABLE_MAX_BYTES + 1, GSI_PLUGIN_TABLE_MAX_BYTES);
    int at = snprintf(long_err, sizeof long_err, "plugin fake:load:stderr_long exited with status "
                      "1 while loading; its stderr: \"");
    memset(long_err + at, 'e', 600); /* more than err.detail holds */
    long_err[at + 600] = '\0';
    const load_case cases[] = {
        {"fake:load:load_error", 0, GS_E_IO, "no\\x01pe\\\\"},
        {"fake:load:table_error", 0, GS_E_INVALID_ARGUMENT, "bad table"},
        {"fake:load:kind", 0, GS_E_DECODER_FAILED, "the plugin host answered with frame kind 9"},
        {"fake:load:oversize", 0, GS_E_DECODER_FAILED, oversize},
        {"fake:load:short", 0, GS_E_DECODER_FAILED,
         "plugin fake:load:short exited with status 7 while loading"},
        {"fake:load:stderr_long", 0, GS_E_DECODER_FAILED, long_err},
        {"fake:load:hang", 100, GS_E_DECODER_FAILED,
         "plugin fake:load:hang did not answer within 100 ms while loading (hung; killed)"},
        {"fake:load:badtable", 0, GS_E_INVALID_ARGUMENT, "plugin table: no GSPT magic"},
        {"fake:load:signal:15", 0, GS_E_DECODER_FAILED,
         "plugin fake:load:signal:15 crashed with SIGTERM (signal 15) while loading"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_plugin *p = (gs_plugin *)&p;
        gs_error e;
        cr_assert_eq(open_child(cases[i].path, cases[i].timeout_ms, &p, &e), cases[i].status,
                     "%s: %s", cases[i].path, e.detail);
        cr_assert_null(p);
        char want[GS_ERROR_TEXT_MAX];
        error_text(want, cases[i].detail);
        cr_assert_str_eq(e.detail, want, "%s", cases[i].path);
    }
    gs_plugin_options o;
    gs_plugin_options_init(&o);
    o.host_program = "/nonexistent/gs_host";
    gs_plugin *p;
    gs_error e;
    cr_assert_eq(gs_plugin_open("x.so", &o, &p, &e), GS_E_IO);
    cr_assert_str_eq(e.detail, "cannot start /nonexistent/gs_host: No such file or directory");
}

/* Decodes the example block through p's first decoder. */
static gs_status decode_block(gs_plugin *p, float *dst)
{
    size_t n;
    const gs_decoder *d = gs_plugin_decoders(p, &n);
    cr_assert_eq(n, 1);
    uint8_t b[34];
    example_block(b);
    return d[0].decode(d[0].ctx, 200, b, sizeof b, dst, 32);
}

typedef struct decode_case {
    const char *what;
    const char *failure; /* after "plugin 'fake' (fake:decode:WHAT) " */
} decode_case;

/* The hang's limit: long enough for the child to start and send its table on a loaded machine. */
#define HANG_MS 3000
#define HANG_MS_TEXT "3000"

static const decode_case decode_cases[] = {
    {"rc", "returned -3 " DURING},
    {"kind", "answered with frame kind 7 of 4 bytes " DURING},
    {"short", "answered with frame kind 4 of 2 bytes " DURING},
    {"oob_len", "answered with frame kind 5 of 8 bytes " DURING},
    {"count", "answered 64 bytes for 32 floats " DURING},
    {"oversize", "sent a frame of 141 bytes (kind 4) " DURING ", more than the 140 allowed"},
    {"oob_after", "wrote out of bounds of its output " DURING ": at byte 16 past the end of it "
                  "(caught in the child)"},
    {"oob_before", "wrote out of bounds of its output " DURING ": at byte 8 before the start of "
                   "it (caught in the child)"},
    {"exit", "exited with status 9 " DURING},
    {"deaf", "exited with status 6 " DURING}, /* the decode frame cannot be sent */
    {"cut", "exited with status 0 " DURING},
    {"hang", "did not answer within " HANG_MS_TEXT " ms " DURING " (hung; killed)"},
    {"stderr", "exited with status 1 " DURING "; its stderr: \"a\\x1b[0m\\\\b\""},
    {"signal:11", "crashed with SIGSEGV (signal 11) " DURING},
    {"signal:7", "crashed with SIGBUS (signal 7) " DURING},
    {"signal:6", "crashed with SIGABRT (signal 6) " DURING},
    {"signal:8", "crashed with SIGFPE (signal 8) " DURING},
    {"signal:4", "crashed with SIGILL (signal 4) " DURING},
    {"signal:9", "crashed with SIGKILL (signal 9) " DURING},
    {"signal:15", "crashed with SIGTERM (signal 15) " DURING},
    {"signal:5", "crashed with SIGTRAP (signal 5) " DURING},
    {"signal:10", "crashed with a signal (signal 10) " DURING},
};

/* Each bad answer fails the plugin for good, with the first failure as its message. */
Test(plugin_host, parent_reports_each_bad_answer)
{
    for (size_t i = 0; i < sizeof decode_cases / sizeof decode_cases[0]; i++) {
        const decode_case *k = &decode_cases[i];
        char path[64], want[1024], got[1024];
        snprintf(path, sizeof path, "fake:decode:%s", k->what);
        snprintf(want, sizeof want, "plugin 'fake' (%s) %s", path, k->failure);
        gs_plugin *p;
        gs_error e;
        cr_assert_eq(open_child(path, strcmp(k->what, "hang") == 0 ? HANG_MS : 0, &p, &e), GS_OK,
                     "%s: %s", path, e.detail);
        cr_assert_str_eq(gs_plugin_name(p), "fake");
        cr_assert(!gs_plugin_failure(p, got, sizeof got));
        float dst[32];
        for (int call = 0; call < 2; call++) {
            cr_assert_eq(decode_block(p, dst), GS_E_DECODER_FAILED, "%s", path);
            cr_assert(gs_plugin_failure(p, got, sizeof got));
            cr_assert_str_eq(got, want, "%s (call %d)", path, call);
        }
        gs_plugin_close(p);
    }
}

/* The child's stderr is kept to its first 512 bytes, then "(cut)". */
Test(plugin_host, parent_quotes_the_head_of_a_long_stderr)
{
    gs_plugin *p = open_ok("fake:decode:stderr_long");
    float dst[32];
    cr_assert_eq(decode_block(p, dst), GS_E_DECODER_FAILED);
    char want[1024], got[1024];
    int n = snprintf(want, sizeof want,
                     "plugin 'fake' (fake:decode:stderr_long) exited with status 1 " DURING
                     "; its stderr: \"");
    memset(want + n, 'e', 512);
    strcpy(want + n + 512, "\" (cut)");
    cr_assert(gs_plugin_failure(p, got, sizeof got));
    cr_assert_str_eq(got, want);
    /* cut to the caller's buffer, NUL-terminated */
    cr_assert(gs_plugin_failure(p, got, 8));
    cr_assert_str_eq(got, "plugin ");
    gs_plugin_close(p);
}

/* The expected floats of the fake's "ok": src[i % 34] + 0.5. */
Test(plugin_host, parent_takes_a_good_answer)
{
    gs_plugin *p = open_ok("fake:decode:ok");
    size_t n;
    const gs_decoder *d = gs_plugin_decoders(p, &n);
    cr_assert_eq(n, 1);
    cr_assert_eq(d[0].type.id, 200);
    cr_assert_str_eq(d[0].type.name, "fake_q");
    cr_assert_str_eq(d[0].source, "plugin 'fake' (fake:decode:ok)");
    uint8_t b[34];
    example_block(b);
    for (int call = 0; call < 3; call++) {
        float dst[32];
        cr_assert_eq(decode_block(p, dst), GS_OK);
        for (int i = 0; i < 32; i++) {
            cr_assert(dst[i] == (float)b[i % 34] + 0.5f, "element %d", i);
        }
    }
    /* more than the reader ever asks for in one call: refused before the child sees it */
    static float big[GSI_PLUGIN_MAX_OUT_ELEMS + 1];
    cr_assert_eq(d[0].decode(d[0].ctx, 200, b, sizeof b, big, GSI_PLUGIN_MAX_OUT_ELEMS + 1),
                 GS_E_SIZE_MISMATCH);
    cr_assert(!gs_plugin_failure(p, NULL, 0));
    gs_plugin_close(p);
}

/* A child that stays after QUIT and the end of its input is killed by gs_plugin_close. */
Test(plugin_host, parent_kills_a_child_that_stays_after_quit)
{
    gs_plugin *p = open_ok("fake:decode:linger");
    float dst[32];
    cr_assert_eq(decode_block(p, dst), GS_OK);
    pid_t pid = (pid_t)dst[0];
    cr_assert_gt(pid, 0);
    cr_assert_eq(kill(pid, 0), 0, "the child %d is not running", (int)pid);
    gs_plugin_close(p);
    cr_assert_eq(kill(pid, 0), -1, "the child %d is still there", (int)pid);
    cr_assert_eq(errno, ESRCH);
}

/* No descriptors for the socket pair, or for the stderr pipe: GS_E_IO, nothing started. */
Test(plugin_host, parent_without_descriptors)
{
    static const char *const want[] = {"socketpair: Too many open files",
                                       "pipe: Too many open files"};
    for (int i = 0; i < 2; i++) {
        tu_fd_squeeze s;
        cr_assert(tu_fd_squeeze_to(&s, 2 * i));
        gs_plugin *p;
        gs_error e;
        gs_status st = open_child(plugin("plugin_example"), 0, &p, &e);
        tu_fd_release(&s);
        cr_assert_eq(st, GS_E_IO, "%s", e.detail);
        cr_assert_str_eq(e.detail, want[i]);
    }
}

/* The real host (in gs_plugin_host_fake) serves the example and passes on a plugin's failure and
 * a write before its output. */
Test(plugin_host, real_host_in_a_child)
{
    gs_plugin *p = open_ok(plugin("plugin_example"));
    cr_assert_str_eq(gs_plugin_name(p), "q8_0 example");
    float dst[32];
    cr_assert_eq(decode_block(p, dst), GS_OK);
    for (int j = 0; j < 32; j++) {
        cr_assert(dst[j] == (float)(j - 16));
    }
    gs_plugin_close(p);

    const char *fail = plugin("plugin_fail");
    p = open_ok(fail);
    cr_assert_eq(decode_block(p, dst), GS_E_DECODER_FAILED);
    char want[1024], got[1024];
    snprintf(want, sizeof want, "plugin 'faulty' (%.70s) returned 7 " DURING, fail);
    cr_assert(gs_plugin_failure(p, got, sizeof got));
    cr_assert_str_eq(got, want);
    gs_plugin_close(p);

    const char *under = plugin("plugin_under");
    p = open_ok(under);
    cr_assert_eq(decode_block(p, dst), GS_E_DECODER_FAILED);
    snprintf(want, sizeof want, "plugin 'faulty' (%.70s) wrote out of bounds of its output " DURING
             ": at byte 12 before the start of it (caught in the child)", under);
    cr_assert(gs_plugin_failure(p, got, sizeof got));
    cr_assert_str_eq(got, want);
    gs_plugin_close(p);

    /* ggml served by the child: a library that does not load is GS_E_IO with its reason */
    static const char ggml[] = "/nonexistent/libggml-base.so";
    gs_plugin_options o;
    gs_plugin_options_init(&o);
    o.host_program = fake_host();
    gs_error e;
    cr_assert_eq(gs_plugin_open_ggml(ggml, &o, &p, &e), GS_E_IO);
    gs_error here;
    cr_assert_neq(gs_set_ggml_library(ggml, &here), GS_OK);
    char why[GSI_PF_TEXT_MAX];
    cr_assert(!gs_ggml_describe(why, sizeof why));
    char want_detail[GS_ERROR_TEXT_MAX];
    error_text(want_detail, why);
    cr_assert_str_eq(e.detail, want_detail);
}

/* ---- in-process plugins ---------------------------------------------------------------------- */

Test(plugin_host, in_process_example_and_failure)
{
    gs_plugin *p;
    gs_error e;
    const char *example = plugin("plugin_example");
    cr_assert_eq(gs_plugin_open(example, NULL, &p, &e), GS_OK, "%s", e.detail);
    cr_assert_str_eq(gs_plugin_name(p), "q8_0 example");
    float dst[32];
    cr_assert_eq(decode_block(p, dst), GS_OK);
    for (int j = 0; j < 32; j++) {
        cr_assert(dst[j] == (float)(j - 16));
    }
    size_t n;
    const gs_decoder *d = gs_plugin_decoders(p, &n);
    uint8_t b[34];
    example_block(b);
    cr_assert_eq(d[0].decode(d[0].ctx, 200, b, GS_DECODE_CHUNK_BYTES + 1, dst, 32),
                 GS_E_SIZE_MISMATCH);
    cr_assert(!gs_plugin_failure(p, NULL, 0));
    gs_plugin_close(p);

    const char *fail = plugin("plugin_fail");
    gs_plugin_options o;
    gs_plugin_options_init(&o);
    cr_assert_eq(gs_plugin_open(fail, &o, &p, &e), GS_OK, "%s", e.detail);
    char want[1024], got[1024];
    snprintf(want, sizeof want, "plugin 'faulty' (%.70s) returned 7 " DURING, fail);
    for (int call = 0; call < 2; call++) {
        cr_assert_eq(decode_block(p, dst), GS_E_DECODER_FAILED);
        cr_assert(gs_plugin_failure(p, got, sizeof got));
        cr_assert_str_eq(got, want);
    }
    gs_plugin_close(p);
}

Test(plugin_host, in_process_refusals)
{
    typedef struct {
        const char *path;
        gs_status status;
        const char *detail, *context;
    } refusal;
    const refusal rows[] = {
        {plugin("plugin_nosym"), GS_E_IO,
         "no ggufsafe_plugin_v1 symbol: not a ggufsafe plugin", ""},
        {plugin("plugin_abi"), GS_E_INVALID_ARGUMENT,
         "plugin ABI version 2; this ggufsafe reads version 1", ""},
        {plugin("plugin_builtin"), GS_E_INVALID_ARGUMENT,
         "type id 8 is built in (q8_0): redefining it needs the override flag", "faulty"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gs_plugin *p;
        gs_error e;
        cr_assert_eq(gs_plugin_open(rows[i].path, NULL, &p, &e), rows[i].status, "%s: %s",
                     rows[i].path, e.detail);
        cr_assert_str_eq(e.detail, rows[i].detail, "%s", rows[i].path);
        cr_assert_str_eq(e.context, rows[i].context, "%s", rows[i].path);
    }
    gs_plugin *p;
    gs_error e;
    static const char missing[] = "/nonexistent/gs_plugin.so";
    cr_assert_eq(gs_plugin_open(missing, NULL, &p, &e), GS_E_IO);
    cr_assert_null(dlopen(missing, RTLD_NOW | RTLD_LOCAL));
    char want[GS_ERROR_TEXT_MAX];
    error_text(want, dlerror());
    cr_assert_str_eq(e.detail, want);
}

Test(plugin_host, bad_arguments)
{
    gs_plugin_options o, small, no_host;
    gs_plugin_options_init(&o);
    o.host_program = fake_host();
    gs_plugin_options_init(&small);
    small.struct_size = sizeof small - 1;
    gs_plugin_options_init(&no_host);
    gs_plugin *p;
    gs_error e;
    const char *example = plugin("plugin_example");
    cr_assert_eq(gs_plugin_open(NULL, NULL, &p, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "path, out or options");
    cr_assert_eq(gs_plugin_open(example, NULL, NULL, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_plugin_open(example, &small, &p, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_plugin_open_ggml("libggml-base.so", NULL, &p, &e), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_plugin_open_ggml("libggml-base.so", &no_host, &p, &e),
                 GS_E_INVALID_ARGUMENT);
    cr_assert_str_eq(e.detail, "path, out or options");
    gs_plugin_options_init(NULL);
    gs_plugin_close(NULL);
    size_t n = 5;
    cr_assert_null(gs_plugin_decoders(NULL, &n));
    cr_assert_eq(n, 0);
    cr_assert_null(gs_plugin_decoders(NULL, NULL));
    cr_assert_str_eq(gs_plugin_name(NULL), "");
    char buf[8] = "x";
    cr_assert(!gs_plugin_failure(NULL, buf, sizeof buf));
    cr_assert_str_eq(buf, "x");
}
