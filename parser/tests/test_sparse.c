/* A sparse file of more than 2 GiB (small metadata, a hole for tensor data) opens with a peak
 * RSS under 64 MiB: tensor pages are never touched. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

static long vm_hwm_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "VmHWM: %ld kB", &kib) == 1) {
            break;
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    return kib;
}

Test(sparse, two_and_a_half_gib_file_opens_without_touching_data)
{
    char path[] = "/tmp/gs_sparse_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    gsw_bytes b;
    tu_raw_start(&b, 3, 1);
    gsw_raw_kv_str(&b, "general.architecture", "sparse");
    uint64_t big[2] = {16384, 40960}; /* 2.5 GiB of f32 */
    uint64_t ne[1] = {1024};
    gsw_raw_tensor(&b, "big", 2, big, GS_TYPE_F32, 0);
    uint64_t big_bytes = big[0] * big[1] * 4;
    gsw_raw_tensor(&b, "q", 1, ne, GS_TYPE_Q4_0, big_bytes);
    gsw_raw_tensor(&b, "tail", 1, ne, GS_TYPE_F32, big_bytes + 576);
    gsw_pad_to(&b, 32);
    uint64_t total = b.len + big_bytes + 576 + 4096;
    cr_assert_eq(write(fd, b.data, b.len), (ssize_t)b.len);
    cr_assert_eq(ftruncate(fd, (off_t)total), 0);
    close(fd);

    long before = vm_hwm_kib();
    gs_file *f;
    gs_error e;
    cr_assert_eq(gs_open_file(path, NULL, &f, &e), GS_OK, "%s", e.detail);
    gs_tensor_info t;
    cr_assert_eq(gs_tensor_info_at(f, 2, &t), GS_OK);
    cr_assert_eq(t.data_offset + t.size, total);
    gs_layout l;
    gs_file_layout(f, &l);
    cr_assert_eq(l.file_size, total);
    cr_assert_gt(total, 2ull << 30);
    long after = vm_hwm_kib();
    gs_close(f);
    unlink(path);
    cr_log_info("VmHWM %ld KiB before, %ld KiB after opening a %llu-byte file", before, after,
                (unsigned long long)total);
    cr_assert_gt(after, 0);
    cr_assert_lt(after, 64 * 1024, "peak RSS %ld KiB", after);
    gsw_bytes_free(&b);
}
