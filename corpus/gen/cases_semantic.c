/* Files that are structurally valid but semantically wrong: tokenizer arrays that disagree and
 * split-set keys. The reader accepts all of them (under both profiles); the certification
 * command is where they become findings. */
#include <stdio.h>
#include <string.h>

#include "gsc_cases.h"

/* A small consistent tokenizer of n tokens, the pieces chosen by `broken`. */
typedef enum broken {
    NONE,
    SCORES_SHORT,
    TYPES_LONG,
    SCORES_I8,
    TYPES_U8,
    TOKENS_U64,
    TYPES_OUT_OF_RANGE,
    BOS_PAST_VOCAB,
    BYTE_TOKEN_MINUS_1,
    BLOCK_COUNT_HUGE,
} broken;

static void tokenizer(gsc_case *c, broken b)
{
    const uint64_t n = 8;
    gsc_begin(c, 3);
    gsc_add_arch(&c->m);
    gsw_set_u32(gsw_add(&c->m, "llama.block_count"), b == BLOCK_COUNT_HUGE ? 100000 : 2);
    gsw_set_cstr(gsw_add(&c->m, "tokenizer.ggml.model"), "llama");
    gsw_value *tokens = gsw_add(&c->m, "tokenizer.ggml.tokens");
    if (b == TOKENS_U64) {
        gsw_set_array(tokens, GS_VALUE_U64, n, NULL);
    } else {
        gsw_set_string_array(tokens, n);
        for (uint64_t i = 0; i < n; i++) {
            char t[16];
            int len = snprintf(t, sizeof t, "tok%llu", (unsigned long long)i);
            if (b == BYTE_TOKEN_MINUS_1 && i == 3) {
                len = snprintf(t, sizeof t, "<0x-1>");
            }
            gsw_array_string(tokens, i, t, (size_t)len);
        }
    }
    uint64_t n_scores = b == SCORES_SHORT ? n - 1 : n;
    if (b == SCORES_I8) {
        gsw_set_array(gsw_add(&c->m, "tokenizer.ggml.scores"), GS_VALUE_I8, n, NULL);
    } else {
        gsw_set_array(gsw_add(&c->m, "tokenizer.ggml.scores"), GS_VALUE_F32, n_scores, NULL);
    }
    uint64_t n_types = b == TYPES_LONG ? n + 3 : n;
    gsw_value *types = gsw_add(&c->m, "tokenizer.ggml.token_type");
    if (b == TYPES_U8) {
        gsw_set_array(types, GS_VALUE_U8, n_types, NULL);
        memset(types->raw.ptr, 1, types->raw.len);
    } else {
        gsw_set_array(types, GS_VALUE_I32, n_types, NULL);
        for (uint64_t i = 0; i < n_types; i++) {
            types->raw.ptr[4 * i] = 1; /* normal */
        }
        if (b == TYPES_OUT_OF_RANGE) {
            types->raw.ptr[0] = 0;
            types->raw.ptr[4] = 7;
        }
        if (b == BYTE_TOKEN_MINUS_1) {
            types->raw.ptr[4 * 3] = 6; /* byte */
        }
    }
    gsw_set_u32(gsw_add(&c->m, "tokenizer.ggml.bos_token_id"), b == BOS_PAST_VOCAB ? 8 : 1);
    gsc_add_f32(&c->m, "token_embd.weight", 8 * 4);
    gsc_write(c, 0);
}

