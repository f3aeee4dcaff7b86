/* Whole-tensor and row-range decoding of an open file. Memory sources decode in place; file
 * sources read through pread in bounded chunks, so a file that shrinks while it is being
 * decoded yields GS_E_TRUNCATED instead of a SIGBUS from the mapping. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <unistd.h>

#include "checked_math.h"
#include "decode.h"
#include "file_internal.h"
#include "type_registry.h"

/* Bytes read per pread: whole blocks, at most this much (every block is under 300 bytes). */
#define CHUNK_BYTES (32 * 1024)

static gs_status decode_from_file(const gs_file *f, const gsi_type_row *row, int32_t type,
                                  uint64_t pos, uint64_t n_blocks, float *dst)
{
    uint8_t buf[CHUNK_BYTES];
    const uint64_t per_chunk = CHUNK_BYTES / row->block_bytes;
    while (n_blocks > 0) {
        uint64_t blocks = n_blocks < per_chunk ? n_blocks : per_chunk;
        size_t want = (size_t)(blocks * row->block_bytes);
        size_t got = 0;
        while (got < want) {
            ssize_t r = pread(f->source.fd, buf + got, want - got, (off_t)(pos + got));
            if (r < 0 && errno == EINTR) {
                continue;
            }
            if (r < 0) {
                return GS_E_IO;
            }
            if (r == 0) {
                return GS_E_TRUNCATED; /* the file shrank after it was opened */
            }
            got += (size_t)r;
        }
        gs_status st = gsi_decode_blocks(type, buf, dst, (size_t)blocks);
        if (st != GS_OK) {
            return st;
        }
        dst += blocks * row->block_elems;
        pos += want;
        n_blocks -= blocks;
    }
    return GS_OK;
}

gs_status gs_tensor_dequantize_rows(const gs_file *file, size_t index, uint64_t first_row,
                                    uint64_t n_rows, float *dst, size_t n_elems)
{
    if (file == NULL || (dst == NULL && n_elems > 0)) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (index >= file->n_tensors) {
        return GS_E_OUT_OF_RANGE;
    }
    const gsi_tensor *t = &file->tensors[index];
    const gsi_type_row *row = gsi_type_lookup(t->type);
    if (!row->decodable) {
        return GS_E_NOT_DECODABLE;
    }
    /* Rows of ne[0] elements; every product below was validated at open. */
    const uint64_t row_elems = t->ne[0];
    const uint64_t total_rows = row_elems == 0 ? 0 : t->ne[1] * t->ne[2] * t->ne[3];
    uint64_t end_row;
    /* Detect and prevent integer overflow */
    if (gsi_checked_add_u64(first_row, n_rows, &end_row) || end_row > total_rows) {
        return GS_E_OUT_OF_RANGE;
    }
    uint64_t want_elems;
    /* Detect and prevent integer overflow */
    if (gsi_checked_mul_u64(n_rows, row_elems, &want_elems) || want_elems != n_elems) {
        return GS_E_SIZE_MISMATCH;
    }
    if (n_elems == 0) {
        return GS_OK;
    }
    const uint64_t blocks_per_row = row_elems / row->block_elems;
    const uint64_t row_bytes = blocks_per_row * row->block_bytes;
    const uint64_t pos = file->layout.data_offset + t->offset + first_row * row_bytes;
    const uint64_t n_blocks = n_rows * blocks_per_row;
    if (file->source.fd >= 0) {
        return decode_from_file(file, row, t->type, pos, n_blocks, dst);
    }
    size_t nb;
    if (gsi_checked_u64_to_size(n_blocks, &nb)) {
        return GS_E_SIZE_MISMATCH;
    }
    return gsi_decode_blocks(t->type, file->base + pos, dst, nb);
}

gs_status gs_tensor_dequantize(const gs_file *file, size_t index, float *dst, size_t n_elems)
{
    if (file == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (index >= file->n_tensors) {
        return GS_E_OUT_OF_RANGE;
    }
    const gsi_tensor *t = &file->tensors[index];
    const uint64_t rows = t->ne[0] == 0 ? 0 : t->ne[1] * t->ne[2] * t->ne[3];
    return gs_tensor_dequantize_rows(file, index, 0, rows, dst, n_elems);
}
