/* fuzz_open: the reader. Opens the payload from memory under both profiles and, on success,
 * holds the open file to what the API promises:
 *   - every tensor's data range lies inside the input, at the offset and size its shape gives;
 *   - every getter works on every key-value, and the wrong getter says GS_E_WRONG_TYPE;
 *   - every string view (keys, values, array elements, tensor names) lies inside the input;
 *   - strict accepts only what lenient accepts; strict keys, names and strings obey the
 *     grammar and UTF-8 (checked here with an independent decoder);
 *   - nothing leaks (a counting allocator, for builds without LeakSanitizer).
 * A failed open must return a known status with a consistent gs_error.
 *
 * Trailer (fuzz_common.h), tail[0] bits:
 *   0: tiny limits from tail[1], tail[2], so limit checks are reachable (fuzz_open_options);
 *   1: also open with allocation number tail[3] failing: the result must be GS_E_NO_MEMORY
 *      when that allocation was attempted, otherwise exactly the result without failure;
 *   2: also open the payload as a split set, cut before every later "GGUF" magic;
 *   3: also open in diagnostic mode (gs_options.diagnostic): it fails exactly when, and as, a
 *      normal open fails on something other than a recorded problem, and its first finding is
 *      the normal open's failure. */
#include "fuzz_common.h"
#include "gsw_bytes.h"

#define BIT_FAIL_ALLOC 0x02u
#define BIT_SPLIT 0x04u
#define BIT_DIAGNOSTIC 0x08u
#define MAX_SPLIT_PARTS 8

/* ---- independent re-statements of the strict rules ---------------------------------------- */

/* [a-z0-9_]+(\.[a-z0-9_]+)*, at most 65535 bytes. */
static bool key_ok(const char *k, size_t n)
{
    if (n == 0 || n > 65535 || k[0] == '.' || k[n - 1] == '.') {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char c = k[i];
        bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        if (!word && !(c == '.' && k[i - 1] != '.')) {
            return false;
        }
    }
    return true;
}

static unsigned value_width(gs_value_type t)
{
    switch (t) {
    case GS_VALUE_U8: case GS_VALUE_I8: case GS_VALUE_BOOL: return 1;
    case GS_VALUE_U16: case GS_VALUE_I16: return 2;
    case GS_VALUE_U32: case GS_VALUE_I32: case GS_VALUE_F32: return 4;
    case GS_VALUE_U64: case GS_VALUE_I64: case GS_VALUE_F64: return 8;
    case GS_VALUE_STRING: case GS_VALUE_ARRAY: return 0;
    }
    return 0;
}

static uint64_t pad(uint64_t x, uint64_t align)
{
    return x % align == 0 ? x : x + (align - x % align);
}

/* ---- key-values --------------------------------------------------------------------------- */

/* Reads element i (or the scalar when i == UINT64_MAX) through the typed getter of its type and
 * returns its wire bits; also checks that one wrong getter refuses. */
static uint64_t typed_get(const gs_file *f, size_t idx, gs_value_type t, uint64_t i)
{
    const bool arr = i != UINT64_MAX;
    uint64_t bits = 0;
    gs_status st = GS_E_INTERNAL, wrong;
    union {
        uint8_t u8; int8_t i8; uint16_t u16; int16_t i16; uint32_t u32; int32_t i32;
        uint64_t u64; int64_t i64; float f32; double f64; bool b;
    } v;
    memset(&v, 0, sizeof v);
#define GET(sfx, field)                                                                           \
    st = arr ? gs_kv_get_array_##sfx(f, idx, i, &v.field) : gs_kv_get_##sfx(f, idx, &v.field);    \
    memcpy(&bits, &v.field, sizeof v.field)
    switch (t) {
    case GS_VALUE_U8: GET(u8, u8); break;
    case GS_VALUE_I8: GET(i8, i8); break;
    case GS_VALUE_U16: GET(u16, u16); break;
    case GS_VALUE_I16: GET(i16, i16); break;
    case GS_VALUE_U32: GET(u32, u32); break;
    case GS_VALUE_I32: GET(i32, i32); break;
    case GS_VALUE_U64: GET(u64, u64); break;
    case GS_VALUE_I64: GET(i64, i64); break;
    case GS_VALUE_F32: GET(f32, f32); break;
    case GS_VALUE_F64: GET(f64, f64); break;
    case GS_VALUE_BOOL: GET(bool, b); bits = v.b; break;
    case GS_VALUE_STRING:
    case GS_VALUE_ARRAY:
        fuzz_fail(__FILE__, __LINE__, "typed_get on %s", gs_value_type_name(t));
    }
#undef GET
    FUZZ_ASSERT_MSG(st == GS_OK, "getter of %s: %s", gs_value_type_name(t), gs_status_name(st));
    /* the neighbouring type's getter must refuse */
    if (t == GS_VALUE_U8) {
        int8_t x;
        wrong = arr ? gs_kv_get_array_i8(f, idx, i, &x) : gs_kv_get_i8(f, idx, &x);
    } else {
        uint8_t x;
        wrong = arr ? gs_kv_get_array_u8(f, idx, i, &x) : gs_kv_get_u8(f, idx, &x);
    }
    FUZZ_ASSERT(wrong == GS_E_WRONG_TYPE);
    return bits;
}

