/* Finding the oracle's libggml-base.so and resolving, through the library's loader
 * (kernels/ggml_lib.c), the gguf_* and quantizing functions the oracle calls beyond decoding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#define RESOLVE(field)                                                                           \
    do {                                                                                         \
        if (gsi_ggml_resolve(&g->lib, &g->field, sizeof g->field, #field, why, cap) != 0) {      \
            gsi_ggml_close(&g->lib);                                                             \
            return GSX_BAD_LIBRARY;                                                              \
        }                                                                                        \
    } while (0)

gsx_load_status gsx_ggml_load(gsx_ggml *g, char *why, size_t cap)
{
    memset(g, 0, sizeof *g);
    char path[sizeof g->lib.path];
    if (gsx_library_path(path, sizeof path) != 0) {
        snprintf(why, cap, "library path too long");
        return GSX_NOT_FOUND;
    }
    const gsi_ggml_status st = gsi_ggml_open(&g->lib, path, why, cap);
    if (st == GSI_GGML_NOT_FOUND) {
        snprintf(why, cap, "%s not found (run ci/oracle_fetch.sh)", path);
        return GSX_NOT_FOUND;
    }
    if (st != GSI_GGML_LOADED) {
        return GSX_BAD_LIBRARY;
    }
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
    RESOLVE(ggml_quantize_chunk);
    RESOLVE(ggml_quantize_requires_imatrix);
    return GSX_LOADED;
}
