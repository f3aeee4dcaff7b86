/* ggml's view of one GGUF as the text report every oracle client reads (the runner's report
 * command, its serve loop, and the tests that parse them):
 *
 *   accepted version=V n_kv=N n_tensors=N alignment=A data_offset=D
 *   kv KEYHEX TYPE ARRTYPE N SHA          (with GSX_REPORT_KV; ARRTYPE "-" for scalars)
 *   tensor NAMEHEX TYPE NE0 NE1 NE2 NE3 OFFSET SIZE HASH
 *   end
 * or
 *   rejected
 *   end
 *
 * Keys and names are hex (any byte may occur). A KV's SHA is the SHA-256 of its value's wire
 * encoding (numbers little-endian; a string as u64 length + bytes; an array as its elements
 * one after the other): what a reader that agrees with ggml finds in the file after the type
 * id or the array header. HASH (with GSX_REPORT_HASH) is the SHA-256 of ggml's f32 output for
 * the tensor under the NaN rule, "-" when ggml has no decoder for the type, "outside" when the
 * data is not inside the file; without GSX_REPORT_HASH it is "-". F32 is the identity. */
#ifndef GGUFSAFE_ORACLE_REPORT_H
#define GGUFSAFE_ORACLE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ggml_api.h"

enum {
    GSX_REPORT_KV = 1u,    /* kv lines */
    GSX_REPORT_HASH = 2u,  /* decode every tensor and hash it */
    GSX_REPORT_LOAD = 4u   /* no_alloc = false: ggml also reads the tensor data */
};

/* Parses the file at path (gguf_init_from_file) or the buffer (gguf_init_from_buffer) with
 * no_alloc = true and a ggml_context, as llama.cpp's model loader does, and writes the report
 * to out. Returns true when ggml accepted it. */
bool gsx_report_file(const gsx_ggml *g, const char *path, unsigned flags, FILE *out);
bool gsx_report_buffer(const gsx_ggml *g, const uint8_t *data, size_t size, unsigned flags,
                       FILE *out);

#endif
