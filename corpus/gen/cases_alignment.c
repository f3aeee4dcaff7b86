/* general.alignment: every power of two 8..2^20 accepted; 0, 1, 3, 24 and friends; the limit;
 * every wrong type. */
#include <stdio.h>

#include "gsc_cases.h"

/* general.alignment = a (record 0), architecture, two tensors laid out with `layout` (the
 * writer's alignment; 0: a itself). */
static void with_alignment(gsc_case *c, uint32_t a, uint32_t layout)
{
    gsc_begin(c, 3);
    gsw_set_u32(gsw_add(&c->m, "general.alignment"), a);
    gsc_add_arch(&c->m);
    gsc_add_f32(&c->m, "a", 3);
    gsc_add_f32(&c->m, "b", 5);
    c->m.alignment_override = layout;
    gsc_write(c, 0);
}

static void powers_of_two(gsc_sink *s)
{
    for (unsigned k = 3; k <= 20; k++) {
        gsc_case c;
        if (k <= 16) {
            with_alignment(&c, 1u << k, 0);
        } else { /* one tensor: the file is 2 alignments long, not 3 */
            gsc_begin(&c, 3);
            gsw_set_u32(gsw_add(&c.m, "general.alignment"), 1u << k);
            gsc_add_f32(&c.m, "a", 3);
            gsc_write(&c, 0);
        }
        char file[64], desc[96];
        snprintf(file, sizeof file, "alignment/pow2_%u.gguf", 1u << k);
        snprintf(desc, sizeof desc, "alignment 2^%u with %s laid out for it", k,
                 k <= 16 ? "two tensors" : "a tensor");
        /* the one-tensor files have no general.architecture */
        gsc_certify(&c, k <= 16 ? GSC_CERTIFIED : GSC_NOT_CERTIFIED);
        gsc_ok(s, &c, file, desc);
    }
}

static void values(gsc_sink *s)
{
    gsc_case c;
    with_alignment(&c, 0, 32);
    gsc_both(s, &c, "alignment/zero.gguf", GS_E_ALIGNMENT_VALUE, gsc_at(&c, GSW_VALUE, 0, 0),
             "alignment 0 (a division by zero in other readers)");

    /* Powers of two below 8 and non-powers: the spec wants a multiple of 8, ggml a power of
     * two; lenient addresses any non-zero alignment, so the layout is written for it. */
    static const uint32_t odd[] = {1, 2, 4, 3, 24, 48, 100};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        with_alignment(&c, odd[i], 0);
        char file[64], desc[128];
        snprintf(file, sizeof file, "alignment/value_%u.gguf", odd[i]);
        snprintf(desc, sizeof desc, "alignment %u, tensors laid out for it: strict wants a power "
                 "of two of at least 8", odd[i]);
        gsc_strict(s, &c, file, GS_E_ALIGNMENT_VALUE, gsc_at(&c, GSW_VALUE, 0, 0), desc);
    }

    static const struct { const char *file; uint32_t a; const char *desc; } limit[] = {
        {"alignment/pow2_2p21.gguf", 1u << 21, "alignment 2^21, over the 1 MiB limit"},
        {"alignment/pow2_2p31.gguf", 1u << 31,
         "alignment 2^31, over the 1 MiB limit (ggml sets no bound, but with tensors its seek "
         "to the data fails)"},
    };
    for (size_t i = 0; i < sizeof limit / sizeof limit[0]; i++) {
        with_alignment(&c, limit[i].a, 32);
        gsc_both(s, &c, limit[i].file, GS_E_LIMIT_ALIGNMENT, gsc_at(&c, GSW_VALUE, 0, 0),
                 limit[i].desc);
    }
    static const struct { const char *file; uint32_t a; const char *desc; } both[] = {
        {"alignment/value_2p32m1.gguf", 0xFFFFFFFFu, "alignment 2^32-1: not a power of two, "
         "and over the limit for lenient"},
        {"alignment/value_3x2p20.gguf", 3u << 20, "alignment 3 MiB: not a power of two, and "
         "over the limit for lenient"},
    };
    for (size_t i = 0; i < sizeof both / sizeof both[0]; i++) {
        with_alignment(&c, both[i].a, 32);
        uint64_t at = gsc_at(&c, GSW_VALUE, 0, 0);
        gsc_two(s, &c, both[i].file, gsc_v(GS_E_ALIGNMENT_VALUE, at),
                gsc_v(GS_E_LIMIT_ALIGNMENT, at), both[i].desc);
    }

    /* The key may come anywhere among the key-values. */
    gsc_begin(&c, 3);
    gsc_add_arch(&c.m);
    gsc_add_f32(&c.m, "a", 3);
    gsw_set_u32(gsw_add(&c.m, "general.alignment"), 64);
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "alignment/last_key.gguf", "alignment 64 as the last key-value");
}

