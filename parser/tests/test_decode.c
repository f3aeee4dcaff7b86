/* Decoding tensors of an open file: whole tensors hash to ggml's own list, row ranges agree with
 * whole tensors, statuses for every misuse, and a file that shrinks under the decoder. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gsw_sha256.h"
#include "test_util.h"

#define SAMPLE "conformance/samples/ggml-written.gguf"

static void check_against_ggml(gs_file *f)
{
    FILE *list = fopen(tu_source_path("conformance/samples/ggml-written.dequant.sha256"), "r");
    cr_assert_not_null(list);
    char hash[80], name[128], type[32];
    size_t checked = 0;
    while (fscanf(list, "%79s %127s %31s", hash, name, type) == 3) {
        size_t idx;
        cr_assert_eq(gs_tensor_find(f, name, &idx), GS_OK, "%s", name);
        gs_tensor_info t;
        gs_tensor_info_at(f, idx, &t);
        cr_assert_str_eq(gs_type_name(t.type), type);
        float *out = malloc(t.n_elements * sizeof(float));
        gs_status st = gs_tensor_dequantize(f, idx, out, t.n_elements);
        if (strcmp(hash, "-") == 0) {
            cr_assert_eq(st, GS_E_NOT_DECODABLE, "%s", name);
        } else {
            cr_assert_eq(st, GS_OK, "%s: %s", name, gs_status_name(st));
            char got[65];
            gsw_sha256_floats_hex(out, t.n_elements, got);
            cr_assert_str_eq(got, hash, "%s (%s)", name, type);
        }
        free(out);
        checked++;
    }
    fclose(list);
    cr_assert_eq(checked, 33);
}

Test(decode, sample_tensors_hash_to_ggml_list_from_memory_and_from_file)
{
    size_t n;
    uint8_t *data = tu_read_file(tu_source_path(SAMPLE), &n);
    gs_file *f;
    cr_assert_eq(gs_open_memory(data, n, NULL, &f, NULL), GS_OK);
    check_against_ggml(f);
    gs_close(f);
    cr_assert_eq(gs_open_file(tu_source_path(SAMPLE), NULL, &f, NULL), GS_OK);
    check_against_ggml(f);
    gs_close(f);
    free(data);
}

Test(decode, row_ranges_agree_with_whole_tensors)
{
    gs_file *f;
    cr_assert_eq(gs_open_file(tu_source_path(SAMPLE), NULL, &f, NULL), GS_OK);
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        gs_tensor_info_at(f, i, &t);
        gs_type_info ti;
        gs_type_get_info(t.type, &ti);
        if (!ti.decodable) {
            continue;
        }
        uint64_t rows = t.n_elements / t.ne[0];
        float *whole = malloc(t.n_elements * 4);
        float *part = malloc(t.n_elements * 4);
        cr_assert_eq(gs_tensor_dequantize(f, i, whole, t.n_elements), GS_OK);
        for (uint64_t step = 1; step <= rows; step += 2) {
            memset(part, 0xFF, t.n_elements * 4);
            for (uint64_t r = 0; r < rows; r += step) {
                uint64_t k = r + step <= rows ? step : rows - r;
                cr_assert_eq(gs_tensor_dequantize_rows(f, i, r, k, part + r * t.ne[0],
                                                       k * t.ne[0]), GS_OK);
            }
            cr_assert(memcmp(whole, part, t.n_elements * 4) == 0, "tensor %zu step %llu", i,
                      (unsigned long long)step);
        }
        free(whole);
        free(part);
    }
    gs_close(f);
}

Test(decode, misuse)
{
    gs_file *f;
    cr_assert_eq(gs_open_file(tu_source_path(SAMPLE), NULL, &f, NULL), GS_OK);
    size_t q, i8;
    cr_assert_eq(gs_tensor_find(f, "blk.0.q4_K.weight", &q), GS_OK);
    cr_assert_eq(gs_tensor_find(f, "raw.i8", &i8), GS_OK);
    float buf[4096];
    cr_assert_eq(gs_tensor_dequantize(f, q, buf, 4096), GS_OK);
    cr_assert_eq(gs_tensor_dequantize(f, q, buf, 4095), GS_E_SIZE_MISMATCH);
    cr_assert_eq(gs_tensor_dequantize(f, q, NULL, 4096), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_tensor_dequantize(f, 99, buf, 4096), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_tensor_dequantize(NULL, q, buf, 4096), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_tensor_dequantize(f, i8, buf, 192), GS_E_NOT_DECODABLE);
    cr_assert_eq(gs_tensor_dequantize_rows(f, q, 7, 1, buf, 512), GS_OK);
    cr_assert_eq(gs_tensor_dequantize_rows(f, q, 7, 2, buf, 1024), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_tensor_dequantize_rows(f, q, UINT64_MAX, 2, buf, 1024), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_tensor_dequantize_rows(f, q, 0, 2, buf, 1023), GS_E_SIZE_MISMATCH);
    cr_assert_eq(gs_tensor_dequantize_rows(f, q, 8, 0, buf, 0), GS_OK);
    /* element ranges: whole blocks only */
    float whole[4096];
    cr_assert_eq(gs_tensor_dequantize(f, q, whole, 4096), GS_OK);
    cr_assert_eq(gs_tensor_dequantize_range(f, q, 256, buf, 512), GS_OK);
    cr_assert(memcmp(buf, whole + 256, 512 * 4) == 0);
    cr_assert_eq(gs_tensor_dequantize_range(f, q, 128, buf, 256), GS_E_SIZE_MISMATCH);
    cr_assert_eq(gs_tensor_dequantize_range(f, q, 0, buf, 100), GS_E_SIZE_MISMATCH);
    cr_assert_eq(gs_tensor_dequantize_range(f, q, 3840, buf, 512), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_tensor_dequantize_range(f, q, UINT64_MAX - 255, buf, 512), GS_E_OUT_OF_RANGE);
    cr_assert_eq(gs_tensor_dequantize_range(f, i8, 0, buf, 64), GS_E_NOT_DECODABLE);
    gs_close(f);
}

Test(decode, a_file_that_shrinks_reports_truncation)
{
    char path[] = "/tmp/gs_shrink_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    size_t n;
    uint8_t *data = tu_read_file(tu_source_path(SAMPLE), &n);
    cr_assert_eq(write(fd, data, n), (ssize_t)n);
    gs_file *f;
    cr_assert_eq(gs_open_file(path, NULL, &f, NULL), GS_OK);
    size_t idx;
    cr_assert_eq(gs_tensor_find(f, "blk.0.f32.weight", &idx), GS_OK);
    gs_tensor_info t;
    gs_tensor_info_at(f, idx, &t);
    cr_assert_eq(ftruncate(fd, (off_t)(t.data_offset + 100)), 0);
    float *out = malloc(t.n_elements * 4);
    cr_assert_eq(gs_tensor_dequantize(f, idx, out, t.n_elements), GS_E_TRUNCATED);
    free(out);
    gs_close(f);
    close(fd);
    unlink(path);
    free(data);
}
