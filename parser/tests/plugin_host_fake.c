#define _POSIX_C_SOURCE 200809L
/* A plugin host for test_plugin_host.c. `PROG __plugin-host fake:PHASE:WHAT` answers the way a
 * broken or hostile host would, so that the parent's checks of every frame (parser/plugin.c)
 * run in the test's own process:
 *   fake:load:WHAT    instead of the table: load_error, table_error, kind, oversize, short,
 *                     stderr_long,
 *                     hang, badtable, signal:N
 *   fake:decode:WHAT  a valid table (type 200, "fake_q", 32 elements in 34 bytes, title "fake"),
 *                     then, to the first decode frame: ok (every frame answered: float i is
 *                     src[i % 34] + 0.5), linger (as ok, float 0 is its pid, and it stays
 *                     after QUIT), deaf (shuts its reading side before the table, then exits
 *                     6), rc, kind, short, oob_len, count, oversize, oob_after,
 *                     oob_before, exit, cut, hang, stderr, stderr_long, signal:N
 * Any other PLUGIN: the real host, gs_plugin_host_main. */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ggufsafe.h"
#include "le_load.h"
#include "plugin_proto.h"
#include "plugin_table.h"

static void put(int fd, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n > 0) {
        ssize_t w = write(fd, b, n);
        if (w <= 0) {
            _exit(3);
        }
        b += w;
        n -= (size_t)w;
    }
}

static void get(void *p, size_t n)
{
    uint8_t *b = p;
    while (n > 0) {
        ssize_t r = read(0, b, n);
        if (r <= 0) {
            _exit(0); /* the parent closed */
        }
        b += r;
        n -= (size_t)r;
    }
}

/* A frame header announcing len bytes, then the first n bytes of payload. */
static void frame(uint32_t kind, uint32_t len, const void *payload, size_t n)
{
    uint8_t h[GSI_PF_HEADER];
    gsi_pf_header(h, kind, len);
    put(1, h, sizeof h);
    if (n > 0) {
        put(1, payload, n);
    }
}

static void die_by(int sig)
{
    signal(sig, SIG_DFL);
    kill(getpid(), sig);
    for (;;) {
        pause();
    }
}

static void hang(void)
{
    for (;;) {
        pause();
    }
}

/* What both phases may do instead of answering: hang, die by signal N, or write 600 bytes and a
 * newline to stderr and exit 1 (returned); 0 for any other WHAT. */
static int common_fault(const char *what)
{
    if (strcmp(what, "hang") == 0) {
        hang();
    } else if (strncmp(what, "signal:", 7) == 0) {
        die_by(atoi(what + 7));
    } else if (strcmp(what, "stderr_long") == 0) {
        char e[601];
        memset(e, 'e', 600);
        e[600] = '\n';
        put(2, e, sizeof e);
        return 1;
    }
    return 0;
}

static int fake_load(const char *what)
{
    static uint8_t zeros[64];
    if (strcmp(what, "load_error") == 0) {
        frame(GSI_PF_LOAD_ERROR, 6, "no\x01pe\\", 6);
    } else if (strcmp(what, "table_error") == 0) {
        frame(GSI_PF_TABLE_ERROR, 9, "bad table", 9);
    } else if (strcmp(what, "kind") == 0) {
        frame(9, 0, NULL, 0);
    } else if (strcmp(what, "oversize") == 0) {
        frame(GSI_PF_TABLE, GSI_PLUGIN_TABLE_MAX_BYTES + 1, zeros, sizeof zeros);
    } else if (strcmp(what, "short") == 0) {
        put(1, zeros, 3);
        return 7;
    } else if (strcmp(what, "badtable") == 0) {
        frame(GSI_PF_TABLE, 4, "GSPX", 4);
    } else {
        return common_fault(what);
    }
    return 0;
}

static int fake_q(int32_t type, const void *src, size_t src_bytes, float *dst, size_t n)
{
    (void)type, (void)src, (void)src_bytes, (void)dst, (void)n;
    return 0;
}

/* The answer to one decode frame (type, n_elems, blocks in p[0..len)): -1 to read the next frame,
 * else the exit status. */
