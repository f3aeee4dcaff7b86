/* What the file is (general.type, general.architecture) and the metadata every kind must have
 * right: the architecture, the quantization version when tensors are quantized, and known keys of
 * the right type. Read from part 1 of a set (gguf-split writes the key-values there); tensors are
 * counted over every part. */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "cert.h"
#include "cert_keys.h"
#include "text_out.h"

static char *copy_bytes(cert_run *r, const char *s, size_t n)
{
    char *p = cli_strndup(s, n);
    if (p == NULL) {
        cert_findings_fail(&r->findings, GS_E_NO_MEMORY);
    }
    return p;
}

static bool str_is(const char *s, size_t n, const char *lit)
{
    return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

static size_t tensors_in_set(const cert_run *r)
{
    size_t n = 0;
    for (size_t p = 0; p < r->n_parts; p++) {
        n += gs_tensor_count(r->parts[p].file);
    }
    return n;
}

void cert_describe(cert_run *r)
{
    r->kind = CERT_KIND_MODEL;
    const gs_file *f = cert_meta_file(r);
    if (f == NULL) {
        return;
    }
    size_t i;
    gs_str s;
    if (cert_find_key(f, "general.architecture", &i) && gs_kv_get_string(f, i, &s) == GS_OK) {
        r->arch = copy_bytes(r, s.ptr, s.len);
        r->arch_len = s.len;
    }
    if (cert_find_key(f, "general.type", &i) && gs_kv_get_string(f, i, &s) == GS_OK) {
        r->general_type = copy_bytes(r, s.ptr, s.len);
        r->general_type_len = s.len;
        static const struct {
            const char *name;
            cert_kind kind;
        } kinds[] = {{"model", CERT_KIND_MODEL},     {"adapter", CERT_KIND_ADAPTER},
                     {"mmproj", CERT_KIND_PROJECTOR}, {"vocab", CERT_KIND_VOCAB},
                     {"imatrix", CERT_KIND_IMATRIX}};
        r->kind = CERT_KIND_UNKNOWN;
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            if (str_is(s.ptr, s.len, kinds[k].name)) {
                r->kind = kinds[k].kind;
            }
        }
        return;
    }
    /* No general.type: what the contents say. */
    if (r->arch != NULL && str_is(r->arch, r->arch_len, "clip")) {
        r->kind = CERT_KIND_PROJECTOR;
    } else if (tensors_in_set(r) == 0 && cert_find_key(f, "tokenizer.ggml.tokens", &i)) {
        r->kind = CERT_KIND_VOCAB;
    }
}

static void key_type(cert_run *r, const gs_file *f, size_t i, const char *why)
{
    gs_kv_info kv;
    gs_kv_info_at(f, i, &kv);
    cert_add(&r->findings, "meta.key_type", 0, kv.offset, CERT_SUBJECT_KEY, kv.key.ptr,
             kv.key.len, "%s (found %s%s)", why, kv.type == GS_VALUE_ARRAY ? "an array of " : "",
             gs_value_type_name(kv.elem_type));
}

/* Known keys whose value must be a string. */
static void string_key(cert_run *r, const gs_file *f, const char *key)
{
    size_t i;
    gs_kv_info kv;
    if (cert_find_key(f, key, &i) && gs_kv_info_at(f, i, &kv) == GS_OK &&
        kv.type != GS_VALUE_STRING) {
        key_type(r, f, i, "must be a string");
    }
}

/* Counts and token ids: non-negative integers (an integer of another width than llama.cpp's is
 * compat.int_key_type). */
static void integer_keys(cert_run *r, const gs_file *f)
{
    for (size_t i = 0; i < gs_kv_count(f); i++) {
        gs_kv_info kv;
        gs_kv_info_at(f, i, &kv);
        const cert_int_key *k = cert_int_key_find(kv.key.ptr, kv.key.len, r->arch, r->arch_len);
        if (k == NULL || (kv.key.len > 6 && memcmp(kv.key.ptr, "split.", 6) == 0)) {
            continue; /* the split keys are split.key_type's, in every part */
        }
        if (kv.type == GS_VALUE_ARRAY) {
            if (!k->array_ok) {
                key_type(r, f, i, "must be a non-negative integer, not an array");
            } else if (!cert_is_integer_type(kv.elem_type)) {
                key_type(r, f, i, "must be a non-negative integer or an array of them");
            }
            continue;
        }
        uint64_t v;
        bool negative;
        if (!cert_get_integer(f, i, &v, &negative)) {
            key_type(r, f, i, "must be a non-negative integer");
        } else if (negative) {
            key_type(r, f, i, "must be a non-negative integer, not a negative one");
        }
    }
}

static bool any_quantized(const cert_run *r, size_t *part, size_t *which)
{
    for (size_t p = 0; p < r->n_parts; p++) {
        const gs_file *f = r->parts[p].file;
        for (size_t i = 0; i < gs_tensor_count(f); i++) {
            gs_tensor_info t;
            gs_type_info ti;
            gs_tensor_info_at(f, i, &t);
            if (gs_file_type_info(f, t.type, &ti) == GS_OK && ti.quantized) {
                *part = p;
                *which = i;
                return true;
            }
        }
    }
    return false;
}

void cert_check_meta(cert_run *r)
{
    const gs_file *f = cert_meta_file(r);
    if (f == NULL) {
        return;
    }
    size_t i;
    string_key(r, f, "general.type");
    string_key(r, f, "general.architecture");
    if (r->kind == CERT_KIND_UNKNOWN) {
        char shown[4 * 64 + 8];
        cli_escape_cut(shown, sizeof shown, r->general_type, r->general_type_len, 64);
        cert_find_key(f, "general.type", &i);
        gs_kv_info kv;
        gs_kv_info_at(f, i, &kv);
        cert_add(&r->findings, "meta.type_unknown", 0, kv.value_offset, CERT_SUBJECT_KEY,
                 kv.key.ptr, kv.key.len,
                 "general.type '%s' is none of model, adapter, mmproj, vocab, imatrix", shown);
    }
    if (!cert_find_key(f, "general.architecture", &i) && r->kind != CERT_KIND_IMATRIX) {
        cert_add(&r->findings, "meta.architecture_missing", 0, CERT_NO_OFFSET, CERT_SUBJECT_NONE,
                 NULL, 0,
                 "the spec requires general.architecture; llama.cpp cannot load a file "
                 "without it");
    }
    size_t qp, qi;
    if (!cert_find_key(f, "general.quantization_version", &i) && any_quantized(r, &qp, &qi)) {
        gs_tensor_info t;
        gs_tensor_info_at(r->parts[qp].file, qi, &t);
        cert_add(&r->findings, "meta.quantization_version_missing", (uint32_t)qp, CERT_NO_OFFSET,
                 CERT_SUBJECT_TENSOR, t.name.ptr, t.name.len,
                 "this tensor is %s, and the spec requires general.quantization_version whenever "
                 "a tensor is quantized",
                 gs_type_name(t.type));
    }
    integer_keys(r, f);
}