static void tokenizers(gsc_sink *s)
{
    static const struct { broken b; const char *file, *desc; } t[] = {
        {NONE, "tokenizer/consistent.gguf", "8 tokens with scores and token types"},
        {SCORES_SHORT, "tokenizer/scores_shorter.gguf",
         "7 scores for 8 tokens (PR #20737 heap over-read)"},
        {TYPES_LONG, "tokenizer/token_type_longer.gguf", "11 token types for 8 tokens"},
        {SCORES_I8, "tokenizer/scores_i8.gguf",
         "scores as an i8 array (#24888: read as float, 3x over-read)"},
        {TYPES_U8, "tokenizer/token_type_u8.gguf", "token types as a u8 array"},
        {TOKENS_U64, "tokenizer/tokens_u64.gguf",
         "tokens as a u64 array (gguf_get_arr_str type confusion)"},
        {TYPES_OUT_OF_RANGE, "tokenizer/token_type_out_of_range.gguf",
         "token types 0 and 7, outside 1..6"},
        {BOS_PAST_VOCAB, "tokenizer/bos_past_vocab.gguf", "bos_token_id 8 of 8 tokens"},
        {BYTE_TOKEN_MINUS_1, "tokenizer/byte_token_minus_1.gguf",
         "byte token <0x-1> (PLaMo-2 #25969: bytes_[-1] write)"},
        {BLOCK_COUNT_HUGE, "tokenizer/block_count_100000.gguf",
         "llama.block_count 100000, past LLAMA_MAX_LAYERS (#25821)"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        gsc_case c;
        tokenizer(&c, t[i].b);
        char desc[160];
        snprintf(desc, sizeof desc, "%s: accepted by the reader, a certification finding",
                 t[i].desc);
        /* every one: llama.block_count 2 with no blk.N tensor (meta.block_count_mismatch),
         * besides the finding the case is about */
        gsc_certify(&c, GSC_NOT_CERTIFIED);
        gsc_ok(s, &c, t[i].file, i == 0 ? t[i].desc : desc);
    }
}

/* One part of a split set: split.no, split.count, split.tensors.count and its tensors. */
static void part(gsc_sink *s, const char *file, uint16_t no, uint16_t count, int32_t total,
                 const char *first_tensor, int n_tensors, int certify, const char *desc)
{
    gsc_case c;
    gsc_begin(&c, 3);
    gsc_add_arch(&c.m);
    gsw_set_u16(gsw_add(&c.m, "split.no"), no);
    gsw_set_u16(gsw_add(&c.m, "split.count"), count);
    gsw_set_i32(gsw_add(&c.m, "split.tensors.count"), total);
    for (int i = 0; i < n_tensors; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s%d", first_tensor, i);
        gsc_add_f32(&c.m, name, 4);
    }
    gsc_write(&c, 0);
    gsc_certify(&c, certify);
    gsc_ok(s, &c, file, desc);
}

/* certify on a first part checks the set; on a later part, that part against its own name
 * (a note says the set needs part 1). */
static void splits(gsc_sink *s)
{
    part(s, "split/model-00001-of-00002.gguf", 0, 2, 3, "blk.a", 2, GSC_CERTIFIED,
         "part 1 of a consistent 2-part set (3 tensors)");
    part(s, "split/model-00002-of-00002.gguf", 1, 2, 3, "blk.b", 1, GSC_CERTIFIED,
         "part 2 of a consistent 2-part set");
    part(s, "split/badno-00001-of-00002.gguf", 0, 2, 2, "t", 1, GSC_NOT_CERTIFIED,
         "part 1 of a set whose part 2 says split.no 0: each part is a valid GGUF");
    part(s, "split/badno-00002-of-00002.gguf", 0, 2, 2, "u", 1, GSC_NOT_CERTIFIED,
         "part 2 saying split.no 0 (set: GS_E_SPLIT_NUMBER_MISMATCH)");
    part(s, "split/dup-00001-of-00002.gguf", 0, 2, 2, "same", 1, GSC_NOT_CERTIFIED,
         "part 1 of a set whose parts both hold tensor same0");
    part(s, "split/dup-00002-of-00002.gguf", 1, 2, 2, "same", 1, GSC_CERTIFIED,
         "part 2 repeating tensor same0 (set: GS_E_SPLIT_DUPLICATE_TENSOR)");
}

void gsc_cases_semantic(gsc_sink *s)
{
    tokenizers(s);
    splits(s);
}
