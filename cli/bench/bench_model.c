/* gs_bench_model OUT [LAYERS]: writes a llama-shaped GGUF for the hash and certify benchmark
 * (bench_certify.sh). Layout as ggml writes it (alignment 32, packed, zero padding); 4096-wide
 * layers with 11008-wide feed-forward, Q4_K weights with finite random scales, a Q6_K output, F32
 * norms, a 32000-token tokenizer, and the metadata certification asks for, so `ggufsafe certify
 * --deep` certifies it. The default 9 layers give 1.21 GB (more than 1 GiB). Streams to disk:
 * memory stays small whatever the size. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN 32u
#define N_EMBD 4096u
#define N_FF 11008u
#define N_VOCAB 32000u

enum { T_F32 = 0, T_Q4_K = 12, T_Q6_K = 14 };

typedef struct tensor {
    char name[64];
    uint64_t ne0, ne1;
    int type;
    uint64_t size, offset;
} tensor;

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void put(FILE *f, const void *p, size_t n)
{
    if (fwrite(p, 1, n, f) != n) {
        perror("gs_bench_model: write");
        exit(1);
    }
}

static void put_u32(FILE *f, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(f, b, 4);
}

static void put_u64(FILE *f, uint64_t v)
{
    put_u32(f, (uint32_t)v);
    put_u32(f, (uint32_t)(v >> 32));
}

static void put_str(FILE *f, const char *s)
{
    put_u64(f, strlen(s));
    put(f, s, strlen(s));
}

static void kv_str(FILE *f, const char *k, const char *v)
{
    put_str(f, k);
    put_u32(f, 8);
    put_str(f, v);
}

static void kv_u32(FILE *f, const char *k, uint32_t v)
{
    put_str(f, k);
    put_u32(f, 4);
    put_u32(f, v);
}

static void kv_f32(FILE *f, const char *k, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, 4);
    put_str(f, k);
    put_u32(f, 6);
    put_u32(f, bits);
}

static void pad(FILE *f, uint64_t *pos)
{
    static const uint8_t zeros[ALIGN];
    uint64_t n = (ALIGN - *pos % ALIGN) % ALIGN;
    put(f, zeros, (size_t)n);
    *pos += n;
}

/* A finite f16 between 2^-12 and 2^-4: a plausible block scale. */
static uint16_t small_f16(void)
{
    return (uint16_t)(((3 + next_u64() % 8) << 10) | (next_u64() & 0x3ff));
}

static void fill_block(int type, uint8_t *b)
{
    for (size_t i = 0; i < 256; i += 8) {
        uint64_t r = next_u64();
        memcpy(b + i, &r, 8);
    }
    if (type == T_Q4_K) {
        uint16_t d = small_f16(), dmin = small_f16();
        memcpy(b, &d, 2);
        memcpy(b + 2, &dmin, 2);
    } else {
        uint16_t d = small_f16();
        memcpy(b + 208, &d, 2);
    }
}

static void write_data(FILE *f, const tensor *t)
{
    static uint8_t buf[1 << 20];
    if (t->type == T_F32) {
        float one = 1.0f;
        for (uint64_t i = 0; i < t->size / 4; i++) {
            put(f, &one, 4);
        }
        return;
    }
    const size_t bb = t->type == T_Q4_K ? 144 : 210;
    const size_t per = sizeof buf / bb;
    uint64_t blocks = t->size / bb;
    uint8_t block[256];
    while (blocks > 0) {
        size_t n = blocks < per ? (size_t)blocks : per;
        for (size_t i = 0; i < n; i++) {
            fill_block(t->type, block);
            memcpy(buf + i * bb, block, bb);
        }
        put(f, buf, n * bb);
        blocks -= n;
    }
}