/* The expected getter result for wire bits of type t (bool reads as 0/1). */
static uint64_t expected_bits(gs_value_type t, const uint8_t *p)
{
    const uint64_t raw = gsw_le_at(p, value_width(t));
    return t == GS_VALUE_BOOL ? raw != 0 : raw;
}

static void check_string(const uint8_t *base, size_t size, gs_str s, const uint8_t *len_field,
                         bool strict)
{
    FUZZ_ASSERT(fuzz_inside(base, size, s.ptr, s.len));
    FUZZ_ASSERT((const uint8_t *)s.ptr == len_field + 8 && gsw_le_at(len_field, 8) == s.len);
    if (strict) {
        FUZZ_ASSERT_MSG(fuzz_utf8_ok((const uint8_t *)s.ptr, s.len), "strict accepted bad UTF-8");
    }
}

static void check_kv(const gs_file *f, size_t i, const uint8_t *base, size_t size, bool strict)
{
    gs_kv_info kv;
    FUZZ_ASSERT(gs_kv_info_at(f, i, &kv) == GS_OK);
    FUZZ_ASSERT(kv.key.len > 0 && fuzz_inside(base, size, kv.key.ptr, kv.key.len));
    FUZZ_ASSERT((const uint8_t *)kv.key.ptr == base + kv.offset + 8);
    FUZZ_ASSERT(memchr(kv.key.ptr, 0, kv.key.len) == NULL);
    if (strict) {
        FUZZ_ASSERT_MSG(key_ok(kv.key.ptr, kv.key.len), "strict accepted a bad key");
    }
    FUZZ_ASSERT(kv.offset < kv.value_offset && kv.size <= size - kv.offset);
    FUZZ_ASSERT(kv.value_offset <= kv.offset + kv.size);
    size_t found = SIZE_MAX;
    FUZZ_ASSERT(gs_kv_find_n(f, kv.key.ptr, kv.key.len, &found) == GS_OK && found == i);

    const uint8_t *val = base + kv.value_offset;
    const uint64_t end = kv.offset + kv.size;
    if (kv.type != GS_VALUE_ARRAY) {
        FUZZ_ASSERT(kv.elem_type == kv.type && kv.count == 1);
        const void *data;
        uint64_t count;
        FUZZ_ASSERT(gs_kv_get_array_data(f, i, &data, &count) == GS_E_WRONG_TYPE);
        if (kv.type == GS_VALUE_STRING) {
            gs_str s;
            FUZZ_ASSERT(gs_kv_get_string(f, i, &s) == GS_OK);
            check_string(base, size, s, val, strict);
            FUZZ_ASSERT((const uint8_t *)s.ptr + s.len == base + end);
            uint8_t x;
            FUZZ_ASSERT(gs_kv_get_u8(f, i, &x) == GS_E_WRONG_TYPE);
            return;
        }
        const unsigned w = value_width(kv.type);
        FUZZ_ASSERT(w > 0 && kv.value_offset + w == end);
        FUZZ_ASSERT(typed_get(f, i, kv.type, UINT64_MAX) == expected_bits(kv.type, val));
        if (strict && kv.type == GS_VALUE_BOOL) {
            FUZZ_ASSERT_MSG(val[0] <= 1, "strict accepted bool byte %u", val[0]);
        }
        gs_str s;
        FUZZ_ASSERT(gs_kv_get_string(f, i, &s) == GS_E_WRONG_TYPE);
        /* gs_kv_get_unsigned: integers that are not negative, nothing else */
        uint64_t u;
        gs_status st = gs_kv_get_unsigned(f, i, &u);
        const bool is_int = kv.type != GS_VALUE_F32 && kv.type != GS_VALUE_F64 &&
                            kv.type != GS_VALUE_BOOL;
        const bool is_signed = kv.type == GS_VALUE_I8 || kv.type == GS_VALUE_I16 ||
                               kv.type == GS_VALUE_I32 || kv.type == GS_VALUE_I64;
        if (!is_int) {
            FUZZ_ASSERT(st == GS_E_WRONG_TYPE);
        } else if (is_signed && (val[w - 1] & 0x80)) {
            FUZZ_ASSERT(st == GS_E_OUT_OF_RANGE);
        } else {
            FUZZ_ASSERT(st == GS_OK && u == gsw_le_at(val, w));
        }
        return;
    }

    FUZZ_ASSERT(kv.elem_type != GS_VALUE_ARRAY && value_width(kv.elem_type) <= 8);
    FUZZ_ASSERT(kv.elem_type <= GS_VALUE_F64);
    if (kv.elem_type == GS_VALUE_STRING) {
        const uint8_t *next = val;
        for (uint64_t k = 0; k < kv.count; k++) {
            gs_str s;
            FUZZ_ASSERT(gs_kv_get_array_string(f, i, k, &s) == GS_OK);
            check_string(base, size, s, next, strict);
            next = (const uint8_t *)s.ptr + s.len;
        }
        FUZZ_ASSERT(next == base + end);
        gs_str s;
        FUZZ_ASSERT(gs_kv_get_array_string(f, i, kv.count, &s) == GS_E_OUT_OF_RANGE);
        const void *data;
        uint64_t count;
        FUZZ_ASSERT(gs_kv_get_array_data(f, i, &data, &count) == GS_E_WRONG_TYPE);
        return;
    }
    const unsigned w = value_width(kv.elem_type);
    const void *data;
    uint64_t count;
    FUZZ_ASSERT(gs_kv_get_array_data(f, i, &data, &count) == GS_OK);
    FUZZ_ASSERT(data == val && count == kv.count && fuzz_inside(base, size, data, count * w));
    FUZZ_ASSERT(kv.value_offset + count * w == end);
    for (uint64_t k = 0; k < count; k++) {
        const uint8_t *p = val + k * w;
        FUZZ_ASSERT(typed_get(f, i, kv.elem_type, k) == expected_bits(kv.elem_type, p));
        if (strict && kv.elem_type == GS_VALUE_BOOL) {
            FUZZ_ASSERT_MSG(p[0] <= 1, "strict accepted bool element %u", p[0]);
        }
    }
    uint8_t x;
    FUZZ_ASSERT(gs_kv_get_array_u8(f, i, count, &x) ==
                (kv.elem_type == GS_VALUE_U8 ? GS_E_OUT_OF_RANGE : GS_E_WRONG_TYPE));
    uint64_t u;
    FUZZ_ASSERT(gs_kv_get_unsigned(f, i, &u) == GS_E_WRONG_TYPE);
}

