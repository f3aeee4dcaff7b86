/*
 * ggufsafe: a defensive GGUF reader and dequantization library.
 *
 * The whole public API. Every function is thread-safe on distinct objects; an open gs_file is
 * immutable and may be read from any number of threads at once. Nothing here aborts on input:
 * every failure is a gs_status, and failures caused by file contents carry the byte offset of the
 * field that failed and the key or tensor concerned (gs_error).
 *
 * Type ids (gs_type) are ggml's. Symbols are prefixed gs_ so that ggml can be linked beside us.
 */
#ifndef GGUFSAFE_H
#define GGUFSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(GGUFSAFE_BUILDING) && defined(__GNUC__)
#define GS_API __attribute__((visibility("default")))
#else
#define GS_API
#endif

/* An alignment for a struct member, in C11 and C++11 alike. */
#ifdef __cplusplus
#define GS_ALIGNAS(n) alignas(n)
#else
#define GS_ALIGNAS(n) _Alignas(n)
#endif

#define GS_VERSION_MAJOR 0
#define GS_VERSION_MINOR 1
#define GS_VERSION_PATCH 0
#define GS_VERSION_STRING "0.1.0"

/* The library's version string, "MAJOR.MINOR.PATCH". */
GS_API const char *gs_version(void);

/* ABI (docs/abi.md): symbols are never removed or changed, and a public struct gains fields only
 * at its end. A struct the library fills is written through a sized entry point (_sized: it
 * takes the caller's sizeof and writes exactly that many bytes, zeros past the fields this
 * library has); the unsized names are macros that pass sizeof, and their 0.1.0 symbols stay,
 * writing the 0.1.0 layouts for programs built against 0.1.0. gs_options carries its size in
 * struct_size. gs_str, gs_allocator, gs_limits and gs_error never change: new limits and
 * options are appended to gs_options. */

/* ------------------------------------------------------------------------------------------------
 * Status codes. Numbers are stable: never renumbered, never reused. docs/status-codes.md has
 * the full table.
 * ---------------------------------------------------------------------------------------------- */
typedef enum gs_status {
    GS_OK = 0,

    /* 1-19: the caller or the environment, never the file's contents. */
    GS_E_INVALID_ARGUMENT = 1,   /* NULL pointer, bad options struct, bad enum value */
    GS_E_NO_MEMORY = 2,          /* the allocator returned NULL */
    GS_E_IO = 3,                 /* open/fstat/mmap/pread failed (errno-level problem) */
    GS_E_NOT_FOUND = 4,          /* lookup of a key or tensor name that is not there */
    GS_E_WRONG_TYPE = 5,         /* typed getter used on a value of another type */
    GS_E_OUT_OF_RANGE = 6,       /* index past the end, or value not representable */
    GS_E_INTERNAL = 7,           /* a bug in ggufsafe; never returned for malformed input */
    GS_E_NOT_DECODABLE = 8,      /* tensor type has no f32 decoder (integer and f64 types) */
    GS_E_SIZE_MISMATCH = 9,      /* decode: buffer sizes do not match whole blocks */
    GS_E_KERNEL_UNAVAILABLE = 10,/* the requested decoder path (AVX2, NEON) is not usable here */
    GS_E_NOT_REGULAR_FILE = 11,  /* the path names a directory, FIFO, socket or device */
    GS_E_NO_SUCH_FILE = 12,      /* nothing at the path (ENOENT, ENOTDIR) */
    GS_E_FILE_CHANGED = 13,      /* the file is not the one opened any more: replaced, removed,
                                    resized or modified since (reopen_for_data), or it shrank
                                    while its metadata was read */
    GS_E_DECODER_FAILED = 14,    /* a caller-supplied decoder (plugin, ggml) crashed, hung,
                                    wrote out of bounds or reported a failure */

    /* 20-29: framing. */
    GS_E_BAD_MAGIC = 20,             /* first 4 bytes are not "GGUF" */
    GS_E_UNSUPPORTED_VERSION = 21,   /* version 0, 1 or > 3 */
    GS_E_BYTE_SWAPPED = 22,          /* version word is a byte-swapped 1..3: a big-endian file */
    GS_E_TRUNCATED = 23,             /* the file ends inside a fixed-size field */
    GS_E_COUNT_EXCEEDS_FILE = 24,    /* a declared count needs more bytes than remain */
    GS_E_STRING_EXCEEDS_FILE = 25,   /* a declared string length needs more bytes than remain */

    /* 30-39: configured limits (gs_limits). */
    GS_E_LIMIT_KV_COUNT = 30,
    GS_E_LIMIT_TENSOR_COUNT = 31,
    GS_E_LIMIT_STRING_LENGTH = 32,
    GS_E_LIMIT_ARRAY_LENGTH = 33,
    GS_E_LIMIT_ALIGNMENT = 34,
    GS_E_LIMIT_MEMORY = 35,          /* the parsed metadata would need more heap than allowed */

    /* 40-59: key-value metadata. */
    GS_E_INVALID_UTF8 = 40,          /* strict: a key, string value or tensor name is not UTF-8 */
    GS_E_BAD_VALUE_TYPE = 41,        /* value type id not in 0..12 */
    GS_E_NESTED_ARRAY = 42,          /* array whose element type is array */
    GS_E_BAD_BOOL = 43,              /* strict: bool byte other than 0 or 1 */
    GS_E_EMPTY_KEY = 44,
    GS_E_KEY_HAS_NUL = 45,
    GS_E_BAD_KEY = 46,               /* strict: key outside [a-z0-9_]+(.[a-z0-9_]+)*, or > 65535 B */
    GS_E_DUPLICATE_KEY = 47,
    GS_E_ALIGNMENT_TYPE = 48,        /* general.alignment is not a scalar uint32 */
    GS_E_ALIGNMENT_VALUE = 49,       /* 0; strict: not a power of two, or below 8 */

    /* 60-79: tensor infos. */
    GS_E_TOO_MANY_DIMS = 60,         /* n_dims > 4 */
    GS_E_NEGATIVE_DIM = 61,          /* a dimension >= 2^63 (negative as ggml's int64) */
    GS_E_SIZE_OVERFLOW = 62,         /* element count, byte size, stride or padded size wraps */
    GS_E_UNKNOWN_TENSOR_TYPE = 63,   /* type id negative or >= 43 (fork ids included) */
    GS_E_REMOVED_TENSOR_TYPE = 64,   /* type ids 4, 5, 31-33, 36-38 */
    GS_E_ROW_NOT_BLOCK_MULTIPLE = 65,/* ne[0] not a multiple of the type's block size */
    GS_E_TENSOR_NAME_TOO_LONG = 66,  /* strict: more than 63 bytes (ggml's limit) */
    GS_E_TENSOR_NAME_EMPTY = 67,
    GS_E_TENSOR_NAME_HAS_NUL = 68,
    GS_E_DUPLICATE_TENSOR_NAME = 69,

    /* 80-89: data layout. */
    GS_E_MISALIGNED_OFFSET = 80,     /* strict: offset not a multiple of the alignment */
    GS_E_OFFSET_NOT_PACKED = 81,     /* strict: offset is not the running padded sum */
    GS_E_TENSOR_OVERLAP = 82,        /* lenient: two tensors' data ranges overlap */
    GS_E_DATA_OUTSIDE_FILE = 83,     /* tensor data extends past the end of the file */

    /* 90-99: split sets. */
    GS_E_SPLIT_BAD_NAME = 90,        /* first part not named <prefix>-00001-of-NNNNN.gguf */
    GS_E_SPLIT_PART_MISSING = 91,    /* a part named by the set cannot be opened */
    GS_E_SPLIT_KEY_MISSING = 92,     /* split.no, split.count or split.tensors.count absent */
    GS_E_SPLIT_KEY_TYPE = 93,        /* a split key is not a non-negative integer */
    GS_E_SPLIT_NUMBER_MISMATCH = 94, /* split.no is not the part's position */
    GS_E_SPLIT_COUNT_MISMATCH = 95,  /* split.count differs between parts or from the names */
    GS_E_SPLIT_TENSOR_COUNT_MISMATCH = 96, /* parts' tensor counts do not sum to split.tensors.count */
    GS_E_SPLIT_DUPLICATE_TENSOR = 97, /* a tensor name appears in two parts */
    GS_E_SPLIT_SAME_FILE = 98        /* two parts are one file (device and inode): links */
} gs_status;

