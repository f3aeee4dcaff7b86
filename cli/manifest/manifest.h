/* SHA-256 manifests of GGUF files (ggufsafe hash, ggufsafe verify): per part, the whole file's
 * digest (what sha256sum prints), one digest per key-value (its exact wire bytes: key, type and
 * value) and one per tensor (its raw data bytes, with its type and shape). Nothing depends on the
 * file's path or name. docs/manifests.md documents the text form:
 *
 *   ggufsafe-manifest 2
 *   part 1 of 1
 *   file <sha256> <size>
 *   kv <sha256> <key> <value fields>     (manifest_value.c; version 1 and a spent value
 *                                         budget: no value fields)
 *   tensor <sha256> <type> <shape> <name>
 *   end
 *
 * Keys and names are written with every byte outside 0x21..0x7E, and the backslash, as \xHH
 * (lower-case hex), so a line never holds a space, a control byte or invalid UTF-8 from the file,
 * and each name has exactly one spelling. */
#ifndef GGUFSAFE_CLI_MANIFEST_H
#define GGUFSAFE_CLI_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_source.h"
#include "ggufsafe.h"
#include "ggufsafe_manifest.h"
#include "manifest_value.h"
#include "out.h"

#define MF_MAGIC "ggufsafe-manifest"
#define MF_VERSION 2     /* what hash writes */
#define MF_VERSION_MIN 1 /* the oldest verify reads: digests only, no values */
#define MF_MAX_PARTS GS_SPLIT_MAX_PARTS

/* The public enums (ggufsafe_manifest.h), as the engine spells them. */
typedef gs_manifest_kind mf_kind;
#define MF_KV GS_MANIFEST_KV
#define MF_TENSOR GS_MANIFEST_TENSOR

typedef gs_manifest_state mf_state;
#define MF_HASHED GS_MANIFEST_HASHED   /* digest holds the SHA-256 */
#define MF_NO_DATA GS_MANIFEST_NO_DATA /* verify of a damaged file: its data is not in the file */
#define MF_ALIASED GS_MANIFEST_ALIASED /* verify of a damaged file: it overlaps an earlier one */

typedef struct mf_entry {
    mf_kind kind;
    mf_state state;
    char *name;         /* escaped form, NUL-terminated */
    char type[16];      /* tensors: ggml type name */
    char shape[96];     /* tensors: "4096,32000", "-" for a scalar (n_dims 0) */
    uint8_t digest[32];
    uint64_t offset;    /* where its bytes are in the file (not in the manifest) */
    uint64_t size;
    size_t line;        /* parsed manifests: its line number */
    char *value;        /* key-values: the value fields (manifest_value.h), owned; NULL: none */
} mf_entry;

typedef struct mf_part {
    char error[192];    /* verify: why the part could not be read ("" when it was) */
    uint64_t size;
    uint8_t digest[32];
    mf_entry *entries;  /* key-values in file order, then tensors in file order */
    size_t n, cap;
} mf_part;

typedef struct mf_doc {
    mf_part *parts;
    size_t n_parts;
    unsigned version; /* MF_VERSION for a hashed file; a parsed manifest's own (written back so) */
} mf_doc;

/* The public manifest is a document. */
struct gs_manifest {
    mf_doc doc;
};

/* n_parts empty parts; GS_E_NO_MEMORY (d then has none). */
gs_status mf_doc_init(mf_doc *d, size_t n_parts);
void mf_doc_free(mf_doc *d);

/* Appends an entry to p; the name (escaped form, len bytes) is copied. NULL when out of memory. */
mf_entry *mf_part_add(mf_part *p, mf_kind kind, const char *name, size_t len);

/* Is the byte written as itself in the escaped form? Printable ASCII but the backslash. */
static inline bool mf_byte_literal(uint8_t b)
{
    return b > 0x20 && b < 0x7f && b != '\\';
}

/* The escaped form of raw bytes, allocated and NUL-terminated; NULL when out of memory. */
char *mf_escape(const void *raw, size_t n);

