#include "cert_codes.h"

#include <string.h>

#define E CERT_ERROR
#define W CERT_WARNING
#define I CERT_INFO
#define S CERT_STRICT
#define B CERT_BOTH

/* A row: the code, its severity and profiles, what it means, the hint for a person, and its
 * section of docs/certify.md (built from the code, so the two cannot drift). */
#define ROW(code, sev, prof, summary, hint) {code, sev, prof, summary, hint, CERT_HELP_BASE code}

#define RECONVERT "convert the model again with llama.cpp's convert_hf_to_gguf.py"
#define REDOWNLOAD "download the file again"
#define RESPLIT "re-split the model with llama.cpp's llama-gguf-split"
#define NOT_LOAD "do not load this file: it is damaged or crafted; " REDOWNLOAD " or " RECONVERT

/* In report order: what the file is and whether it is whole, then its structure, then what the
 * structure means. */
const cert_code cert_codes[] = {
    {CERT_READER_ROW, E, CERT_PROFILES_PER_FINDING,
     "the reader rejects the file or a tensor's placement (its status name; the profiles are "
     "those whose reader reports it)",
     "each reader status has a hint of its own (the table under reader)", CERT_HELP_BASE "reader"},
    ROW("reader.not_gguf", E, B,
        "the file is not a GGUF file at all; the message names what it is (a Git LFS pointer, "
        "an error page, another model format, an archive)",
        "this is not the model you meant to get: the message says what the file is and what to "
        "do (Git LFS pointer: git lfs pull; error page: download again with access; another "
        "format: convert it with llama.cpp's tools; archive: unpack it)"),

    ROW("layout.metadata_truncated", E, B,
        "the file ends inside its metadata (header, key-values or tensor infos): nothing after "
        "that point can be read",
        "almost always an interrupted download or a copy cut short: " REDOWNLOAD "; if a fresh "
        "copy ends the same way, the publisher's file is damaged: report it to them"),
    ROW("layout.truncated", E, B,
        "the file ends before the data its tensor infos describe (the first missing tensor is "
        "named)",
        "the file is incomplete, almost always an interrupted download: " REDOWNLOAD
        " (or resume it), then compare its SHA-256 with the publisher's, or run ggufsafe verify "
        "against a manifest of the original"),
    ROW("layout.data_absent", I, 0,
        "metadata-only check: tensors whose data is not in the file (the first is named); their "
        "data was not checked",
        "expected for a header-only copy or the start of a download; certify the complete file "
        "without --metadata-only before you use it"),
    ROW("layout.trailing_bytes", E, S, "bytes after the last tensor's data and padding",
        "something follows the model's data (a second file appended, data added by a tool): "
        "find out what it is; the file cut to the size in the message is what its writer "
        "produced"),
    ROW("layout.gap", W, S,
        "bytes in the data section that belong to no tensor and are not alignment padding",
        "harmless for loading, but a writer other than ggml's made the file; rewrite it with "
        "gguf-py or llama.cpp's tools if it must be canonical"),
    ROW("layout.padding_nonzero", W, S,
        "padding bytes (before the data section, between or after tensors) that are not zero",
        "harmless for loading: the writer left bytes in the alignment padding (or hid data "
        "there); safe to ignore unless the file must be canonical"),

    ROW("compat.alignment_not_pow2", E, S,
        "general.alignment is a multiple of 8 (valid by the spec) but not a power of two: "
        "llama.cpp rejects the file",
        "llama.cpp refuses this file: ask the publisher for one written with a power-of-two "
        "alignment (32 is the default), or rewrite it with gguf-py"),
    ROW("compat.alignment_below_8", W, S,
        "general.alignment 1, 2 or 4: llama.cpp accepts it, the spec asks for a multiple of 8",
        "llama.cpp loads it; only readers that follow the spec strictly refuse it: rewrite it "
        "with alignment 32 if they must read it"),
    ROW("compat.tensor_name_64", E, S,
        "a tensor name of exactly 64 bytes: valid by the spec, llama.cpp allows 63",
        "llama.cpp refuses this file (its names are at most 63 bytes): the converter that wrote "
        "it needs fixing; ask the publisher for a new conversion"),
    ROW("compat.nested_array", E, S,
        "an array of arrays: valid by the spec, llama.cpp (and every ggufsafe profile) rejects it",
        "no ggml-based reader loads this file: the converter must write such a value as several "
        "keys; ask for a new conversion"),
    ROW("compat.bool_value", W, S,
        "a bool byte other than 0 or 1: llama.cpp reads it as true, the spec calls it invalid",
        "llama.cpp loads it (the byte reads as true); strict readers refuse it: set the value to "
        "0 or 1 with gguf-py's gguf-set-metadata to fix it"),
    ROW("compat.key_grammar", W, S,
        "a key outside the spec's grammar (lower_snake_case segments joined by '.', at most 65535 "
        "bytes): llama.cpp accepts it",
        "llama.cpp loads it; strict readers refuse the key: rename it (gguf-py's "
        "gguf-new-metadata) if they must read the file"),
    ROW("compat.offsets_not_packed", E, S,
        "tensor offsets aligned and inside the file but not packed in order: valid by the spec, "
        "llama.cpp requires each to equal the running padded sum",
        "llama.cpp refuses this layout: rewrite the file with a ggml writer (gguf-py, "
        "llama.cpp's tools), which packs the tensors in order"),
    ROW("compat.tail_padding_missing", W, S,
        "the last tensor's alignment padding is cut off at the end of the file: llama.cpp's "
        "loader accepts it, ggml's gguf_init_from_file loading the data rejects it",
        "llama.cpp loads it; ggml's full loader refuses it: append the missing zero bytes (their "
        "number is in the message), for example with truncate -s +N FILE"),
    ROW("compat.int_key_type", E, S,
        "a known integer key stored with another integer type than the one llama.cpp reads "
        "(block_count as u64, split.count as u32, ...): llama.cpp fails with 'wrong type'",
        "llama.cpp refuses the file: the converter stored the key with the wrong integer width; "
        RECONVERT " or ask the publisher for a fixed file"),
    ROW("compat.activation_type", W, S,
        "a tensor of an activation type (q8_1, q8_K): ggml has no f32 conversion for it, so "
        "llama.cpp cannot use it as a weight",
        "llama.cpp cannot use this tensor as a weight: quantize the model again from its "
        "original weights to a storage type (q8_0 for 8 bits) with llama-quantize"),
    ROW("compat.unknown_type", E, B,
        "a tensor whose type id neither ggufsafe's registry nor the command line (--type, "
        "--plugin, --ggml) defines: its size is unknown, so its data is not checked; the "
        "message names the id, the tensor and the byte of its type field",
        "a new or forked quant format: give its geometry with --type "
        "ID:NAME:BLOCK_ELEMENTS:BLOCK_BYTES (and a decoder with --plugin PATH.so or --ggml PATH "
        "for --deep), then certify again (docs/new-quant-types.md); otherwise the id is damaged: "
        REDOWNLOAD),
    ROW("compat.version_2", I, 0,
        "GGUF version 2: llama.cpp reads it like version 3, the current spec describes 3",
        "safe to ignore: llama.cpp reads version 2 as it reads version 3"),
    ROW("compat.type_not_in_spec", I, 0,
        "a tensor type newer than the spec's type table (nvfp4, q1_0, q2_0): older readers "
        "reject it",
        "safe to ignore with a current llama.cpp; older readers and tools refuse the file: "
        "update them"),

    ROW("meta.architecture_missing", E, S, "no general.architecture",
        "llama.cpp cannot load a model that does not name its architecture: the conversion is "
        "broken; " RECONVERT),
    ROW("meta.type_unknown", W, S,
        "general.type names no known kind (model, adapter, mmproj, vocab, imatrix): only the "
        "rules for every kind are applied",
        "fewer checks ran because the file's kind is unknown: if it is a model, set general.type "
        "to model (gguf-py's gguf-set-metadata); otherwise safe to ignore"),
    ROW("meta.key_type", E, S,
        "a known key with a value of the wrong type or sign (counts and token ids: non-negative "
        "integers; architecture, type: strings)",
        "readers that trust the key's type misread it: " RECONVERT
        ", or report the file to its publisher"),
    ROW("meta.quantization_version_missing", E, S,
        "quantized tensors but no general.quantization_version",
        "without it, readers cannot tell which quantization rules the tensors follow: quantize "
        "again with a current llama-quantize, which writes it"),
    ROW("meta.tokenizer_type", E, B,
        "a tokenizer array of the wrong element type (tokens and merges: string, scores: f32, "
        "token_type: i32)",
        "loaders that trust the type read out of bounds (a known llama.cpp crash): do not load "
        "the file; " RECONVERT),
    ROW("meta.tokenizer_length", E, B,
        "tokenizer.ggml.scores or token_type not exactly as long as tokenizer.ggml.tokens",
        "loaders index these arrays by token id and read out of bounds: do not load the file; "
        RECONVERT),
    ROW("meta.token_type_range", E, B, "token types outside 1..6",
        "the vocabulary is corrupt: do not load the file; " RECONVERT),
    ROW("meta.special_token_range", E, B,
        "a special token id (bos, eos, unk, sep, pad, ...) not below the vocabulary size",
        "a loader that uses the id reads past the vocabulary: do not load the file; fix the id "
        "(gguf-py's gguf-set-metadata) or " RECONVERT),
    ROW("meta.byte_token", E, B, "a BYTE token (type 6) not spelled `<0xHH>`",
        "llama.cpp parses byte tokens into a 256-entry table (a known overflow): do not load "
        "the file; " RECONVERT),
    ROW("meta.token_duplicate", E, S, "the same token string twice (llama.cpp aborts)",
        "llama.cpp aborts on this vocabulary: " RECONVERT ", or report the file to its publisher"),
    ROW("meta.merges_malformed", E, S,
        "a merge that is not two non-empty tokens separated by a space",
        "the tokenizer's merges are corrupt, so text is tokenized wrongly: " RECONVERT),
    ROW("meta.block_count_missing", E, S,
        "a model whose tensors name layers (blk.N) but no ARCH.block_count",
        "llama.cpp cannot load the model without its layer count: " RECONVERT),
    ROW("meta.block_count_mismatch", E, S,
        "ARCH.block_count differs from the layers the tensors name (blk.N, N contiguous from 0)",
        "the layer count and the tensors disagree: for a split set, check that every part is "
        "there; otherwise the file is damaged: " REDOWNLOAD " or " RECONVERT),
    ROW("meta.block_count_range", E, B,
        "ARCH.block_count above llama.cpp's LLAMA_MAX_LAYERS (512)",
        "no llama.cpp build can load it, and older ones overran their layer arrays on it: do "
        "not load the file"),
    ROW("meta.chat_template_risk", W, B,
        "a chat template (tokenizer.chat_template*) that reaches Python internals (__class__, "
        "__globals__, __import__, os., subprocess, |attr chains, ...) or is larger than any real "
        "one: rendered by an unsandboxed Jinja2 it can run code (CVE-2024-34359)",
        "never render this template with an unsandboxed Jinja2 (llama-cpp-python did before "
        "0.2.72): use llama.cpp's own template engine or a sandbox, or replace the template; "
        "report the file to the hub if its publisher did not mean it"),

    ROW("payload.scale_nonfinite", E, S,
        "quantized blocks whose scale is Inf or NaN (ggml_validate_row_data rejects them)",
        "these blocks decode to NaN or Inf, and ggml's validation refuses them: quantize again "
        "from clean weights"),
    ROW("payload.mxfp4_scale", E, S,
        "MXFP4 blocks with scale exponent 0xFF (ggml_validate_row_data rejects them)",
        "ggml's validation refuses these blocks: quantize the tensor again"),
    ROW("payload.nvfp4_scale", W, S,
        "NVFP4 blocks with a UE4M3 scale byte outside 0x00..0x7E (sign bit set, or the E4M3 NaN "
        "code): ggml decodes them, other implementations differ",
        "the values depend on the implementation that decodes them: quantize again for the same "
        "results everywhere, or accept the difference"),
    ROW("payload.float_nonfinite", E, S, "F16, BF16, F32 or F64 tensors holding NaN or Inf",
        "NaN or Inf weights make the model's output garbage: find where they came from "
        "(training, conversion) before using the file"),
    ROW("payload.all_zero", I, 0, "a tensor whose data bytes are all zero",
        "often legitimate (biases, padding tensors); a weight matrix of zeros points at a broken "
        "conversion"),

    ROW("split.part_missing", E, B, "a part of the split set cannot be opened",
        "download the missing part (the message names it) into the directory of the others, "
        "with its original name, and certify the first part again"),
    ROW("split.same_file", E, B,
        "two parts are one file (symlinks or hard links to it): the set is not what its names say",
        "replace the links with the real parts (download the set again if they are lost), then "
        "certify the first part again"),
    ROW("split.key_missing", E, B, "a part without split.no, split.count or split.tensors.count",
        "the part was not written by gguf-split, or was rewritten: " RESPLIT),
    ROW("split.key_type", E, B, "a split key that is not a non-negative integer",
        "the part's split keys are damaged: " RESPLIT),
    ROW("split.number_mismatch", E, B,
        "split.no is not the part's position (numbers not contiguous from 0)",
        "parts were renamed or mixed between sets: download the set again and keep the original "
        "file names"),
    ROW("split.count_mismatch", E, B,
        "split.count differs between parts or from the file names",
        "the parts come from different sets: download the set again"),
    ROW("split.tensor_count_mismatch", E, B,
        "split.tensors.count differs between parts, or the parts' tensors do not sum to it",
        "a part comes from another set or was rewritten: download the set again, or " RESPLIT),
    ROW("split.duplicate_tensor", E, B, "a tensor name in two parts",
        "the set is ambiguous (which copy wins depends on the reader): " RESPLIT),
    ROW("split.bad_name", E, S,
        "split keys say the file is one of several parts, but its name is not "
        "`PREFIX-NNNNN-of-NNNNN.gguf`, so the other parts cannot be found",
        "rename the parts to PREFIX-NNNNN-of-NNNNN.gguf as gguf-split named them, then certify "
        "the first part"),
    ROW("split.part_one_absent", E, B,
        "a later part of a split set found in a directory without its part 1: the set is "
        "incomplete and cannot be loaded",
        "fetch the missing part 1, PREFIX-00001-of-NNNNN.gguf (a partial download or an upload "
        "that stopped), into the directory of the others with its original name, or delete the "
        "stray parts"),
    ROW("split.part_alone", I, 0,
        "a later part of a set certified on its own: the set checks and the metadata rules need "
        "part 1",
        "certify the set from its first part, PREFIX-00001-of-NNNNN.gguf, to check it whole"),
};

