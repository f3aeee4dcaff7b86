/* Loading libggml-base.so with dlopen and checking that our declarations fit it. */
#define _POSIX_C_SOURCE 200809L /* access */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ggml_api.h"

#define GSX_PACKAGE_DIR "node-llama-cpp-linux-x64-3.22.1"
#define GSX_LIB_IN_PACKAGE "package/bins/linux-x64/libggml-base.so"

int gsx_library_path(char *out, size_t cap)
{
    const char *lib = getenv("GGUFSAFE_ORACLE_LIB");
    int n;
    if (lib != NULL && lib[0] != '\0') {
        n = snprintf(out, cap, "%s", lib);
    } else {
        const char *cache = getenv("GGUFSAFE_ORACLE_CACHE");
        const char *home = getenv("HOME");
        if (cache != NULL && cache[0] != '\0') {
            n = snprintf(out, cap, "%s/%s/%s", cache, GSX_PACKAGE_DIR, GSX_LIB_IN_PACKAGE);
        } else {
            n = snprintf(out, cap, "%s/.cache/ggufsafe/oracle/%s/%s", home ? home : "",
                         GSX_PACKAGE_DIR, GSX_LIB_IN_PACKAGE);
        }
    }
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

static void say(char *why, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
}

/* dlsym into a function pointer without a data-to-function pointer cast. */
static int resolve(gsx_ggml *g, void *slot, size_t slot_size, const char *name, char *why,
                   size_t cap)
{
    void *p = dlsym(g->handle, name);
    if (p == NULL) {
        say(why, cap, "%s: symbol %s missing", g->path, name);
        return -1;
    }
    memcpy(slot, &p, slot_size);
    return 0;
}

#define RESOLVE(field)                                                                           \
    do {                                                                                         \
        if (resolve(g, &g->field, sizeof g->field, #field, why, cap) != 0) {                     \
            return GSX_BAD_LIBRARY;                                                              \
        }                                                                                        \
    } while (0)

/* ggml's live types as docs/quant-types.md lists them; removed ids have block size 0. */
static const struct {
    const char *name;
    int64_t blck;
    size_t bytes;
} known_types[GSX_GGML_TYPE_COUNT] = {
    {"f32", 1, 4},        {"f16", 1, 2},        {"q4_0", 32, 18},     {"q4_1", 32, 20},
    {NULL, 0, 0},         {NULL, 0, 0},         {"q5_0", 32, 22},     {"q5_1", 32, 24},
    {"q8_0", 32, 34},     {"q8_1", 32, 36},     {"q2_K", 256, 84},    {"q3_K", 256, 110},
    {"q4_K", 256, 144},   {"q5_K", 256, 176},   {"q6_K", 256, 210},   {"q8_K", 256, 292},
    {"iq2_xxs", 256, 66}, {"iq2_xs", 256, 74},  {"iq3_xxs", 256, 98}, {"iq1_s", 256, 50},
    {"iq4_nl", 32, 18},   {"iq3_s", 256, 110},  {"iq2_s", 256, 82},   {"iq4_xs", 256, 136},
    {"i8", 1, 1},         {"i16", 1, 2},        {"i32", 1, 4},        {"i64", 1, 8},
    {"f64", 1, 8},        {"iq1_m", 256, 56},   {"bf16", 1, 2},       {NULL, 0, 0},
    {NULL, 0, 0},         {NULL, 0, 0},         {"tq1_0", 256, 54},   {"tq2_0", 256, 66},
    {NULL, 0, 0},         {NULL, 0, 0},         {NULL, 0, 0},         {"mxfp4", 32, 17},
    {"nvfp4", 64, 36},    {"q1_0", 128, 18},    {"q2_0", 64, 18},
};

/* Every traits entry must match the table, and Q4_0's to_float must be the exported
 * dequantize_row_q4_0: a shifted member would fail one or the other. */
static gsx_load_status check_layout(const gsx_ggml *g, char *why, size_t cap)
{
    for (int t = 0; t < GSX_GGML_TYPE_COUNT; t++) {
        const gsx_type_traits *tr = g->ggml_get_type_traits(t);
        if (tr == NULL) {
            say(why, cap, "ggml_get_type_traits(%d) is NULL", t);
            return GSX_BAD_LIBRARY;
        }
        if (tr->blck_size != known_types[t].blck || tr->type_size != known_types[t].bytes ||
            (known_types[t].name != NULL &&
             (tr->type_name == NULL || strcmp(tr->type_name, known_types[t].name) != 0))) {
            say(why, cap, "type %d: traits {%s, %lld, %zu} differ from {%s, %lld, %zu}", t,
                tr->type_name ? tr->type_name : "(null)", (long long)tr->blck_size,
                tr->type_size, known_types[t].name ? known_types[t].name : "removed",
                (long long)known_types[t].blck, known_types[t].bytes);
            return GSX_BAD_LIBRARY;
        }
    }
    if (g->ggml_get_type_traits(2)->to_float != g->dequantize_row_q4_0) {
        say(why, cap, "q4_0 to_float is not dequantize_row_q4_0: the traits layout differs");
        return GSX_BAD_LIBRARY;
    }
    return GSX_LOADED;
}

gsx_load_status gsx_ggml_load(gsx_ggml *g, char *why, size_t cap)
{
    memset(g, 0, sizeof *g);
    if (gsx_library_path(g->path, sizeof g->path) != 0) {
        say(why, cap, "library path too long");
        return GSX_NOT_FOUND;
    }
    if (access(g->path, R_OK) != 0) {
        say(why, cap, "%s not found (run ci/oracle_fetch.sh)", g->path);
        return GSX_NOT_FOUND;
    }
    g->handle = dlopen(g->path, RTLD_NOW | RTLD_LOCAL);
    if (g->handle == NULL) {
        say(why, cap, "dlopen: %s", dlerror());
        return GSX_BAD_LIBRARY;
    }
    RESOLVE(ggml_version);
    RESOLVE(ggml_commit);
    RESOLVE(ggml_log_set);
    RESOLVE(gguf_init_from_file);
    RESOLVE(gguf_init_from_buffer);
    RESOLVE(gguf_free);
    RESOLVE(gguf_get_version);
    RESOLVE(gguf_get_alignment);
    RESOLVE(gguf_get_data_offset);
    RESOLVE(gguf_get_n_kv);
    RESOLVE(gguf_get_key);
    RESOLVE(gguf_get_kv_type);
    RESOLVE(gguf_get_arr_type);
    RESOLVE(gguf_get_arr_n);
    RESOLVE(gguf_get_arr_data);
    RESOLVE(gguf_get_arr_str);
    RESOLVE(gguf_get_val_data);
    RESOLVE(gguf_get_val_str);
    RESOLVE(gguf_get_n_tensors);
    RESOLVE(gguf_find_tensor);
    RESOLVE(gguf_get_tensor_name);
    RESOLVE(gguf_get_tensor_type);
    RESOLVE(gguf_get_tensor_offset);
    RESOLVE(gguf_get_tensor_size);
    RESOLVE(gguf_get_tensor_ne);
    RESOLVE(gguf_init_empty);
    RESOLVE(gguf_set_val_u8);
    RESOLVE(gguf_set_val_i8);
    RESOLVE(gguf_set_val_u16);
    RESOLVE(gguf_set_val_i16);
    RESOLVE(gguf_set_val_u32);
    RESOLVE(gguf_set_val_i32);
    RESOLVE(gguf_set_val_f32);
    RESOLVE(gguf_set_val_u64);
    RESOLVE(gguf_set_val_i64);
    RESOLVE(gguf_set_val_f64);
    RESOLVE(gguf_set_val_bool);
    RESOLVE(gguf_set_val_str);
    RESOLVE(gguf_set_arr_data);
    RESOLVE(gguf_set_arr_str);
    RESOLVE(gguf_add_tensor);
    RESOLVE(gguf_set_tensor_data);
    RESOLVE(gguf_write_to_file);
    RESOLVE(ggml_init);
    RESOLVE(ggml_free);
    RESOLVE(ggml_tensor_overhead);
    RESOLVE(ggml_new_tensor);
    RESOLVE(ggml_set_name);
    RESOLVE(ggml_get_type_traits);
    RESOLVE(ggml_quantize_chunk);
    RESOLVE(ggml_quantize_requires_imatrix);
    RESOLVE(dequantize_row_q4_0);
    RESOLVE(dequantize_row_q8_K);
    return check_layout(g, why, cap);
}

gsx_to_float_fn gsx_decoder(const gsx_ggml *g, int type)
{
    if (type < 0 || type >= GSX_GGML_TYPE_COUNT) {
        return NULL;
    }
    if (type == GSX_GGML_TYPE_Q8_K) {
        return g->dequantize_row_q8_K;
    }
    return g->ggml_get_type_traits(type)->to_float;
}

static void quiet(int level, const char *text, void *user)
{
    (void)level;
    (void)text;
    (void)user;
}

void gsx_quiet_log(const gsx_ggml *g)
{
    g->ggml_log_set(quiet, NULL);
}