/* "GS_E_TRUNCATED" for GS_E_TRUNCATED; "GS_E_UNKNOWN_STATUS" for values outside the enum. */
GS_API const char *gs_status_name(gs_status status);
/* One sentence describing the status. */
GS_API const char *gs_status_message(gs_status status);

/* ------------------------------------------------------------------------------------------------
 * The type registry: ggml tensor type ids 0..42.
 * ---------------------------------------------------------------------------------------------- */
typedef enum gs_type {
    GS_TYPE_INVALID = -1, /* never a ggml type; also keeps the enum signed like ggml's int32 ids */
    GS_TYPE_F32 = 0, GS_TYPE_F16 = 1, GS_TYPE_Q4_0 = 2, GS_TYPE_Q4_1 = 3,
    GS_TYPE_Q5_0 = 6, GS_TYPE_Q5_1 = 7, GS_TYPE_Q8_0 = 8, GS_TYPE_Q8_1 = 9,
    GS_TYPE_Q2_K = 10, GS_TYPE_Q3_K = 11, GS_TYPE_Q4_K = 12, GS_TYPE_Q5_K = 13,
    GS_TYPE_Q6_K = 14, GS_TYPE_Q8_K = 15, GS_TYPE_IQ2_XXS = 16, GS_TYPE_IQ2_XS = 17,
    GS_TYPE_IQ3_XXS = 18, GS_TYPE_IQ1_S = 19, GS_TYPE_IQ4_NL = 20, GS_TYPE_IQ3_S = 21,
    GS_TYPE_IQ2_S = 22, GS_TYPE_IQ4_XS = 23, GS_TYPE_I8 = 24, GS_TYPE_I16 = 25,
    GS_TYPE_I32 = 26, GS_TYPE_I64 = 27, GS_TYPE_F64 = 28, GS_TYPE_IQ1_M = 29,
    GS_TYPE_BF16 = 30, GS_TYPE_TQ1_0 = 34, GS_TYPE_TQ2_0 = 35, GS_TYPE_MXFP4 = 39,
    GS_TYPE_NVFP4 = 40, GS_TYPE_Q1_0 = 41, GS_TYPE_Q2_0 = 42,
    GS_TYPE_COUNT = 43 /* first id that is not a ggml type */
} gs_type;

typedef enum gs_type_status {
    GS_TYPE_UNKNOWN = 0,    /* never assigned by ggml (negative, >= 43, or a fork's id) */
    GS_TYPE_LIVE = 1,       /* a current weight / plain type */
    GS_TYPE_ACTIVATION = 2, /* current, but meant for activations (q8_1, q8_K) */
    GS_TYPE_REMOVED = 3     /* once assigned, since removed (4, 5, 31-33, 36-38) */
} gs_type_status;

typedef struct gs_type_info {
    const char *name;      /* ggml's name ("q4_K"); for removed ids their historical name */
    uint32_t block_elems;  /* elements per block; 0 for removed and unknown ids */
    uint32_t block_bytes;  /* bytes per block; 0 for removed and unknown ids */
    gs_type_status status;
    bool decodable;        /* gs_dequantize can convert it to f32 */
    /* 0.1.0 ends here. */
    bool quantized;        /* a quantized block layout: not f32, f16, bf16, f64 or an integer
                              type; false for removed and unknown ids */
} gs_type_info;

/* Fills *out for any id (unknown ids get status GS_TYPE_UNKNOWN and name "unknown").
 * Returns GS_OK for live and activation types, GS_E_REMOVED_TENSOR_TYPE or
 * GS_E_UNKNOWN_TENSOR_TYPE otherwise. out_size is sizeof *out (GS_E_INVALID_ARGUMENT, nothing
 * written, when it is smaller than 0.1.0's gs_type_info or out is NULL). */
GS_API gs_status gs_type_get_info_sized(int32_t type, gs_type_info *out, size_t out_size);
/* 0.1.0's entry point (fills the 0.1.0 fields); the name is a macro for the sized one. */
GS_API gs_status gs_type_get_info(int32_t type, gs_type_info *out);
#define gs_type_get_info(type, out) gs_type_get_info_sized((type), (out), sizeof(gs_type_info))
/* ggml's name of the type, "unknown" for ids never assigned. Never NULL. */
GS_API const char *gs_type_name(int32_t type);

/* ------------------------------------------------------------------------------------------------
 * Caller-defined types (docs/new-quant-types.md): the geometry of a type the registry does not
 * know (a new quant format under development), and decoders for it from outside the library (a
 * plugin, ggufsafe_plugin.h, or a user's ggml build). A file opened with them sizes, lays out and
 * checks such tensors exactly as it does built-in ones, and decodes them through the decoder.
 * ---------------------------------------------------------------------------------------------- */
#define GS_TYPE_DEF_MAX 256u                 /* definitions (and decoders) per gs_options */
#define GS_TYPE_NAME_MAX 63u                 /* bytes of a defined type's name */
#define GS_TYPE_DEF_MAX_BLOCK_BYTES 4096u    /* bytes per block of a defined type, at most (ggml's
                                                largest block is 292 bytes) */
#define GS_TYPE_DEF_MAX_BLOCK_ELEMS 4096u    /* elements per block of a defined type, at most */

typedef struct gs_type_def {
    int32_t id;            /* the id tensors carry in the file: 0 .. INT32_MAX */
    const char *name;      /* 1..GS_TYPE_NAME_MAX bytes of [A-Za-z0-9_.-]; copied at open */
    uint32_t block_elems;  /* elements per block: 1..GS_TYPE_DEF_MAX_BLOCK_ELEMS */
    uint32_t block_bytes;  /* bytes per block: 1..GS_TYPE_DEF_MAX_BLOCK_BYTES */
    bool override_builtin; /* the id may be one the registry knows (its geometry and decoder
                              are replaced for this open); false: such an id is refused */
} gs_type_def;