/* Tensors laid out with alignment 1 while the file declares 32 (test-gguf INCONSISTENT_ALIGN):
 * the reader places the data section at the 32-aligned end of the infos. */
static void inconsistent(gsc_sink *s)
{
    gsc_case c;
    gsc_begin(&c, 3);
    gsw_set_u32(gsw_add(&c.m, "general.alignment"), 32);
    gsc_add_f32(&c.m, "a", 3);  /* 12 bytes */
    gsc_add_f32(&c.m, "b", 5);  /* 20 bytes, at offset 12 */
    c.m.alignment_override = 1;
    gsc_write(&c, 0);
    uint64_t info_end = gsc_at(&c, GSW_PADDING, 0, 0);
    uint64_t data = (info_end + 31) / 32 * 32;
    uint64_t size = c.b.len;
    gsc_verdict strict, lenient;
    if (data > size) {
        strict = lenient = gsc_v(GS_E_TRUNCATED, info_end);
    } else if (data + 12 > size) {
        strict = lenient = gsc_v(GS_E_DATA_OUTSIDE_FILE, gsc_at(&c, GSW_OFFSET, 0, 0));
    } else {
        strict = gsc_v(GS_E_MISALIGNED_OFFSET, gsc_at(&c, GSW_OFFSET, 1, 0));
        lenient = data + 32 > size ? gsc_v(GS_E_DATA_OUTSIDE_FILE, gsc_at(&c, GSW_OFFSET, 1, 0))
                                   : GSC_OK;
    }
    gsc_two(s, &c, "alignment/inconsistent_layout.gguf", strict, lenient,
            "declares 32 but the tensors are laid out with alignment 1");
}

static void types(gsc_sink *s)
{
    static const struct { const char *name; uint32_t type; uint64_t bits; } t[] = {
        {"u8", GS_VALUE_U8, 32},   {"i8", GS_VALUE_I8, 32},    {"u16", GS_VALUE_U16, 32},
        {"i16", GS_VALUE_I16, 32}, {"i32", GS_VALUE_I32, 32},  {"f32", GS_VALUE_F32, 0x42000000},
        {"bool", GS_VALUE_BOOL, 1}, {"u64", GS_VALUE_U64, 32}, {"i64", GS_VALUE_I64, 32},
        {"f64", GS_VALUE_F64, 0x4040000000000000ull},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        gsc_case c;
        gsc_begin(&c, 3);
        gsw_set_scalar(gsw_add(&c.m, "general.alignment"), t[i].type, t[i].bits);
        gsc_add_f32(&c.m, "w", 4);
        gsc_write(&c, 0);
        char file[64], desc[96];
        snprintf(file, sizeof file, "alignment/type_%s.gguf", t[i].name);
        snprintf(desc, sizeof desc, "general.alignment of type %s (ggml aborted on it before "
                 "2026-08)", t[i].name);
        gsc_both(s, &c, file, GS_E_ALIGNMENT_TYPE, gsc_at(&c, GSW_VALUE_TYPE, 0, 0), desc);
    }
    gsc_case c;
    gsc_begin(&c, 3);
    gsw_set_cstr(gsw_add(&c.m, "general.alignment"), "32");
    gsc_write(&c, 0);
    gsc_both(s, &c, "alignment/type_string.gguf", GS_E_ALIGNMENT_TYPE,
             gsc_at(&c, GSW_VALUE_TYPE, 0, 0), "general.alignment as the string \"32\"");

    gsc_begin(&c, 3);
    const uint8_t one[4] = {32, 0, 0, 0};
    gsw_set_array(gsw_add(&c.m, "general.alignment"), GS_VALUE_U32, 1, one);
    gsc_write(&c, 0);
    gsc_both(s, &c, "alignment/type_u32_array.gguf", GS_E_ALIGNMENT_TYPE,
             gsc_at(&c, GSW_VALUE_TYPE, 0, 0), "general.alignment as an array of one u32");
}

void gsc_cases_alignment(gsc_sink *s)
{
    powers_of_two(s);
    values(s);
    inconsistent(s);
    types(s);
}