typedef struct mf_hash_options {
    unsigned jobs; /* threads: the reader plus up to jobs-1 range hashers */
    bool skip_absent; /* leave out tensors whose data is not in the file (metadata-only hash) */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
    /* Test hook: called by the reading thread after each chunk is read (may be NULL). */
    void (*after_chunk)(void *ctx, uint64_t chunk, uint64_t offset);
    void *after_chunk_ctx;
} mf_hash_options;

/* Hashes one open file in one sequential pass of large pread chunks: the whole-file digest and
 * every key-value's and tensor's digest are fed from the same buffers. Tensors whose data is not
 * in the file (diagnostic opens) are marked MF_NO_DATA, tensors sharing bytes with an earlier
 * one MF_ALIASED. Returns GS_OK, or the read failure (GS_E_TRUNCATED when the file shrank during
 * the scan) with *where set to the offset that could not be read, GS_E_NO_MEMORY, or
 * GS_E_INTERNAL (libcrypto failed). */
gs_status mf_hash_part(const gs_file *f, const mf_hash_options *o, mf_part *out,
                       uint64_t *where);

/* Writes the manifest text. */
void mf_write(cli_out *out, const mf_doc *d);

/* Where a manifest is parsed from: a stream, or bytes in memory. */
typedef struct mf_input {
    FILE *file;          /* or NULL: data */
    const uint8_t *data;
    size_t size, pos;
} mf_input;


/* What one manifest holds at most (manifest_limits.c): derived from the reader's default limits,
 * which hash and verify open every file with, so that each file the reader accepts under either
 * profile fits. The reader (mf_parse) enforces them; hash checks a file against them
 * (mf_check_fits) before it reads any data. */
typedef struct mf_limits {
    uint64_t max_line;         /* bytes of a line without its '\n': 4 * max_string_length +
                                  MF_LINE_OVERHEAD (a longest name, every byte escaped) */
    uint64_t max_part_entries; /* key-values and tensors of one part: max_kv_count +
                                  max_tensor_count */
    uint64_t max_entries;      /* of the whole manifest: twice one part's */
    uint64_t max_name_bytes;   /* escaped keys and names of the whole manifest:
                                  max_metadata_memory, the reader's budget for one file */
    uint64_t max_part_value_bytes; /* value fields of one part (MF_PART_VALUE_BYTES): hash
                                      records values in file order while they fit, then none */
} mf_limits;

/* Room for what a line holds besides its name: "tensor", a digest, the type, the shape, or a
 * key-value's value fields (at most MF_VALUE_MAX_LINE bytes). */
#define MF_LINE_OVERHEAD (256u + MF_VALUE_MAX_LINE)
#define MF_PART_VALUE_BYTES (16u << 20)

void mf_limits_default(mf_limits *l);

/* The length of raw bytes in the escaped form (mf_escape). */
uint64_t mf_escaped_len(const void *raw, size_t n);

/* GS_OK when the manifest of src (every part) fits limits (NULL: mf_limits_default), i.e. when
 * mf_parse with the same limits reads it back; otherwise GS_E_LIMIT_TENSOR_COUNT (too many
 * entries), GS_E_LIMIT_STRING_LENGTH (a name too long for a line) or GS_E_LIMIT_MEMORY (the
 * names too long in all), with a detail that says what to do. */
gs_status mf_check_fits(const cli_source *src, const mf_limits *limits, gs_error *err);

/* Parses a manifest (untrusted input: lines, entries and names within limits, NULL for
 * mf_limits_default; every field checked). GS_OK; GS_E_INVALID_ARGUMENT with err->detail
 * "line N: reason" and err->offset the line's offset; GS_E_IO (a read error, "line N: read
 * error"); GS_E_NO_MEMORY. d is empty on failure. */
gs_status mf_parse(mf_input *in, const mf_limits *limits, mf_doc *d, gs_error *err);

/* Decimal, no sign, no leading zero (but "0"), within 2^64 - 1: the manifest's numbers. */
bool mf_parse_u64(const char *s, uint64_t *out);

/* A lower-case hex digit's value, or -1. */
int mf_hexval(char c);

/* Hex of a digest into out (65 bytes). */
#define mf_hex gs_manifest_hex

#endif
