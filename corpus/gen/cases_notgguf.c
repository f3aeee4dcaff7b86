/* Files that stand in for a GGUF when a download or a copy goes wrong: one of each kind gs_detect
 * names (corpus/writer/gsw_foreign.c builds them and declares what each is). The reader refuses
 * them all on the magic (a big-endian GGUF on its version word); certify names what each is
 * (reader.not_gguf) and exits 1, as for any file under test that is bad. */
#include <stdio.h>

#include "gsc_cases.h"
#include "gsw_foreign.h"

void gsc_cases_notgguf(gsc_sink *s)
{
    for (size_t i = 0; i < gsw_foreign_count; i++) {
        const gsw_foreign *f = &gsw_foreign_samples[i];
        gsw_bytes b;
        gsw_bytes_init(&b);
        f->build(&b);
        char file[128];
        snprintf(file, sizeof file, "notgguf/%s", f->file);
        uint64_t at = f->status == GS_E_BYTE_SWAPPED ? 4 : 0;
        gsc_emit(s, file, b.data, b.len, gsc_v(f->status, at), gsc_v(f->status, at),
                 GSC_CERTIFY_DERIVED, f->desc);
        gsw_bytes_free(&b);
    }
}
