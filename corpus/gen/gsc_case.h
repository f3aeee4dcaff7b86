/* Building and emitting corpus cases. A recipe builds a model, writes it (recording the field
 * map), breaks what it means to break through the map, and declares the verdict the reader must
 * give under each profile, with offsets taken from the map. */
#ifndef GGUFSAFE_GSC_CASE_H
#define GGUFSAFE_GSC_CASE_H

#include "gsc_manifest.h"
#include "gsw_write.h"

typedef struct gsc_sink {
    const char *out_dir;
    gsc_manifest manifest;
    uint64_t bytes; /* total written */
} gsc_sink;

void gsc_sink_init(gsc_sink *s, const char *out_dir);
void gsc_sink_free(gsc_sink *s);

/* The exit status `ggufsafe certify` must give a case. A file the strict reader rejects cannot
 * be certified: 1 (its reader.<STATUS> finding is an error, or, for a file that is not GGUF at
 * all, reader.not_gguf); GSC_CERTIFY_DERIVED gives exactly that. An accepted file's recipe must
 * declare it (gsc_certify), working it out from the certification rules (docs/certify.md),
 * never from what the command prints. */
#define GSC_CERTIFY_DERIVED (-1)
#define GSC_CERTIFIED 0     /* no error finding */
#define GSC_NOT_CERTIFIED 1 /* at least one error finding */

/* Writes data to out_dir/file (creating its directory), hashes it and records the entry. Aborts
 * on a duplicate file name, a tab or newline in desc, an accepted case without a declared
 * certify exit, or an I/O error: a broken recipe. */
void gsc_emit(gsc_sink *s, const char *file, const void *data, size_t len, gsc_verdict strict,
              gsc_verdict lenient, int certify, const char *desc);

/* A row of the tables of one-tensor shape cases: the file, the tensor's n_dims, ne and type,
 * and the case's description. */
typedef struct gsc_shape {
    const char *file;
    uint32_t n;
    uint64_t ne[4];
    int32_t type;
    const char *desc;
} gsc_shape;

/* A row of the tables of cases about one value type: the file (or the name it is made from),
 * the type id, a 64-bit value (a scalar's bits, an array's count) and the description. */
typedef struct gsc_typed {
    const char *name;
    uint32_t type;
    uint64_t value;
    const char *desc;
} gsc_typed;

typedef struct gsc_case {
    gsw_model m;
    gsw_bytes b;
    gsw_map map;
    int certify; /* GSC_CERTIFY_DERIVED until gsc_certify */
} gsc_case;

void gsc_begin(gsc_case *c, uint32_t version);
/* Writes the model into c->b and c->map (replacing earlier bytes); aborts if the writer refuses. */
void gsc_write(gsc_case *c, unsigned flags);
void gsc_end(gsc_case *c);
/* Declares the certify exit of the case being built (after gsc_begin, before it is emitted). */
void gsc_certify(gsc_case *c, int exit_status);
/* Offset of a field of the written case (gsw_at). */
uint64_t gsc_at(const gsc_case *c, gsw_kind kind, uint32_t record, uint64_t index);
/* Sets the u64 length field `kind` of record 1 (its first) to the bytes the file has left after
 * it, plus `extra`; returns the field's offset. */
uint64_t gsc_len_to_eof(gsc_case *c, gsw_kind kind, uint64_t extra);

static inline gsc_verdict gsc_v(gs_status status, uint64_t offset)
{
    return (gsc_verdict){status, offset};
}
#define GSC_OK ((gsc_verdict){GS_OK, 0})

/* Emit c->b with its verdicts, then free the case. */
void gsc_two(gsc_sink *s, gsc_case *c, const char *file, gsc_verdict strict, gsc_verdict lenient,
             const char *desc);
/* Accepted by both profiles. */
void gsc_ok(gsc_sink *s, gsc_case *c, const char *file, const char *desc);
/* Rejected by both profiles with the same status at the same offset. */
void gsc_both(gsc_sink *s, gsc_case *c, const char *file, gs_status status, uint64_t offset,
              const char *desc);
/* Sets the u64 length field `kind` of record 1 to len, then emits the case rejected by both
 * profiles with GS_E_STRING_EXCEEDS_FILE at that field. */
void gsc_bad_len(gsc_sink *s, gsc_case *c, gsw_kind kind, uint64_t len, const char *file,
                 const char *desc);
/* The same with the length one byte more than the file has left after the field. */
void gsc_len_past_eof(gsc_sink *s, gsc_case *c, gsw_kind kind, const char *file,
                      const char *desc);
/* Rejected by strict only; lenient accepts. */
void gsc_strict(gsc_sink *s, gsc_case *c, const char *file, gs_status status, uint64_t offset,
                const char *desc);

#endif