const size_t cert_code_count = sizeof cert_codes / sizeof cert_codes[0];

/* ---- the reader's statuses ----------------------------------------------------------------- */

typedef struct reader_hint {
    gs_status status;
    const char *hint;
    const char *help;
} reader_hint;

#define R(st, hint) {st, hint, CERT_HELP_BASE CERT_READER_PREFIX #st}

/* Every status a reader finding can carry; the others (the caller's; split sets, which
 * certification reports as split.* findings) get the last. */
static const reader_hint reader_hints[] = {
    R(GS_E_IO, "the file could not be read (a disk, network or permission problem, not its "
               "contents): fix the storage and certify again"),
    R(GS_E_NO_MEMORY, "the machine ran out of memory reading the file: free some, or raise the "
                      "limit, and certify again"),
    R(GS_E_BAD_MAGIC, "the file is not GGUF: reader.not_gguf says what it is"),
    R(GS_E_UNSUPPORTED_VERSION,
      "a GGUF version this reader cannot read (1 is obsolete, above 3 is newer than ggufsafe): "
      "for version 1, " RECONVERT "; for a newer one, update ggufsafe"),
    R(GS_E_BYTE_SWAPPED,
      "a big-endian GGUF file (written for s390x or POWER): convert a copy to little-endian with "
      "gguf-py (pip install gguf; gguf-convert-endian COPY little) and certify the copy"),
    R(GS_E_TRUNCATED,
      "the file ends inside a field: almost always an incomplete download; " REDOWNLOAD),
    R(GS_E_COUNT_EXCEEDS_FILE,
      "a count asks for more bytes than the file has: an incomplete download, or a damaged or "
      "crafted header; " REDOWNLOAD " and do not load this copy"),
    R(GS_E_STRING_EXCEEDS_FILE,
      "a string's length runs past the end of the file: an incomplete download, or a damaged or "
      "crafted length; " REDOWNLOAD " and do not load this copy"),
    R(GS_E_LIMIT_KV_COUNT, "more key-values than ggufsafe's limit, far beyond any real model: "
                           "treat the file as crafted"),
    R(GS_E_LIMIT_TENSOR_COUNT, "more tensors than ggufsafe's limit, far beyond any real model: "
                               "treat the file as crafted"),
    R(GS_E_LIMIT_STRING_LENGTH, "a string longer than ggufsafe's limit (64 MiB), far beyond any "
                                "real model: treat the file as crafted"),
    R(GS_E_LIMIT_ARRAY_LENGTH, "an array longer than ggufsafe's limit, far beyond any real "
                               "vocabulary: treat the file as crafted"),
    R(GS_E_LIMIT_ALIGNMENT, "an alignment above ggufsafe's limit (1 MiB): treat the file as "
                            "crafted"),
    R(GS_E_LIMIT_MEMORY, "the metadata would need more memory than ggufsafe's limit: treat the "
                         "file as crafted"),
    R(GS_E_INVALID_UTF8,
      "llama.cpp loads it, but text that is not UTF-8 breaks tools that print or tokenize it: "
      "fix the value (gguf-py's gguf-new-metadata) or " RECONVERT),
    R(GS_E_BAD_VALUE_TYPE, NOT_LOAD),
    R(GS_E_NESTED_ARRAY, "no ggml-based reader loads an array of arrays: the converter must "
                         "write the value as several keys (compat.nested_array)"),
    R(GS_E_BAD_BOOL, "llama.cpp reads the byte as true, strict readers refuse it "
                     "(compat.bool_value): set it to 0 or 1 with gguf-py's gguf-set-metadata"),
    R(GS_E_EMPTY_KEY, NOT_LOAD),
    R(GS_E_KEY_HAS_NUL, NOT_LOAD),
    R(GS_E_BAD_KEY, "llama.cpp loads it, strict readers refuse the key (compat.key_grammar): "
                    "rename it with gguf-py's gguf-new-metadata if they must read the file"),
    R(GS_E_DUPLICATE_KEY, "readers disagree about which of the two values counts: " NOT_LOAD),
    R(GS_E_ALIGNMENT_TYPE, "readers cannot lay the data out: " NOT_LOAD),
    R(GS_E_ALIGNMENT_VALUE,
      "an alignment the spec forbids or llama.cpp refuses: the file was not written by a ggml "
      "writer; " RECONVERT " or rewrite it with alignment 32"),
    R(GS_E_TOO_MANY_DIMS, NOT_LOAD),
    R(GS_E_NEGATIVE_DIM, NOT_LOAD),
    R(GS_E_SIZE_OVERFLOW, "a tensor's size overflows: readers without checks write out of "
                          "bounds on it; " NOT_LOAD),
    R(GS_E_UNKNOWN_TENSOR_TYPE,
      "a tensor type this version of ggufsafe does not know: a newer or a forked format (update "
      "ggufsafe; use the fork's own tools), or a damaged file"),
    R(GS_E_REMOVED_TENSOR_TYPE,
      "a tensor type ggml has removed (q4_2, q4_3, ...): current llama.cpp cannot load it; "
      "quantize again from the original weights"),
    R(GS_E_ROW_NOT_BLOCK_MULTIPLE, "the tensor's shape does not fit its type: " NOT_LOAD),
    R(GS_E_TENSOR_NAME_TOO_LONG,
      "llama.cpp refuses tensor names over 63 bytes: the converter that wrote them needs "
      "fixing; ask the publisher for a new conversion"),
    R(GS_E_TENSOR_NAME_EMPTY, NOT_LOAD),
    R(GS_E_TENSOR_NAME_HAS_NUL, NOT_LOAD),
    R(GS_E_DUPLICATE_TENSOR_NAME, "readers disagree about which tensor of that name counts: "
                                  NOT_LOAD),
    R(GS_E_MISALIGNED_OFFSET, "llama.cpp refuses tensor data that is not aligned: the file was "
                              "not written by a ggml writer; " RECONVERT),
    R(GS_E_OFFSET_NOT_PACKED, "llama.cpp requires tensors packed in order "
                              "(compat.offsets_not_packed): rewrite the file with a ggml writer"),
    R(GS_E_TENSOR_OVERLAP, "two tensors share bytes, so changing one changes the other: treat "
                           "the file as crafted and do not load it"),
    R(GS_E_DATA_OUTSIDE_FILE,
      "the tensor's data lies past the end of the file: an incomplete download "
      "(layout.truncated) or a damaged offset; " REDOWNLOAD),
    {GS_OK, "see docs/status-codes.md for this status", CERT_HELP_BASE "reader"},
};

