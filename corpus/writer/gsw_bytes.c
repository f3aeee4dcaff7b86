#include "gsw_bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsw_alloc.h"

void gsw_bytes_init(gsw_bytes *b) { *b = (gsw_bytes){NULL, 0, 0}; }
void gsw_bytes_free(gsw_bytes *b) { free(b->data); gsw_bytes_init(b); }

static void reserve(gsw_bytes *b, size_t extra)
{
    const size_t need = extra > SIZE_MAX - b->len ? SIZE_MAX : b->len + extra;
    b->data = gsw_grow(b->data, &b->cap, need, 1, 256, "gsw_bytes");
}

void gsw_put(gsw_bytes *b, const void *src, size_t n)
{
    if (n == 0) {
        return;
    }
    reserve(b, n);
    memcpy(b->data + b->len, src, n);
    b->len += n;
}

static void put_le(gsw_bytes *b, uint64_t v, unsigned width)
{
    uint8_t tmp[8];
    for (unsigned i = 0; i < width; i++) {
        tmp[i] = (uint8_t)(v >> (8 * i));
    }
    gsw_put(b, tmp, width);
}

void gsw_put_u8(gsw_bytes *b, uint8_t v) { put_le(b, v, 1); }
void gsw_put_u16(gsw_bytes *b, uint16_t v) { put_le(b, v, 2); }
void gsw_put_u32(gsw_bytes *b, uint32_t v) { put_le(b, v, 4); }
void gsw_put_u64(gsw_bytes *b, uint64_t v) { put_le(b, v, 8); }

uint32_t gsw_f32_bits(float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

uint64_t gsw_f64_bits(double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

void gsw_put_f32(gsw_bytes *b, float v) { put_le(b, gsw_f32_bits(v), 4); }
void gsw_put_f64(gsw_bytes *b, double v) { put_le(b, gsw_f64_bits(v), 8); }

void gsw_put_str(gsw_bytes *b, const void *s, size_t n)
{
    gsw_put_u64(b, n);
    gsw_put(b, s, n);
}

void gsw_put_cstr(gsw_bytes *b, const char *s)
{
    gsw_put_str(b, s, strlen(s));
}

void gsw_put_fill(gsw_bytes *b, uint8_t v, size_t n)
{
    reserve(b, n);
    memset(b->data + b->len, v, n);
    b->len += n;
}

void gsw_pad_to(gsw_bytes *b, uint64_t align)
{
    size_t rem = (size_t)(b->len % align);
    if (rem != 0) {
        gsw_put_fill(b, 0, (size_t)(align - rem));
    }
}

static void patch_le(gsw_bytes *b, size_t at, uint64_t v, unsigned width)
{
    if (at > b->len || b->len - at < width) {
        fprintf(stderr, "gsw_bytes: patch at %zu outside %zu bytes\n", at, b->len);
        abort();
    }
    for (unsigned i = 0; i < width; i++) {
        b->data[at + i] = (uint8_t)(v >> (8 * i));
    }
}

void gsw_patch_u8(gsw_bytes *b, size_t at, uint8_t v) { patch_le(b, at, v, 1); }
void gsw_patch_u32(gsw_bytes *b, size_t at, uint32_t v) { patch_le(b, at, v, 4); }
void gsw_patch_u64(gsw_bytes *b, size_t at, uint64_t v) { patch_le(b, at, v, 8); }

void gsw_patch_le(gsw_bytes *b, size_t at, uint64_t v, unsigned width)
{
    if (width == 0 || width > 8) {
        fprintf(stderr, "gsw_bytes: patch of width %u\n", width);
        abort();
    }
    patch_le(b, at, v, width);
}

uint64_t gsw_le_at(const uint8_t *p, unsigned width)
{
    uint64_t v = 0;
    for (unsigned k = width; k-- > 0;) {
        v = v << 8 | p[k];
    }
    return v;
}

void gsw_patch(gsw_bytes *b, size_t at, const void *src, size_t n)
{
    if (at > b->len || b->len - at < n) {
        fprintf(stderr, "gsw_bytes: patch of %zu bytes at %zu outside %zu bytes\n", n, at,
                b->len);
        abort();
    }
    if (n > 0) {
        memcpy(b->data + at, src, n);
    }
}

void gsw_truncate(gsw_bytes *b, size_t len)
{
    if (len > b->len) {
        fprintf(stderr, "gsw_bytes: cut at %zu past the end (%zu bytes)\n", len, b->len);
        abort();
    }
    b->len = len;
}

int gsw_bytes_load(gsw_bytes *b, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return -1;
    }
    uint8_t buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        gsw_put(b, buf, n);
    }
    const int err = ferror(f);
    fclose(f);
    return err ? -1 : 0;
}

int gsw_bytes_save(const gsw_bytes *b, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return -1;
    }
    size_t n = b->len ? fwrite(b->data, 1, b->len, f) : 0;
    int rc = fclose(f);
    return (n == b->len && rc == 0) ? 0 : -1;
}
