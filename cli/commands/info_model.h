/* `ggufsafe info`: what the report says beyond the reader's getters, computed once and rendered
 * as text (info_text.c) or JSON (info_json.c). */
#ifndef GGUFSAFE_CLI_INFO_MODEL_H
#define GGUFSAFE_CLI_INFO_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"
#include "json_writer.h"
#include "out.h"

/* One type of the quantization mix: a registry type or one the caller defined (--type, a
 * plugin's, ggml's), under the name the file knows it by. */
typedef struct info_mix_entry {
    int32_t type;
    const char *name; /* gs_file_type_name: valid while the file (or set) is open */
    uint64_t tensors;
    uint64_t bytes;
} info_mix_entry;

/* Distinct types a file can hold: the registry's and the caller's definitions and decoders. */
#define INFO_MIX_MAX (GS_TYPE_COUNT + 2 * GS_TYPE_DEF_MAX)

typedef struct info_summary {
    uint64_t n_scalars;                   /* metadata pairs that are not arrays */
    uint64_t n_arrays;
    uint64_t n_tensors;
    uint64_t parameters;                  /* sum of element counts */
    uint64_t tensor_bytes;                /* sum of tensor data sizes */
    info_mix_entry mix[INFO_MIX_MAX];     /* quantization mix, by type id */
    size_t n_mix;
    uint64_t predicted_size;              /* what ggml's writer would emit (gs_layout) */
    uint64_t actual_size;
    uint64_t trailing_bytes;
    uint64_t missing_tail_padding;
    uint64_t tensors_absent;              /* tensors whose data is not in the file (opened in
                                             metadata-only mode) */
    uint64_t described_size;              /* the complete file's size (gs_layout) */
    bool exact;                           /* predicted_size == actual_size, all data present */
} info_summary;

void info_summarize(const gs_file *file, info_summary *out);

/* The share of all tensor bytes that bytes is, in percent (display only). */
double info_share_percent(const info_summary *s, uint64_t bytes);

/* Adds a part's summary into a split set's total; the set is exact when every part is. */
void info_summary_add(info_summary *total, const info_summary *part);
void info_summary_init_total(info_summary *total);

/* Renderers. rows: how many tensors the text report shows at each end of the directory. */
void info_text_file(cli_out *out, const gs_file *file, const char *path, uint64_t rows);
void info_text_split(cli_out *out, const gs_split *split, const char *path, uint64_t rows);
void info_json_file(cli_out *out, const gs_file *file, const char *path, const gs_options *opts);
void info_json_split(cli_out *out, const gs_split *split, const char *path, const gs_options *opts);
/* The same reports as one value at j's place (the many-file report's elements). */
void info_json_file_value(cli_json *j, const gs_file *file, const char *path,
                          const gs_options *opts);
void info_json_split_value(cli_json *j, const gs_split *split, const char *path,
                           const gs_options *opts);

#endif
