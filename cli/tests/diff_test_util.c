#include "diff_test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "ggufsafe.h"
#include "gsw_write.h"
#include "quant_ref.h"

void dt_add_tensor(gsw_model *m, const char *name, uint32_t n_dims, const uint64_t *ne,
                   int32_t type, const float *vals)
{
    size_t n = 1;
    for (uint32_t d = 0; d < n_dims; d++) {
        n *= (size_t)ne[d];
    }
    gsw_tensor *t = gsw_add_tensor(m, name, n_dims, ne, type);
    if (type == GS_TYPE_Q8_0 || type == GS_TYPE_Q4_0) {
        size_t bytes = n / 32 * (type == GS_TYPE_Q8_0 ? 34 : 18);
        uint8_t *q = malloc(bytes);
        if (type == GS_TYPE_Q8_0) {
            qr_quantize_q8_0(vals, n, q);
        } else {
            qr_quantize_q4_0(vals, n, q);
        }
        gsw_tensor_set_data(t, q, bytes);
        free(q);
    } else {
        gsw_tensor_set_data(t, vals, n * sizeof(float)); /* little-endian host */
    }
}

bool dt_save(const gsw_model *m, const char *path)
{
    char why[256];
    if (gsw_write_file(m, 0, path, why, sizeof why) != 0) {
        fprintf(stderr, "gsw_write_file %s: %s\n", path, why);
        return false;
    }
    return true;
}

const char *dt_save_in(dt_scratch *s, gsw_model *m, const char *name)
{
    const char *path = dt_scratch_path(s, name);
    const bool saved = path != NULL && dt_save(m, path);
    gsw_model_free(m);
    return saved ? path : NULL;
}

bool dt_json_number(const char *json, const char *name, const char *key, double *out)
{
    char anchor[256], member[128];
    if (name != NULL) {
        snprintf(anchor, sizeof anchor, "\"name\": \"%s\"", name);
    } else {
        snprintf(anchor, sizeof anchor, "\"total\": {");
    }
    snprintf(member, sizeof member, "\"%s\": ", key);
    const char *p = strstr(json, anchor);
    p = p != NULL ? strstr(p, member) : NULL;
    if (p == NULL) {
        return false;
    }
    p += strlen(member);
    if (strncmp(p, "\"NaN\"", 5) == 0) {
        *out = NAN;
    } else if (strncmp(p, "\"Infinity\"", 10) == 0) {
        *out = INFINITY;
    } else if (strncmp(p, "\"-Infinity\"", 11) == 0) {
        *out = -INFINITY;
    } else {
        char *end;
        *out = strtod(p, &end);
        return end != p;
    }
    return true;
}

size_t dt_count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(s, needle); p != NULL; p = strstr(p + 1, needle)) {
        n++;
    }
    return n;
}

void dt_metrics_whole(const float *a, const float *b, size_t n, uint32_t block_elems,
                      dt_metrics *out)
{
    double sse = 0, aa = 0, bb = 0, ab = 0, max_abs = 0, block_sse = 0, worst_sse = -1;
    memset(out, 0, sizeof *out);
    bool block_changed = false;
    for (size_t i = 0; i < n; i++) {
        double x = a[i], y = b[i], d = x - y;
        sse += d * d;
        aa += x * x;
        bb += y * y;
        ab += x * y;
        max_abs = fabs(d) > max_abs ? fabs(d) : max_abs;
        out->equal += a[i] == b[i];
        block_sse += d * d;
        block_changed = block_changed || a[i] != b[i];
        if ((i + 1) % block_elems == 0 || i + 1 == n) {
            if (block_changed) {
                out->changed_blocks++;
                if (block_sse > worst_sse) {
                    worst_sse = block_sse;
                    out->worst_block = i / block_elems;
                }
            }
            block_sse = 0;
            block_changed = false;
        }
    }
    out->max_abs = max_abs;
    out->rmse = sqrt(sse / (double)n);
    out->nmse = sse / aa;
    out->cosine = fmin(1.0, fmax(-1.0, ab / sqrt(aa * bb)));
    out->worst_rmse = worst_sse >= 0 ? sqrt(worst_sse / block_elems) : 0;
}

float *dt_decode_whole(const char *path, const char *name, size_t *n)
{
    gs_file *f;
    size_t idx;
    gs_tensor_info t;
    if (gs_open_file(path, NULL, &f, NULL) != GS_OK) {
        return NULL;
    }
    float *v = NULL;
    if (gs_tensor_find(f, name, &idx) == GS_OK && gs_tensor_info_at(f, idx, &t) == GS_OK) {
        v = malloc((size_t)t.n_elements * sizeof *v);
        if (v != NULL && gs_tensor_dequantize(f, idx, v, (size_t)t.n_elements) != GS_OK) {
            free(v);
            v = NULL;
        }
        *n = (size_t)t.n_elements;
    }
    gs_close(f);
    return v;
}

bool dt_scratch_open(dt_scratch *s)
{
    memset(s, 0, sizeof *s);
    s->dir = scratch_dir();
    return s->dir != NULL;
}

const char *dt_scratch_path(dt_scratch *s, const char *name)
{
    char **grown = realloc(s->paths, (s->n_paths + 1) * sizeof *grown);
    if (grown == NULL) {
        abort(); /* a test helper: out of memory ends the test */
    }
    s->paths = grown;
    s->paths[s->n_paths] = path_join(s->dir, name);
    return s->paths[s->n_paths++];
}

void dt_scratch_close(dt_scratch *s)
{
    for (size_t i = 0; i < s->n_paths; i++) {
        free(s->paths[i]);
    }
    free(s->paths);
    scratch_remove(s->dir);
    memset(s, 0, sizeof *s);
}
