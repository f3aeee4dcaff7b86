#include "gsw_foreign.h"

#include <stdio.h>
#include <string.h>

/* CRC-32 (IEEE 802.3, reflected), the checksum of zip, gzip, xz and 7z: bitwise, for the few
 * hundred bytes of these samples. */
static uint32_t crc32_of(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) {
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
        }
    }
    return c ^ 0xffffffffu;
}

static void put_text(gsw_bytes *b, const char *s)
{
    gsw_put(b, s, strlen(s));
}

static void put_u32be(gsw_bytes *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    gsw_put(b, x, 4);
}

static void put_u64be(gsw_bytes *b, uint64_t v)
{
    put_u32be(b, (uint32_t)(v >> 32));
    put_u32be(b, (uint32_t)v);
}

/* The smallest valid GGUF: a version 3 header without records (what the archives hold). */
static void tiny_gguf(gsw_bytes *b)
{
    put_text(b, "GGUF");
    gsw_put_u32(b, 3);
    gsw_put_u64(b, 0);
    gsw_put_u64(b, 0);
}

static void lfs_pointer(gsw_bytes *b)
{
    put_text(b, "version https://git-lfs.github.com/spec/v1\n"
                "oid sha256:4d2f7b8e3c1a9f60b5e2d8c7a1f3e9b0c6d4a2f8e1b7c3d9a5f0e2b4c8d6a1f3\n"
                "size 4368439584\n");
}

static void html_page(gsw_bytes *b)
{
    put_text(b, "<!DOCTYPE html>\n<html class=\"\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<title>Access to model example/gated-model is restricted</title>\n</head>\n"
                "<body><h1>401</h1><p>You must be authenticated to access it.</p></body>\n"
                "</html>\n");
}

static void xml_error(gsw_bytes *b)
{
    put_text(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code>"
                "<Message>Request has expired</Message>"
                "<Expires>2024-05-01T12:00:00Z</Expires></Error>\n");
}

static void json_error(gsw_bytes *b)
{
    put_text(b, "{\"error\":\"Entry not found\"}");
}

static void text_404(gsw_bytes *b)
{
    put_text(b, "404: Not Found");
}

/* An 8-byte header length, the JSON header padded with spaces to 8 bytes, 2 f32 values. */
static void safetensors(gsw_bytes *b)
{
    static const char header[] = "{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                                 "\"__metadata__\":{\"format\":\"pt\"}}   ";
    gsw_put_u64(b, sizeof header - 1);
    put_text(b, header);
    gsw_put_f32(b, 1.0f);
    gsw_put_f32(b, 2.0f);
}

/* pickle protocol 2: an empty dict (EMPTY_DICT, BINPUT 0, STOP) */
static const uint8_t empty_dict_pickle[] = {0x80, 0x02, '}', 'q', 0x00, '.'};

/* A zip of stored entries, each {name, bytes}, with its central directory. */
typedef struct zip_entry {
    const char *name;
    const uint8_t *data;
    size_t len;
} zip_entry;

