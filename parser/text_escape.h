/* Escaping of bytes that came from a file before they reach a terminal or a log: control bytes,
 * DEL, backslash and invalid UTF-8 become \xHH (backslash becomes \\), valid UTF-8 passes. */
#ifndef GGUFSAFE_TEXT_ESCAPE_H
#define GGUFSAFE_TEXT_ESCAPE_H

#include <stddef.h>
#include <stdint.h>

/* Writes a NUL-terminated escaped copy of src[0..n) into dst (cap >= 4), ending it with "..." when
 * it does not fit. Returns the number of bytes written, without the NUL. */
size_t gsi_escape_text(char *dst, size_t cap, const uint8_t *src, size_t n);

#endif
