/* <arch>.block_count against the layers the tensors name (blk.N.*, over every part): equal to
 * the number of distinct N, with N contiguous from 0 (full models with tensors only: adapters and
 * projectors name layers without a block count of their own), and within llama.cpp's fixed
 * per-layer arrays (LLAMA_MAX_LAYERS = 512; a larger count indexed them out of bounds, #25821),
 * which vocabulary-only files must respect too. */
#include <stdlib.h>
#include <string.h>

#include "cert.h"
#include "text_out.h"

#define LLAMA_MAX_LAYERS 512

/* N of a name "blk.N.<rest>", written as llama.cpp writes it ("blk.%d."): decimal, no sign, no
 * leading zero. False for anything else. */
static bool layer_of(gs_str name, uint64_t *n)
{
    if (name.len < 6 || memcmp(name.ptr, "blk.", 4) != 0) {
        return false;
    }
    uint64_t v = 0;
    size_t i = 4;
    for (; i < name.len && name.ptr[i] >= '0' && name.ptr[i] <= '9'; i++) {
        if (i - 4 >= 9) {
            return false; /* beyond any int32 layer index */
        }
        v = v * 10 + (uint64_t)(name.ptr[i] - '0');
    }
    size_t digits = i - 4;
    if (digits == 0 || i >= name.len || name.ptr[i] != '.' || (digits > 1 && name.ptr[4] == '0')) {
        return false;
    }
    *n = v;
    return true;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : (x > y);
}

/* The distinct layer numbers, sorted; *n set to how many. */
static uint64_t *layers(cert_run *r, size_t *n)
{
    size_t total = 0;
    for (size_t p = 0; p < r->n_parts; p++) {
        total += gs_tensor_count(r->parts[p].file);
    }
    uint64_t *v = cert_alloc(r, total, sizeof *v);
    *n = 0;
    if (v == NULL) {
        return NULL;
    }
    size_t k = 0;
    for (size_t p = 0; p < r->n_parts; p++) {
        const gs_file *f = r->parts[p].file;
        for (size_t i = 0; i < gs_tensor_count(f); i++) {
            gs_tensor_info t;
            gs_tensor_info_at(f, i, &t);
            if (layer_of(t.name, &v[k])) {
                k++;
            }
        }
    }
    if (k > 1) {
        qsort(v, k, sizeof *v, cmp_u64);
    }
    size_t d = 0;
    for (size_t i = 0; i < k; i++) {
        if (d == 0 || v[d - 1] != v[i]) {
            v[d++] = v[i];
        }
    }
    *n = d;
    return v;
}

static void mismatch(cert_run *r, const gs_kv_info *kv, const char *key, size_t key_len,
                     uint64_t bc, const uint64_t *v, size_t n)
{
    /* Sorted and distinct: 0..bc-1 exactly when there are bc of them and the last is bc-1. */
    if (n == bc && (n == 0 || v[n - 1] == n - 1)) {
        return;
    }
    uint64_t hole = 0;
    while (hole < n && v[hole] == hole) {
        hole++;
    }
    if (n == 0) {
        cert_add(&r->findings, "meta.block_count_mismatch", 0, kv->value_offset, CERT_SUBJECT_KEY,
                 key, key_len, "block_count %llu, but no tensor is named blk.N",
                 (unsigned long long)bc);
    } else if (hole < n) {
        cert_add(&r->findings, "meta.block_count_mismatch", 0, kv->value_offset, CERT_SUBJECT_KEY,
                 key, key_len,
                 "block_count %llu; tensors name layers up to blk.%llu, but blk.%llu is missing",
                 (unsigned long long)bc, (unsigned long long)v[n - 1], (unsigned long long)hole);
    } else {
        cert_add(&r->findings, "meta.block_count_mismatch", 0, kv->value_offset, CERT_SUBJECT_KEY,
                 key, key_len, "block_count %llu, but the tensors name blk.0 to blk.%zu",
                 (unsigned long long)bc, n - 1);
    }
}

void cert_check_blocks(cert_run *r)
{
    const gs_file *f = cert_meta_file(r);
    bool model = r->kind == CERT_KIND_MODEL;
    if (f == NULL || r->arch == NULL || (!model && r->kind != CERT_KIND_VOCAB)) {
        return;
    }
    char key[512];
    char arch[4 * 64 + 8];
    cli_escape_cut(arch, sizeof arch, r->arch, r->arch_len, 64);
    if (r->arch_len > sizeof key - 16) {
        return; /* no such key can be looked up by name; the architecture is not a real one */
    }
    memcpy(key, r->arch, r->arch_len);
    memcpy(key + r->arch_len, ".block_count", sizeof ".block_count");
    size_t key_len = r->arch_len + strlen(".block_count");
    size_t i;
    uint64_t bc = 0;
    bool present = gs_kv_find_n(f, key, key_len, &i) == GS_OK, negative = false;
    bool usable = present && cert_get_integer(f, i, &bc, &negative) && !negative;
    gs_kv_info kv = {0};
    if (present) {
        gs_kv_info_at(f, i, &kv);
    }
    /* llama.cpp loads the hparams of vocabulary-only files too */
    if (usable && bc > LLAMA_MAX_LAYERS) {
        cert_add(&r->findings, "meta.block_count_range", 0, kv.value_offset, CERT_SUBJECT_KEY,
                 key, key_len, "%llu layers; llama.cpp's per-layer arrays hold %d",
                 (unsigned long long)bc, LLAMA_MAX_LAYERS);
    }
    size_t tensors = 0;
    for (size_t p = 0; p < r->n_parts; p++) {
        tensors += gs_tensor_count(r->parts[p].file);
    }
    if (!model || tensors == 0) {
        return; /* the layers of a model are its tensors; a file without any has no layers */
    }
    size_t n;
    uint64_t *v = layers(r, &n);
    if (v == NULL) {
        return;
    }
    if (!present && n > 0) {
        cert_add(&r->findings, "meta.block_count_missing", 0, CERT_NO_OFFSET, CERT_SUBJECT_KEY, key,
                 key_len, "tensors name layers (blk.N, %zu of them) but there is no %s.block_count",
                 n, arch);
    } else if (usable) {
        mismatch(r, &kv, key, key_len, bc, v, n);
    }
    free(v);
}
