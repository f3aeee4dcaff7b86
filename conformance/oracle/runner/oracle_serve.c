/* gs_oracle serve: one report per request, until stdin closes (oracle_proto.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle_main.h"
#include "oracle_proto.h"
#include "oracle_report.h"

/* Reads exactly n bytes; false on EOF or error. */
static int read_all(int fd, void *buf, size_t n)
{
    size_t done = 0;
    while (done < n) {
        const ssize_t r = read(fd, (char *)buf + done, n - done);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return 0;
        }
        done += (size_t)r;
    }
    return 1;
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

int gsx_cmd_serve(const gsx_ggml *g)
{
    gsi_ggml_quiet_log(&g->lib); /* millions of inputs: ggml's error lines would drown the client */
    uint8_t head[GSX_PROTO_HEADER_BYTES];
    while (read_all(STDIN_FILENO, head, sizeof head)) {
        const unsigned flags = (unsigned)le(head + 4, 4);
        const uint64_t size = le(head + 8, 8);
        if (memcmp(head, GSX_PROTO_MAGIC, 4) != 0 || size > GSX_PROTO_MAX_INPUT) {
            fprintf(stderr, "gs_oracle serve: bad request header\n");
            return 2;
        }
        uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
        if (data == NULL || !read_all(STDIN_FILENO, data, (size_t)size)) {
            free(data);
            return 2;
        }
        gsx_report_buffer(g, data, (size_t)size, flags, stdout);
        free(data);
    }
    return 0;
}