/* A decoder of whole blocks: n_blocks blocks of the type's geometry at src (src_bytes =
 * n_blocks * block_bytes, any alignment) into dst (n_elems = n_blocks * block_elems floats).
 * GS_OK, or a status saying why not (GS_E_DECODER_FAILED for a decoder that crashed, hung, or
 * reported a failure; GS_E_NO_MEMORY; GS_E_IO). Called from any thread: it must be thread-safe
 * for one ctx. The library calls it with at most GS_DECODE_CHUNK_BYTES of src and
 * GS_DECODE_CHUNK_ELEMS of dst (or a single block, when one is larger) at a time. */
#define GS_DECODE_CHUNK_BYTES (32u * 1024u)
#define GS_DECODE_CHUNK_ELEMS (256u * 1024u) /* output elements per call, or one block if more */
typedef gs_status (*gs_decode_fn)(void *ctx, int32_t type, const void *src, size_t src_bytes,
                                  float *dst, size_t n_elems);

/* One entry of a decoder table: the type it decodes (which it also defines, as a gs_type_def
 * does: no separate definition is needed) and the function. ctx must outlive every file opened
 * with the table. */
typedef struct gs_decoder {
    gs_type_def type;
    gs_decode_fn decode;
    void *ctx;
    const char *source; /* who provides it, for messages ("plugin libq.so"); may be NULL */
} gs_decoder;

/* ------------------------------------------------------------------------------------------------
 * Options: profile, limits, allocator.
 * ---------------------------------------------------------------------------------------------- */
typedef enum gs_profile {
    GS_PROFILE_STRICT = 0,  /* GGUF spec wire rules and llama.cpp's reader requirements */
    GS_PROFILE_LENIENT = 1  /* only what memory-safe addressing needs */
} gs_profile;

typedef struct gs_allocator {
    void *(*malloc_fn)(void *opaque, size_t size);
    void *(*realloc_fn)(void *opaque, void *ptr, size_t size);
    void (*free_fn)(void *opaque, void *ptr);
    void *opaque;
} gs_allocator;

typedef struct gs_limits {
    uint64_t max_kv_count;        /* default 1,048,576; at most 2^31 is honoured */
    uint64_t max_tensor_count;    /* default 1,048,576; at most 2^31 is honoured */
    uint64_t max_string_length;   /* bytes, default 64 MiB */
    uint64_t max_array_length;    /* elements, default 2^26 */
    uint32_t max_alignment;       /* bytes, default 1 MiB */
    uint64_t max_metadata_memory; /* heap bytes for the parsed tables, default 1 GiB */
} gs_limits;

/* New options are appended at the end of gs_options, never inside gs_limits or gs_allocator
 * (embedded here, they cannot grow). struct_size tells the library how much of the struct the
 * caller has: sizeof(gs_options) of any released version (0.1.0: every field up to
 * copy_metadata); options past the caller's struct_size take their defaults. Any other size is
 * GS_E_INVALID_ARGUMENT. */
typedef struct gs_options {
    size_t struct_size;     /* sizeof(gs_options); set by gs_options_init */
    gs_profile profile;
    gs_limits limits;
    gs_allocator allocator; /* all three functions set, or all three NULL for libc */
    /* Diagnostic mode (for certification): violations of the data layout (tensor data outside
     * the file, missing padding before the data section, misaligned, unpacked or overlapping
     * offsets) are recorded as findings (gs_file_finding) instead of failing the open; tensors
     * whose data lies outside the file stay listed but cannot be decoded. Violations in the
     * header, key-values and tensor infos still fail the open. Default false. */
    bool diagnostic;
    /* gs_open_file reads the metadata (everything before the data section) with pread into the
     * heap instead of parsing it through the mapping: nothing the parse or any getter reads can
     * then fault if the file is truncated underneath, and a file that shrinks while it is opened
     * gives an error. Costs a heap copy of the metadata. Tensor data pointers still point into
     * the mapping; decoding and gs_file_read use pread either way. Default false. */
    bool copy_metadata;
    /* 0.1.0 ends here. */
    /* gs_open_file reads the metadata with pread as copy_metadata does, maps nothing, and closes
     * the file before it returns: an open gs_file holds no descriptor and no mapping, so a
     * split set of any number of parts stays within the descriptor limit. It records the
     * file's device, inode, size and modification time (gs_file_identity); gs_file_read and the
     * gs_tensor_dequantize* calls reopen the path for each call and fail with
     * GS_E_FILE_CHANGED, reading nothing, when what is there now differs (the file was
     * replaced, removed, resized or modified). gs_tensor_info.data is NULL for such files: read
     * tensor bytes with gs_file_read. The path is kept as given: a relative path is resolved
     * against the working directory of each call. Default false. */
    bool reopen_for_data;
    /* gs_open_split: heap bytes for the metadata of all parts together (each part keeps its
     * own limits.max_metadata_memory too), checked as parts are opened: GS_E_LIMIT_MEMORY.
     * 0 (the default) means limits.max_metadata_memory: a set may use what one file may. */
    uint64_t max_split_metadata_memory;
    /* Metadata-only mode: tensor data need not be in the file (a file of tensor infos without
     * data, as ggml's gguf_write_to_file(..., only_meta = true) writes it; the first megabytes
     * of a large file; a download cut inside its data). Tensors whose data is not wholly in the
     * file stay listed with their offsets and data_in_file false, and are neither a failure nor
     * a finding; the padding before the data section may be missing too. Everything else is
     * checked as usual, the data that is in the file included (placement, overlap, packing).
     * gs_layout's tensors_outside counts them. Default false. */
    bool metadata_only;
    /* Caller-defined types (gs_type_def above; checked by gs_type_defs_check together with the
     * decoders' types, failing the open with GS_E_INVALID_ARGUMENT): tensors of these ids are
     * sized and laid out with this geometry. Without a definition, a tensor of an id the
     * registry does not know fails the open (GS_E_UNKNOWN_TENSOR_TYPE), except in diagnostic
     * mode, where it is a finding and the tensor stays listed with size 0 and no data. Copied at
     * open. Default none. */
    const gs_type_def *type_defs;
    size_t n_type_defs;
    /* Decoders for caller-defined types (or, with override_builtin, instead of a built-in
     * one): gs_tensor_dequantize* of a tensor of that id calls decode. The table is copied at
     * open; each ctx must outlive the file. Default none. */
    const gs_decoder *decoders;
    size_t n_decoders;
} gs_options;

/* Defaults: strict profile, the limits above, libc allocation; struct_size = size. size is
 * sizeof *opts (GS_E_INVALID_ARGUMENT, nothing written, for a size gs_options never had or a
 * NULL opts). */
GS_API gs_status gs_options_init_sized(gs_options *opts, size_t size);
/* 0.1.0's entry point (a no-op for NULL); the name is a macro for the sized one. */
GS_API void gs_options_init(gs_options *opts);
#define gs_options_init(opts) gs_options_init_sized((opts), sizeof(gs_options))

/* ------------------------------------------------------------------------------------------------
 * Errors.
 * ---------------------------------------------------------------------------------------------- */
typedef enum gs_context_kind {
    GS_CONTEXT_NONE = 0,
    GS_CONTEXT_HEADER = 1,
    GS_CONTEXT_KEY = 2,     /* context holds the key */
    GS_CONTEXT_TENSOR = 3,  /* context holds the tensor name */
    GS_CONTEXT_PART = 4     /* context holds a split part's file name */
} gs_context_kind;

#define GS_ERROR_TEXT_MAX 128

