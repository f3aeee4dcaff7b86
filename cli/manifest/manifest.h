/* SHA-256 manifests of GGUF files (ggufsafe hash, ggufsafe verify): per part, the whole file's
 * digest (what sha256sum prints), one digest per key-value (its exact wire bytes: key, type and
 * value) and one per tensor (its raw data bytes, with its type and shape). Nothing depends on the
 * file's path or name. docs/manifests.md documents the text form:
 *
 *   ggufsafe-manifest 1
 *   part 1 of 1
 *   file <sha256> <size>
 *   kv <sha256> <key>
 *   tensor <sha256> <type> <shape> <name>
 *   end
 *
 * Keys and names are written with every byte outside 0x21..0x7E, and the backslash, as \xHH
 * (lower-case hex), so a line never holds a space, a control byte or invalid UTF-8 from the file,
 * and each name has exactly one spelling. */
#ifndef GGUFSAFE_MANIFEST_H
#define GGUFSAFE_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ggufsafe.h"

#define MF_MAGIC "ggufsafe-manifest"
#define MF_VERSION 1
#define MF_MAX_PARTS 99999u

typedef enum mf_kind {
    MF_KV = 0,
    MF_TENSOR = 1
} mf_kind;

typedef enum mf_state {
    MF_HASHED = 0,  /* digest holds the SHA-256 */
    MF_NO_DATA = 1, /* verify of a damaged file: the tensor's data is not in the file */
    MF_ALIASED = 2  /* verify of a damaged file: its data overlaps an earlier tensor's */
} mf_state;

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
} mf_doc;

void mf_doc_init(mf_doc *d, size_t n_parts);
void mf_doc_free(mf_doc *d);

/* Appends an entry to p; the name (escaped form, len bytes) is copied. */
mf_entry *mf_part_add(mf_part *p, mf_kind kind, const char *name, size_t len);

/* The escaped form of raw bytes, allocated and NUL-terminated. */
char *mf_escape(const void *raw, size_t n);

typedef struct mf_hash_options {
    unsigned jobs; /* threads: the reader plus up to jobs-1 range hashers */
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
 * the scan) with *where set to the offset that could not be read. */
gs_status mf_hash_part(const gs_file *f, const mf_hash_options *o, mf_part *out,
                       uint64_t *where);

/* Writes the manifest text. */
void mf_write(FILE *out, const mf_doc *d);

/* Parses a manifest (untrusted input: bounded lines, every field checked). Returns 0, or -1
 * with "line N: reason" in why. */
int mf_parse(FILE *in, mf_doc *d, char *why, size_t why_cap);

/* Opens FILE as hash and verify do (the whole split set from its first part unless part_only;
 * verify opens each part leniently in diagnostic mode so that damage shows as named
 * differences) and hashes every part into d. Returns -1 on success; otherwise prints the error
 * line and returns the exit code. */
int mf_hash_path(const char *path, bool part_only, bool for_verify, gs_profile profile,
                 unsigned jobs, mf_doc *d);

/* Hex of a digest into out (65 bytes). */
void mf_hex(const uint8_t digest[32], char out[65]);

#endif
