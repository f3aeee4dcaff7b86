"""The C declarations the package binds, in one place.

Copied from include/ggufsafe.h, ggufsafe_sink.h, ggufsafe_certify.h, ggufsafe_manifest.h and
ggufsafe_diff.h (the installed headers), in cffi's dialect: sized entry points instead of their
macros, enums with their values. tests/test_cdefs.py compiles every function declaration below
against the installed headers and compares every struct's size and field offsets and every
enumerator with the C compiler's, so a header change cannot silently desync the binding.
Only these names are bound; anything added to a struct here must exist at that offset in C.
"""

# libggufsafe: include/ggufsafe.h
READER = r"""
const char *gs_version(void);

typedef enum gs_status {
    GS_OK = 0,
    GS_E_INVALID_ARGUMENT = 1,
    GS_E_NO_MEMORY = 2,
    GS_E_IO = 3,
    GS_E_NOT_FOUND = 4,
    GS_E_WRONG_TYPE = 5,
    GS_E_OUT_OF_RANGE = 6,
    GS_E_INTERNAL = 7,
    GS_E_NOT_DECODABLE = 8,
    GS_E_SIZE_MISMATCH = 9,
    GS_E_KERNEL_UNAVAILABLE = 10,
    GS_E_NOT_REGULAR_FILE = 11,
    GS_E_NO_SUCH_FILE = 12,
    GS_E_FILE_CHANGED = 13,
    GS_E_DECODER_FAILED = 14,
    GS_E_BAD_MAGIC = 20,
    GS_E_UNSUPPORTED_VERSION = 21,
    GS_E_BYTE_SWAPPED = 22,
    GS_E_TRUNCATED = 23,
    GS_E_COUNT_EXCEEDS_FILE = 24,
    GS_E_STRING_EXCEEDS_FILE = 25,
    GS_E_LIMIT_KV_COUNT = 30,
    GS_E_LIMIT_TENSOR_COUNT = 31,
    GS_E_LIMIT_STRING_LENGTH = 32,
    GS_E_LIMIT_ARRAY_LENGTH = 33,
    GS_E_LIMIT_ALIGNMENT = 34,
    GS_E_LIMIT_MEMORY = 35,
    GS_E_INVALID_UTF8 = 40,
    GS_E_BAD_VALUE_TYPE = 41,
    GS_E_NESTED_ARRAY = 42,
    GS_E_BAD_BOOL = 43,
    GS_E_EMPTY_KEY = 44,
    GS_E_KEY_HAS_NUL = 45,
    GS_E_BAD_KEY = 46,
    GS_E_DUPLICATE_KEY = 47,
    GS_E_ALIGNMENT_TYPE = 48,
    GS_E_ALIGNMENT_VALUE = 49,
    GS_E_TOO_MANY_DIMS = 60,
    GS_E_NEGATIVE_DIM = 61,
    GS_E_SIZE_OVERFLOW = 62,
    GS_E_UNKNOWN_TENSOR_TYPE = 63,
    GS_E_REMOVED_TENSOR_TYPE = 64,
    GS_E_ROW_NOT_BLOCK_MULTIPLE = 65,
    GS_E_TENSOR_NAME_TOO_LONG = 66,
    GS_E_TENSOR_NAME_EMPTY = 67,
    GS_E_TENSOR_NAME_HAS_NUL = 68,
    GS_E_DUPLICATE_TENSOR_NAME = 69,
    GS_E_MISALIGNED_OFFSET = 80,
    GS_E_OFFSET_NOT_PACKED = 81,
    GS_E_TENSOR_OVERLAP = 82,
    GS_E_DATA_OUTSIDE_FILE = 83,
    GS_E_SPLIT_BAD_NAME = 90,
    GS_E_SPLIT_PART_MISSING = 91,
    GS_E_SPLIT_KEY_MISSING = 92,
    GS_E_SPLIT_KEY_TYPE = 93,
    GS_E_SPLIT_NUMBER_MISMATCH = 94,
    GS_E_SPLIT_COUNT_MISMATCH = 95,
    GS_E_SPLIT_TENSOR_COUNT_MISMATCH = 96,
    GS_E_SPLIT_DUPLICATE_TENSOR = 97,
    GS_E_SPLIT_SAME_FILE = 98
} gs_status;

const char *gs_status_name(gs_status status);
const char *gs_status_message(gs_status status);

typedef enum gs_type {
    GS_TYPE_INVALID = -1,
    GS_TYPE_F32 = 0, GS_TYPE_F16 = 1, GS_TYPE_Q4_0 = 2, GS_TYPE_Q4_1 = 3,
    GS_TYPE_Q5_0 = 6, GS_TYPE_Q5_1 = 7, GS_TYPE_Q8_0 = 8, GS_TYPE_Q8_1 = 9,
    GS_TYPE_Q2_K = 10, GS_TYPE_Q3_K = 11, GS_TYPE_Q4_K = 12, GS_TYPE_Q5_K = 13,
    GS_TYPE_Q6_K = 14, GS_TYPE_Q8_K = 15, GS_TYPE_IQ2_XXS = 16, GS_TYPE_IQ2_XS = 17,
    GS_TYPE_IQ3_XXS = 18, GS_TYPE_IQ1_S = 19, GS_TYPE_IQ4_NL = 20, GS_TYPE_IQ3_S = 21,
    GS_TYPE_IQ2_S = 22, GS_TYPE_IQ4_XS = 23, GS_TYPE_I8 = 24, GS_TYPE_I16 = 25,
    GS_TYPE_I32 = 26, GS_TYPE_I64 = 27, GS_TYPE_F64 = 28, GS_TYPE_IQ1_M = 29,
    GS_TYPE_BF16 = 30, GS_TYPE_TQ1_0 = 34, GS_TYPE_TQ2_0 = 35, GS_TYPE_MXFP4 = 39,
    GS_TYPE_NVFP4 = 40, GS_TYPE_Q1_0 = 41, GS_TYPE_Q2_0 = 42,
    GS_TYPE_COUNT = 43
} gs_type;

typedef enum gs_type_status {
    GS_TYPE_UNKNOWN = 0, GS_TYPE_LIVE = 1, GS_TYPE_ACTIVATION = 2, GS_TYPE_REMOVED = 3
} gs_type_status;

typedef struct gs_type_info {
    const char *name;
    uint32_t block_elems;
    uint32_t block_bytes;
    gs_type_status status;
    bool decodable;
    bool quantized;
} gs_type_info;

gs_status gs_type_get_info_sized(int32_t type, gs_type_info *out, size_t out_size);
const char *gs_type_name(int32_t type);

typedef enum gs_profile { GS_PROFILE_STRICT = 0, GS_PROFILE_LENIENT = 1 } gs_profile;

typedef struct gs_allocator {
    void *(*malloc_fn)(void *opaque, size_t size);
    void *(*realloc_fn)(void *opaque, void *ptr, size_t size);
    void (*free_fn)(void *opaque, void *ptr);
    void *opaque;
} gs_allocator;

typedef struct gs_limits {
    uint64_t max_kv_count;
    uint64_t max_tensor_count;
    uint64_t max_string_length;
    uint64_t max_array_length;
    uint32_t max_alignment;
    uint64_t max_metadata_memory;
} gs_limits;

typedef struct gs_type_def {
    int32_t id;
    const char *name;
    uint32_t block_elems;
    uint32_t block_bytes;
    bool override_builtin;
} gs_type_def;
typedef gs_status (*gs_decode_fn)(void *ctx, int32_t type, const void *src, size_t src_bytes,
                                  float *dst, size_t n_elems);
typedef struct gs_decoder {
    gs_type_def type;
    gs_decode_fn decode;
    void *ctx;
    const char *source;
} gs_decoder;
typedef struct gs_options {
    size_t struct_size;
    gs_profile profile;
    gs_limits limits;
    gs_allocator allocator;
    bool diagnostic;
    bool copy_metadata;
    bool reopen_for_data;
    uint64_t max_split_metadata_memory;
    bool metadata_only;
    const gs_type_def *type_defs;
    size_t n_type_defs;
    const gs_decoder *decoders;
    size_t n_decoders;
} gs_options;

gs_status gs_options_init_sized(gs_options *opts, size_t size);

typedef enum gs_context_kind {
    GS_CONTEXT_NONE = 0, GS_CONTEXT_HEADER = 1, GS_CONTEXT_KEY = 2, GS_CONTEXT_TENSOR = 3,
    GS_CONTEXT_PART = 4
} gs_context_kind;

#define GS_ERROR_TEXT_MAX 128

typedef struct gs_error {
    gs_status status;
    uint64_t offset;
    gs_context_kind context_kind;
    char context[128];
    char detail[128];
} gs_error;
gs_status gs_type_defs_check(const gs_type_def *defs, size_t n_defs, gs_error *err);

typedef struct gs_file gs_file;

gs_status gs_open_file(const char *path, const gs_options *opts, gs_file **out, gs_error *err);
gs_status gs_open_memory(const void *data, size_t size, const gs_options *opts, gs_file **out,
                         gs_error *err);
void gs_close(gs_file *file);

typedef struct gs_str {
    const char *ptr;
    size_t len;
} gs_str;

uint32_t gs_file_version(const gs_file *file);
gs_profile gs_file_profile(const gs_file *file);
size_t gs_kv_count(const gs_file *file);
size_t gs_tensor_count(const gs_file *file);

typedef struct gs_layout {
    uint64_t file_size;
    uint64_t kv_end;
    uint64_t tensor_info_end;
    uint32_t alignment;
    uint64_t data_offset;
    uint64_t data_end;
    uint64_t predicted_size;
    uint64_t trailing_bytes;
    uint64_t missing_tail_padding;
    uint64_t header_padding_nonzero;
    uint64_t first_nonzero_padding;
    uint64_t findings_dropped;
    uint64_t tensors_outside;
    uint64_t described_size;
} gs_layout;

gs_status gs_file_layout_sized(const gs_file *file, gs_layout *out, size_t out_size);
size_t gs_file_finding_count(const gs_file *file);
gs_status gs_file_finding(const gs_file *file, size_t i, gs_error *out);
gs_status gs_file_read(const gs_file *file, uint64_t offset, void *dst, size_t n);

typedef enum gs_value_type {
    GS_VALUE_U8 = 0, GS_VALUE_I8 = 1, GS_VALUE_U16 = 2, GS_VALUE_I16 = 3,
    GS_VALUE_U32 = 4, GS_VALUE_I32 = 5, GS_VALUE_F32 = 6, GS_VALUE_BOOL = 7,
    GS_VALUE_STRING = 8, GS_VALUE_ARRAY = 9, GS_VALUE_U64 = 10, GS_VALUE_I64 = 11,
    GS_VALUE_F64 = 12
} gs_value_type;

const char *gs_value_type_name(gs_value_type type);

typedef struct gs_kv_info {
    gs_str key;
    gs_value_type type;
    gs_value_type elem_type;
    uint64_t count;
    uint64_t offset;
    uint64_t value_offset;
    uint64_t size;
} gs_kv_info;

gs_status gs_kv_info_at_sized(const gs_file *file, size_t index, gs_kv_info *out,
                              size_t out_size);
gs_status gs_kv_find_n(const gs_file *file, const char *key, size_t key_len, size_t *index);

gs_status gs_kv_get_u8(const gs_file *file, size_t index, uint8_t *out);
gs_status gs_kv_get_i8(const gs_file *file, size_t index, int8_t *out);
gs_status gs_kv_get_u16(const gs_file *file, size_t index, uint16_t *out);
gs_status gs_kv_get_i16(const gs_file *file, size_t index, int16_t *out);
gs_status gs_kv_get_u32(const gs_file *file, size_t index, uint32_t *out);
gs_status gs_kv_get_i32(const gs_file *file, size_t index, int32_t *out);
gs_status gs_kv_get_u64(const gs_file *file, size_t index, uint64_t *out);
gs_status gs_kv_get_i64(const gs_file *file, size_t index, int64_t *out);
gs_status gs_kv_get_f32(const gs_file *file, size_t index, float *out);
gs_status gs_kv_get_f64(const gs_file *file, size_t index, double *out);
gs_status gs_kv_get_bool(const gs_file *file, size_t index, bool *out);
gs_status gs_kv_get_string(const gs_file *file, size_t index, gs_str *out);

gs_status gs_kv_get_array_u8(const gs_file *file, size_t index, uint64_t i, uint8_t *out);
gs_status gs_kv_get_array_i8(const gs_file *file, size_t index, uint64_t i, int8_t *out);
gs_status gs_kv_get_array_u16(const gs_file *file, size_t index, uint64_t i, uint16_t *out);
gs_status gs_kv_get_array_i16(const gs_file *file, size_t index, uint64_t i, int16_t *out);
gs_status gs_kv_get_array_u32(const gs_file *file, size_t index, uint64_t i, uint32_t *out);
gs_status gs_kv_get_array_i32(const gs_file *file, size_t index, uint64_t i, int32_t *out);
gs_status gs_kv_get_array_u64(const gs_file *file, size_t index, uint64_t i, uint64_t *out);
gs_status gs_kv_get_array_i64(const gs_file *file, size_t index, uint64_t i, int64_t *out);
gs_status gs_kv_get_array_f32(const gs_file *file, size_t index, uint64_t i, float *out);
gs_status gs_kv_get_array_f64(const gs_file *file, size_t index, uint64_t i, double *out);
gs_status gs_kv_get_array_bool(const gs_file *file, size_t index, uint64_t i, bool *out);
gs_status gs_kv_get_array_string(const gs_file *file, size_t index, uint64_t i, gs_str *out);
gs_status gs_kv_get_array_data(const gs_file *file, size_t index, const void **data,
                               uint64_t *count);

typedef struct gs_tensor_info {
    gs_str name;
    uint32_t n_dims;
    uint64_t ne[4];
    uint64_t nb[4];
    gs_type type;
    uint64_t n_elements;
    uint64_t offset;
    uint64_t data_offset;
    uint64_t size;
    uint64_t info_offset;
    bool data_in_file;
    const void *data;
} gs_tensor_info;

gs_status gs_tensor_info_at_sized(const gs_file *file, size_t index, gs_tensor_info *out,
                                  size_t out_size);
gs_status gs_tensor_find_n(const gs_file *file, const char *name, size_t name_len,
                           size_t *index);

gs_status gs_dequantize(gs_type type, const void *src, size_t src_bytes, float *dst,
                        size_t n_elems);
gs_status gs_tensor_dequantize(const gs_file *file, size_t index, float *dst, size_t n_elems);
gs_status gs_tensor_dequantize_rows(const gs_file *file, size_t index, uint64_t first_row,
                                    uint64_t n_rows, float *dst, size_t n_elems);

typedef enum gs_kernel {
    GS_KERNEL_AUTO = 0, GS_KERNEL_SCALAR = 1, GS_KERNEL_AVX2 = 2, GS_KERNEL_NEON = 3,
    GS_KERNEL_GGML = 4
} gs_kernel;

gs_kernel gs_active_kernel(bool *usable);
const char *gs_kernel_name(gs_kernel kernel);
gs_status gs_set_ggml_library(const char *path, gs_error *err);
bool gs_ggml_describe(char *out, size_t cap);

typedef struct gs_split_name {
    size_t prefix_len;
    uint32_t part;
    uint32_t count;
} gs_split_name;

bool gs_split_name_parse(const char *path, size_t len, gs_split_name *out);
"""