static void zip_of(gsw_bytes *b, const zip_entry *e, size_t n)
{
    size_t offsets[4];
    for (size_t i = 0; i < n; i++) {
        offsets[i] = b->len;
        uint16_t name_len = (uint16_t)strlen(e[i].name);
        put_text(b, "PK\x03\x04");
        gsw_put_u16(b, 20); /* version needed */
        gsw_put_u16(b, 0);  /* flags */
        gsw_put_u16(b, 0);  /* stored */
        gsw_put_u16(b, 0);  /* time */
        gsw_put_u16(b, 0x21); /* date: 1980-01-01 */
        gsw_put_u32(b, crc32_of(e[i].data, e[i].len));
        gsw_put_u32(b, (uint32_t)e[i].len);
        gsw_put_u32(b, (uint32_t)e[i].len);
        gsw_put_u16(b, name_len);
        gsw_put_u16(b, 0);
        gsw_put(b, e[i].name, name_len);
        gsw_put(b, e[i].data, e[i].len);
    }
    size_t cd = b->len;
    for (size_t i = 0; i < n; i++) {
        uint16_t name_len = (uint16_t)strlen(e[i].name);
        put_text(b, "PK\x01\x02");
        gsw_put_u16(b, 20); /* made by */
        gsw_put_u16(b, 20);
        gsw_put_u16(b, 0);
        gsw_put_u16(b, 0);
        gsw_put_u16(b, 0);
        gsw_put_u16(b, 0x21);
        gsw_put_u32(b, crc32_of(e[i].data, e[i].len));
        gsw_put_u32(b, (uint32_t)e[i].len);
        gsw_put_u32(b, (uint32_t)e[i].len);
        gsw_put_u16(b, name_len);
        gsw_put_u16(b, 0); /* extra */
        gsw_put_u16(b, 0); /* comment */
        gsw_put_u16(b, 0); /* disk */
        gsw_put_u16(b, 0); /* internal attributes */
        gsw_put_u32(b, 0); /* external attributes */
        gsw_put_u32(b, (uint32_t)offsets[i]);
        gsw_put(b, e[i].name, name_len);
    }
    size_t cd_len = b->len - cd;
    put_text(b, "PK\x05\x06");
    gsw_put_u16(b, 0);
    gsw_put_u16(b, 0);
    gsw_put_u16(b, (uint16_t)n);
    gsw_put_u16(b, (uint16_t)n);
    gsw_put_u32(b, (uint32_t)cd_len);
    gsw_put_u32(b, (uint32_t)cd);
    gsw_put_u16(b, 0);
}

/* torch.save's zip: the pickle as archive/data.pkl, then archive/version */
static void pytorch_zip(gsw_bytes *b)
{
    static const uint8_t version[] = {'3', '\n'};
    zip_entry e[2] = {{"archive/data.pkl", empty_dict_pickle, sizeof empty_dict_pickle},
                      {"archive/version", version, sizeof version}};
    zip_of(b, e, 2);
}

static void zip_with_gguf(gsw_bytes *b)
{
    gsw_bytes g;
    gsw_bytes_init(&g);
    tiny_gguf(&g);
    zip_entry e = {"model.gguf", g.data, g.len};
    zip_of(b, &e, 1);
    gsw_bytes_free(&g);
}

/* torch.save before 1.6: the magic number 0x1950a86a20f9469cfc6c, the protocol version 1001, then
 * the (here empty) state dict, each a pickle of its own. */
static void torch_legacy_pickle(gsw_bytes *b)
{
    static const uint8_t magic[] = {0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9,
                                    0x20, 0x6a, 0xa8, 0x50, 0x19, '.'};
    static const uint8_t protocol[] = {0x80, 0x02, 'M', 0xe9, 0x03, '.'};
    gsw_put(b, magic, sizeof magic);
    gsw_put(b, protocol, sizeof protocol);
    gsw_put(b, empty_dict_pickle, sizeof empty_dict_pickle);
}

/* ModelProto{ir_version 7, producer_name "pytorch", producer_version "2.1.0", graph {},
 * opset_import {version 17}} */
static void onnx_model(gsw_bytes *b)
{
    static const uint8_t m[] = {0x08, 0x07, 0x12, 0x07, 'p', 'y', 't', 'o', 'r', 'c', 'h',
                                0x1a, 0x05, '2', '.', '1', '.', '0', 0x3a, 0x00, 0x42, 0x02,
                                0x10, 0x11};
    gsw_put(b, m, sizeof m);
}

/* llama.cpp's hyperparameters of the time (vocabulary, embedding, mult, heads, layers, rot,
 * file type); the files went on with the vocabulary and the tensors. */
