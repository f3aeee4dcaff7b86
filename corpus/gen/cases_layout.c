/* Data layout: tensor offsets (misaligned, gaps, reordering, overlaps, past the end), the
 * padding before the data section, and the data section itself. Strict requires ggml's packed
 * layout; lenient accepts any placement inside the file without shared bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsc_cases.h"

static uint64_t off_at(const gsc_case *c, uint32_t t)
{
    return gsc_at(c, GSW_OFFSET, t, 0);
}

static void set_offset(gsc_case *c, uint32_t t, uint64_t v)
{
    gsw_override(&c->b, &c->map, GSW_OFFSET, t, 0, v);
}

static void offsets(gsc_sink *s)
{
    gsc_case c;
    /* a: [0,16), b: [32,48); data section 64 bytes. */
    gsc_two_tensors(&c, 4, 4);
    set_offset(&c, 1, 33);
    gsc_strict(s, &c, "offsets/misaligned.gguf", GS_E_MISALIGNED_OFFSET, off_at(&c, 1),
               "b at 33: inside the file, not a multiple of 32");

    gsc_two_tensors(&c, 4, 4);
    gsw_put_fill(&c.b, 0, 32);
    set_offset(&c, 1, 64);
    gsc_strict(s, &c, "offsets/gap.gguf", GS_E_OFFSET_NOT_PACKED, off_at(&c, 1),
               "b at 64 instead of 32: aligned, a 32-byte gap (room made by trailing bytes)");

    gsc_two_tensors(&c, 4, 4);
    gsw_put_fill(&c.b, 0, 32);
    set_offset(&c, 0, 32);
    set_offset(&c, 1, 64);
    gsc_strict(s, &c, "offsets/first_not_at_zero.gguf", GS_E_OFFSET_NOT_PACKED, off_at(&c, 0),
               "a at 32 and b at 64: the first tensor does not start the data section");

    gsc_two_tensors(&c, 4, 4);
    set_offset(&c, 0, 32);
    set_offset(&c, 1, 0);
    gsc_strict(s, &c, "offsets/reordered.gguf", GS_E_OFFSET_NOT_PACKED, off_at(&c, 0),
               "a and b swapped: b's data comes first");

    gsc_two_tensors(&c, 4, 4);
    set_offset(&c, 1, 0);
    gsc_two(s, &c, "offsets/same_offset.gguf", gsc_v(GS_E_OFFSET_NOT_PACKED, off_at(&c, 1)),
            gsc_v(GS_E_TENSOR_OVERLAP, off_at(&c, 1)), "a and b both at 0: aliased data");

    /* a: [0,48), b: [64,80); b moved to 32 shares a's last 16 bytes. */
    gsc_two_tensors(&c, 12, 4);
    set_offset(&c, 1, 32);
    gsc_two(s, &c, "offsets/partial_overlap.gguf", gsc_v(GS_E_OFFSET_NOT_PACKED, off_at(&c, 1)),
            gsc_v(GS_E_TENSOR_OVERLAP, off_at(&c, 1)), "b at 32 overlaps the end of a (48 bytes)");

    /* a (16 bytes) moved inside b [32,80): the overlap is reported on the later tensor, b. */
    gsc_two_tensors(&c, 4, 12);
    set_offset(&c, 0, 64);
    gsc_two(s, &c, "offsets/overlap_inside_later.gguf",
            gsc_v(GS_E_OFFSET_NOT_PACKED, off_at(&c, 0)),
            gsc_v(GS_E_TENSOR_OVERLAP, off_at(&c, 1)),
            "a moved to 64, inside b [32,80): reported on b, the later tensor");

    static const struct { const char *file; uint64_t off; gs_status strict;
                          const char *desc; } far[] = {
        {"offsets/past_eof.gguf", 1u << 20, GS_E_OFFSET_NOT_PACKED,
         "b at 1 MiB in a small file (Bleeding Llama, CVE-2026-7482)"},
        {"offsets/wraps.gguf", UINT64_MAX - 31, GS_E_OFFSET_NOT_PACKED,
         "b at 2^64-32: data start + offset wraps"},
        {"offsets/max.gguf", UINT64_MAX, GS_E_MISALIGNED_OFFSET,
         "b at 2^64-1 (test-gguf BAD_OFFSET)"},
    };
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
        gsc_two_tensors(&c, 4, 4);
        set_offset(&c, 1, far[i].off);
        gsc_two(s, &c, far[i].file, gsc_v(far[i].strict, off_at(&c, 1)),
                gsc_v(GS_E_DATA_OUTSIDE_FILE, off_at(&c, 1)), far[i].desc);
    }

    /* Empty tensors take no room: packed, they share an offset with what follows. */
    gsc_begin(&c, 3);
    gsc_add_f32(&c.m, "e0", 0);
    gsc_add_f32(&c.m, "e1", 0);
    gsc_add_f32(&c.m, "a", 4);
    gsc_add_f32(&c.m, "e2", 0);
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* meta.architecture_missing */
    gsc_ok(s, &c, "offsets/empty_tensors_share_offsets.gguf",
           "empty tensors at 0, 0 and 32 around a 16-byte one: packed");

    gsc_begin(&c, 3);
    gsc_add_f32(&c.m, "a", 4);
    gsc_add_f32(&c.m, "e", 0);
    gsc_write(&c, 0);
    set_offset(&c, 1, 0);
    gsc_strict(s, &c, "offsets/empty_tensor_inside_other.gguf", GS_E_OFFSET_NOT_PACKED,
               off_at(&c, 1), "an empty tensor placed at a's offset: no bytes shared");
}