# libggufsafe_certify: include/ggufsafe_sink.h and ggufsafe_certify.h
CERTIFY = r"""
typedef int (*gs_sink_write_fn)(void *ctx, const void *data, size_t n);

typedef struct gs_sink {
    size_t struct_size;
    gs_sink_write_fn write;
    void *ctx;
} gs_sink;

void gs_sink_file(gs_sink *sink, FILE *file);

typedef struct gs_progress {
    size_t struct_size;
    size_t part;
    size_t n_parts;
    uint64_t done;
    uint64_t total;
} gs_progress;

typedef void (*gs_progress_fn)(void *ctx, const gs_progress *progress);

typedef enum gs_certify_severity {
    GS_CERTIFY_INFO = 0, GS_CERTIFY_WARNING = 1, GS_CERTIFY_ERROR = 2
} gs_certify_severity;

#define GS_CERTIFY_STRICT 1
#define GS_CERTIFY_LENIENT 2

typedef enum gs_certify_subject {
    GS_CERTIFY_SUBJECT_NONE = 0, GS_CERTIFY_SUBJECT_KEY = 1, GS_CERTIFY_SUBJECT_TENSOR = 2
} gs_certify_subject;

typedef struct gs_certify_policy gs_certify_policy;
typedef struct gs_certify_baseline gs_certify_baseline;

typedef struct gs_certify_options {
    size_t struct_size;
    gs_profile profile;
    gs_certify_severity fail_on;
    bool deep;
    unsigned jobs;
    bool part_only;
    gs_progress_fn progress;
    void *progress_ctx;
    bool metadata_only;
    const gs_certify_policy *policy;
    const gs_certify_baseline *baseline;
    const gs_type_def *type_defs;
    size_t n_type_defs;
    const gs_decoder *decoders;
    size_t n_decoders;
} gs_certify_options;

void gs_certify_options_init(gs_certify_options *opts);

typedef struct gs_certify gs_certify;

gs_status gs_certify_path(const char *path, const gs_certify_options *opts, gs_certify **out,
                          gs_error *err);
void gs_certify_free(gs_certify *report);

typedef struct gs_certify_verdict {
    size_t struct_size;
    bool certified;
    uint64_t counts[3];
} gs_certify_verdict;

gs_status gs_certify_verdict_for(const gs_certify *report, gs_profile profile,
                                 gs_certify_severity fail_on, gs_certify_verdict *out);

typedef struct gs_certify_summary {
    size_t struct_size;
    const char *path;
    gs_profile profile;
    gs_certify_severity fail_on;
    bool deep;
    bool is_set;
    gs_certify_verdict verdict;
    const char *kind;
    gs_str architecture;
    gs_str general_type;
    size_t part_count;
    size_t finding_count;
    size_t tally_count;
    size_t stats_count;
    const char *verdict_sentence;
    size_t root_cause;
    bool read_failed;
    uint64_t policy_ignored;
    uint64_t policy_changed;
    uint64_t baseline_suppressed;
    uint64_t baseline_new;
} gs_certify_summary;

gs_status gs_certify_get_summary(const gs_certify *report, gs_certify_summary *out);

typedef enum gs_certify_action {
    GS_CERTIFY_ACTION_IGNORE = 0, GS_CERTIFY_ACTION_WARN = 1, GS_CERTIFY_ACTION_ERROR = 2
} gs_certify_action;

gs_status gs_certify_policy_parse(const void *data, size_t size, gs_certify_policy **out,
                                  gs_error *err);
size_t gs_certify_policy_rule_count(const gs_certify_policy *policy);
bool gs_certify_policy_match(const gs_certify_policy *policy, const char *code,
                             const char *name, gs_certify_action *action);
void gs_certify_policy_free(gs_certify_policy *policy);

gs_status gs_certify_baseline_parse(const void *data, size_t size, gs_certify_baseline **out,
                                    gs_error *err);
size_t gs_certify_baseline_count(const gs_certify_baseline *baseline);
bool gs_certify_baseline_has(const gs_certify_baseline *baseline, const char *uri,
                             const char *fingerprint);
void gs_certify_baseline_free(gs_certify_baseline *baseline);

typedef enum gs_certify_part_state {
    GS_CERTIFY_PART_READ = 0, GS_CERTIFY_PART_MISSING = 1, GS_CERTIFY_PART_REJECTED = 2
} gs_certify_part_state;

typedef struct gs_certify_part {
    size_t struct_size;
    const char *path;
    const char *label;
    gs_certify_part_state state;
    uint32_t version;
    uint64_t file_size;
    size_t kv_count;
    size_t tensor_count;
    gs_error error;
} gs_certify_part;

gs_status gs_certify_part_at(const gs_certify *report, size_t i, gs_certify_part *out);

typedef struct gs_certify_finding {
    size_t struct_size;
    const char *code;
    gs_certify_severity severity;
    gs_certify_severity effective;
    unsigned profiles;
    uint32_t part;
    uint64_t offset;
    gs_certify_subject subject;
    const uint8_t *name;
    size_t name_len;
    bool name_cut;
    bool name_is_text;
    const char *message;
    const char *hint;
    const char *help;
    size_t caused_by;
    bool baselined;
} gs_certify_finding;

gs_status gs_certify_finding_at(const gs_certify *report, size_t i, gs_certify_finding *out);

typedef struct gs_certify_stats {
    size_t struct_size;
    uint32_t part;
    size_t tensor;
    const uint8_t *name;
    size_t name_len;
    int32_t type;
    uint64_t elements;
    uint64_t blocks;
    bool scanned;
    bool has_values;
    bool is_f64;
    uint64_t zero_blocks;
    uint64_t bad_scale_blocks;
    uint64_t odd_scale_blocks;
    uint64_t nan, inf, finite;
    double min, max, sum;
} gs_certify_stats;

gs_status gs_certify_stats_at(const gs_certify *report, size_t i, gs_certify_stats *out);

const char *gs_certify_severity_name(gs_certify_severity severity);

gs_status gs_certify_write_text(const gs_certify *report, const gs_sink *sink, gs_error *err);
gs_status gs_certify_write_json(const gs_certify *report, const gs_sink *sink, gs_error *err);
gs_status gs_certify_write_sarif(const gs_certify *report, const gs_sink *sink, gs_error *err);
"""

