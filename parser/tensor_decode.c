/* Whole-tensor and row-range decoding of an open file. Memory sources decode in place; file
 * sources read through pread in bounded chunks, so a file that shrinks while it is being
 * decoded yields GS_E_TRUNCATED instead of a SIGBUS from the mapping. */
#include "checked_math.h"
#include "decode.h"
#include "file_internal.h"
#include "type_defs.h"
#include "type_registry.h"

/* Bytes read per pread: whole blocks, at most this much (every built-in block is under 300
 * bytes; a caller-defined one is at most GS_TYPE_DEF_MAX_BLOCK_BYTES, this much). */
#define CHUNK_BYTES GS_DECODE_CHUNK_BYTES
_Static_assert(GS_TYPE_DEF_MAX_BLOCK_BYTES <= CHUNK_BYTES, "a defined block fits one chunk");

/* Decodes n_blocks whole blocks at src: a caller-defined decoder (ext) in chunks of at most
 * CHUNK_BYTES of input, or the active built-in path. */
static gs_status decode_blocks(const gsi_ext_type *ext, const gsi_type_row *row, int32_t type,
                               const uint8_t *src, float *dst, size_t n_blocks)
{
    if (ext == NULL) {
        return gsi_decode_blocks(type, src, dst, n_blocks);
    }
    /* at most CHUNK_BYTES in and GS_DECODE_CHUNK_ELEMS out (or one block) per call */
    size_t per_chunk = CHUNK_BYTES / row->block_bytes;
    size_t by_out = GS_DECODE_CHUNK_ELEMS / row->block_elems;
    per_chunk = by_out < per_chunk ? by_out : per_chunk;
    per_chunk = per_chunk > 0 ? per_chunk : 1;
    while (n_blocks > 0) {
        size_t blocks = n_blocks < per_chunk ? n_blocks : per_chunk;
        size_t in = blocks * row->block_bytes;   /* <= CHUNK_BYTES */
        size_t out = blocks * row->block_elems;  /* the caller's buffer holds it all */
        gs_status st = ext->decode(ext->ctx, type, src, in, dst, out);
        if (st != GS_OK) {
            return st;
        }
        src += in;
        dst += out;
        n_blocks -= blocks;
    }
    return GS_OK;
}

/* One descriptor for the whole range (a detached file is reopened once per call). */
static gs_status decode_from_file(const gs_file *f, const gsi_ext_type *ext,
                                  const gsi_type_row *row, int32_t type, uint64_t pos,
                                  uint64_t n_blocks, float *dst)
{
    int fd = -1;
    gs_status st = gsi_source_acquire(&f->source, &fd);
    uint8_t buf[CHUNK_BYTES];
    const uint64_t per_chunk = CHUNK_BYTES / row->block_bytes;
    while (st == GS_OK && n_blocks > 0) {
        uint64_t blocks = n_blocks < per_chunk ? n_blocks : per_chunk;
        size_t want = (size_t)(blocks * row->block_bytes);
        size_t got;
        int err_no;
        st = gsi_fd_pread(fd, pos, buf, want, &got, &err_no);
        if (st == GS_OK) {
            st = decode_blocks(ext, row, type, buf, dst, (size_t)blocks);
        }
        dst += blocks * row->block_elems;
        pos += want;
        n_blocks -= blocks;
    }
    if (fd >= 0) {
        gsi_source_release(&f->source, fd);
    }
    return st;
}

/* The tensor's row geometry: rows of ne[0] elements (every product validated at open). */
static uint64_t row_count(const gsi_tensor *t)
{
    return t->ne[0] == 0 ? 0 : t->ne[1] * t->ne[2] * t->ne[3];
}

gs_status gs_tensor_dequantize_range(const gs_file *file, size_t index, uint64_t first_elem,
                                     float *dst, size_t n_elems)
{
    if (file == NULL || (dst == NULL && n_elems > 0)) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (index >= file->n_tensors) {
        return GS_E_OUT_OF_RANGE;
    }
    const gsi_tensor *t = &file->tensors[index];
    if (t->unknown_type) {
        return GS_E_UNKNOWN_TENSOR_TYPE; /* diagnostic mode: listed without geometry */
    }
    const gsi_ext_type *ext = gsi_file_ext_type(file, t->type);
    const gsi_type_row *row = gsi_file_type_row(file, t->type);
    if (!row->decodable) {
        return GS_E_NOT_DECODABLE;
    }
    if (t->outside) {
        return GS_E_DATA_OUTSIDE_FILE; /* diagnostic mode: listed, but not in the file */
    }
    const uint64_t total = t->ne[0] * row_count(t);
    uint64_t end;
    /* Detect and prevent integer overflow */
    if (gsi_checked_add_u64(first_elem, n_elems, &end) || end > total) {
        return GS_E_OUT_OF_RANGE;
    }
    if (first_elem % row->block_elems != 0 || n_elems % row->block_elems != 0) {
        return GS_E_SIZE_MISMATCH;
    }
    if (n_elems == 0) {
        return GS_OK;
    }
    const uint64_t n_blocks = n_elems / row->block_elems;
    const uint64_t pos =
        file->layout.data_offset + t->offset + first_elem / row->block_elems * row->block_bytes;
    if (file->source.is_file) {
        return decode_from_file(file, ext, row, t->type, pos, n_blocks, dst);
    }
    return decode_blocks(ext, row, t->type, file->data_base + pos, dst, (size_t)n_blocks);
}

gs_status gs_file_dequantize(const gs_file *file, int32_t type, const void *src,
                             size_t src_bytes, float *dst, size_t n_elems)
{
    const gsi_ext_type *ext = gsi_file_ext_type(file, type);
    if (ext == NULL) {
        return gs_dequantize((gs_type)type, src, src_bytes, dst, n_elems);
    }
    if (!ext->row.decodable) {
        return GS_E_NOT_DECODABLE;
    }
    const gsi_type_row *row = &ext->row;
    size_t n_blocks;
    const gs_status st = gsi_decode_sizes(row, src, src_bytes, dst, n_elems, &n_blocks);
    if (st != GS_OK) {
        return st;
    }
    return n_blocks == 0 ? GS_OK : decode_blocks(ext, row, type, src, dst, n_blocks);
}

gs_status gs_tensor_dequantize_rows(const gs_file *file, size_t index, uint64_t first_row,
                                    uint64_t n_rows, float *dst, size_t n_elems)
{
    if (file == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (index >= file->n_tensors) {
        return GS_E_OUT_OF_RANGE;
    }
    const gsi_tensor *t = &file->tensors[index];
    uint64_t end_row;
    /* Detect and prevent integer overflow */
    if (gsi_checked_add_u64(first_row, n_rows, &end_row) || end_row > row_count(t)) {
        return GS_E_OUT_OF_RANGE;
    }
    uint64_t want_elems;
    /* Detect and prevent integer overflow */
    if (gsi_checked_mul_u64(n_rows, t->ne[0], &want_elems) || want_elems != n_elems) {
        return GS_E_SIZE_MISMATCH;
    }
    /* whole rows are whole blocks (ne[0] is a multiple of the block size) */
    return gs_tensor_dequantize_range(file, index, first_row * t->ne[0], dst, n_elems);
}

gs_status gs_tensor_dequantize(const gs_file *file, size_t index, float *dst, size_t n_elems)
{
    if (file == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (index >= file->n_tensors) {
        return GS_E_OUT_OF_RANGE;
    }
    return gs_tensor_dequantize_rows(file, index, 0, row_count(&file->tensors[index]), dst,
                                     n_elems);
}