static void legacy_hparams(gsw_bytes *b)
{
    static const uint32_t hp[] = {32000, 4096, 256, 32, 32, 128, 2};
    for (size_t i = 0; i < sizeof hp / sizeof hp[0]; i++) {
        gsw_put_u32(b, hp[i]);
    }
}

static void ggjt_v3(gsw_bytes *b)
{
    gsw_put_u32(b, 0x67676a74u);
    gsw_put_u32(b, 3);
    legacy_hparams(b);
}

static void ggmf_v1(gsw_bytes *b)
{
    gsw_put_u32(b, 0x67676d66u);
    gsw_put_u32(b, 1);
    legacy_hparams(b);
}

static void ggml_unversioned(gsw_bytes *b)
{
    gsw_put_u32(b, 0x67676d6cu);
    legacy_hparams(b);
}

/* gzip with the original name, one stored deflate block holding the tiny GGUF */
static void gzip_gguf(gsw_bytes *b)
{
    gsw_bytes g;
    gsw_bytes_init(&g);
    tiny_gguf(&g);
    static const uint8_t head[] = {0x1f, 0x8b, 0x08, 0x08, 0, 0, 0, 0, 0x00, 0x03};
    gsw_put(b, head, sizeof head);
    put_text(b, "model.gguf");
    gsw_put_u8(b, 0);
    gsw_put_u8(b, 0x01); /* BFINAL, stored */
    gsw_put_u16(b, (uint16_t)g.len);
    gsw_put_u16(b, (uint16_t)~g.len);
    gsw_put(b, g.data, g.len);
    gsw_put_u32(b, crc32_of(g.data, g.len));
    gsw_put_u32(b, (uint32_t)g.len);
    gsw_bytes_free(&g);
}

/* An empty xz stream: header (CRC32 check), an index of no records, the footer. */
static void xz_empty(gsw_bytes *b)
{
    static const uint8_t flags[2] = {0x00, 0x01};
    put_text(b, "\xfd" "7zXZ");
    gsw_put_u8(b, 0);
    gsw_put(b, flags, 2);
    gsw_put_u32(b, crc32_of(flags, 2));
    static const uint8_t index[4] = {0x00, 0x00, 0x00, 0x00};
    gsw_put(b, index, 4);
    gsw_put_u32(b, crc32_of(index, 4));
    uint8_t footer[6] = {0x01, 0x00, 0x00, 0x00, 0x00, 0x01}; /* backward size 1: 8 bytes */
    gsw_put_u32(b, crc32_of(footer, 6));
    gsw_put(b, footer, 6);
    put_text(b, "YZ");
}

/* A zstd frame (single segment, content size 24) of one raw block: the tiny GGUF */
static void zstd_gguf(gsw_bytes *b)
{
    gsw_bytes g;
    gsw_bytes_init(&g);
    tiny_gguf(&g);
    static const uint8_t head[] = {0x28, 0xb5, 0x2f, 0xfd, 0x20};
    gsw_put(b, head, sizeof head);
    gsw_put_u8(b, (uint8_t)g.len);
    uint32_t block = (uint32_t)g.len << 3 | 1u; /* last block, raw */
    gsw_put_u8(b, (uint8_t)block);
    gsw_put_u8(b, (uint8_t)(block >> 8));
    gsw_put_u8(b, (uint8_t)(block >> 16));
    gsw_put(b, g.data, g.len);
    gsw_bytes_free(&g);
}

/* An empty bzip2 stream: the header and the end-of-stream marker with a zero CRC */
static void bzip2_empty(gsw_bytes *b)
{
    static const uint8_t s[] = {'B', 'Z', 'h', '9', 0x17, 0x72, 0x45, 0x38, 0x50, 0x90,
                                0, 0, 0, 0};
    gsw_put(b, s, sizeof s);
}