typedef struct gs_error {
    gs_status status;
    uint64_t offset;        /* first byte of the field that failed, from the start of the GGUF */
    gs_context_kind context_kind;
    /* The key, tensor name or part name, NUL-terminated and escaped by the rule of the command's
     * text output (docs/cli.md, "Escaping": control bytes, DEL and invalid UTF-8 as \xHH, C1,
     * bidi and invisible format characters as \u{XXXX}, a backslash as \\), truncated with
     * "..." when longer than the buffer. */
    char context[GS_ERROR_TEXT_MAX];
    char detail[GS_ERROR_TEXT_MAX]; /* specifics: limits, expected and found values */
} gs_error;

/* ------------------------------------------------------------------------------------------------
 * Opening a file.
 * ---------------------------------------------------------------------------------------------- */
typedef struct gs_file gs_file;

/* Maps PATH read-only and parses the metadata; tensor data is addressed, never read.
 * opts may be NULL (defaults); err may be NULL. On failure *out is NULL.
 * The path is opened without blocking (a FIFO without a writer cannot hang the open) and must
 * name a regular file: GS_E_NOT_REGULAR_FILE for a directory, FIFO, socket or device,
 * GS_E_NO_SUCH_FILE when nothing is there, GS_E_IO for every other failure of the environment
 * (permissions, EMFILE and ENFILE when descriptors run out, ENOMEM, mmap), with the system's
 * reason in err->detail. None of these is a verdict on the file's contents. */
GS_API gs_status gs_open_file(const char *path, const gs_options *opts, gs_file **out,
                              gs_error *err);
/* Parses a GGUF held in memory; the buffer must outlive the gs_file. */
GS_API gs_status gs_open_memory(const void *data, size_t size, const gs_options *opts,
                                gs_file **out, gs_error *err);
/* Releases everything; NULL is a no-op. */
GS_API void gs_close(gs_file *file);

/* A view into the file's bytes: not NUL-terminated, valid while the gs_file is open. */
typedef struct gs_str {
    const char *ptr;
    size_t len;
} gs_str;

/* Header and layout. */
GS_API uint32_t gs_file_version(const gs_file *file);
GS_API gs_profile gs_file_profile(const gs_file *file);
GS_API size_t gs_kv_count(const gs_file *file);
GS_API size_t gs_tensor_count(const gs_file *file);

typedef struct gs_layout {
    uint64_t file_size;          /* bytes of the GGUF (file or buffer) */
    uint64_t kv_end;             /* end of the key-value section */
    uint64_t tensor_info_end;    /* end of the tensor-info section */
    uint32_t alignment;          /* general.alignment or the default 32 */
    uint64_t data_offset;        /* start of the data section: tensor_info_end padded */
    uint64_t data_end;           /* end of the last byte of tensor data (data_offset if none) */
    uint64_t predicted_size;     /* data_offset + padded tensor sizes: what ggml's writer emits */
    uint64_t trailing_bytes;     /* bytes past predicted_size */
    uint64_t missing_tail_padding; /* bytes of the last padding missing before EOF */
    uint64_t header_padding_nonzero; /* non-zero bytes between tensor_info_end and data_offset */
    uint64_t first_nonzero_padding;  /* offset of the first of them (0 if none) */
    uint64_t findings_dropped;   /* diagnostic mode: findings beyond GS_MAX_FINDINGS, not kept */
    /* 0.1.0 ends here. */
    uint64_t tensors_outside;    /* tensors whose data is not wholly in the file (diagnostic and
                                    metadata-only modes; always 0 otherwise) */
    uint64_t described_size;     /* data_offset + the padded end of the furthest tensor, those
                                    outside the file included: the size the complete file has;
                                    UINT64_MAX when an offset makes it overflow */
} gs_layout;

/* out_size is sizeof *out. GS_E_INVALID_ARGUMENT, nothing written, for a NULL out or an
 * out_size below 0.1.0's gs_layout; for a NULL file, *out is zeroed and the result is
 * GS_E_INVALID_ARGUMENT. */
GS_API gs_status gs_file_layout_sized(const gs_file *file, gs_layout *out, size_t out_size);
/* 0.1.0's entry point; the name is a macro for the sized one. */
GS_API void gs_file_layout(const gs_file *file, gs_layout *out);
#define gs_file_layout(file, out) gs_file_layout_sized((file), (out), sizeof(gs_layout))

/* Diagnostic mode: the layout violations found at open, in the order found (each as the gs_error
 * the open would have failed with). At most GS_MAX_FINDINGS are kept. */
#define GS_MAX_FINDINGS 65536
GS_API size_t gs_file_finding_count(const gs_file *file);
GS_API gs_status gs_file_finding(const gs_file *file, size_t i, gs_error *out);

/* What the file system said about the file when gs_open_file opened it. Two gs_files with the
 * same device and inode are one file, whatever the paths (symlinks, hard links). */
typedef struct gs_identity {
    uint64_t device;
    uint64_t inode;
    uint64_t size;        /* bytes, as fstat reported them */
    int64_t mtime_sec;    /* last modification */
    int64_t mtime_nsec;
} gs_identity;

/* out_size is sizeof *out. GS_E_INVALID_ARGUMENT, nothing written, for a NULL file or out or an
 * out_size below this first gs_identity; GS_E_NOT_FOUND, *out zeroed, for a file opened from
 * memory. */
GS_API gs_status gs_file_identity_sized(const gs_file *file, gs_identity *out, size_t out_size);
#define gs_file_identity(file, out) gs_file_identity_sized((file), (out), sizeof(gs_identity))

/* Copies n bytes at offset (from the start of the GGUF) into dst through the bounded reader:
 * pread for files (so a file that shrank gives GS_E_TRUNCATED, never a SIGBUS), memcpy for
 * buffers. GS_E_OUT_OF_RANGE when [offset, offset + n) is not inside the file as opened. */
GS_API gs_status gs_file_read(const gs_file *file, uint64_t offset, void *dst, size_t n);

/* ------------------------------------------------------------------------------------------------
 * Key-value metadata, in file order (index 0..gs_kv_count-1) and by exact key in O(1).
 * ---------------------------------------------------------------------------------------------- */
typedef enum gs_value_type {
    GS_VALUE_U8 = 0, GS_VALUE_I8 = 1, GS_VALUE_U16 = 2, GS_VALUE_I16 = 3,
    GS_VALUE_U32 = 4, GS_VALUE_I32 = 5, GS_VALUE_F32 = 6, GS_VALUE_BOOL = 7,
    GS_VALUE_STRING = 8, GS_VALUE_ARRAY = 9, GS_VALUE_U64 = 10, GS_VALUE_I64 = 11,
    GS_VALUE_F64 = 12
} gs_value_type;

/* "u8", "i8", ..., "string", "array", "f64"; "unknown" outside the enum. */
GS_API const char *gs_value_type_name(gs_value_type type);

typedef struct gs_kv_info {
    gs_str key;
    gs_value_type type;       /* GS_VALUE_ARRAY for arrays */
    gs_value_type elem_type;  /* arrays: the element type; scalars: same as type */
    uint64_t count;           /* arrays: element count; scalars: 1 */
    uint64_t offset;          /* offset of the record (its key length field) */
    uint64_t value_offset;    /* offset of the value (after the type id, or the array header) */
    uint64_t size;            /* wire bytes of the whole record */
} gs_kv_info;

