#include "kat_runner.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsw_sha256.h"
#include "gsw_bytes.h"
#include "le_load.h"

const char *const gsk_set_names[GSK_N_SETS] = {"rand", "real"};

bool gsk_read_file(const char *path, gsk_blob *out)
{
    *out = (gsk_blob){NULL, 0};
    gsw_bytes b;
    gsw_bytes_init(&b);
    if (gsw_bytes_load(&b, path) != 0) {
        gsw_bytes_free(&b);
        return false;
    }
    if (b.data == NULL) { /* an empty file: still a buffer */
        b.data = malloc(1);
        if (b.data == NULL) {
            errno = ENOMEM;
            return false;
        }
    }
    *out = (gsk_blob){b.data, b.len};
    return true;
}

void gsk_blob_free(gsk_blob *blob)
{
    free(blob->data);
    *blob = (gsk_blob){NULL, 0};
}

bool gsk_kernel_unavailable(void)
{
    bool usable;
    const gs_kernel kernel = gs_active_kernel(&usable);
    if (!usable) {
        printf("SKIP: decoder path '%s' (GGUFSAFE_KERNEL) is not available here\n",
               gs_kernel_name(kernel));
    }
    return !usable;
}

bool gsk_type_has_kat(int32_t type)
{
    gs_type_info info;
    if (gs_type_get_info(type, &info) != GS_OK || !info.decodable) {
        return false;
    }
    return type != GS_TYPE_F32 && type != GS_TYPE_Q8_1;
}

/* Sets the failure message (truncated to the buffer, which is fine for a diagnostic). */
__attribute__((format(printf, 2, 3))) static void fail(gsk_kat_result *res, const char *fmt,
                                                       ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->message, sizeof res->message, fmt, ap);
    va_end(ap);
}

bool gsk_kat_compare(const char *label, const float *got, size_t n_elems, uint32_t block_elems,
                     const uint8_t *want, const char *who, char *msg, size_t msg_cap)
{
    for (size_t i = 0; i < n_elems; i++) {
        const uint32_t raw_want = gsi_load_u32le(want + 4 * i);
        float want_f;
        memcpy(&want_f, &raw_want, sizeof want_f);
        if (gsw_nan_canonical_bits(got[i]) != gsw_nan_canonical_bits(want_f)) {
            uint32_t raw_got;
            memcpy(&raw_got, &got[i], sizeof raw_got);
            snprintf(msg, msg_cap, "%s: element %zu (block %zu, element %zu of the block) is "
                     "0x%08x, %s gives 0x%08x", label, i, i / block_elems, i % block_elems,
                     raw_got, who, raw_want);
            return false;
        }
    }
    return true;
}

void gsk_kat_run(const char *dir, int32_t type, const char *set, gsk_kat_result *res)
{
    *res = (gsk_kat_result){.passed = false};
    const char *name = gs_type_name(type);
    gs_type_info info;
    if (gs_type_get_info(type, &info) != GS_OK || info.block_elems == 0) {
        fail(res, "%s.%s: type %d has no layout", name, set, (int)type);
        return;
    }
    char path[4096];
    gsk_blob in, out;
    snprintf(path, sizeof path, "%s/%s.%s.in", dir, name, set);
    if (!gsk_read_file(path, &in)) {
        fail(res, "%s.%s: cannot read %s: %s", name, set, path, strerror(errno));
        return;
    }
    snprintf(path, sizeof path, "%s/%s.%s.out", dir, name, set);
    if (!gsk_read_file(path, &out)) {
        fail(res, "%s.%s: cannot read %s: %s", name, set, path, strerror(errno));
        gsk_blob_free(&in);
        return;
    }
    const size_t n_blocks = in.size / info.block_bytes;
    const size_t n_elems = n_blocks * info.block_elems;
    if (in.size % info.block_bytes != 0 || n_blocks == 0 || out.size != n_elems * 4) {
        fail(res, "%s.%s: %zu input bytes and %zu output bytes do not match %u-byte blocks of %u"
             " elements", name, set, in.size, out.size, info.block_bytes, info.block_elems);
        goto done;
    }
    res->decoded = malloc(n_elems * sizeof(float));
    if (res->decoded == NULL) {
        fail(res, "%s.%s: out of memory", name, set);
        goto done;
    }
    res->n_elems = n_elems;
    const gs_status st = gs_dequantize((gs_type)type, in.data, in.size, res->decoded, n_elems);
    if (st != GS_OK) {
        fail(res, "%s.%s: gs_dequantize returned %s", name, set, gs_status_name(st));
        goto done;
    }
    char label[96];
    snprintf(label, sizeof label, "%s.%s", name, set);
    if (!gsk_kat_compare(label, res->decoded, n_elems, info.block_elems, out.data, "ggml",
                         res->message, sizeof res->message)) {
        goto done;
    }
    res->passed = true;
done:
    gsk_blob_free(&in);
    gsk_blob_free(&out);
}

void gsk_kat_result_free(gsk_kat_result *res)
{
    free(res->decoded);
    res->decoded = NULL;
}

bool gsk_kat_type_passes(const char *dir, int32_t type)
{
    if (!gsk_type_has_kat(type)) {
        return false;
    }
    bool all = true;
    for (int s = 0; s < GSK_N_SETS; s++) {
        gsk_kat_result res;
        gsk_kat_run(dir, type, gsk_set_names[s], &res);
        all = all && res.passed;
        gsk_kat_result_free(&res);
    }
    return all;
}
