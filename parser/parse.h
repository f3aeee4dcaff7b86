/* The parse of one GGUF: header -> key-values -> tensor infos -> layout, with one bounded cursor.
 * Each stage fails closed with gsi_fail on the first problem. */
#ifndef GGUFSAFE_PARSE_H
#define GGUFSAFE_PARSE_H

#include <stdarg.h>

#include "cursor.h"
#include "error.h"
#include "file_internal.h"

/* Smallest possible records, used to bound counts before anything is allocated:
 * KV = key length (8) + 1 key byte + value type (4) + 1 value byte;
 * tensor info = name length (8) + 1 name byte + n_dims (4) + type (4) + offset (8). */
#define GSI_MIN_KV_BYTES 14u
#define GSI_MIN_TENSOR_INFO_BYTES 25u
#define GSI_HEADER_BYTES 24u
#define GSI_DEFAULT_ALIGNMENT 32u

typedef struct gsi_parser {
    gsi_cursor cur;
    gs_file *file;
    const gs_limits *limits;
    bool strict;
    bool diagnostic;
    bool metadata_only; /* tensor data need not be in the file (gs_options.metadata_only) */
    gs_error *err;
    uint64_t n_tensors_declared;
    uint64_t n_kv_declared;
    uint32_t alignment;
} gsi_parser;

gs_status gsi_parse_header(gsi_parser *p);
gs_status gsi_parse_kvs(gsi_parser *p);
gs_status gsi_parse_alignment(gsi_parser *p);
gs_status gsi_parse_tensor_infos(gsi_parser *p);
gs_status gsi_check_layout(gsi_parser *p);

/* Reads a gguf string at the cursor: the 8-byte length (GS_E_TRUNCATED), the bytes
 * (GS_E_STRING_EXCEEDS_FILE) and the length limit (GS_E_LIMIT_STRING_LENGTH). On success *data
 * and *len describe the bytes and the cursor is past them; on failure *len_field is where the
 * string started and nothing is reported yet (the caller knows the context). */
gs_status gsi_read_string(gsi_parser *p, const uint8_t **data, uint64_t *len);
/* The same for the string that opens record `index` of a table (field "key" of "key-value
 * pair", field "name" of "tensor info"): a failure is reported, at the record's start, as the
 * field's length cut off or as a length the file or the limit cannot hold. */
gs_status gsi_read_record_string(gsi_parser *p, const char *field, const char *record,
                                 uint64_t index, const uint8_t **data, uint64_t *len);

/* A problem that need not stop the parse: fails it (returning st), or in diagnostic mode is
 * recorded as a finding (returning GS_OK, or a failure to record it). Used for the strict-only
 * rules (UTF-8, bools, key grammar, name length, alignment value) and the layout rules; what
 * memory-safe addressing needs always fails. */
gs_status gsi_problem(gsi_parser *p, gs_status st, uint64_t offset, gs_context_kind kind,
                      const uint8_t *name, uint64_t name_len, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
gs_status gsi_problemv(gsi_parser *p, gs_status st, uint64_t offset, gs_context_kind kind,
                       const uint8_t *name, uint64_t name_len, const char *fmt, va_list ap)
    __attribute__((format(printf, 7, 0)));
gs_status gsi_record_finding(gsi_parser *p, const gs_error *e);

/* Encoded size of one element of a fixed-size value type, 0 for string/array/invalid. */
unsigned gsi_value_size(uint32_t type);

#endif
