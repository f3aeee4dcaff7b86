/* Names and messages of gs_status. The status table of docs/status-codes.md is checked against
 * this list, row by row, by parser/tests/test_status.c. */
#include "ggufsafe.h"

#define STATUS_LIST(X)                                                                            \
    X(GS_OK, "success")                                                                           \
    X(GS_E_INVALID_ARGUMENT, "invalid argument (NULL pointer, bad options or enum value)")        \
    X(GS_E_NO_MEMORY, "out of memory: the allocator returned NULL")                              \
    X(GS_E_IO, "I/O error while opening, mapping or reading the file")                            \
    X(GS_E_NOT_FOUND, "no key or tensor with that exact name")                                    \
    X(GS_E_WRONG_TYPE, "the value is not of the requested type")                                  \
    X(GS_E_OUT_OF_RANGE, "index out of range, or value not representable in the requested type") \
    X(GS_E_INTERNAL, "internal error: a bug in ggufsafe")                                         \
    X(GS_E_NOT_DECODABLE, "this tensor type has no conversion to f32")                            \
    X(GS_E_SIZE_MISMATCH, "buffer sizes do not match a whole number of blocks")                   \
    X(GS_E_KERNEL_UNAVAILABLE, "the requested decoder path cannot decode this here")            \
    X(GS_E_NOT_REGULAR_FILE, "not a regular file: a directory, FIFO, socket or device")          \
    X(GS_E_NO_SUCH_FILE, "no such file")                                                         \
    X(GS_E_FILE_CHANGED, "the file changed after it was opened (replaced, resized or modified)") \
    X(GS_E_DECODER_FAILED, "a caller-supplied decoder (plugin, ggml) failed, crashed or hung")  \
    X(GS_E_BAD_MAGIC, "not a GGUF file: the first 4 bytes are not \"GGUF\"")                      \
    X(GS_E_UNSUPPORTED_VERSION, "unsupported GGUF version (only 2 and 3 are read)")               \
    X(GS_E_BYTE_SWAPPED, "byte-swapped (big-endian) GGUF file")                                   \
    X(GS_E_TRUNCATED, "the file ends inside a field")                                             \
    X(GS_E_COUNT_EXCEEDS_FILE, "a count needs more bytes than remain in the file")                \
    X(GS_E_STRING_EXCEEDS_FILE, "a string length needs more bytes than remain in the file")       \
    X(GS_E_LIMIT_KV_COUNT, "more key-value pairs than the configured limit")                      \
    X(GS_E_LIMIT_TENSOR_COUNT, "more tensors than the configured limit")                          \
    X(GS_E_LIMIT_STRING_LENGTH, "a string is longer than the configured limit")                   \
    X(GS_E_LIMIT_ARRAY_LENGTH, "an array is longer than the configured limit")                    \
    X(GS_E_LIMIT_ALIGNMENT, "general.alignment is larger than the configured limit")              \
    X(GS_E_LIMIT_MEMORY, "the metadata needs more memory than the configured limit")              \
    X(GS_E_INVALID_UTF8, "a key, string or tensor name is not valid UTF-8")                       \
    X(GS_E_BAD_VALUE_TYPE, "invalid metadata value type")                                         \
    X(GS_E_NESTED_ARRAY, "array of arrays (nested arrays are not loadable by ggml)")              \
    X(GS_E_BAD_BOOL, "bool value other than 0 or 1")                                              \
    X(GS_E_EMPTY_KEY, "empty key")                                                                \
    X(GS_E_KEY_HAS_NUL, "key contains a NUL byte")                                                \
    X(GS_E_BAD_KEY, "key outside the GGUF key grammar (lower_snake_case segments joined by '.')") \
    X(GS_E_DUPLICATE_KEY, "duplicate key")                                                        \
    X(GS_E_ALIGNMENT_TYPE, "general.alignment is not a uint32 scalar")                            \
    X(GS_E_ALIGNMENT_VALUE, "general.alignment value not allowed")                                \
    X(GS_E_TOO_MANY_DIMS, "tensor has more than 4 dimensions")                                    \
    X(GS_E_NEGATIVE_DIM, "tensor dimension is negative (>= 2^63)")                                \
    X(GS_E_SIZE_OVERFLOW, "tensor element count, byte size or stride overflows")                  \
    X(GS_E_UNKNOWN_TENSOR_TYPE, "unknown tensor type id")                                         \
    X(GS_E_REMOVED_TENSOR_TYPE, "tensor type id removed from ggml")                               \
    X(GS_E_ROW_NOT_BLOCK_MULTIPLE, "row length is not a multiple of the type's block size")       \
    X(GS_E_TENSOR_NAME_TOO_LONG, "tensor name longer than 63 bytes")                              \
    X(GS_E_TENSOR_NAME_EMPTY, "empty tensor name")                                                \
    X(GS_E_TENSOR_NAME_HAS_NUL, "tensor name contains a NUL byte")                                \
    X(GS_E_DUPLICATE_TENSOR_NAME, "duplicate tensor name")                                        \
    X(GS_E_MISALIGNED_OFFSET, "tensor offset is not a multiple of the alignment")                 \
    X(GS_E_OFFSET_NOT_PACKED, "tensor offset breaks the packed layout (gap or reordering)")       \
    X(GS_E_TENSOR_OVERLAP, "tensor data overlaps another tensor's data")                          \
    X(GS_E_DATA_OUTSIDE_FILE, "tensor data extends past the end of the file")                     \
    X(GS_E_SPLIT_BAD_NAME, "split part is not named <prefix>-NNNNN-of-NNNNN.gguf")                \
    X(GS_E_SPLIT_PART_MISSING, "a part of the split set cannot be opened")                        \
    X(GS_E_SPLIT_KEY_MISSING, "split.no, split.count or split.tensors.count is missing")          \
    X(GS_E_SPLIT_KEY_TYPE, "a split key is not a non-negative integer")                           \
    X(GS_E_SPLIT_NUMBER_MISMATCH, "split.no does not match the part's position")                  \
    X(GS_E_SPLIT_COUNT_MISMATCH, "split.count differs between parts or from the file names")      \
    X(GS_E_SPLIT_TENSOR_COUNT_MISMATCH, "the parts' tensor counts do not sum to split.tensors.count") \
    X(GS_E_SPLIT_DUPLICATE_TENSOR, "a tensor name appears in two parts")                        \
    X(GS_E_SPLIT_SAME_FILE, "two parts of the split set are the same file (links to one file)")

const char *gs_status_name(gs_status status)
{
    switch (status) {
#define NAME_CASE(s, m) case s: return #s;
        STATUS_LIST(NAME_CASE)
#undef NAME_CASE
    }
    return "GS_E_UNKNOWN_STATUS";
}

const char *gs_status_message(gs_status status)
{
    switch (status) {
#define MSG_CASE(s, m) case s: return m;
        STATUS_LIST(MSG_CASE)
#undef MSG_CASE
    }
    return "unknown status";
}
