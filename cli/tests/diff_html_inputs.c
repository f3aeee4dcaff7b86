/* gs_diff_html_inputs DIR [LAYERS]: the three files of a three-way `ggufsafe diff` that the HTML
 * page's tests and the README's screenshot (docs/img/make_screenshots.sh) draw: DIR/ref.gguf
 * (F32), DIR/q8_0.gguf and DIR/q4_0.gguf, the same model quantized with the test-side reference
 * quantizers (quant_ref.h). LAYERS layers (default 12, at most 1000) of blk.N.attn_q,
 * blk.N.attn_v, blk.N.ffn_up, blk.N.ffn_down ([256, 16], Gaussian, wider in later layers) and
 * blk.N.attn_norm ([256], kept F32: an exact tensor, drawn on the charts' floor), plus
 * output.weight: 5 x LAYERS + 1 tensors. Deterministic: the same bytes on every run. A program,
 * not a test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_test_util.h"
#include "gsw_model.h"
#include "quant_ref.h"

#define ROW 256u
#define ROWS 16u

static const char *const roles[] = {"attn_q", "attn_v", "ffn_up", "ffn_down"};

static void add_all(gsw_model *m, int32_t type, unsigned layers, float *vals)
{
    uint64_t ne2[2] = {ROW, ROWS}, ne1[1] = {ROW};
    char name[64];
    for (unsigned l = 0; l < layers; l++) {
        for (unsigned k = 0; k < sizeof roles / sizeof roles[0]; k++) {
            /* wider weights deeper in, ffn_down widest: curves that differ per role */
            float sigma = 0.02f * (1.0f + (float)l / 4.0f) * (k == 3 ? 2.0f : 1.0f);
            qr_gaussian(1000u * l + k + 1, sigma, vals, ROW * ROWS);
            if (k == 1 && l % 5 == 2) {
                vals[7] = 40.0f * sigma; /* an outlier: a bump in attn_v's curve */
            }
            snprintf(name, sizeof name, "blk.%u.%s.weight", l, roles[k]);
            dt_add_tensor(m, name, 2, ne2, type, vals);
        }
        qr_gaussian(1000u * l + 999u, 0.5f, vals, ROW);
        snprintf(name, sizeof name, "blk.%u.attn_norm.weight", l);
        dt_add_tensor(m, name, 1, ne1, GS_TYPE_F32, vals);
    }
    qr_gaussian(7u, 0.03f, vals, ROW * ROWS);
    dt_add_tensor(m, "output.weight", 2, ne2, type, vals);
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: gs_diff_html_inputs DIR [LAYERS]\n");
        return 2;
    }
    long layers = argc == 3 ? strtol(argv[2], NULL, 10) : 12;
    if (layers < 1 || layers > 1000) {
        fprintf(stderr, "gs_diff_html_inputs: LAYERS is 1..1000\n");
        return 2;
    }
    static const struct {
        const char *file;
        int32_t type;
    } outs[] = {{"ref.gguf", GS_TYPE_F32}, {"q8_0.gguf", GS_TYPE_Q8_0}, {"q4_0.gguf", GS_TYPE_Q4_0}};
    float *vals = malloc(ROW * ROWS * sizeof *vals);
    if (vals == NULL) {
        fprintf(stderr, "gs_diff_html_inputs: out of memory\n");
        return 2;
    }
    int rc = 0;
    for (size_t i = 0; i < sizeof outs / sizeof outs[0] && rc == 0; i++) {
        gsw_model model, *m = &model;
        gsw_model_init(m, 3);
        gsw_set_cstr(gsw_add(m, "general.architecture"), "llama");
        gsw_set_cstr(gsw_add(m, "general.name"), "html-demo");
        add_all(m, outs[i].type, (unsigned)layers, vals);
        size_t len = strlen(argv[1]) + strlen(outs[i].file) + 2;
        char *path = malloc(len);
        if (path == NULL) {
            rc = 2;
        } else {
            snprintf(path, len, "%s/%s", argv[1], outs[i].file);
            rc = dt_save(m, path) ? 0 : 2;
            free(path);
        }
        gsw_model_free(m);
    }
    free(vals);
    return rc;
}
