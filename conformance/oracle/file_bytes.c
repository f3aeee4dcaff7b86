#include "file_bytes.h"

#include <stdio.h>
#include <stdlib.h>

uint8_t *gsx_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long len = -1;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)len + 1);
        if (buf != NULL && fread(buf, 1, (size_t)len, f) != (size_t)len) {
            free(buf);
            buf = NULL;
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    *size = buf != NULL ? (size_t)len : 0;
    return buf;
}

int gsx_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return -1;
    }
    const int ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok ? 0 : -1;
}