/* An empty 7z archive: the signature header alone (no next header) */
static void sevenzip_empty(gsw_bytes *b)
{
    put_text(b, "7z\xbc\xaf\x27\x1c");
    gsw_put_u8(b, 0);
    gsw_put_u8(b, 4);
    uint8_t start[20] = {0}; /* next header offset, size, CRC: all 0 */
    gsw_put_u32(b, crc32_of(start, sizeof start));
    gsw_put(b, start, sizeof start);
}

/* A POSIX tar of one member, model.gguf (the tiny GGUF), and the two closing zero blocks */
static void tar_gguf(gsw_bytes *b)
{
    gsw_bytes g;
    gsw_bytes_init(&g);
    tiny_gguf(&g);
    uint8_t h[512];
    memset(h, 0, sizeof h);
    memcpy(h, "model.gguf", 10);
    memcpy(h + 100, "0000644", 7);
    memcpy(h + 108, "0000000", 7);
    memcpy(h + 116, "0000000", 7);
    snprintf((char *)h + 124, 12, "%011o", (unsigned)g.len);
    memcpy(h + 136, "00000000000", 11);
    memset(h + 148, ' ', 8);
    h[156] = '0';
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    unsigned sum = 0;
    for (size_t i = 0; i < sizeof h; i++) {
        sum += h[i];
    }
    snprintf((char *)h + 148, 8, "%06o", sum);
    h[155] = ' ';
    gsw_put(b, h, sizeof h);
    gsw_put(b, g.data, g.len);
    gsw_pad_to(b, 512);
    gsw_put_fill(b, 0, 1024);
    gsw_bytes_free(&g);
}

/* A GGUF written big-endian: the magic as bytes, every number byte-swapped; one key-value */
static void gguf_big_endian(gsw_bytes *b)
{
    put_text(b, "GGUF");
    put_u32be(b, 3);
    put_u64be(b, 0);
    put_u64be(b, 1);
    put_u64be(b, 20);
    put_text(b, "general.architecture");
    put_u32be(b, 8);
    put_u64be(b, 5);
    put_text(b, "llama");
}

static void elf_binary(gsw_bytes *b)
{
    static const uint8_t elf[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                  3, 0, 0x3e, 0, 1, 0, 0, 0};
    gsw_put(b, elf, sizeof elf);
}

