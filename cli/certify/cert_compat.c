/* Where the GGUF spec (ggml's docs/gguf.md) and llama.cpp's reader disagree about a file
 * (docs/gguf-format.md, "Where the spec and ggml differ"): a finding is an error when llama.cpp
 * rejects a file the spec allows, a warning when llama.cpp accepts what the spec forbids, a note
 * for history. Checked per part, on what the lenient reader could open (and, for nested arrays, on
 * why it could not). */
#include <string.h>

#include "cert.h"
#include "cert_keys.h"
#include "key_grammar.h"

static bool is_pow2(uint64_t x)
{
    return x != 0 && (x & (x - 1)) == 0;
}

static void alignment(cert_run *r, uint32_t p, const gs_file *f)
{
    size_t i;
    uint32_t a;
    if (!cert_find_key(f, "general.alignment", &i) || gs_kv_get_u32(f, i, &a) != GS_OK) {
        return;
    }
    gs_kv_info kv;
    gs_kv_info_at(f, i, &kv);
    if (a % 8 == 0 && !is_pow2(a)) {
        cert_add(&r->findings, "compat.alignment_not_pow2", p, kv.value_offset, CERT_SUBJECT_KEY,
                 kv.key.ptr, kv.key.len,
                 "alignment %u: a multiple of 8 as the spec asks, but ggml requires a power of "
                 "two",
                 a);
    } else if (is_pow2(a) && a < 8) {
        cert_add(&r->findings, "compat.alignment_below_8", p, kv.value_offset, CERT_SUBJECT_KEY,
                 kv.key.ptr, kv.key.len,
                 "alignment %u: ggml accepts it, the spec asks for a multiple of 8", a);
    }
}

static void bools(cert_run *r, uint32_t p, const gs_file *f)
{
    for (size_t i = 0; i < gs_kv_count(f); i++) {
        gs_kv_info kv;
        gs_kv_info_at(f, i, &kv);
        if (kv.elem_type != GS_VALUE_BOOL) {
            continue;
        }
        uint64_t bad = 0, first = 0;
        uint8_t first_byte = 0;
        if (kv.type == GS_VALUE_BOOL) {
            uint8_t b;
            if (gs_file_read(f, kv.value_offset, &b, 1) == GS_OK && b > 1) {
                bad = 1;
                first = 0;
                first_byte = b;
            }
        } else {
            const void *data;
            uint64_t count;
            if (gs_kv_get_array_data(f, i, &data, &count) != GS_OK) {
                continue;
            }
            const uint8_t *bytes = data;
            for (uint64_t e = 0; e < count; e++) {
                if (bytes[e] > 1) {
                    if (bad++ == 0) {
                        first = e;
                        first_byte = bytes[e];
                    }
                }
            }
        }
        if (bad > 0) {
            cert_add(&r->findings, "compat.bool_value", p, kv.value_offset + first,
                     CERT_SUBJECT_KEY, kv.key.ptr, kv.key.len,
                     "%llu bool byte%s other than 0 or 1 (the first is 0x%02x): ggml reads them as "
                     "true, the spec calls them invalid",
                     (unsigned long long)bad, bad == 1 ? "" : "s", first_byte);
        }
    }
}

static void key_grammar(cert_run *r, uint32_t p, const gs_file *f)
{
    for (size_t i = 0; i < gs_kv_count(f); i++) {
        gs_kv_info kv;
        gs_kv_info_at(f, i, &kv);
        if (gsi_check_key((const uint8_t *)kv.key.ptr, kv.key.len, true) == GS_E_BAD_KEY) {
            cert_add(&r->findings, "compat.key_grammar", p, kv.offset, CERT_SUBJECT_KEY,
                     kv.key.ptr, kv.key.len,
                     "not lower_snake_case segments joined by '.' (or longer than 65535 bytes): "
                     "ggml accepts it, the spec calls it invalid");
        }
    }
}

/* Offsets aligned, data inside the file and nowhere shared, yet not packed: a layout the spec
 * allows and ggml's "offset == running padded sum" rule refuses. */
static void packing(cert_run *r, uint32_t p, const gs_file *f, const gs_layout *l)
{
    if (gs_file_finding_count(f) > 0) {
        return; /* data outside the file or shared: the lenient reader's own findings */
    }
    uint64_t expected = 0;
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        gs_tensor_info_at(f, i, &t);
        if (t.offset % l->alignment != 0) {
            return; /* misaligned: invalid for the spec too (reader.GS_E_MISALIGNED_OFFSET) */
        }
        if (t.offset != expected) {
            cert_add(&r->findings, "compat.offsets_not_packed", p, t.info_offset,
                     CERT_SUBJECT_TENSOR, t.name.ptr, t.name.len,
                     "offset %llu is aligned and its data in the file, but ggml requires the "
                     "running padded sum, %llu",
                     (unsigned long long)t.offset, (unsigned long long)expected);
            return;
        }
        /* the data is inside the file, so neither the padding nor the sum can wrap */
        expected = t.offset + t.size + (l->alignment - t.size % l->alignment) % l->alignment;
    }
}

