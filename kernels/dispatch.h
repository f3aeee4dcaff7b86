/* Runtime choice of the decoder path (scalar, AVX2, NEON, ggml): what the CPU can run, what
 * GGUFSAFE_KERNEL or gs_set_kernel asked for, and the decoder table of the path in use.
 * The public side is gs_set_kernel / gs_active_kernel / gs_kernel_name (ggufsafe.h). */
#ifndef GGUFSAFE_DISPATCH_H
#define GGUFSAFE_DISPATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "decode.h"
#include "ggml_lib.h"
#include "ggufsafe.h"

/* True when this build has the path and this CPU (and OS) can run it. SCALAR always; AUTO
 * always (it means "the best of the others"). Probed once. */
bool gsi_kernel_supported(gs_kernel kernel);

/* The decoder of `type` on a given path, whether or not the CPU can run it (the caller checks
 * gsi_kernel_supported first); NULL for an undecodable type or a path this build lacks. The
 * GGML path has no gsi_decode_fn: NULL but for F32 (the scalar copy, as on every path). */
gsi_decode_fn gsi_decoder_for(gs_kernel kernel, int32_t type);

/* A decoder of the active path: one of our block decoders, or ggml's to_float (elements). */
typedef struct gsi_decoder {
    gsi_decode_fn fn;
    gsi_ggml_to_float_fn ggml;
} gsi_decoder;

/* The decoder of `type` on the active path. GS_E_KERNEL_UNAVAILABLE (and both NULL) while
 * GGUFSAFE_KERNEL names a path this CPU or build cannot run, or an unknown name, and on the
 * GGML path for a type the loaded ggml cannot convert. */
gs_status gsi_active_decoder(int32_t type, gsi_decoder *d);

/* The loaded ggml library, loading it from GGUFSAFE_GGML first when none is; NULL when none
 * loads (gs_ggml_describe says why). Once loaded it stays for the life of the process. */
const gsi_ggml *gsi_ggml_active(void);

#endif
