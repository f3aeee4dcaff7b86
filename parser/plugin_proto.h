/* The frames between ggufsafe and a plugin host child (gs_plugin_host_main): a u32 kind and a
 * u32 payload length, little-endian, then the payload. The parent checks every frame it reads
 * against the bounds below before it uses a byte of it. */
#ifndef GGUFSAFE_PLUGIN_PROTO_H
#define GGUFSAFE_PLUGIN_PROTO_H

#include <stdint.h>

#include "ggufsafe.h"

enum {
    GSI_PF_TABLE = 1,      /* child: the encoded table (plugin_table.h) */
    GSI_PF_LOAD_ERROR = 2, /* child: why the plugin could not be loaded (text) */
    GSI_PF_DECODE = 3,     /* parent: i32 type, u32 n_elems, then the blocks */
    GSI_PF_RESULT = 4,     /* child: i32 the plugin's return, then n_elems floats when 0 */
    GSI_PF_OOB = 5,        /* child: u64 how far past (or before) its output the plugin wrote,
                              u32 1 after the end / 0 before the start */
    GSI_PF_QUIT = 6,       /* parent: stop */
    GSI_PF_TABLE_ERROR = 7 /* child: the plugin loaded, but its table is one this library cannot
                              use (text): GS_E_INVALID_ARGUMENT, as gsi_plugin_table_encode says
                              in-process, where GSI_PF_LOAD_ERROR is GS_E_IO */
};

#define GSI_PF_HEADER 8u
#define GSI_PF_TEXT_MAX 512u
/* One decode call's output, at most (the reader's chunking keeps under it, tensor_decode.c). */
#define GSI_PLUGIN_MAX_OUT_ELEMS (256u * 1024u)

static inline void gsi_pf_header(uint8_t h[GSI_PF_HEADER], uint32_t kind, uint32_t len)
{
    for (unsigned i = 0; i < 4; i++) {
        h[i] = (uint8_t)(kind >> (8 * i));
        h[4 + i] = (uint8_t)(len >> (8 * i));
    }
}

#endif