/* out_size is sizeof *out (GS_E_INVALID_ARGUMENT below 0.1.0's gs_kv_info). */
GS_API gs_status gs_kv_info_at_sized(const gs_file *file, size_t index, gs_kv_info *out,
                                     size_t out_size);
/* 0.1.0's entry point; the name is a macro for the sized one. */
GS_API gs_status gs_kv_info_at(const gs_file *file, size_t index, gs_kv_info *out);
#define gs_kv_info_at(file, index, out) \
    gs_kv_info_at_sized((file), (index), (out), sizeof(gs_kv_info))
/* Exact (length and bytes) lookup. *index is set on GS_OK; GS_E_NOT_FOUND otherwise. */
GS_API gs_status gs_kv_find(const gs_file *file, const char *key, size_t *index);
GS_API gs_status gs_kv_find_n(const gs_file *file, const char *key, size_t key_len, size_t *index);

/* Scalar getters: GS_E_WRONG_TYPE unless the KV is a scalar of exactly that type. */
GS_API gs_status gs_kv_get_u8(const gs_file *file, size_t index, uint8_t *out);
GS_API gs_status gs_kv_get_i8(const gs_file *file, size_t index, int8_t *out);
GS_API gs_status gs_kv_get_u16(const gs_file *file, size_t index, uint16_t *out);
GS_API gs_status gs_kv_get_i16(const gs_file *file, size_t index, int16_t *out);
GS_API gs_status gs_kv_get_u32(const gs_file *file, size_t index, uint32_t *out);
GS_API gs_status gs_kv_get_i32(const gs_file *file, size_t index, int32_t *out);
GS_API gs_status gs_kv_get_u64(const gs_file *file, size_t index, uint64_t *out);
GS_API gs_status gs_kv_get_i64(const gs_file *file, size_t index, int64_t *out);
GS_API gs_status gs_kv_get_f32(const gs_file *file, size_t index, float *out);
GS_API gs_status gs_kv_get_f64(const gs_file *file, size_t index, double *out);
/* Lenient files may hold bool bytes other than 0/1: they read as true. */
GS_API gs_status gs_kv_get_bool(const gs_file *file, size_t index, bool *out);
GS_API gs_status gs_kv_get_string(const gs_file *file, size_t index, gs_str *out);
/* Any integer scalar type holding a non-negative value (GS_E_OUT_OF_RANGE if negative). */
GS_API gs_status gs_kv_get_unsigned(const gs_file *file, size_t index, uint64_t *out);

/* Array element getters: GS_E_WRONG_TYPE unless the KV is an array of exactly that element
 * type; GS_E_OUT_OF_RANGE when i >= count. O(1) for every element type, strings included. */
GS_API gs_status gs_kv_get_array_u8(const gs_file *file, size_t index, uint64_t i, uint8_t *out);
GS_API gs_status gs_kv_get_array_i8(const gs_file *file, size_t index, uint64_t i, int8_t *out);
GS_API gs_status gs_kv_get_array_u16(const gs_file *file, size_t index, uint64_t i, uint16_t *out);
GS_API gs_status gs_kv_get_array_i16(const gs_file *file, size_t index, uint64_t i, int16_t *out);
GS_API gs_status gs_kv_get_array_u32(const gs_file *file, size_t index, uint64_t i, uint32_t *out);
GS_API gs_status gs_kv_get_array_i32(const gs_file *file, size_t index, uint64_t i, int32_t *out);
GS_API gs_status gs_kv_get_array_u64(const gs_file *file, size_t index, uint64_t i, uint64_t *out);
GS_API gs_status gs_kv_get_array_i64(const gs_file *file, size_t index, uint64_t i, int64_t *out);
GS_API gs_status gs_kv_get_array_f32(const gs_file *file, size_t index, uint64_t i, float *out);
GS_API gs_status gs_kv_get_array_f64(const gs_file *file, size_t index, uint64_t i, double *out);
GS_API gs_status gs_kv_get_array_bool(const gs_file *file, size_t index, uint64_t i, bool *out);
GS_API gs_status gs_kv_get_array_string(const gs_file *file, size_t index, uint64_t i,
                                        gs_str *out);
/* Raw little-endian element bytes of a numeric or bool array (no alignment guaranteed);
 * GS_E_WRONG_TYPE for scalars and string arrays. */
GS_API gs_status gs_kv_get_array_data(const gs_file *file, size_t index, const void **data,
                                      uint64_t *count);

/* ------------------------------------------------------------------------------------------------
 * Tensors, in file order and by exact name in O(1).
 * ---------------------------------------------------------------------------------------------- */
#define GS_MAX_DIMS 4

typedef struct gs_tensor_info {
    gs_str name;
    uint32_t n_dims;              /* as stored; unused ne[] entries are 1 */
    uint64_t ne[GS_MAX_DIMS];     /* elements per dimension, ne[0] innermost */
    uint64_t nb[GS_MAX_DIMS];     /* strides in bytes, as ggml computes them */
    gs_type type;
    uint64_t n_elements;
    uint64_t offset;              /* relative to the data section, as stored */
    uint64_t data_offset;         /* absolute: from the start of the GGUF */
    uint64_t size;                /* bytes of data */
    uint64_t info_offset;         /* where the tensor-info record starts */
    bool data_in_file;            /* false only in diagnostic mode, for data beyond the file */
    const void *data;             /* into the mapping or buffer; NULL if size is 0, if the data
                                     is not in the file, or for a file opened with
                                     reopen_for_data (nothing is mapped: use gs_file_read) */
} gs_tensor_info;

/* out_size is sizeof *out (GS_E_INVALID_ARGUMENT below 0.1.0's gs_tensor_info). */
GS_API gs_status gs_tensor_info_at_sized(const gs_file *file, size_t index, gs_tensor_info *out,
                                         size_t out_size);
/* 0.1.0's entry point; the name is a macro for the sized one. */
GS_API gs_status gs_tensor_info_at(const gs_file *file, size_t index, gs_tensor_info *out);
#define gs_tensor_info_at(file, index, out) \
    gs_tensor_info_at_sized((file), (index), (out), sizeof(gs_tensor_info))
/* Checks a set of definitions as gs_open_* does: every id non-negative, every geometry
 * nonzero and within the bounds above, every name well formed, no id twice, and no id the
 * registry knows unless override_builtin (gs_type_def). GS_OK, or GS_E_INVALID_ARGUMENT with err (may be NULL)
 * naming the definition (context: its name) and the reason (detail); err->offset is its index. */
GS_API gs_status gs_type_defs_check(const gs_type_def *defs, size_t n_defs, gs_error *err);

/* The type id as this file knows it: its caller-defined types (gs_options.type_defs and
 * decoders) first, then the registry. As gs_type_get_info_sized otherwise; a defined type is
 * GS_TYPE_LIVE, quantized, and decodable when a decoder serves it. file may be NULL (the
 * registry alone). */
GS_API gs_status gs_file_type_info_sized(const gs_file *file, int32_t type, gs_type_info *out,
                                         size_t out_size);
#define gs_file_type_info(file, type, out) \
    gs_file_type_info_sized((file), (type), (out), sizeof(gs_type_info))
/* The name of the type as this file knows it ("unknown" for neither defined nor built in). */
GS_API const char *gs_file_type_name(const gs_file *file, int32_t type);