/* ---- tensors and layout -------------------------------------------------------------------- */

typedef struct span {
    uint64_t start, end;
} span;

static int span_cmp(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static void check_tensors(const gs_file *f, const uint8_t *base, size_t size, bool strict)
{
    gs_layout l;
    gs_file_layout(f, &l);
    const size_t n = gs_tensor_count(f);
    span *spans = n > 0 ? malloc(n * sizeof *spans) : NULL;
    FUZZ_ASSERT(n == 0 || spans != NULL);
    size_t n_spans = 0;
    uint64_t packed = 0, data_end = l.data_offset, predicted = l.data_offset;
    for (size_t i = 0; i < n; i++) {
        gs_tensor_info t;
        FUZZ_ASSERT(gs_tensor_info_at(f, i, &t) == GS_OK);
        FUZZ_ASSERT(t.name.len > 0 && fuzz_inside(base, size, t.name.ptr, t.name.len));
        FUZZ_ASSERT((const uint8_t *)t.name.ptr == base + t.info_offset + 8);
        FUZZ_ASSERT(gsw_le_at(base + t.info_offset, 8) == t.name.len);
        FUZZ_ASSERT(memchr(t.name.ptr, 0, t.name.len) == NULL);
        if (strict) {
            FUZZ_ASSERT(t.name.len <= 63 && fuzz_utf8_ok((const uint8_t *)t.name.ptr, t.name.len));
        }
        size_t found = SIZE_MAX;
        FUZZ_ASSERT(gs_tensor_find_n(f, t.name.ptr, t.name.len, &found) == GS_OK && found == i);
        FUZZ_ASSERT(t.info_offset >= l.kv_end && t.info_offset < l.tensor_info_end);

        /* the shape: n_dims as stored, unused dimensions 1, sizes from the registry */
        FUZZ_ASSERT(t.n_dims <= GS_MAX_DIMS);
        gs_type_info ti;
        FUZZ_ASSERT(gs_type_get_info(t.type, &ti) == GS_OK && ti.block_elems > 0);
        FUZZ_ASSERT(t.ne[0] % ti.block_elems == 0);
        uint64_t elems = 1, bytes = t.ne[0] / ti.block_elems * ti.block_bytes;
        FUZZ_ASSERT(t.nb[0] == ti.block_bytes && t.nb[1] == bytes);
        for (unsigned j = 0; j < GS_MAX_DIMS; j++) {
            FUZZ_ASSERT(j < t.n_dims || t.ne[j] == 1);
            FUZZ_ASSERT(!__builtin_mul_overflow(elems, t.ne[j], &elems));
            if (j > 0) {
                FUZZ_ASSERT(j < 2 || t.nb[j] == bytes);
                FUZZ_ASSERT(!__builtin_mul_overflow(bytes, t.ne[j], &bytes));
            }
        }
        FUZZ_ASSERT(t.n_elements == elems && t.size == bytes);

        /* the data: inside the input, where the offset says */
        FUZZ_ASSERT(t.data_offset == l.data_offset + t.offset);
        FUZZ_ASSERT(t.data_offset <= size && t.size <= size - t.data_offset);
        FUZZ_ASSERT(t.data_in_file);
        FUZZ_ASSERT(t.size > 0 ? t.data == base + t.data_offset : t.data == NULL);
        if (t.size > 0) {
            FUZZ_ASSERT(fuzz_inside(base, size, t.data, t.size));
            spans[n_spans++] = (span){t.data_offset, t.data_offset + t.size};
            /* the bounded reader gives the same bytes */
            uint8_t head[64];
            const size_t n_head = t.size < sizeof head ? (size_t)t.size : sizeof head;
            FUZZ_ASSERT(gs_file_read(f, t.data_offset, head, n_head) == GS_OK);
            FUZZ_ASSERT(memcmp(head, t.data, n_head) == 0);
        }
        if (strict) {
            FUZZ_ASSERT_MSG(t.offset == packed, "strict: offset %llu, packed %llu",
                            (unsigned long long)t.offset, (unsigned long long)packed);
        }
        packed += pad(t.size, l.alignment);
        if (t.data_offset + t.size > data_end) {
            data_end = t.data_offset + t.size;
        }
        if (l.data_offset + pad(t.offset + t.size, l.alignment) > predicted) {
            predicted = l.data_offset + pad(t.offset + t.size, l.alignment);
        }
    }
    gs_tensor_info t;
    FUZZ_ASSERT(gs_tensor_info_at(f, n, &t) == GS_E_OUT_OF_RANGE);
    FUZZ_ASSERT(l.data_end == data_end && l.predicted_size == predicted);
    FUZZ_ASSERT(l.trailing_bytes == (size > predicted ? size - predicted : 0));
    FUZZ_ASSERT(l.missing_tail_padding == (predicted > size ? predicted - size : 0));
    /* no two tensors share a byte (both profiles) */
    if (n_spans > 1) {
        qsort(spans, n_spans, sizeof *spans, span_cmp);
    }
    for (size_t k = 1; k < n_spans; k++) {
        FUZZ_ASSERT_MSG(spans[k].start >= spans[k - 1].end, "tensor data ranges overlap");
    }
    free(spans);
}

static void check_header_and_layout(const gs_file *f, const uint8_t *base, size_t size,
                                    gs_profile profile)
{
    FUZZ_ASSERT(size >= 24 && memcmp(base, "GGUF", 4) == 0);
    const uint32_t version = (uint32_t)gsw_le_at(base + 4, 4);
    FUZZ_ASSERT(gs_file_version(f) == version && (version == 2 || version == 3));
    FUZZ_ASSERT(gs_file_profile(f) == profile);
    FUZZ_ASSERT(gs_tensor_count(f) == gsw_le_at(base + 8, 8) &&
                gs_kv_count(f) == gsw_le_at(base + 16, 8));

    gs_layout l;
    gs_file_layout(f, &l);
    FUZZ_ASSERT(l.file_size == size);
    FUZZ_ASSERT(24 <= l.kv_end && l.kv_end <= l.tensor_info_end && l.tensor_info_end <= size);
    /* the alignment: a u32 general.alignment, else 32 */
    uint32_t want = 32;
    size_t idx;
    if (gs_kv_find(f, "general.alignment", &idx) == GS_OK) {
        FUZZ_ASSERT(gs_kv_get_u32(f, idx, &want) == GS_OK);
    }
    FUZZ_ASSERT(l.alignment == want && want > 0);
    if (profile == GS_PROFILE_STRICT) {
        FUZZ_ASSERT((want & (want - 1)) == 0 && want >= 8);
    }
    FUZZ_ASSERT(l.data_offset == pad(l.tensor_info_end, l.alignment));
    FUZZ_ASSERT(gs_tensor_count(f) == 0 || l.data_offset <= size);
    uint64_t nonzero = 0, first = 0;
    for (uint64_t i = l.tensor_info_end; i < l.data_offset && i < size; i++) {
        if (base[i] != 0 && nonzero++ == 0) {
            first = i;
        }
    }
    FUZZ_ASSERT(l.header_padding_nonzero == nonzero && l.first_nonzero_padding == first);
}

/* Every check of an open file. */
static void check_file(const gs_file *f, const uint8_t *base, size_t size, gs_profile profile)
{
    const bool strict = profile == GS_PROFILE_STRICT;
    check_header_and_layout(f, base, size, profile);
    const size_t n_kv = gs_kv_count(f);
    for (size_t i = 0; i < n_kv; i++) {
        check_kv(f, i, base, size, strict);
    }
    gs_kv_info kv;
    FUZZ_ASSERT(gs_kv_info_at(f, n_kv, &kv) == GS_E_OUT_OF_RANGE);
    check_tensors(f, base, size, strict);
    FUZZ_ASSERT(gs_file_finding_count(f) == 0);
    uint8_t byte;
    FUZZ_ASSERT(gs_file_read(f, size, &byte, 1) == GS_E_OUT_OF_RANGE);
    FUZZ_ASSERT(gs_file_read(f, size, &byte, 0) == GS_OK);
}

/* ---- opening ------------------------------------------------------------------------------ */

/* Opens with a counting allocator (failing allocation fail_at, or none for -1), checks the
 * result, closes, and checks that nothing is left allocated. Returns the status and, through
 * *attempts, how many allocations the open tried. */
static gs_status open_checked(const fuzz_input *in, const gs_options *base_opts, long fail_at,
                              gs_error *err, long *attempts)
{
    gs_options o = *base_opts;
    fuzz_alloc a;
    fuzz_use_allocator(&o, &a, fail_at);
    gs_file *f = (gs_file *)&a; /* must be overwritten */
    gs_status st = gs_open_memory(in->data, in->size, &o, &f, err);
    FUZZ_ASSERT_MSG(fuzz_status_known(st) && st != GS_E_INTERNAL && st != GS_E_INVALID_ARGUMENT,
                    "open returned %s", gs_status_name(st));
    if (st == GS_OK) {
        FUZZ_ASSERT(f != NULL);
        check_file(f, in->data, in->size, o.profile);
        gs_close(f);
    } else {
        FUZZ_ASSERT(f == NULL);
        fuzz_check_error(err, st, in->size);
        FUZZ_ASSERT(st != GS_E_NO_MEMORY || fail_at >= 0);
    }
    FUZZ_ASSERT_MSG(a.live == 0, "%ld allocations leaked (%s)", a.live, gs_status_name(st));
    *attempts = a.attempts;
    return st;
}

/* ---- diagnostic mode ----------------------------------------------------------------------- */

/* Diagnostic mode records the problems a normal open would stop at and goes on. So: it fails
 * only as the normal open fails (same status, same offset); when the normal open succeeds it
 * succeeds with no findings; otherwise its first finding is the normal open's failure. Its files
 * still answer every getter, and tensors outside the input are listed but never addressed. */
static void open_diagnostic(const fuzz_input *in, const gs_options *base_opts, gs_status normal,
                            const gs_error *normal_err)
{
    gs_options o = *base_opts;
    o.diagnostic = true;
    fuzz_alloc a;
    fuzz_use_allocator(&o, &a, -1);
    gs_file *f = NULL;
    gs_error err;
    gs_status st = gs_open_memory(in->data, in->size, &o, &f, &err);
    FUZZ_ASSERT_MSG(fuzz_status_known(st) && st != GS_E_INTERNAL && st != GS_E_INVALID_ARGUMENT &&
                        st != GS_E_NO_MEMORY,
                    "diagnostic open returned %s", gs_status_name(st));
    if (st != GS_OK) {
        FUZZ_ASSERT(f == NULL);
        fuzz_check_error(&err, st, in->size);
        /* the findings table is heap the normal open does not need: it may hit the limit */
        FUZZ_ASSERT_MSG((st == normal && err.offset == normal_err->offset) ||
                            st == GS_E_LIMIT_MEMORY,
                        "diagnostic open: %s at %llu, normal open: %s at %llu",
                        gs_status_name(st), (unsigned long long)err.offset,
                        gs_status_name(normal), (unsigned long long)normal_err->offset);
        FUZZ_ASSERT_MSG(a.live == 0, "diagnostic: %ld allocations leaked", a.live);
        return;
    }
    const size_t n = gs_file_finding_count(f);
    FUZZ_ASSERT(n <= GS_MAX_FINDINGS);
    FUZZ_ASSERT_MSG((n == 0) == (normal == GS_OK), "%zu findings, normal open %s", n,
                    gs_status_name(normal));
    for (size_t i = 0; i < n; i++) {
        gs_error e;
        FUZZ_ASSERT(gs_file_finding(f, i, &e) == GS_OK);
        FUZZ_ASSERT(e.status != GS_OK && fuzz_status_known(e.status));
        fuzz_check_error(&e, e.status, in->size);
        if (i == 0) {
            FUZZ_ASSERT_MSG(e.status == normal && e.offset == normal_err->offset,
                            "first finding %s at %llu, normal open: %s at %llu",
                            gs_status_name(e.status), (unsigned long long)e.offset,
                            gs_status_name(normal), (unsigned long long)normal_err->offset);
        }
    }
    gs_error e;
    FUZZ_ASSERT(gs_file_finding(f, n, &e) == GS_E_OUT_OF_RANGE);
    for (size_t i = 0; i < gs_kv_count(f); i++) {
        check_kv(f, i, in->data, in->size, false);
    }
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        FUZZ_ASSERT(gs_tensor_info_at(f, i, &t) == GS_OK);
        FUZZ_ASSERT(fuzz_inside(in->data, in->size, t.name.ptr, t.name.len));
        if (!t.data_in_file) {
            FUZZ_ASSERT(t.data == NULL && n > 0);
        } else if (t.size > 0) {
            FUZZ_ASSERT(t.data == in->data + t.data_offset);
            FUZZ_ASSERT(fuzz_inside(in->data, in->size, t.data, t.size));
        }
    }
    gs_close(f);
    FUZZ_ASSERT_MSG(a.live == 0, "diagnostic: %ld allocations leaked", a.live);
}

