#include "cli_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_reader_options(gs_options *opts, gs_profile profile)
{
    gs_options_init(opts);
    opts->profile = profile;
    opts->copy_metadata = true;
    opts->reopen_for_data = true;
}

void cli_reader_types(gs_options *opts, const gs_type_def *defs, size_t n_defs,
                      const gs_decoder *decoders, size_t n_decoders)
{
    opts->type_defs = defs;
    opts->n_type_defs = n_defs;
    opts->decoders = decoders;
    opts->n_decoders = n_decoders;
}

bool cli_file_changed(gs_status st)
{
    return st == GS_E_TRUNCATED || st == GS_E_FILE_CHANGED;
}

bool cli_first_of_set(const char *path, gs_split_name *name)
{
    gs_split_name n;
    if (!gs_split_name_parse(path, strlen(path), &n) || n.part != 1 || n.count < 2) {
        return false;
    }
    if (name != NULL) {
        *name = n;
    }
    return true;
}

gs_status cli_source_open(cli_source *s, const char *path, bool part_only, const gs_options *opts,
                          const char *label, gs_error *err)
{
    s->split = NULL;
    s->file = NULL;
    gs_error e;
    gs_status st;
    if (!part_only && cli_first_of_set(path, NULL)) {
        st = gs_open_split(path, opts, &s->split, &e);
    } else {
        st = gs_open_file(path, opts, &s->file, &e);
    }
    if (st != GS_OK && label != NULL) {
        char detail[GS_ERROR_TEXT_MAX];
        memcpy(detail, e.detail, sizeof detail);
        /* a long path is cut: the error line stays one line of bounded length */
        int n = snprintf(e.detail, sizeof e.detail, "%s%s(%s: %s)", detail,
                         detail[0] != '\0' ? " " : "", label, path);
        if (n < 0) {
            e.detail[0] = '\0';
        }
    }
    if (err != NULL) {
        *err = e;
    }
    return st;
}

void cli_source_part_path(char *buf, size_t cap, const char *first_part, size_t i)
{
    gs_split_name name;
    if (!gs_split_name_parse(first_part, strlen(first_part), &name) ||
        gs_split_name_format(first_part, &name, (uint32_t)i + 1, buf, cap) != GS_OK) {
        /* not a part's name: callers check first; this keeps the result defined */
        snprintf(buf, cap, "%s", first_part);
    }
}

size_t cli_source_parts(const cli_source *s)
{
    return s->split != NULL ? gs_split_part_count(s->split) : 1;
}

const gs_file *cli_source_part(const cli_source *s, size_t i)
{
    return s->split != NULL ? gs_split_part(s->split, i) : s->file;
}

bool cli_source_find_tensor(const cli_source *s, gs_str name, const gs_file **file, size_t *index)
{
    size_t part = 0, i;
    gs_status st = s->split != NULL
                       ? gs_split_find_tensor_n(s->split, name.ptr, name.len, &part, &i)
                       : gs_tensor_find_n(s->file, name.ptr, name.len, &i);
    if (st != GS_OK) {
        return false; /* *file and *index untouched */
    }
    *file = cli_source_part(s, part);
    *index = i;
    return true;
}

void cli_source_close(cli_source *s)
{
    gs_split_close(s->split);
    gs_close(s->file);
    s->split = NULL;
    s->file = NULL;
}

#define CHUNK_ELEMS CLI_DECODE_CHUNK_ELEMS
_Static_assert(GS_TYPE_DEF_MAX_BLOCK_ELEMS <= CHUNK_ELEMS, "a chunk holds a block of any type");

gs_status cli_decode_chunks(const gs_file *file, size_t index, cli_chunk_fn fn, void *ctx)
{
    gs_tensor_info t;
    gs_status st = gs_tensor_info_at(file, index, &t);
    if (st != GS_OK) {
        return st;
    }
    /* whole blocks a chunk: a caller's type (--type, --plugin, --ggml) may have any block size,
     * up to GS_TYPE_DEF_MAX_BLOCK_ELEMS (below CHUNK_ELEMS), not only a power of two */
    gs_type_info ti;
    st = gs_file_type_info(file, t.type, &ti);
    if (st != GS_OK) {
        return st;
    }
    const size_t block = ti.block_elems > 0 ? ti.block_elems : 1;
    size_t cap = CHUNK_ELEMS / block * block;
    cap = t.n_elements < cap ? (size_t)t.n_elements : cap;
    float *buf = malloc((cap ? cap : 1) * sizeof(float));
    if (buf == NULL) {
        return GS_E_NO_MEMORY;
    }
    for (uint64_t done = 0; done < t.n_elements && st == GS_OK;) {
        uint64_t left = t.n_elements - done;
        size_t n = left < cap ? (size_t)left : cap;
        st = gs_tensor_dequantize_range(file, index, done, buf, n);
        if (st == GS_OK) {
            st = fn(ctx, buf, n);
        }
        done += n;
    }
    free(buf);
    return st;
}