GS_API gs_status gs_tensor_find(const gs_file *file, const char *name, size_t *index);
GS_API gs_status gs_tensor_find_n(const gs_file *file, const char *name, size_t name_len,
                                  size_t *index);

/* ------------------------------------------------------------------------------------------------
 * Decoding to f32, bit-exact with ggml's reference dequantizers (NaN payloads aside: see
 * docs/decoders.md, "The NaN rule").
 * ---------------------------------------------------------------------------------------------- */

/* Decodes n_elems elements of `type` from src into dst. n_elems must be a whole number of blocks
 * and src_bytes exactly their encoded size (GS_E_SIZE_MISMATCH otherwise). src may be unaligned.
 * GS_E_NOT_DECODABLE for integer and f64 types; GS_E_UNKNOWN_TENSOR_TYPE /
 * GS_E_REMOVED_TENSOR_TYPE for ids without a layout. */
GS_API gs_status gs_dequantize(gs_type type, const void *src, size_t src_bytes, float *dst,
                               size_t n_elems);
/* gs_dequantize with the types `file` knows (its caller-defined types and decoders first, then
 * the registry): for raw blocks read from the file (gs_file_read). file may be NULL. */
GS_API gs_status gs_file_dequantize(const gs_file *file, int32_t type, const void *src,
                                    size_t src_bytes, float *dst, size_t n_elems);
/* The whole tensor: n_elems must equal its element count. */
GS_API gs_status gs_tensor_dequantize(const gs_file *file, size_t index, float *dst,
                                      size_t n_elems);
/* Rows [first_row, first_row + n_rows) of the tensor viewed as a matrix of ne[0]-element rows
 * (n_elems must equal n_rows * ne[0]): for chunked decoding with bounded memory. */
GS_API gs_status gs_tensor_dequantize_rows(const gs_file *file, size_t index, uint64_t first_row,
                                           uint64_t n_rows, float *dst, size_t n_elems);
/* Elements [first_elem, first_elem + n_elems) in storage order; both must be multiples of the
 * type's block size (GS_E_SIZE_MISMATCH otherwise; GS_E_OUT_OF_RANGE past the end). For bounded
 * chunks even when a single row is huge. */
GS_API gs_status gs_tensor_dequantize_range(const gs_file *file, size_t index,
                                            uint64_t first_elem, float *dst, size_t n_elems);

/* Decoder paths. AUTO picks the best path this CPU supports (checked once: CPUID and XGETBV on
 * x86-64, getauxval(AT_HWCAP) on AArch64). Every path gives the same bits (NaN payloads aside).
 * The environment variable GGUFSAFE_KERNEL=scalar|avx2|neon|ggml sets the initial choice; while
 * it names a path this CPU lacks (or an unknown name), every decode returns
 * GS_E_KERNEL_UNAVAILABLE rather than falling back silently.
 *
 * GGML decodes every type with the to_float of a user's libggml-base (docs/decoders.md, "ggml
 * as a decoder"): the library gs_set_ggml_library loaded, else the one the environment variable
 * GGUFSAFE_GGML=PATH names, loaded at the first use of the path. It is never chosen by AUTO.
 * F32 is copied as on every path; a type that ggml cannot convert (Q8_1) returns
 * GS_E_KERNEL_UNAVAILABLE for that tensor, never our own decoder's output. */
typedef enum gs_kernel {
    GS_KERNEL_AUTO = 0,
    GS_KERNEL_SCALAR = 1,
    GS_KERNEL_AVX2 = 2, /* AVX2 + FMA + F16C, with OS support for YMM state */
    GS_KERNEL_NEON = 3, /* AArch64 Advanced SIMD */
    GS_KERNEL_GGML = 4  /* a loaded libggml-base's decoders */
} gs_kernel;

/* Selects the path for the whole process, overriding GGUFSAFE_KERNEL. GS_E_KERNEL_UNAVAILABLE
 * (selection unchanged) when this CPU or build cannot run it (GGML: when no ggml library is
 * loaded and GGUFSAFE_GGML names none that loads; gs_ggml_describe says why);
 * GS_E_INVALID_ARGUMENT for values outside the enum. */
GS_API gs_status gs_set_kernel(gs_kernel kernel);
/* The path decodes use now. When GGUFSAFE_KERNEL asks for a path this CPU lacks, returns that
 * path with *usable (if not NULL) false; when it names no path at all, GS_KERNEL_AUTO with
 * *usable false. Otherwise *usable is true and the result is never GS_KERNEL_AUTO. */
GS_API gs_kernel gs_active_kernel(bool *usable);
/* "auto", "scalar", "avx2", "neon", "ggml"; "unknown" otherwise. */
GS_API const char *gs_kernel_name(gs_kernel kernel);

/* Loads the libggml-base at path for the process (dlopen; its code then runs in this process:
 * a caller that does not trust it runs it in a child, as the command does) and checks it:
 * every symbol the loader needs exported, ggml_version() a release whose ggml_type_traits
 * layout we know (0.9 and later 0.x) and every type of our registry with its name and geometry
 * in ggml's traits. GS_OK; GS_E_NO_SUCH_FILE when nothing readable is at path; GS_E_IO when
 * dlopen refuses it; GS_E_KERNEL_UNAVAILABLE for a missing symbol or a layout we cannot vouch
 * for (err->detail names the symbol, version or type); GS_E_INVALID_ARGUMENT for a NULL path
 * or when another library is loaded already (one per process; the same path again is GS_OK).
 * It does not select the path: gs_set_kernel(GS_KERNEL_GGML) or GGUFSAFE_KERNEL=ggml does. */
GS_API gs_status gs_set_ggml_library(const char *path, gs_error *err);
/* What the ggml path stands on, as one line into out (cap bytes, truncated, NUL-terminated):
 * "ggml VERSION (commit C) from PATH" and true when a library is loaded; otherwise the reason
 * the last load failed, or that none was asked for, and false. */
GS_API bool gs_ggml_describe(char *out, size_t cap);
/* The types of the loaded ggml that our registry does not know (ids from GS_TYPE_COUNT up, while
 * ggml has one: a new type of the user's branch), each with ggml's name and geometry
 * (ggml_type_traits: type_size, blck_size, type_name) and its to_float as the decoder: for
 * gs_options.decoders. *n_out is their number (0 without a library, or when ggml has none);
 * the table lives as long as the process. Types without a to_float are not listed. */
GS_API const gs_decoder *gs_ggml_decoders(size_t *n_out);

/* ------------------------------------------------------------------------------------------------
 * Decoder plugins (include/ggufsafe_plugin.h is their ABI; docs/new-quant-types.md). A loaded
 * plugin is a decoder table (gs_decoder) for gs_options.decoders. In-process by default; with a
 * host program, in a child process that program runs (`PROGRAM __plugin-host PLUGIN`, which
 * gs_plugin_host_main implements): a crash, hang, out-of-bounds write or failure of the plugin
 * is then GS_E_DECODER_FAILED, described by gs_plugin_failure, and never takes the caller down.
 * ---------------------------------------------------------------------------------------------- */
typedef struct gs_plugin gs_plugin;

