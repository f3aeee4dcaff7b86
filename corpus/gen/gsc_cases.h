/* The recipes, one function per region of the format. Each emits its cases into the sink with
 * the verdicts the spec and the reader's documented rules give them. */
#ifndef GGUFSAFE_GSC_CASES_H
#define GGUFSAFE_GSC_CASES_H

#include "gsc_case.h"

void gsc_cases_header(gsc_sink *s);    /* magic, versions, counts */
void gsc_cases_keys(gsc_sink *s);      /* keys: empty, NUL, grammar, duplicates, lengths */
void gsc_cases_values(gsc_sink *s);    /* every value type, bad type ids, bools, floats */
void gsc_cases_strings(gsc_sink *s);   /* lengths, UTF-8 */
void gsc_cases_arrays(gsc_sink *s);    /* every element type, nesting, counts */
void gsc_cases_alignment(gsc_sink *s); /* general.alignment values and types */
void gsc_cases_names(gsc_sink *s);     /* tensor names */
void gsc_cases_dims(gsc_sink *s);      /* n_dims and dimensions */
void gsc_cases_types(gsc_sink *s);     /* tensor type ids */
void gsc_cases_layout(gsc_sink *s);    /* offsets, padding, data section */
void gsc_cases_cve(gsc_sink *s);       /* published vulnerability shapes */
void gsc_cases_semantic(gsc_sink *s);  /* tokenizer and split keys: accepted by the reader */
void gsc_cases_boundary(gsc_sink *s);  /* large and extreme files that must be accepted */
void gsc_cases_truncate(gsc_sink *s);  /* a valid file cut inside every field */
void gsc_cases_notgguf(gsc_sink *s);   /* files that stand in for a GGUF: LFS pointers, ... */

/* Shared model pieces. */
/* "general.architecture" = "llama". */
void gsc_add_arch(gsw_model *m);
/* An F32 tensor of n elements (1 dimension), filled. */
gsw_tensor *gsc_add_f32(gsw_model *m, const char *name, uint64_t n);
/* n keys named prefix + i for i from 0 to n-1 (i zero-padded to `digits`; 0: not padded), key
 * i holding the u8 or u32 (value_type) value i, cut to the type's width. */
void gsc_add_numbered_keys(gsw_model *m, const char *prefix, int digits, unsigned n,
                           uint32_t value_type);
/* Tensors "a" and "b" of na and nb f32 elements, alignment 32, no key-values: begun and
 * written. */
void gsc_two_tensors(gsc_case *c, uint64_t na, uint64_t nb);
/* Each of the n rows as one tensor "t" of its shape and type, without data (architecture key
 * first when with_arch), written lax and rejected by both profiles with GS_E_SIZE_OVERFLOW at
 * the tensor's first dimension. */
void gsc_size_overflows(gsc_sink *s, const gsc_shape *rows, size_t n, bool with_arch);
/* The usual small valid file: architecture key and one 8-element F32 tensor "w". */
void gsc_base(gsc_case *c);

#endif
