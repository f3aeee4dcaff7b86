/* The writer's lowest layer: a growable byte buffer with little-endian appends and in-place
 * patches. Test-only (never linked into libggufsafe); on allocation failure it aborts, since a
 * test that cannot build its input has nothing to report. */
#ifndef GGUFSAFE_GSW_BYTES_H
#define GGUFSAFE_GSW_BYTES_H

#include <stddef.h>
#include <stdint.h>

typedef struct gsw_bytes {
    uint8_t *data;
    size_t len;
    size_t cap;
} gsw_bytes;

void gsw_bytes_init(gsw_bytes *b);
void gsw_bytes_free(gsw_bytes *b);

void gsw_put(gsw_bytes *b, const void *src, size_t n);
void gsw_put_u8(gsw_bytes *b, uint8_t v);
void gsw_put_u16(gsw_bytes *b, uint16_t v);
void gsw_put_u32(gsw_bytes *b, uint32_t v);
void gsw_put_u64(gsw_bytes *b, uint64_t v);
/* The IEEE bits of a float or double, every payload kept. */
uint32_t gsw_f32_bits(float v);
uint64_t gsw_f64_bits(double v);
void gsw_put_f32(gsw_bytes *b, float v);
void gsw_put_f64(gsw_bytes *b, double v);
/* A gguf string: u64 length then the bytes. */
void gsw_put_str(gsw_bytes *b, const void *s, size_t n);
void gsw_put_cstr(gsw_bytes *b, const char *s);
/* n copies of byte v. */
void gsw_put_fill(gsw_bytes *b, uint8_t v, size_t n);
/* Zero bytes up to the next multiple of align (relative to the buffer start). */
void gsw_pad_to(gsw_bytes *b, uint64_t align);

void gsw_patch_u8(gsw_bytes *b, size_t at, uint8_t v);
void gsw_patch_u32(gsw_bytes *b, size_t at, uint32_t v);
void gsw_patch_u64(gsw_bytes *b, size_t at, uint64_t v);
/* v little-endian in width (1..8) bytes at at; the bytes must already exist. */
void gsw_patch_le(gsw_bytes *b, size_t at, uint64_t v, unsigned width);
/* The little-endian value of the width bytes at p (width at most 8): the tests' own reading of
 * bytes, independent of the reader's. */
uint64_t gsw_le_at(const uint8_t *p, unsigned width);
/* n bytes from src over the existing bytes at at. */
void gsw_patch(gsw_bytes *b, size_t at, const void *src, size_t n);
/* Cuts the buffer to its first len bytes (len <= current length). */
void gsw_truncate(gsw_bytes *b, size_t len);

/* Appends the whole file at path; returns 0 or -1 (what was read stays appended). */
int gsw_bytes_load(gsw_bytes *b, const char *path);
/* Writes the buffer to path; returns 0 or -1. */
int gsw_bytes_save(const gsw_bytes *b, const char *path);

#endif