const gsw_foreign gsw_foreign_samples[] = {
    {"git_lfs_pointer.gguf", GS_FORMAT_GIT_LFS_POINTER, GS_FORMAT_UNKNOWN,
     "oid sha256:4d2f7b8e3c1a9f60b5e2d8c7a1f3e9b0c6d4a2f8e1b7c3d9a5f0e2b4c8d6a1f3, size "
     "4368439584 bytes",
     GS_E_BAD_MAGIC, "a Git LFS pointer in place of a 4 GB model (cloned without git lfs)",
     lfs_pointer},
    {"html_error_page.gguf", GS_FORMAT_HTML, GS_FORMAT_UNKNOWN,
     "Access to model example/gated-model is restricted", GS_E_BAD_MAGIC,
     "a hub's HTML page for a gated model, saved as the file", html_page},
    {"xml_access_denied.gguf", GS_FORMAT_XML, GS_FORMAT_UNKNOWN, "Request has expired",
     GS_E_BAD_MAGIC, "an S3-style XML error reply (expired link)", xml_error},
    {"json_error.gguf", GS_FORMAT_JSON, GS_FORMAT_UNKNOWN, "Entry not found", GS_E_BAD_MAGIC,
     "a hub API's JSON error reply", json_error},
    {"text_404.gguf", GS_FORMAT_TEXT, GS_FORMAT_UNKNOWN, "404: Not Found", GS_E_BAD_MAGIC,
     "a plain-text 404 reply", text_404},
    {"model.safetensors", GS_FORMAT_SAFETENSORS, GS_FORMAT_UNKNOWN,
     "a JSON header of 88 bytes", GS_E_BAD_MAGIC, "a safetensors file with one f32 tensor",
     safetensors},
    {"pytorch_model.bin", GS_FORMAT_PYTORCH_ZIP, GS_FORMAT_UNKNOWN,
     "first entry 'archive/data.pkl', stored", GS_E_BAD_MAGIC,
     "a PyTorch zip checkpoint (torch.save) of an empty state dict", pytorch_zip},
    {"pytorch_legacy.pt", GS_FORMAT_PICKLE, GS_FORMAT_UNKNOWN,
     "pickle protocol 2, torch.save's legacy checkpoint", GS_E_BAD_MAGIC,
     "a PyTorch checkpoint in the pickle format before 1.6", torch_legacy_pickle},
    {"model.onnx", GS_FORMAT_ONNX, GS_FORMAT_UNKNOWN, "producer 'pytorch'", GS_E_BAD_MAGIC,
     "an ONNX model without nodes", onnx_model},
    {"ggjt_v3.bin", GS_FORMAT_GGML_LEGACY, GS_FORMAT_UNKNOWN, "magic ggjt, version 3",
     GS_E_BAD_MAGIC, "llama.cpp's ggjt v3 format (2023), header only", ggjt_v3},
    {"ggmf_v1.bin", GS_FORMAT_GGML_LEGACY, GS_FORMAT_UNKNOWN, "magic ggmf, version 1",
     GS_E_BAD_MAGIC, "llama.cpp's ggmf v1 format, header only", ggmf_v1},
    {"ggml_unversioned.bin", GS_FORMAT_GGML_LEGACY, GS_FORMAT_UNKNOWN, "magic ggml",
     GS_E_BAD_MAGIC, "llama.cpp's first, unversioned ggml format, header only",
     ggml_unversioned},
    {"model.gguf.gz", GS_FORMAT_GZIP, GS_FORMAT_UNKNOWN, "original name 'model.gguf'",
     GS_E_BAD_MAGIC, "a GGUF compressed with gzip", gzip_gguf},
    {"empty.xz", GS_FORMAT_XZ, GS_FORMAT_UNKNOWN, "", GS_E_BAD_MAGIC, "an empty xz stream",
     xz_empty},
    {"model.gguf.zst", GS_FORMAT_ZSTD, GS_FORMAT_UNKNOWN, "", GS_E_BAD_MAGIC,
     "a GGUF in a zstd frame (one raw block)", zstd_gguf},
    {"empty.bz2", GS_FORMAT_BZIP2, GS_FORMAT_UNKNOWN, "", GS_E_BAD_MAGIC,
     "an empty bzip2 stream", bzip2_empty},
    {"model.zip", GS_FORMAT_ZIP, GS_FORMAT_GGUF, "first entry 'model.gguf', stored",
     GS_E_BAD_MAGIC, "a zip archive holding a GGUF, stored", zip_with_gguf},
    {"empty.7z", GS_FORMAT_7Z, GS_FORMAT_UNKNOWN, "", GS_E_BAD_MAGIC, "an empty 7-Zip archive",
     sevenzip_empty},
    {"model.tar", GS_FORMAT_TAR, GS_FORMAT_GGUF, "first member 'model.gguf'", GS_E_BAD_MAGIC,
     "a tar archive holding a GGUF", tar_gguf},
    {"big_endian.gguf", GS_FORMAT_GGUF_BIG_ENDIAN, GS_FORMAT_UNKNOWN, "", GS_E_BYTE_SWAPPED,
     "a GGUF v3 written big-endian, one key-value", gguf_big_endian},
    {"program.gguf", GS_FORMAT_UNKNOWN, GS_FORMAT_UNKNOWN, "first bytes 7f 45 4c 46 02 01 01 00",
     GS_E_BAD_MAGIC, "an ELF executable's header: no format gs_detect names", elf_binary},
};

const size_t gsw_foreign_count = sizeof gsw_foreign_samples / sizeof gsw_foreign_samples[0];