static int answer(const char *what, const uint8_t *p, uint32_t len)
{
    uint32_t n = gsi_load_u32le(p + 4);
    static uint8_t out[4 + 4 * 256 * 1024];
    memset(out, 0, 4);
    for (uint32_t i = 0; i < n; i++) {
        float f = (float)p[8 + i % (len - 8)] + 0.5f;
        memcpy(out + 4 + 4 * i, &f, 4);
    }
    static const uint8_t oob_after[12] = {16, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
    static const uint8_t oob_before[12] = {8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t rc[4] = {0xfd, 0xff, 0xff, 0xff}; /* -3 */
    if (strcmp(what, "ok") == 0) {
        frame(GSI_PF_RESULT, 4 + 4 * n, out, 4 + 4 * (size_t)n);
    } else if (strcmp(what, "linger") == 0) {
        float pid = (float)getpid();
        memcpy(out + 4, &pid, 4);
        frame(GSI_PF_RESULT, 4 + 4 * n, out, 4 + 4 * (size_t)n);
    } else if (strcmp(what, "rc") == 0) {
        frame(GSI_PF_RESULT, 4, rc, 4);
    } else if (strcmp(what, "kind") == 0) {
        frame(7, 4, out, 4);
    } else if (strcmp(what, "short") == 0) {
        frame(GSI_PF_RESULT, 2, out, 2);
    } else if (strcmp(what, "oob_len") == 0) {
        frame(GSI_PF_OOB, 8, oob_after, 8);
    } else if (strcmp(what, "count") == 0) {
        frame(GSI_PF_RESULT, 4 + 2 * n, out, 4 + 2 * (size_t)n);
    } else if (strcmp(what, "oversize") == 0) {
        frame(GSI_PF_RESULT, 4 + 4 * n + 9, out, 4);
    } else if (strcmp(what, "oob_after") == 0) {
        frame(GSI_PF_OOB, 12, oob_after, 12);
        return 4;
    } else if (strcmp(what, "oob_before") == 0) {
        frame(GSI_PF_OOB, 12, oob_before, 12);
        return 4;
    } else if (strcmp(what, "exit") == 0) {
        return 9;
    } else if (strcmp(what, "cut") == 0) {
        frame(GSI_PF_RESULT, 4 + 4 * n, out, 10);
        return 0;
    } else if (strcmp(what, "stderr") == 0) {
        put(2, "a\x1b[0m\\b\r\n", 9);
        return 1;
    } else if (common_fault(what) != 0) {
        return 1;
    }
    return -1; /* answered: on to the next frame (the parent kills us when it gave up) */
}

static int fake_decode(const char *what)
{
    static const gs_plugin_type types[] = {{200, "fake_q", 32, 34, fake_q}};
    static const gs_plugin_table table = {GGUFSAFE_PLUGIN_ABI_VERSION, sizeof table, "fake", 1,
                                          types};
    static uint8_t enc[GSI_PLUGIN_TABLE_MAX_BYTES];
    size_t enc_len;
    if (gsi_plugin_table_encode(&table, enc, &enc_len, NULL) != GS_OK) {
        return 2;
    }
    bool deaf = strcmp(what, "deaf") == 0;
    if (deaf && shutdown(0, SHUT_RD) != 0) {
        return 2;
    }
    frame(GSI_PF_TABLE, (uint32_t)enc_len, enc, enc_len);
    if (deaf) {
        return 6; /* the parent's next send fails: the socket reads nothing more */
    }
    static uint8_t in[8 + GS_DECODE_CHUNK_BYTES];
    for (;;) {
        uint8_t h[GSI_PF_HEADER];
        get(h, sizeof h);
        uint32_t kind = gsi_load_u32le(h), len = gsi_load_u32le(h + 4);
        if (kind != GSI_PF_DECODE || len < 9 || len > sizeof in) {
            if (strcmp(what, "linger") == 0) {
                hang(); /* until the parent kills it */
            }
            return 0; /* QUIT, or nothing this fake answers */
        }
        get(in, len);
        int rc = answer(what, in, len);
        if (rc >= 0) {
            return rc;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc == 3 && strncmp(argv[2], "fake:load:", 10) == 0) {
        return fake_load(argv[2] + 10);
    }
    if (argc == 3 && strncmp(argv[2], "fake:decode:", 12) == 0) {
        return fake_decode(argv[2] + 12);
    }
    return gs_plugin_host_main(argc, argv);
}
