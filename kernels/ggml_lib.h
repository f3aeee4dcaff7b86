/* ggml as a decoder: loading a user's libggml-base with dlopen, checking that our declarations
 * of its type traits fit it, and its decoders and block geometry by type id. Nothing of ggml's
 * source is in this project: the declarations below are ours, written to ggml's public headers
 * (ggml/include/ggml.h). This is the one loader of the tree: the library's GGUFSAFE_KERNEL=ggml
 * path (dispatch.c), `--ggml PATH` in the command and the ggml oracle's runner
 * (conformance/oracle/runner, which resolves its extra gguf_* symbols with gsi_ggml_resolve)
 * all load ggml through it.
 *
 * What makes a library acceptable (docs/decoders.md, "ggml as a decoder"):
 *   - every symbol of gsi_ggml is exported (otherwise GSI_GGML_MISSING_SYMBOL, naming it);
 *   - ggml_version() is "0.MINOR.PATCH" with MINOR >= GSI_GGML_MIN_MINOR: the releases whose
 *     struct ggml_type_traits is {type_name, blck_size, blck_size_interleave, type_size,
 *     is_quantized, to_float, from_float_ref} (ggml-base since the CPU backend split; to_float at
 *     byte 40 on LP64), and ggml_commit() is printable (GSI_GGML_UNVOUCHED otherwise);
 *   - every id of our registry (kernels/type_registry.c) has, in ggml's traits, its name, block
 *     elements and block bytes (removed ids: zero geometry), and Q4_0's to_float is the exported
 *     dequantize_row_q4_0: a shifted member fails one or the other (GSI_GGML_UNVOUCHED). */
#ifndef GGUFSAFE_GGML_LIB_H
#define GGUFSAFE_GGML_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef void (*gsi_ggml_to_float_fn)(const void *x, float *y, int64_t k);

/* struct ggml_type_traits, as ggml-base declares it (to_float at byte 40 on LP64). */
typedef struct gsi_ggml_traits {
    const char *type_name;
    int64_t blck_size;
    int64_t blck_size_interleave;
    size_t type_size;
    bool is_quantized;
    gsi_ggml_to_float_fn to_float;
    void *from_float_ref;
} gsi_ggml_traits;

typedef void (*gsi_ggml_log_fn)(int level, const char *text, void *user);

/* The oldest 0.MINOR release whose traits layout this loader is written to. */
#define GSI_GGML_MIN_MINOR 9

typedef struct gsi_ggml {
    void *handle;
    char path[4096];
    char version[32]; /* ggml_version(), copied */
    char commit[48];  /* ggml_commit(), copied */

    const char *(*ggml_version)(void);
    const char *(*ggml_commit)(void);
    void (*ggml_log_set)(gsi_ggml_log_fn fn, void *user);
    const gsi_ggml_traits *(*ggml_get_type_traits)(int type);
    gsi_ggml_to_float_fn dequantize_row_q4_0; /* the layout check's witness */
    gsi_ggml_to_float_fn dequantize_row_q8_K; /* Q8_K has no to_float in the traits */
} gsi_ggml;

typedef enum gsi_ggml_status {
    GSI_GGML_LOADED = 0,
    GSI_GGML_NOT_FOUND = 1,      /* nothing readable at the path */
    GSI_GGML_DLOPEN_FAILED = 2,  /* dlopen refused it (not a shared object, wrong architecture) */
    GSI_GGML_MISSING_SYMBOL = 3, /* a symbol of gsi_ggml is not exported */
    GSI_GGML_UNVOUCHED = 4       /* version, commit or traits are not the layout we know */
} gsi_ggml_status;

/* Opens path, resolves every symbol of gsi_ggml and checks it as above. On failure the library
 * is closed again, *g is zeroed but for path, and why holds one sentence naming the path and
 * the symbol, version or type that failed (ggml's strings escaped). */
gsi_ggml_status gsi_ggml_open(gsi_ggml *g, const char *path, char *why, size_t why_cap);

/* Resolves one more symbol of the open library into a function-pointer slot (without a cast
 * from a data pointer): 0, or -1 with why naming it. For callers that need more of ggml's API
 * than decoding (the oracle's runner). */
int gsi_ggml_resolve(const gsi_ggml *g, void *slot, size_t slot_size, const char *name,
                     char *why, size_t why_cap);

void gsi_ggml_close(gsi_ggml *g);

/* ggml's decoder for a type our registry knows (0..GS_TYPE_COUNT-1): the traits' to_float,
 * dequantize_row_q8_K for Q8_K, NULL for a type ggml cannot convert (Q8_1, F32: callers copy
 * F32 themselves, integer types). Ids our registry does not know: see gsi_ggml_type. */
gsi_ggml_to_float_fn gsi_ggml_decoder(const gsi_ggml *g, int32_t type);

/* Geometry, name and decoder ggml gives an id our registry does not know (a type of the user's
 * branch). ggml indexes its traits table with the id unchecked, so past its last type the entry
 * is whatever follows the table: the entry, its name and its to_float are used only when each
 * lies inside ggml's own loaded image (dladdr), which ends the walk at ggml's last type.
 * 0 when ggml has a live type there (block elements and bytes nonzero and representable, a
 * printable name of at most 63 bytes of [A-Za-z0-9_.-], copied into name); -1 otherwise. */
int gsi_ggml_type(const gsi_ggml *g, int32_t type, char name[64], uint32_t *block_elems,
                  uint32_t *block_bytes, gsi_ggml_to_float_fn *to_float, char *why,
                  size_t why_cap);

/* Silences ggml's log (a serving process), or sends it back to ggml's default (stderr). */
void gsi_ggml_quiet_log(const gsi_ggml *g);

#endif