static void tensor_types(cert_run *r, uint32_t p, const gs_file *f)
{
    bool newer_seen[3] = {false, false, false};
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        gs_tensor_info_at(f, i, &t);
        if (t.name.len == 64) {
            cert_add(&r->findings, "compat.tensor_name_64", p, t.info_offset, CERT_SUBJECT_TENSOR,
                     t.name.ptr, t.name.len,
                     "64 bytes: the spec allows up to 64, ggml up to 63 (GGML_MAX_NAME counts the "
                     "NUL)");
        }
        if (t.type == GS_TYPE_Q8_1 || t.type == GS_TYPE_Q8_K) {
            cert_add(&r->findings, "compat.activation_type", p, t.info_offset, CERT_SUBJECT_TENSOR,
                     t.name.ptr, t.name.len,
                     "type %s is ggml's activation type: no f32 conversion in ggml-base",
                     gs_type_name(t.type));
        }
        if (t.type >= GS_TYPE_NVFP4 && t.type <= GS_TYPE_Q2_0 &&
            !newer_seen[t.type - GS_TYPE_NVFP4]) {
            newer_seen[t.type - GS_TYPE_NVFP4] = true;
            cert_add(&r->findings, "compat.type_not_in_spec", p, t.info_offset,
                     CERT_SUBJECT_TENSOR, t.name.ptr, t.name.len,
                     "type %s (id %d) is newer than the spec's table (it ends at mxfp4, 39)",
                     gs_type_name(t.type), (int)t.type);
        }
    }
}

static void int_key_types(cert_run *r, uint32_t p, const gs_file *f)
{
    const char *arch = r->arch;
    size_t arch_len = r->arch_len;
    size_t ai;
    gs_str own;
    if (cert_find_key(f, "general.architecture", &ai) && gs_kv_get_string(f, ai, &own) == GS_OK) {
        arch = own.ptr;
        arch_len = own.len;
    }
    for (size_t i = 0; i < gs_kv_count(f); i++) {
        gs_kv_info kv;
        gs_kv_info_at(f, i, &kv);
        const cert_int_key *k = cert_int_key_find(kv.key.ptr, kv.key.len, arch, arch_len);
        if (k == NULL) {
            continue;
        }
        if (kv.type == GS_VALUE_ARRAY) {
            /* per-layer keys may be arrays of u32 or i32; other arrays are meta.key_type's */
            if (!k->array_ok || !cert_is_integer_type(kv.elem_type) ||
                kv.elem_type == GS_VALUE_U32 || kv.elem_type == GS_VALUE_I32) {
                continue;
            }
        } else if (!cert_is_integer_type(kv.type) || kv.type == k->expected) {
            continue; /* right, or not an integer at all (meta.key_type) */
        }
        cert_add(&r->findings, "compat.int_key_type", p, kv.offset, CERT_SUBJECT_KEY, kv.key.ptr,
                 kv.key.len, "stored as %s%s; llama.cpp reads %s and rejects any other type",
                 kv.type == GS_VALUE_ARRAY ? "an array of " : "",
                 gs_value_type_name(kv.elem_type), gs_value_type_name(k->expected));
    }
}

/* The reader refused the file for a construct the spec allows. */
static void refused(cert_run *r, uint32_t p, const cert_part *part)
{
    const gs_error *e = &part->lenient_err;
    if (e->status == GS_E_NESTED_ARRAY) {
        cert_add(&r->findings, "compat.nested_array", p, e->offset, CERT_SUBJECT_KEY, e->context,
                 strlen(e->context),
                 "the spec allows arrays of arrays; ggml rejects the file ('invalid GGUF type')");
    }
}

void cert_check_compat(cert_run *r)
{
    for (uint32_t p = 0; p < r->n_parts; p++) {
        const cert_part *part = &r->parts[p];
        refused(r, p, part);
        const gs_file *f = part->file;
        if (f == NULL) {
            continue;
        }
        if (gs_file_version(f) == 2) {
            cert_add(&r->findings, "compat.version_2", p, 4, CERT_SUBJECT_NONE, NULL, 0,
                     "GGUF version 2 (64-bit counts, like 3); the spec describes version 3");
        }
        alignment(r, p, f);
        bools(r, p, f);
        key_grammar(r, p, f);
        int_key_types(r, p, f);
        tensor_types(r, p, f);
        packing(r, p, f, &part->layout);
        const gs_layout *l = &part->layout;
        if (l->missing_tail_padding > 0 && gs_tensor_count(f) > 0 && l->data_end <= l->file_size &&
            l->predicted_size > l->file_size) {
            bool all_in = true;
            for (size_t i = 0; i < gs_tensor_count(f) && all_in; i++) {
                gs_tensor_info t;
                gs_tensor_info_at(f, i, &t);
                all_in = t.data_in_file;
            }
            if (all_in) {
                cert_add(&r->findings, "compat.tail_padding_missing", p, l->file_size,
                         CERT_SUBJECT_NONE, NULL, 0,
                         "the file ends %llu bytes short of the last tensor's padding: ggml "
                         "loading the data (no_alloc = false) reads the padded size and fails",
                         (unsigned long long)l->missing_tail_padding);
            }
        }
    }
}