/* ---- split sets ---------------------------------------------------------------------------- */

/* Every check of an open split set: parts in order, numbered, tensors found where they are. */
static void check_split(const gs_split *s, const uint8_t *const *parts, const size_t *sizes,
                        size_t n_parts, gs_profile profile)
{
    FUZZ_ASSERT(gs_split_part_count(s) == n_parts && gs_split_part(s, n_parts) == NULL);
    uint64_t total = 0;
    for (size_t p = 0; p < n_parts; p++) {
        const gs_file *f = gs_split_part(s, p);
        FUZZ_ASSERT(f != NULL);
        check_file(f, parts[p], sizes[p], profile);
        size_t idx;
        uint64_t no = UINT64_MAX, count = 0;
        FUZZ_ASSERT(gs_kv_find(f, "split.no", &idx) == GS_OK);
        FUZZ_ASSERT(gs_kv_get_unsigned(f, idx, &no) == GS_OK && no == p);
        FUZZ_ASSERT(gs_kv_find(f, "split.count", &idx) == GS_OK);
        FUZZ_ASSERT(gs_kv_get_unsigned(f, idx, &count) == GS_OK && count == n_parts);
        for (size_t i = 0; i < gs_tensor_count(f); i++, total++) {
            gs_tensor_info t;
            FUZZ_ASSERT(gs_tensor_info_at(f, i, &t) == GS_OK);
            char name[64 * 1024];
            if (t.name.len >= sizeof name) {
                continue;
            }
            memcpy(name, t.name.ptr, t.name.len);
            name[t.name.len] = '\0';
            size_t part = SIZE_MAX, index = SIZE_MAX;
            FUZZ_ASSERT(gs_split_find_tensor(s, name, &part, &index) == GS_OK);
            FUZZ_ASSERT_MSG(part == p && index == i, "tensor %zu of part %zu found at %zu/%zu", i,
                            p, index, part);
        }
    }
    FUZZ_ASSERT(gs_split_tensor_count(s) == total);
    size_t part, index;
    FUZZ_ASSERT(gs_split_find_tensor(s, "", &part, &index) == GS_E_NOT_FOUND);
}

