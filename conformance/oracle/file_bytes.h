/* Whole files in and out of memory, for the oracle's runner, benchmark and tests. */
#ifndef GGUFSAFE_ORACLE_FILE_BYTES_H
#define GGUFSAFE_ORACLE_FILE_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* The file's bytes (malloc'd, one spare byte so an empty file is not NULL) and *size; NULL when
 * it cannot be read. */
uint8_t *gsx_read_file(const char *path, size_t *size);
/* Writes size bytes to path; 0, or -1 on any failure. */
int gsx_write_file(const char *path, const void *data, size_t size);

#endif