#define GS_PLUGIN_DEFAULT_TIMEOUT_MS 30000u /* a child's answer to one call */
#define GS_PLUGIN_HOST_COMMAND "__plugin-host"
/* `host_program __plugin-host --ggml LIBGGML_PATH`: the host serves ggml's decoders instead. */
#define GS_PLUGIN_HOST_GGML "--ggml"
/* `host_program __plugin-host --ggml-kernel LIBGGML_PATH`: ggml's decoders for every type
 * (gs_plugin_open_ggml_kernel). */
#define GS_PLUGIN_HOST_GGML_KERNEL "--ggml-kernel"

typedef struct gs_plugin_options {
    size_t struct_size;       /* set by gs_plugin_options_init */
    /* NULL: the plugin is loaded into this process (dlopen) and trusted. Otherwise the path of
     * a program run as `host_program __plugin-host PLUGIN_PATH` (posix_spawn; the ggufsafe
     * command is one: it re-executes itself) that speaks gs_plugin_host_main's protocol. */
    const char *host_program;
    unsigned timeout_ms;      /* child: the most one answer may take (load or one decode call)
                                 before the child is killed as hung; 0: the default above */
} gs_plugin_options;

GS_API void gs_plugin_options_init(gs_plugin_options *opts);
/* Loads the plugin at path and checks its table (ABI version, sizes, every type as
 * gs_type_defs_check does; an id the registry knows is refused). GS_OK with *out, or
 * GS_E_IO (cannot be loaded, no entry point: dlerror's reason), GS_E_INVALID_ARGUMENT (a table
 * this library cannot use), GS_E_DECODER_FAILED (the child crashed or hung while loading it),
 * GS_E_NO_MEMORY, with err. */
GS_API gs_status gs_plugin_open(const char *path, const gs_plugin_options *opts, gs_plugin **out,
                                gs_error *err);
/* ggml's decoders (gs_ggml_decoders) run in a child, as a plugin's: opts->host_program (required)
 * is run as `host_program __plugin-host --ggml GGML_PATH`; the child loads the library with
 * gs_set_ggml_library and serves each type gs_ggml_decoders lists there (its to_float) over the
 * plugin protocol. The statuses of gs_plugin_open; GS_E_INVALID_ARGUMENT as well without a host
 * program, GS_E_IO when the library does not load there or has no type beyond our registry. A
 * crash, hang or out-of-bounds write is reported by gs_plugin_failure as "ggml library PATH ...". */
GS_API gs_status gs_plugin_open_ggml(const char *ggml_path, const gs_plugin_options *opts,
                                     gs_plugin **out, gs_error *err);
/* The ggml decoder path (GS_KERNEL_GGML) in a child: gs_plugin_open_ggml, but the child
 * (`host_program __plugin-host --ggml-kernel GGML_PATH`) also selects GS_KERNEL_GGML there and
 * serves every type of our registry that the loaded ggml converts (not F32, a copy on every
 * path; not Q8_1, which ggml cannot convert; Q8_K through dequantize_row_q8_K), under the
 * registry's names and geometry, with override_builtin set, beside the types the registry
 * lacks. Given to gs_options.decoders, with gs_set_kernel(GS_KERNEL_GGML) in this process too,
 * a file then decodes as on the in-process ggml path, bit for bit, but no ggml decoder runs in
 * this process: F32 is copied here and Q8_1 returns GS_E_KERNEL_UNAVAILABLE here, as in-process.
 * Without a host program the ggml path stays in-process (gs_set_kernel alone). The statuses of
 * gs_plugin_open_ggml. */
GS_API gs_status gs_plugin_open_ggml_kernel(const char *ggml_path, const gs_plugin_options *opts,
                                            gs_plugin **out, gs_error *err);
/* Stops the child (if any) and unloads the plugin: files opened with its decoders must be closed
 * first. NULL is a no-op. */
GS_API void gs_plugin_close(gs_plugin *plugin);
/* Its decoders, for gs_options.decoders (valid while the plugin is open); *n their count. */
GS_API const gs_decoder *gs_plugin_decoders(const gs_plugin *plugin, size_t *n);
/* The name its table gives ("" for NULL). */
GS_API const char *gs_plugin_name(const gs_plugin *plugin);
/* After a decode returned GS_E_DECODER_FAILED: what happened, one line, escaped (the plugin's
 * path and name, the type, "crashed with signal SIGSEGV", "did not answer within 30000 ms",
 * "wrote past the end of its output", "returned 3", and what the child wrote to stderr, cut).
 * Returns true, with buf filled (NUL-terminated, cut to cap), when this plugin has failed. */
GS_API bool gs_plugin_failure(const gs_plugin *plugin, char *buf, size_t cap);
/* The child's side: `PROGRAM __plugin-host PLUGIN_PATH` with the protocol on standard input and
 * output. A program that hosts plugins calls it from main for that subcommand and exits with
 * its result. */
GS_API int gs_plugin_host_main(int argc, char **argv);

/* ------------------------------------------------------------------------------------------------
 * Split sets (llama.cpp gguf-split: <prefix>-00001-of-00003.gguf, ...).
 * ---------------------------------------------------------------------------------------------- */
typedef struct gs_split gs_split;

/* Opens every part of the set named by its first part and cross-checks split.no, split.count,
 * split.tensors.count, the file names and tensor-name uniqueness across parts. Each part's split
 * keys are checked as soon as it is parsed (a first part without them fails before another
 * part is opened), and each part is checked, before it is parsed, not to be a part already
 * opened (GS_E_SPLIT_SAME_FILE: links to one file). GS_E_SPLIT_PART_MISSING when a part does
 * not exist; every other failure to open one (EMFILE, permissions, a FIFO or device: see
 * gs_open_file) keeps its environment status. The parts' metadata together stays within
 * max_split_metadata_memory. With reopen_for_data no part holds a descriptor: sets of up to
 * GS_SPLIT_MAX_PARTS parts open under any descriptor limit; otherwise every part holds one. */
GS_API gs_status gs_open_split(const char *first_part_path, const gs_options *opts,
                               gs_split **out, gs_error *err);
/* The same from n_parts buffers, in part order (file names are not checked). */
GS_API gs_status gs_open_split_memory(const void *const *data, const size_t *sizes,
                                      size_t n_parts, const gs_options *opts, gs_split **out,
                                      gs_error *err);
GS_API void gs_split_close(gs_split *split);
GS_API size_t gs_split_part_count(const gs_split *split);
/* NULL when i is out of range. The part stays owned by the set. */
GS_API const gs_file *gs_split_part(const gs_split *split, size_t i);
GS_API uint64_t gs_split_tensor_count(const gs_split *split);
/* The part and index of the tensor named name (NUL-terminated), in O(1) through the set-wide
 * index: GS_OK, GS_E_NOT_FOUND, or GS_E_INVALID_ARGUMENT for a NULL pointer. */
GS_API gs_status gs_split_find_tensor(const gs_split *split, const char *name, size_t *part,
                                      size_t *index);
/* The same for name[0..name_len), which need not be NUL-terminated (a gs_str from another
 * file); name may be NULL when name_len is 0. */
GS_API gs_status gs_split_find_tensor_n(const gs_split *split, const char *name, size_t name_len,
                                        size_t *part, size_t *index);

