#include "cert_codes.h"

#include <string.h>

#define E CERT_ERROR
#define W CERT_WARNING
#define I CERT_INFO
#define S CERT_STRICT
#define B CERT_BOTH

/* In report order: structure first, then what the structure means. */
const cert_code cert_codes[] = {
    {CERT_READER_ROW, E, CERT_PROFILES_PER_FINDING,
     "the reader rejects the file or a tensor's placement (its status name; the profiles are "
     "those whose reader reports it)"},

    {"layout.truncated", E, B,
     "the file ends before the data its tensor infos describe (the first missing tensor is "
     "named)"},
    {"layout.trailing_bytes", E, S, "bytes after the last tensor's data and padding"},
    {"layout.gap", W, S,
     "bytes in the data section that belong to no tensor and are not alignment padding"},
    {"layout.padding_nonzero", W, S,
     "padding bytes (before the data section, between or after tensors) that are not zero"},

    {"compat.alignment_not_pow2", E, S,
     "general.alignment is a multiple of 8 (valid by the spec) but not a power of two: "
     "llama.cpp rejects the file"},
    {"compat.alignment_below_8", W, S,
     "general.alignment 1, 2 or 4: llama.cpp accepts it, the spec asks for a multiple of 8"},
    {"compat.tensor_name_64", E, S,
     "a tensor name of exactly 64 bytes: valid by the spec, llama.cpp allows 63"},
    {"compat.nested_array", E, S,
     "an array of arrays: valid by the spec, llama.cpp (and every ggufsafe profile) rejects it"},
    {"compat.bool_value", W, S,
     "a bool byte other than 0 or 1: llama.cpp reads it as true, the spec calls it invalid"},
    {"compat.key_grammar", W, S,
     "a key outside the spec's grammar (lower_snake_case segments joined by '.', at most 65535 "
     "bytes): llama.cpp accepts it"},
    {"compat.offsets_not_packed", E, S,
     "tensor offsets aligned and inside the file but not packed in order: valid by the spec, "
     "llama.cpp requires each to equal the running padded sum"},
    {"compat.tail_padding_missing", W, S,
     "the last tensor's alignment padding is cut off at the end of the file: llama.cpp's "
     "loader accepts it, ggml's gguf_init_from_file loading the data rejects it"},
    {"compat.int_key_type", E, S,
     "a known integer key stored with another integer type than the one llama.cpp reads "
     "(block_count as u64, split.count as u32, ...): llama.cpp fails with 'wrong type'"},
    {"compat.activation_type", W, S,
     "a tensor of an activation type (q8_1, q8_K): ggml has no f32 conversion for it, so "
     "llama.cpp cannot use it as a weight"},
    {"compat.version_2", I, 0,
     "GGUF version 2: llama.cpp reads it like version 3, the current spec describes 3"},
    {"compat.type_not_in_spec", I, 0,
     "a tensor type newer than the spec's type table (nvfp4, q1_0, q2_0): older readers "
     "reject it"},

    {"meta.architecture_missing", E, S, "no general.architecture"},
    {"meta.type_unknown", W, S,
     "general.type names no known kind (model, adapter, mmproj, vocab, imatrix): only the "
     "rules for every kind are applied"},
    {"meta.key_type", E, S,
     "a known key with a value of the wrong type or sign (counts and token ids: non-negative "
     "integers; architecture, type: strings)"},
    {"meta.quantization_version_missing", E, S,
     "quantized tensors but no general.quantization_version"},
    {"meta.tokenizer_type", E, B,
     "a tokenizer array of the wrong element type (tokens and merges: string, scores: f32, "
     "token_type: i32)"},
    {"meta.tokenizer_length", E, B,
     "tokenizer.ggml.scores or token_type not exactly as long as tokenizer.ggml.tokens"},
    {"meta.token_type_range", E, B, "token types outside 1..6"},
    {"meta.special_token_range", E, B,
     "a special token id (bos, eos, unk, sep, pad, ...) not below the vocabulary size"},
    {"meta.byte_token", E, B, "a BYTE token (type 6) not spelled `<0xHH>`"},
    {"meta.token_duplicate", E, S, "the same token string twice (llama.cpp aborts)"},
    {"meta.merges_malformed", E, S,
     "a merge that is not two non-empty tokens separated by a space"},
    {"meta.block_count_missing", E, S,
     "a model whose tensors name layers (blk.N) but no ARCH.block_count"},
    {"meta.block_count_mismatch", E, S,
     "ARCH.block_count differs from the layers the tensors name (blk.N, N contiguous from 0)"},
    {"meta.block_count_range", E, B,
     "ARCH.block_count above llama.cpp's LLAMA_MAX_LAYERS (512)"},

    {"payload.scale_nonfinite", E, S,
     "quantized blocks whose scale is Inf or NaN (ggml_validate_row_data rejects them)"},
    {"payload.mxfp4_scale", E, S,
     "MXFP4 blocks with scale exponent 0xFF (ggml_validate_row_data rejects them)"},
    {"payload.nvfp4_scale", W, S,
     "NVFP4 blocks with a UE4M3 scale byte outside 0x00..0x7E (sign bit set, or the E4M3 NaN "
     "code): ggml decodes them, other implementations differ"},
    {"payload.float_nonfinite", E, S, "F16, BF16, F32 or F64 tensors holding NaN or Inf"},
    {"payload.all_zero", I, 0, "a tensor whose data bytes are all zero"},

    {"split.part_missing", E, B, "a part of the split set cannot be opened"},
    {"split.same_file", E, B,
     "two parts are one file (symlinks or hard links to it): the set is not what its names say"},
    {"split.key_missing", E, B, "a part without split.no, split.count or split.tensors.count"},
    {"split.key_type", E, B, "a split key that is not a non-negative integer"},
    {"split.number_mismatch", E, B,
     "split.no is not the part's position (numbers not contiguous from 0)"},
    {"split.count_mismatch", E, B,
     "split.count differs between parts or from the file names"},
    {"split.tensor_count_mismatch", E, B,
     "split.tensors.count differs between parts, or the parts' tensors do not sum to it"},
    {"split.duplicate_tensor", E, B, "a tensor name in two parts"},
    {"split.bad_name", E, S,
     "split keys say the file is one of several parts, but its name is not "
     "`PREFIX-NNNNN-of-NNNNN.gguf`, so the other parts cannot be found"},
    {"split.part_alone", I, 0,
     "a later part of a set certified on its own: the set checks and the metadata rules need "
     "part 1"},
};

const size_t cert_code_count = sizeof cert_codes / sizeof cert_codes[0];

const cert_code *cert_code_find(const char *code)
{
    if (strncmp(code, CERT_READER_PREFIX, strlen(CERT_READER_PREFIX)) == 0) {
        return &cert_codes[0];
    }
    for (size_t i = 1; i < cert_code_count; i++) {
        if (strcmp(cert_codes[i].code, code) == 0) {
            return &cert_codes[i];
        }
    }
    return NULL;
}

const char *cert_severity_name(cert_severity s)
{
    switch (s) {
    case CERT_ERROR: return "error";
    case CERT_WARNING: return "warning";
    case CERT_INFO: return "info";
    }
    return "info";
}

const char *cert_profiles_text(unsigned profiles)
{
    switch (profiles & CERT_BOTH) {
    case CERT_BOTH: return "strict, lenient";
    case CERT_STRICT: return "strict";
    case CERT_LENIENT: return "lenient";
    default: return "none";
    }
}