# libggufsafe_certify: include/ggufsafe_manifest.h
MANIFEST = r"""
typedef enum gs_manifest_mode { GS_MANIFEST_HASH = 0, GS_MANIFEST_VERIFY = 1 } gs_manifest_mode;

typedef struct gs_manifest_options {
    size_t struct_size;
    gs_manifest_mode mode;
    gs_profile profile;
    bool part_only;
    unsigned jobs;
    gs_progress_fn progress;
    void *progress_ctx;
    bool metadata_only;
    const gs_type_def *type_defs;
    size_t n_type_defs;
    const gs_decoder *decoders;
    size_t n_decoders;
} gs_manifest_options;

void gs_manifest_options_init(gs_manifest_options *opts);

typedef struct gs_manifest gs_manifest;

gs_status gs_manifest_hash_path(const char *path, const gs_manifest_options *opts,
                                gs_manifest **out, gs_error *err);
gs_status gs_manifest_write(const gs_manifest *manifest, const gs_sink *sink, gs_error *err);
gs_status gs_manifest_parse(const void *data, size_t size, gs_manifest **out, gs_error *err);
gs_status gs_manifest_read(FILE *in, gs_manifest **out, gs_error *err);
void gs_manifest_free(gs_manifest *manifest);

size_t gs_manifest_part_count(const gs_manifest *manifest);

typedef struct gs_manifest_part {
    size_t struct_size;
    uint64_t size;
    uint8_t digest[32];
    size_t entry_count;
    size_t kv_count;
    size_t tensor_count;
    const char *error;
} gs_manifest_part;

gs_status gs_manifest_part_at(const gs_manifest *manifest, size_t part, gs_manifest_part *out);

typedef enum gs_manifest_kind { GS_MANIFEST_KV = 0, GS_MANIFEST_TENSOR = 1 } gs_manifest_kind;

typedef enum gs_manifest_state {
    GS_MANIFEST_HASHED = 0, GS_MANIFEST_NO_DATA = 1, GS_MANIFEST_ALIASED = 2
} gs_manifest_state;

typedef struct gs_manifest_entry {
    size_t struct_size;
    gs_manifest_kind kind;
    gs_manifest_state state;
    const char *name;
    const char *type;
    const char *shape;
    uint8_t digest[32];
    uint64_t offset;
    uint64_t size;
    size_t line;
} gs_manifest_entry;

gs_status gs_manifest_entry_at(const gs_manifest *manifest, size_t part, size_t i,
                               gs_manifest_entry *out);

typedef struct gs_manifest_diff gs_manifest_diff;

typedef enum gs_manifest_change {
    GS_MANIFEST_CHANGED = 0, GS_MANIFEST_ADDED = 1, GS_MANIFEST_MISSING = 2,
    GS_MANIFEST_DAMAGED = 3, GS_MANIFEST_RENAMED = 4
} gs_manifest_change;

typedef enum gs_manifest_item {
    GS_MANIFEST_ITEM_KV = 0, GS_MANIFEST_ITEM_TENSOR = 1, GS_MANIFEST_ITEM_FILE = 2,
    GS_MANIFEST_ITEM_PARTS = 3
} gs_manifest_item;

typedef struct gs_manifest_difference {
    size_t struct_size;
    gs_manifest_change change;
    gs_manifest_item item;
    size_t part;
    const char *subject;
    const char *detail;
    const char *renamed_from;
} gs_manifest_difference;

gs_status gs_manifest_compare(const gs_manifest *want, const gs_manifest *got,
                              gs_manifest_diff **out, gs_error *err);
size_t gs_manifest_diff_count(const gs_manifest_diff *diff);
gs_status gs_manifest_diff_at(const gs_manifest_diff *diff, size_t i,
                              gs_manifest_difference *out);
gs_status gs_manifest_diff_write(const gs_manifest_diff *diff, const gs_sink *sink,
                                 gs_error *err);
void gs_manifest_diff_free(gs_manifest_diff *diff);
void gs_manifest_hex(const uint8_t digest[32], char out[65]);
"""

