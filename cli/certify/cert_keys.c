#include "cert_keys.h"

#include <string.h>

/* llama.cpp (llama-arch.cpp, llama-model-loader.cpp, llama-vocab.cpp): hparams are uint32_t,
 * the split keys uint16_t / int32_t, special token ids uint32_t. */
static const cert_int_key keys[] = {
    {false, "general.quantization_version", GS_VALUE_U32, false},
    {false, "general.file_type", GS_VALUE_U32, false},
    {false, "split.no", GS_VALUE_U16, false},
    {false, "split.count", GS_VALUE_U16, false},
    {false, "split.tensors.count", GS_VALUE_I32, false},
    {true, "context_length", GS_VALUE_U32, false},
    {true, "embedding_length", GS_VALUE_U32, false},
    {true, "block_count", GS_VALUE_U32, false},
    {true, "feed_forward_length", GS_VALUE_U32, true},
    {true, "attention.head_count", GS_VALUE_U32, true},
    {true, "attention.head_count_kv", GS_VALUE_U32, true},
    {true, "attention.key_length", GS_VALUE_U32, false},
    {true, "attention.value_length", GS_VALUE_U32, false},
    {true, "rope.dimension_count", GS_VALUE_U32, false},
    {true, "expert_count", GS_VALUE_U32, false},
    {true, "expert_used_count", GS_VALUE_U32, false},
    {true, "vocab_size", GS_VALUE_U32, false},
};

const char *const cert_special_token_keys[] = {
    "tokenizer.ggml.bos_token_id",     "tokenizer.ggml.eos_token_id",
    "tokenizer.ggml.unknown_token_id", "tokenizer.ggml.seperator_token_id",
    "tokenizer.ggml.padding_token_id", "tokenizer.ggml.cls_token_id",
    "tokenizer.ggml.mask_token_id",    "tokenizer.ggml.eot_token_id",
    "tokenizer.ggml.eom_token_id",     "tokenizer.ggml.fim_pre_token_id",
    "tokenizer.ggml.fim_suf_token_id", "tokenizer.ggml.fim_mid_token_id",
    "tokenizer.ggml.fim_pad_token_id", "tokenizer.ggml.fim_rep_token_id",
    "tokenizer.ggml.fim_sep_token_id",
};
const size_t cert_special_token_key_count =
    sizeof cert_special_token_keys / sizeof cert_special_token_keys[0];

static const cert_int_key special = {false, "tokenizer.ggml.*_token_id", GS_VALUE_U32, false};

const cert_int_key *cert_int_key_find(const char *key, size_t len, const char *arch,
                                      size_t arch_len)
{
    for (size_t i = 0; i < cert_special_token_key_count; i++) {
        if (strlen(cert_special_token_keys[i]) == len &&
            memcmp(cert_special_token_keys[i], key, len) == 0) {
            return &special;
        }
    }
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const cert_int_key *k = &keys[i];
        size_t n = strlen(k->name);
        if (!k->per_arch) {
            if (n == len && memcmp(k->name, key, len) == 0) {
                return k;
            }
        } else if (arch != NULL && arch_len + 1 + n == len && memcmp(key, arch, arch_len) == 0 &&
                   key[arch_len] == '.' && memcmp(key + arch_len + 1, k->name, n) == 0) {
            return k;
        }
    }
    return NULL;
}
