/* fuzz_roundtrip: the reader against the test writer (corpus/writer). For every payload the
 * reader accepts: parse -> gsw_model_from_file -> gsw_write -> parse again, under the same
 * profile. Oracles:
 *   - the model is always built and always written (the reader accepted the file, so every
 *     value is readable and every size consistent);
 *   - the rewritten file opens, and holds the same model field by field: version, every key
 *     (bytes, type, element type, count, value bytes), every tensor (name, shape, type, size,
 *     data bytes), the alignment;
 *   - writing is a fixed point: write(read(w)) == w byte for byte for the writer's own output;
 *   - a payload already laid out the way the writer lays files out comes back byte-identical.
 *
 * Trailer (fuzz_common.h): tail[0] bit 0: lenient profile. */
#include "fuzz_common.h"
#include "gsw_from_file.h"
#include "gsw_write.h"

/* Larger payloads are skipped: the writer copies everything, twice. */
#define MAX_PAYLOAD (4u << 20)

static uint64_t pad(uint64_t x, uint64_t align)
{
    return x % align == 0 ? x : x + (align - x % align);
}

static void same_bytes(const void *a, const void *b, uint64_t n, const char *what, size_t i)
{
    FUZZ_ASSERT_MSG(n == 0 || memcmp(a, b, (size_t)n) == 0, "%s %zu: bytes differ", what, i);
}

/* The value bytes of a key-value: everything after its type (scalars, strings, and the wire
 * bytes of arrays, element count included). */
static const uint8_t *value_bytes(const uint8_t *base, const gs_kv_info *kv, uint64_t *len)
{
    const uint64_t key_end = kv->offset + 8 + kv->key.len;
    *len = kv->offset + kv->size - key_end;
    return base + key_end;
}

/* The two files hold the same model. */
static void same_model(const gs_file *a, const uint8_t *abase, const gs_file *b,
                       const uint8_t *bbase)
{
    FUZZ_ASSERT(gs_file_version(a) == gs_file_version(b));
    FUZZ_ASSERT(gs_kv_count(a) == gs_kv_count(b));
    FUZZ_ASSERT(gs_tensor_count(a) == gs_tensor_count(b));
    for (size_t i = 0; i < gs_kv_count(a); i++) {
        gs_kv_info x, y;
        FUZZ_ASSERT(gs_kv_info_at(a, i, &x) == GS_OK && gs_kv_info_at(b, i, &y) == GS_OK);
        FUZZ_ASSERT_MSG(x.key.len == y.key.len, "key %zu: length", i);
        same_bytes(x.key.ptr, y.key.ptr, x.key.len, "key", i);
        FUZZ_ASSERT_MSG(x.type == y.type && x.elem_type == y.elem_type && x.count == y.count,
                        "key %zu: type or count", i);
        uint64_t xn, yn;
        const uint8_t *xv = value_bytes(abase, &x, &xn), *yv = value_bytes(bbase, &y, &yn);
        FUZZ_ASSERT_MSG(xn == yn, "key %zu: value of %llu bytes, rewritten %llu", i,
                        (unsigned long long)xn, (unsigned long long)yn);
        same_bytes(xv, yv, xn, "value of key", i);
    }
    for (size_t i = 0; i < gs_tensor_count(a); i++) {
        gs_tensor_info x, y;
        FUZZ_ASSERT(gs_tensor_info_at(a, i, &x) == GS_OK && gs_tensor_info_at(b, i, &y) == GS_OK);
        FUZZ_ASSERT(x.name.len == y.name.len);
        same_bytes(x.name.ptr, y.name.ptr, x.name.len, "name of tensor", i);
        FUZZ_ASSERT(x.n_dims == y.n_dims && x.type == y.type && x.size == y.size);
        FUZZ_ASSERT(memcmp(x.ne, y.ne, sizeof x.ne) == 0);
        same_bytes(x.data, y.data, x.size, "data of tensor", i);
    }
    gs_layout la, lb;
    gs_file_layout(a, &la);
    gs_file_layout(b, &lb);
    FUZZ_ASSERT(la.alignment == lb.alignment);
}

/* Laid out as the writer lays files out: strict-valid (packed offsets), zero padding before
 * the data and after every tensor, the last included, and nothing after it. */
static bool canonical(const gs_file *f, const uint8_t *base, size_t size)
{
    gs_layout l;
    gs_file_layout(f, &l);
    if (gs_file_profile(f) != GS_PROFILE_STRICT || l.trailing_bytes != 0 ||
        l.missing_tail_padding != 0 || l.header_padding_nonzero != 0 || size != l.predicted_size) {
        return false;
    }
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        FUZZ_ASSERT(gs_tensor_info_at(f, i, &t) == GS_OK);
        const uint64_t end = t.data_offset + t.size;
        const uint64_t padded = l.data_offset + pad(t.offset + t.size, l.alignment);
        for (uint64_t k = end; k < padded; k++) {
            if (base[k] != 0) {
                return false;
            }
        }
    }
    return true;
}

/* read -> model -> write. The file must give a model and the model must write. */
static void rewrite(const gs_file *f, gsw_bytes *out)
{
    gsw_model m;
    char why[256] = "";
    FUZZ_ASSERT_MSG(gsw_model_from_file(f, &m, why, sizeof why) == 0, "model: %s", why);
    gsw_bytes_init(out);
    FUZZ_ASSERT_MSG(gsw_write(&m, 0, out, NULL, why, sizeof why) == 0, "write: %s", why);
    gsw_model_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_input in = fuzz_split(data, size);
    if (in.size > MAX_PAYLOAD) {
        return 0;
    }
    gs_options o;
    fuzz_options(&o, (in.tail[0] & 1) ? GS_PROFILE_LENIENT : GS_PROFILE_STRICT);
    gs_file *f = NULL;
    gs_status st = gs_open_memory(in.data, in.size, &o, &f, NULL);
    FUZZ_ASSERT(fuzz_status_known(st) && st != GS_E_INTERNAL);
    if (st != GS_OK) {
        return 0;
    }

    gsw_bytes once, twice;
    rewrite(f, &once);
    gs_file *g = NULL;
    gs_error err;
    st = gs_open_memory(once.data, once.len, &o, &g, &err);
    FUZZ_ASSERT_MSG(st == GS_OK, "the rewritten file: %s at %llu (%s)", gs_status_name(st),
                    (unsigned long long)err.offset, err.detail);
    same_model(f, in.data, g, once.data);
    FUZZ_ASSERT_MSG(canonical(g, once.data, once.len) || o.profile == GS_PROFILE_LENIENT,
                    "the writer's output is not canonical");

    /* the writer's output is its own fixed point */
    rewrite(g, &twice);
    FUZZ_ASSERT_MSG(twice.len == once.len && memcmp(twice.data, once.data, once.len) == 0,
                    "write(read(w)) != w");
    /* an input already in the writer's layout comes back unchanged */
    if (canonical(f, in.data, in.size)) {
        FUZZ_ASSERT_MSG(once.len == in.size && memcmp(once.data, in.data, in.size) == 0,
                        "a canonical file of %zu bytes was rewritten as %zu different bytes",
                        in.size, once.len);
    }

    gsw_bytes_free(&twice);
    gsw_bytes_free(&once);
    gs_close(g);
    gs_close(f);
    return 0;
}