#define N_READER_HINTS (sizeof reader_hints / sizeof reader_hints[0])

static const reader_hint *reader_row(gs_status status)
{
    for (size_t i = 0; i + 1 < N_READER_HINTS; i++) {
        if (reader_hints[i].status == status) {
            return &reader_hints[i];
        }
    }
    return &reader_hints[N_READER_HINTS - 1];
}

const char *cert_reader_hint(gs_status status)
{
    return reader_row(status)->hint;
}

const char *cert_reader_help(gs_status status)
{
    return reader_row(status)->help;
}

/* The status a "reader.<STATUS>" code names; false for other codes and unknown names. */
static bool reader_status(const char *code, gs_status *out)
{
    const char *prefix = CERT_READER_PREFIX;
    if (strncmp(code, prefix, strlen(prefix)) != 0) {
        return false;
    }
    for (int v = 0; v < 100; v++) {
        if (strcmp(gs_status_name((gs_status)v), code + strlen(prefix)) == 0) {
            *out = (gs_status)v;
            return true;
        }
    }
    return false;
}

const cert_code *cert_code_find(const char *code)
{
    for (size_t i = 0; i < cert_code_count; i++) {
        if (strcmp(cert_codes[i].code, code) == 0) {
            return &cert_codes[i];
        }
    }
    gs_status st;
    return reader_status(code, &st) ? &cert_codes[0] : NULL;
}

bool cert_code_row(const char *code, cert_code *out)
{
    const cert_code *row = cert_code_find(code);
    if (row == NULL) {
        return false;
    }
    *out = *row;
    gs_status st;
    if (row == &cert_codes[0] && reader_status(code, &st)) {
        out->summary = gs_status_message(st);
        out->hint = cert_reader_hint(st);
        out->help = cert_reader_help(st);
    }
    return true;
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