# libggufsafe_certify: include/ggufsafe_diff.h
DIFF = r"""
typedef struct gs_diff_options {
    size_t struct_size;
    gs_profile profile;
    bool part_only;
    const char *const *tensor_globs;
    size_t n_tensor_globs;
    const char *const *exclude_globs;
    size_t n_exclude_globs;
    unsigned jobs;
    bool has_max_nmse, has_max_abs, has_min_cos;
    double max_nmse;
    double max_abs;
    double min_cos;
    gs_progress_fn progress;
    void *progress_ctx;
    bool metadata_only;
    bool allow_missing;
    bool allow_extra;
    bool fail_on_metadata;
    const char *const *fail_on_keys;
    size_t n_fail_on_keys;
    const char *const *ignore_keys;
    size_t n_ignore_keys;
    bool has_max_nmse_ratio, has_max_nmse_increase;
    double max_nmse_ratio;
    double max_nmse_increase;
    size_t worst_blocks;
    const gs_type_def *type_defs;
    size_t n_type_defs;
    const gs_decoder *decoders;
    size_t n_decoders;
} gs_diff_options;

void gs_diff_options_init(gs_diff_options *opts);

typedef struct gs_diff_input gs_diff_input;
typedef struct gs_diff gs_diff;

gs_status gs_diff_open(const char *path, const char *label, const gs_diff_options *opts,
                       gs_diff_input **out, gs_error *err);
void gs_diff_input_close(gs_diff_input *input);
gs_status gs_diff_compare(const gs_diff_input *a, const gs_diff_input *b,
                          const gs_diff_options *opts, gs_diff **out, gs_error *err);
void gs_diff_free(gs_diff *diff);

typedef struct gs_diff_summary {
    size_t struct_size;
    size_t tensors_a, tensors_b;
    size_t compared;
    size_t only_a, only_b;
    size_t shape_mismatches;
    size_t not_compared;
    size_t kv_only_a, kv_only_b, kv_changed;
    size_t failing;
    bool passed;
    uint64_t n_elements, equal, nonfinite_mismatches;
    double max_abs, rmse, nmse, cosine, equal_fraction;
    size_t tensor_count;
    size_t kv_count;
    bool metadata_only;
    bool three_way;
    bool gate_active;
    size_t gate_failure_count;
    size_t baseline_tensor_count;
    size_t baseline_kv_count;
    size_t worst_count;
    size_t rollup_count[3];
} gs_diff_summary;

gs_status gs_diff_get_summary(const gs_diff *diff, gs_diff_summary *out);

typedef enum gs_diff_tensor_kind {
    GS_DIFF_COMPARED = 0, GS_DIFF_NOT_DECODABLE = 1, GS_DIFF_SHAPE_MISMATCH = 2,
    GS_DIFF_ONLY_A = 3, GS_DIFF_ONLY_B = 4
} gs_diff_tensor_kind;

typedef struct gs_diff_tensor {
    size_t struct_size;
    gs_diff_tensor_kind kind;
    gs_str name;
    bool in_a, in_b;
    int32_t type_a, type_b;
    uint32_t n_dims_a, n_dims_b;
    uint64_t ne_a[4], ne_b[4];
    uint64_t n_elements, n_finite, equal;
    uint64_t nan_a, nan_b, inf_a, inf_b, nonfinite_mismatches;
    double max_abs, rmse, nmse, cosine, equal_fraction;
    uint32_t block_elems;
    uint64_t blocks, changed_blocks;
    bool has_worst;
    uint64_t worst_block;
    double worst_rmse, worst_max_abs;
    unsigned exceeds;
    uint64_t bytes_b;
    double bits_per_weight;
    bool same_bytes;
    bool has_baseline;
    double baseline_nmse, baseline_max_abs, baseline_rmse, baseline_cosine;
    double nmse_ratio;
    double nmse_increase;
} gs_diff_tensor;

gs_status gs_diff_tensor_at(const gs_diff *diff, size_t i, gs_diff_tensor *out);

typedef enum gs_diff_kv_kind {
    GS_DIFF_KV_ONLY_A = 0, GS_DIFF_KV_ONLY_B = 1, GS_DIFF_KV_CHANGED = 2
} gs_diff_kv_kind;

typedef struct gs_diff_kv {
    size_t struct_size;
    gs_diff_kv_kind kind;
    gs_str key;
    const gs_file *file_a, *file_b;
    size_t index_a, index_b;
    bool has_first_difference;
    uint64_t first_difference;
} gs_diff_kv;

gs_status gs_diff_kv_at(const gs_diff *diff, size_t i, gs_diff_kv *out);
gs_status gs_diff_write_text(const gs_diff *diff, const gs_sink *sink, gs_error *err);
gs_status gs_diff_write_json(const gs_diff *diff, const gs_sink *sink, gs_error *err);
gs_status gs_diff_write_html(const gs_diff *diff, const gs_sink *sink, gs_error *err);
"""

# libc (POSIX 2008): reports are rendered into an open_memstream buffer, so a writer runs
# entirely in C without the GIL and without a Python callback per piece.
LIBC = r"""
typedef struct _IO_FILE FILE;
FILE *open_memstream(char **ptr, size_t *sizeloc);
FILE *fdopen(int fd, const char *mode);
FILE *fopen(const char *path, const char *mode);
int fflush(FILE *stream);
int fclose(FILE *stream);
void free(void *ptr);
"""

# The headers the declarations come from, for tests/test_cdefs.py.
HEADERS = ("ggufsafe.h", "ggufsafe_sink.h", "ggufsafe_certify.h", "ggufsafe_manifest.h",
           "ggufsafe_diff.h")
