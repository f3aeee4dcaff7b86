/* The one rule for bytes that came from a file on their way to a person (docs/cli.md,
 * "Escaping"): which characters are shown as escapes instead of as themselves. Text output
 * (gsi_escape_text) and the JSON writer both classify through gsi_char_next, so the two can
 * never disagree about what is hidden.
 *
 * Shown escaped:
 *   - bytes that do not start a valid UTF-8 sequence: \xHH (the byte);
 *   - characters that control a terminal, reorder text or show nothing (gsi_char_hidden): C0
 *     controls and DEL as \xHH (one byte, whose value is the code point), every other one as
 *     \u{XXXX} (its code point, at least four lower-case hex digits): C1 (U+0080..U+009F, CSI and
 *     OSC among them), the bidirectional embeddings, overrides, isolates and marks, zero-width
 *     and invisible format characters, line and paragraph separators, the BOM, interlinear
 *     annotation controls and tag characters;
 *   - the backslash, as \\, so that an escape in the output always comes from us.
 * Everything else that is valid UTF-8 passes unchanged. No escape is longer than 4 output bytes
 * per source byte (\u{0085} for a 2-byte sequence is the worst case). */
#ifndef GGUFSAFE_TEXT_ESCAPE_H
#define GGUFSAFE_TEXT_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum gsi_char_class {
    GSI_CHAR_PLAIN,   /* valid UTF-8, shown as it is (the backslash included: each output
                         escapes its own metacharacters) */
    GSI_CHAR_HIDDEN,  /* a valid character that must be shown as an escape: cp */
    GSI_CHAR_INVALID  /* a byte that starts no valid UTF-8 sequence: cp is the byte */
} gsi_char_class;

typedef struct gsi_char {
    gsi_char_class cls;
    uint32_t cp;  /* the code point (the byte for GSI_CHAR_INVALID) */
    size_t len;   /* source bytes it takes: 1..4 (1 for GSI_CHAR_INVALID) */
} gsi_char;

/* The character at s[0..n), n >= 1. */
gsi_char gsi_char_next(const uint8_t *s, size_t n);

/* Is the code point one of those the rule above shows escaped? */
bool gsi_char_hidden(uint32_t cp);

/* Writes a NUL-terminated escaped copy of src[0..n) into dst (cap >= 4), ending it with "..." when
 * it does not fit. Returns the number of bytes written, without the NUL. */
size_t gsi_escape_text(char *dst, size_t cap, const uint8_t *src, size_t n);

#endif
