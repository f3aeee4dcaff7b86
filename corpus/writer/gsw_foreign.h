/* Files that are not GGUF, one small sample of each kind gs_detect recognises: what a broken
 * download or a mix-up leaves where a GGUF should be (a Git LFS pointer, error pages, other
 * model formats, archives). Each is a real instance of its format, as small as it gets (the
 * archives are valid ones; xz and 7z are stream headers only), built from bytes here rather than
 * kept as binary blobs. The corpus writes them under notgguf/, the detector's tests check each
 * against what it declares. Test-only. */
#ifndef GGUFSAFE_GSW_FOREIGN_H
#define GGUFSAFE_GSW_FOREIGN_H

#include <stddef.h>

#include "ggufsafe.h"
#include "gsw_bytes.h"

typedef struct gsw_foreign {
    const char *file;    /* name under notgguf/, with the kind's usual extension */
    gs_format format;    /* what gs_detect must say */
    gs_format inner;     /* and, for an archive, what its first entry holds */
    const char *detail;  /* gs_detected.detail, exactly */
    gs_status status;    /* the reader's verdict (both profiles, at byte 0): GS_E_BAD_MAGIC, but
                            GS_E_BYTE_SWAPPED at byte 4 for big-endian GGUF */
    const char *desc;    /* one line for the corpus manifest */
    void (*build)(gsw_bytes *b);
} gsw_foreign;

extern const gsw_foreign gsw_foreign_samples[];
extern const size_t gsw_foreign_count;

#endif