static void padding(gsc_sink *s)
{
    gsc_case c;
    gsc_base(&c);
    gsc_write(&c, 0);
    uint64_t info_end = gsc_at(&c, GSW_PADDING, 0, 0);
    gsw_truncate(&c.b, info_end);
    gsc_both(s, &c, "padding/missing.gguf", GS_E_TRUNCATED, info_end,
             "file ends with the tensor infos: no padding, no data");

    gsc_base(&c);
    gsc_write(&c, 0);
    const gsw_field *pad = gsw_map_find(&c.map, GSW_PADDING, 0, 0);
    if (pad->size < 2) {
        fprintf(stderr, "padding/partial: the base model needs 2 padding bytes\n");
        abort();
    }
    info_end = pad->offset;
    gsw_truncate(&c.b, info_end + pad->size / 2);
    gsc_both(s, &c, "padding/partial.gguf", GS_E_TRUNCATED, info_end,
             "file ends inside the padding before the data section");

    gsc_base(&c);
    gsc_write(&c, 0);
    pad = gsw_map_find(&c.map, GSW_PADDING, 0, 0);
    memset(c.b.data + pad->offset, 0xAA, pad->size);
    gsc_certify(&c, GSC_CERTIFIED); /* layout.padding_nonzero is a warning */
    gsc_ok(s, &c, "padding/nonzero_before_data.gguf",
           "padding before the data section is 0xAA, not zeros (ggml does not check)");

    gsc_two_tensors(&c, 4, 3);
    pad = gsw_map_find(&c.map, GSW_DATA_PAD, 0, 0);
    memset(c.b.data + pad->offset, 0xBB, pad->size);
    pad = gsw_map_find(&c.map, GSW_DATA_PAD, 1, 0);
    memset(c.b.data + pad->offset, 0xCC, pad->size);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* meta.architecture_missing */
    gsc_ok(s, &c, "padding/nonzero_after_data.gguf", "padding after each tensor is not zeros");

    /* Grow a string until the tensor infos end on a multiple of 32: no padding at all. */
    for (size_t extra = 0; extra < 32; extra++) {
        gsc_begin(&c, 3);
        char text[40];
        memset(text, 'p', extra);
        gsw_set_string(gsw_add(&c.m, "general.name"), text, extra);
        gsc_add_f32(&c.m, "w", 4);
        gsc_write(&c, 0);
        if (gsw_map_find(&c.map, GSW_PADDING, 0, 0)->size == 0) {
            gsc_certify(&c, GSC_NOT_CERTIFIED); /* meta.architecture_missing */
            gsc_ok(s, &c, "padding/none_needed.gguf",
                   "tensor infos end on a multiple of 32: the data section starts right there");
            break;
        }
        gsc_end(&c);
    }

    gsc_two_tensors(&c, 4, 3);
    gsw_truncate(&c.b, gsw_end(&c.map, GSW_DATA, 1, 0));
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* meta.architecture_missing (and a compat warning) */
    gsc_ok(s, &c, "padding/tail_missing.gguf",
           "the last tensor's padding is missing: the data itself is all there");
}

static void data(gsc_sink *s)
{
    gsc_case c;
    gsc_base(&c);
    gsc_write(&c, 0);
    gsw_truncate(&c.b, gsw_end(&c.map, GSW_DATA, 0, 0) - 1);
    gsc_both(s, &c, "data/truncated_by_one.gguf", GS_E_DATA_OUTSIDE_FILE, off_at(&c, 0),
             "the only tensor's data is one byte short (test-gguf NOT_ENOUGH_DATA)");

    gsc_two_tensors(&c, 4, 8);
    gsw_truncate(&c.b, gsc_at(&c, GSW_DATA, 1, 0) + 5);
    gsc_both(s, &c, "data/second_tensor_cut.gguf", GS_E_DATA_OUTSIDE_FILE, off_at(&c, 1),
             "the second tensor's data is cut after 5 of 32 bytes");

    gsc_base(&c);
    gsc_write(&c, 0);
    gsw_truncate(&c.b, gsc_at(&c, GSW_DATA, 0, 0));
    gsc_both(s, &c, "data/missing.gguf", GS_E_DATA_OUTSIDE_FILE, off_at(&c, 0),
             "padding present, the data section empty");

    gsc_base(&c);
    gsc_write(&c, 0);
    gsw_put_fill(&c.b, 0xEE, 1000);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* layout.trailing_bytes */
    gsc_ok(s, &c, "data/trailing_1000.gguf", "1000 bytes after the data (ggml ignores them)");

    gsc_begin(&c, 3);
    gsc_write(&c, 0);
    gsw_put_fill(&c.b, 0x5A, 100);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* layout.trailing_bytes, no architecture */
    gsc_ok(s, &c, "data/trailing_no_tensors.gguf", "empty model followed by 100 bytes");

    gsc_begin(&c, 3);
    gsc_add_f32(&c.m, "e0", 0);
    gsc_add_f32(&c.m, "e1", 0);
    gsc_write(&c, 0);
    gsc_certify(&c, GSC_NOT_CERTIFIED); /* meta.architecture_missing */
    gsc_ok(s, &c, "data/only_empty_tensors.gguf", "two empty tensors: the data section is empty");

    gsc_begin(&c, 3);
    const uint64_t gib = 1ull << 28;
    gsw_add_tensor(&c.m, "huge", 1, &gib, GS_TYPE_F32);
    gsc_write(&c, GSW_LAX);
    gsc_both(s, &c, "data/gib_tensor_tiny_file.gguf", GS_E_DATA_OUTSIDE_FILE, off_at(&c, 0),
             "a 1 GiB f32 tensor in a file of a few dozen bytes (ggml accepts it metadata-only)");
}

void gsc_cases_layout(gsc_sink *s)
{
    offsets(s);
    padding(s);
    data(s);
}