static uint64_t nbytes(int type, uint64_t n)
{
    return type == T_F32 ? 4 * n : type == T_Q4_K ? n / 256 * 144 : n / 256 * 210;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: gs_bench_model OUT [LAYERS]\n");
        return 2;
    }
    unsigned layers = argc == 3 ? (unsigned)strtoul(argv[2], NULL, 10) : 9;
    if (layers == 0 || layers > 512) {
        fprintf(stderr, "gs_bench_model: LAYERS must be 1..512\n");
        return 2;
    }
    size_t n_tensors = 3 + 9 * (size_t)layers;
    tensor *ts = calloc(n_tensors, sizeof *ts);
    if (ts == NULL) {
        return 1;
    }
    size_t k = 0;
    ts[k++] = (tensor){"token_embd.weight", N_EMBD, N_VOCAB, T_Q4_K, 0, 0};
    for (unsigned l = 0; l < layers; l++) {
        static const struct {
            const char *name;
            uint64_t ne0, ne1;
            int type;
        } per[] = {{"attn_norm.weight", N_EMBD, 1, T_F32},  {"attn_q.weight", N_EMBD, N_EMBD, T_Q4_K},
                   {"attn_k.weight", N_EMBD, N_EMBD, T_Q4_K}, {"attn_v.weight", N_EMBD, N_EMBD, T_Q4_K},
                   {"attn_output.weight", N_EMBD, N_EMBD, T_Q4_K},
                   {"ffn_norm.weight", N_EMBD, 1, T_F32},   {"ffn_gate.weight", N_EMBD, N_FF, T_Q4_K},
                   {"ffn_up.weight", N_EMBD, N_FF, T_Q4_K},  {"ffn_down.weight", N_FF, N_EMBD, T_Q4_K}};
        for (size_t i = 0; i < sizeof per / sizeof per[0]; i++) {
            tensor *t = &ts[k++];
            snprintf(t->name, sizeof t->name, "blk.%u.%s", l, per[i].name);
            t->ne0 = per[i].ne0;
            t->ne1 = per[i].ne1;
            t->type = per[i].type;
        }
    }
    ts[k++] = (tensor){"output_norm.weight", N_EMBD, 1, T_F32, 0, 0};
    ts[k++] = (tensor){"output.weight", N_EMBD, N_VOCAB, T_Q6_K, 0, 0};
    uint64_t off = 0;
    for (size_t i = 0; i < n_tensors; i++) {
        ts[i].size = nbytes(ts[i].type, ts[i].ne0 * ts[i].ne1);
        ts[i].offset = off;
        off += (ts[i].size + ALIGN - 1) / ALIGN * ALIGN;
    }

    FILE *f = fopen(argv[1], "wb");
    if (f == NULL) {
        perror(argv[1]);
        return 1;
    }
    static char iobuf[1 << 20];
    setvbuf(f, iobuf, _IOFBF, sizeof iobuf);
    const uint64_t n_kv = 17;
    put(f, "GGUF", 4);
    put_u32(f, 3);
    put_u64(f, n_tensors);
    put_u64(f, n_kv);
    kv_str(f, "general.architecture", "llama");
    kv_str(f, "general.name", "ggufsafe benchmark model");
    kv_u32(f, "general.quantization_version", 2);
    kv_u32(f, "general.file_type", 15);
    kv_u32(f, "llama.block_count", layers);
    kv_u32(f, "llama.context_length", 4096);
    kv_u32(f, "llama.embedding_length", N_EMBD);
    kv_u32(f, "llama.feed_forward_length", N_FF);
    kv_u32(f, "llama.attention.head_count", 32);
    kv_u32(f, "llama.rope.dimension_count", 128);
    kv_f32(f, "llama.attention.layer_norm_rms_epsilon", 1e-5f);
    kv_str(f, "tokenizer.ggml.model", "llama");
    put_str(f, "tokenizer.ggml.tokens");
    put_u32(f, 9);
    put_u32(f, 8);
    put_u64(f, N_VOCAB);
    for (unsigned i = 0; i < N_VOCAB; i++) {
        char tok[32];
        snprintf(tok, sizeof tok, "tok%u", i);
        put_str(f, tok);
    }
    put_str(f, "tokenizer.ggml.scores");
    put_u32(f, 9);
    put_u32(f, 6);
    put_u64(f, N_VOCAB);
    for (unsigned i = 0; i < N_VOCAB; i++) {
        float s = -(float)i;
        put(f, &s, 4);
    }
    put_str(f, "tokenizer.ggml.token_type");
    put_u32(f, 9);
    put_u32(f, 5);
    put_u64(f, N_VOCAB);
    for (unsigned i = 0; i < N_VOCAB; i++) {
        put_u32(f, 1);
    }
    kv_u32(f, "tokenizer.ggml.bos_token_id", 1);
    kv_u32(f, "tokenizer.ggml.eos_token_id", 2);
    for (size_t i = 0; i < n_tensors; i++) {
        put_str(f, ts[i].name);
        uint32_t n_dims = ts[i].ne1 == 1 ? 1 : 2;
        put_u32(f, n_dims);
        put_u64(f, ts[i].ne0);
        if (n_dims == 2) {
            put_u64(f, ts[i].ne1);
        }
        put_u32(f, (uint32_t)ts[i].type);
        put_u64(f, ts[i].offset);
    }
    long here = ftell(f);
    uint64_t pos = here < 0 ? 0 : (uint64_t)here;
    pad(f, &pos);
    for (size_t i = 0; i < n_tensors; i++) {
        write_data(f, &ts[i]);
        pos += ts[i].size;
        pad(f, &pos);
    }
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    printf("%s: %zu tensors, %u layers, %llu bytes\n", argv[1], n_tensors, layers,
           (unsigned long long)pos);
    free(ts);
    return 0;
}