/* Part names: <prefix>-NNNNN-of-MMMMM.gguf, NNNNN the part's number from 1 and MMMMM the number
 * of parts, both exactly five decimal digits. The one parser of these names: gs_open_split, the
 * certification and manifest libraries and the ggufsafe command all use it. No I/O is done and
 * nothing before the suffix is looked at, so a directory part of the path is simply prefix. */
#define GS_SPLIT_NAME_SUFFIX_LEN 20 /* strlen("-NNNNN-of-MMMMM.gguf") */
#define GS_SPLIT_MAX_PARTS 99999u

typedef struct gs_split_name {
    size_t prefix_len; /* bytes of the path before the suffix */
    uint32_t part;     /* NNNNN, 1..GS_SPLIT_MAX_PARTS, as written: a wrong name can make it
                          exceed count, which callers may want to report */
    uint32_t count;    /* MMMMM, 1..GS_SPLIT_MAX_PARTS */
} gs_split_name;

/* True, with *out filled, when path[0..len) ends in a part suffix whose numbers are both at least
 * 1; false (and *out untouched) otherwise, or when path or out is NULL. A set is opened from the
 * path of its part 1: out->part == 1. Thread-safe. */
GS_API bool gs_split_name_parse(const char *path, size_t len, gs_split_name *out);

/* The path of part `part` of the set that `path` belongs to (name: gs_split_name_parse's result
 * for path): the first name->prefix_len bytes of path, then "-%05u-of-%05u.gguf" with part and
 * name->count, NUL-terminated, in buf. It is always name->prefix_len + GS_SPLIT_NAME_SUFFIX_LEN
 * bytes long, so cap must be at least one more. GS_E_INVALID_ARGUMENT for a NULL pointer or a
 * part or count outside 1..GS_SPLIT_MAX_PARTS; GS_E_OUT_OF_RANGE when cap is too small (buf then
 * holds "" if cap > 0). Thread-safe. */
GS_API gs_status gs_split_name_format(const char *path, const gs_split_name *name, uint32_t part,
                                      char *buf, size_t cap);

/* ------------------------------------------------------------------------------------------------
 * What a file is, when it is not the GGUF it was meant to be: a Git LFS pointer, an error page,
 * another model format, an archive. Nothing is decompressed or executed; only the first bytes are
 * looked at (docs/status-codes.md, "Files that are not GGUF").
 * ---------------------------------------------------------------------------------------------- */
typedef enum gs_format {
    GS_FORMAT_UNKNOWN = 0,         /* nothing recognised */
    GS_FORMAT_GGUF = 1,            /* "GGUF" and a little-endian version word (or a prefix of it) */
    GS_FORMAT_EMPTY = 2,           /* zero bytes */
    GS_FORMAT_GGUF_BIG_ENDIAN = 3, /* GGUF written big-endian (version word byte-swapped) */
    GS_FORMAT_GIT_LFS_POINTER = 4, /* the small text file Git LFS leaves instead of the file */
    GS_FORMAT_HTML = 5,            /* an HTML page: a hub's error or login page */
    GS_FORMAT_XML = 6,             /* an XML document: a storage service's error reply */
    GS_FORMAT_JSON = 7,            /* a JSON document: an API's error reply */
    GS_FORMAT_TEXT = 8,            /* other text ("404: Not Found") */
    GS_FORMAT_SAFETENSORS = 9,     /* Hugging Face safetensors */
    GS_FORMAT_PYTORCH_ZIP = 10,    /* torch.save's zip format (an entry .../data.pkl) */
    GS_FORMAT_PICKLE = 11,         /* a Python pickle, protocol 2..5 (torch.save before 1.6) */
    GS_FORMAT_ONNX = 12,           /* an ONNX ModelProto */
    GS_FORMAT_GGML_LEGACY = 13,    /* llama.cpp's formats before GGUF: ggml, ggmf, ggjt, ggla */
    GS_FORMAT_GZIP = 14,
    GS_FORMAT_XZ = 15,
    GS_FORMAT_ZSTD = 16,
    GS_FORMAT_BZIP2 = 17,
    GS_FORMAT_ZIP = 18,            /* any other zip archive; `inner` names a stored first entry */
    GS_FORMAT_7Z = 19,
    GS_FORMAT_TAR = 20,            /* a POSIX tar archive; `inner` names its first member */
    GS_FORMAT_COUNT = 21           /* first value that is not a format */
} gs_format;

/* How many leading bytes gs_detect looks at; fewer are fine (a shorter file). */
#define GS_DETECT_BYTES 4096u

typedef struct gs_detected {
    gs_format format;
    const char *name;        /* stable identifier: "gguf", "empty", "git-lfs-pointer", "html",
                                "safetensors", "zip", ... (what certify reports as the kind) */
    const char *description; /* one sentence saying what the file is, in plain words */
    const char *advice;      /* what to do about it ("" for GGUF) */
    bool container;          /* an archive or a compressed stream: unpack it and check the result */
    gs_format inner;         /* zip and tar: what the first entry holds, when it is stored
                                uncompressed and begins inside the bytes given; else UNKNOWN */
    uint32_t version;        /* GGUF (either byte order), legacy GGML (ggmf, ggjt): the version;
                                pickle: the protocol; 0 otherwise */
    uint64_t n_tensors;      /* GGUF, either byte order, when 24 bytes were given: the header's */
    uint64_t n_kv;           /* counts; 0 otherwise */
    uint64_t size;           /* Git LFS pointer: the size of the real file; safetensors: its JSON
                                header's length; 0 otherwise */
    uint64_t file_size;      /* the file's size: n for gs_detect, what fstat said for
                                gs_detect_file */
    /* What was read, escaped like gs_error's context, NUL-terminated: the LFS oid, an HTML title,
     * an error message from JSON or XML, the name of an archive's first entry, a text's first
     * line, or the first bytes in hex for an unknown file. Empty when there is nothing to say. */
    char detail[GS_ERROR_TEXT_MAX];
} gs_detected;

/* Recognises the format of a file from its first n bytes (head; n == 0 is an empty file), at
 * most GS_DETECT_BYTES of them are read. Always GS_OK with *out filled (GS_FORMAT_UNKNOWN when
 * nothing matches), except GS_E_INVALID_ARGUMENT (nothing written) for a NULL out, a NULL head
 * with n > 0, or an out_size below this version's gs_detected. Thread-safe; allocates nothing. */
GS_API gs_status gs_detect_sized(const void *head, size_t n, gs_detected *out, size_t out_size);
#define gs_detect(head, n, out) gs_detect_sized((head), (n), (out), sizeof(gs_detected))
/* The same for the file at path: its first GS_DETECT_BYTES bytes, read with pread. When it
 * cannot be opened or read, the status gs_open_file would give, with err filled (err may be
 * NULL): GS_E_NO_SUCH_FILE, GS_E_NOT_REGULAR_FILE (opened without blocking: a FIFO never hangs
 * it), GS_E_IO. */
GS_API gs_status gs_detect_file_sized(const char *path, gs_detected *out, size_t out_size,
                                      gs_error *err);
#define gs_detect_file(path, out, err) \
    gs_detect_file_sized((path), (out), sizeof(gs_detected), (err))
/* "gguf", "git-lfs-pointer", ...: the name of a format; "unknown" outside the enum. */
GS_API const char *gs_format_name(gs_format format);

#ifdef __cplusplus
}
#endif

#endif /* GGUFSAFE_H */
