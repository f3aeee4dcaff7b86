/* gs_oracle to-float and quantize: ggml's decoders and quantizers on raw blocks. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_bytes.h"
#include "oracle_main.h"
#include "oracle_write.h"

/* A ggml type id from the command line; -1 when it is not a live type. */
static int parse_type(const gsx_ggml *g, const char *s)
{
    char *end;
    const long t = strtol(s, &end, 10);
    if (*end != '\0' || t < 0 || t >= GSX_GGML_TYPE_COUNT ||
        g->lib.ggml_get_type_traits((int)t)->blck_size == 0) {
        return -1;
    }
    return (int)t;
}

/* Runs one() on each group of k operands, stopping at the first that fails; the usage line on
 * stderr unless the operands are one or more whole groups. */
static int each_group(const gsx_ggml *g, int argc, char **argv, int k, const char *usage,
                      int (*one)(const gsx_ggml *g, char **op))
{
    if (argc == 0 || argc % k != 0) {
        fputs(usage, stderr);
        return GSX_EXIT_USAGE;
    }
    for (int i = 0; i < argc; i += k) {
        const int rc = one(g, argv + i);
        if (rc != GSX_EXIT_ACCEPTED) {
            return rc;
        }
    }
    return GSX_EXIT_ACCEPTED;
}

/* TYPE IN OUT */
static int to_float_one(const gsx_ggml *g, char **op)
{
    const int t = parse_type(g, op[0]);
    const gsx_to_float_fn fn = t >= 0 ? gsx_decoder(g, t) : NULL;
    if (fn == NULL) {
        fprintf(stderr, "to-float: ggml has no decoder for type %s\n", op[0]);
        return GSX_EXIT_USAGE;
    }
    const gsx_type_traits *tr = g->lib.ggml_get_type_traits(t);
    size_t size;
    uint8_t *in = gsx_read_file(op[1], &size);
    if (in == NULL || size % tr->type_size != 0) {
        fprintf(stderr, "to-float: %s: unreadable or not whole blocks\n", op[1]);
        free(in);
        return GSX_EXIT_USAGE;
    }
    const size_t n = size / tr->type_size * (size_t)tr->blck_size;
    float *out = malloc(n * sizeof *out + 1);
    if (out == NULL) {
        free(in);
        return GSX_EXIT_USAGE;
    }
    fn(in, out, (int64_t)n);
    const int rc = gsx_write_file(op[2], out, n * sizeof *out);
    free(in);
    free(out);
    if (rc != 0) {
        fprintf(stderr, "to-float: cannot write %s\n", op[2]);
        return GSX_EXIT_USAGE;
    }
    return GSX_EXIT_ACCEPTED;
}

int gsx_cmd_to_float(const gsx_ggml *g, int argc, char **argv)
{
    return each_group(g, argc, argv, 3,
                      "usage: gs_oracle to-float TYPE IN OUT [TYPE IN OUT]...\n", to_float_one);
}

/* TYPE ROWS SEED OUT */
static int quantize_one(const gsx_ggml *g, char **op)
{
    const int t = parse_type(g, op[0]);
    const long rows = strtol(op[1], NULL, 10);
    gsx_rng rng = {strtoull(op[2], NULL, 0)};
    if (t < 0 || gsx_decoder(g, t) == NULL || t == GSX_GGML_TYPE_Q8_K || rows <= 0 ||
        rows > 1 << 20) {
        fprintf(stderr, "quantize: ggml does not quantize to type %s\n", op[0]);
        return GSX_EXIT_USAGE;
    }
    const gsx_type_traits *tr = g->lib.ggml_get_type_traits(t);
    const int64_t n_per_row = tr->blck_size > 256 ? tr->blck_size : 256;
    const size_t n = (size_t)(n_per_row * rows);
    const size_t bytes = (size_t)(n_per_row / tr->blck_size) * tr->type_size * (size_t)rows;
    float *src = malloc(n * sizeof *src);
    float *imatrix = malloc((size_t)n_per_row * sizeof *imatrix);
    uint8_t *dst = malloc(bytes);
    int rc = GSX_EXIT_USAGE;
    if (src != NULL && imatrix != NULL && dst != NULL) {
        for (size_t k = 0; k < n; k++) {
            src[k] = gsx_rng_gauss(&rng);
        }
        for (int64_t k = 0; k < n_per_row; k++) {
            imatrix[k] = 0.5f + (float)gsx_rng_below(&rng, 1000) / 1000.0f;
        }
        const bool needs = g->ggml_quantize_requires_imatrix(t);
        g->ggml_quantize_chunk(t, src, dst, 0, rows, n_per_row, needs ? imatrix : NULL);
        rc = gsx_write_file(op[3], dst, bytes) == 0 ? GSX_EXIT_ACCEPTED : GSX_EXIT_USAGE;
    }
    free(src);
    free(imatrix);
    free(dst);
    if (rc != GSX_EXIT_ACCEPTED) {
        fprintf(stderr, "quantize: failed for type %s\n", op[0]);
        return rc;
    }
    return GSX_EXIT_ACCEPTED;
}

int gsx_cmd_quantize(const gsx_ggml *g, int argc, char **argv)
{
    return each_group(g, argc, argv, 4, "usage: gs_oracle quantize TYPE ROWS SEED OUT [...]\n",
                      quantize_one);
}