/* The payload cut before every "GGUF" after the first byte: concatenated files become parts. */
static void open_split(const fuzz_input *in, const gs_options *base_opts)
{
    const uint8_t *parts[MAX_SPLIT_PARTS];
    size_t sizes[MAX_SPLIT_PARTS];
    size_t n = 0, start = 0;
    for (size_t i = 1; i + 4 <= in->size && n + 1 < MAX_SPLIT_PARTS; i++) {
        if (memcmp(in->data + i, "GGUF", 4) == 0) {
            parts[n] = in->data + start;
            sizes[n++] = i - start;
            start = i;
        }
    }
    parts[n] = in->data + start;
    sizes[n++] = in->size - start;

    gs_options o = *base_opts;
    fuzz_alloc a;
    fuzz_use_allocator(&o, &a, -1);
    gs_split *s = NULL;
    gs_error err;
    gs_status st = gs_open_split_memory((const void *const *)parts, sizes, n, &o, &s, &err);
    FUZZ_ASSERT_MSG(fuzz_status_known(st) && st != GS_E_INTERNAL && st != GS_E_INVALID_ARGUMENT &&
                        st != GS_E_NO_MEMORY,
                    "split open returned %s", gs_status_name(st));
    if (st == GS_OK) {
        check_split(s, parts, sizes, n, o.profile);
        gs_split_close(s);
    } else {
        FUZZ_ASSERT(s == NULL);
        fuzz_check_error(&err, st, in->size);
    }
    FUZZ_ASSERT_MSG(a.live == 0, "split: %ld allocations leaked", a.live);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_input in = fuzz_split(data, size);
    const uint8_t flags = in.tail[0];
    gs_status verdict[2];
    for (int p = 0; p < 2; p++) {
        gs_options o;
        fuzz_open_options(&o, p == 0 ? GS_PROFILE_STRICT : GS_PROFILE_LENIENT, in.tail);
        gs_error err;
        long attempts;
        verdict[p] = open_checked(&in, &o, -1, &err, &attempts);
        if ((flags & BIT_FAIL_ALLOC) && (in.tail[0] >> 7) == p) {
            const long fail_at = in.tail[3];
            gs_error err2;
            long attempts2;
            gs_status st = open_checked(&in, &o, fail_at, &err2, &attempts2);
            if (attempts > fail_at) {
                FUZZ_ASSERT_MSG(st == GS_E_NO_MEMORY, "allocation %ld failed: %s", fail_at,
                                gs_status_name(st));
            } else {
                FUZZ_ASSERT(st == verdict[p] && attempts2 == attempts);
                FUZZ_ASSERT(st == GS_OK || err2.offset == err.offset);
            }
        }
        if (flags & BIT_SPLIT) {
            open_split(&in, &o);
        }
        if (flags & BIT_DIAGNOSTIC) {
            open_diagnostic(&in, &o, verdict[p], &err);
        }
    }
    /* strict is lenient plus rules: whatever strict accepts, lenient accepts */
    FUZZ_ASSERT_MSG(verdict[0] != GS_OK || verdict[1] == GS_OK, "strict OK, lenient %s",
                    gs_status_name(verdict[1]));
    return 0;
}
