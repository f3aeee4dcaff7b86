/* The text form of `ggufsafe info`: header, metadata, tensor directory head and tail, parameter
 * count, quantization mix, layout and the predicted-versus-actual size check. Every key, string
 * and tensor name goes through cli_text_escape. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_source.h"
#include "info_model.h"
#include "kv_value.h"
#include "text_out.h"

/* Column and cut widths, in source bytes or columns. */
#define VALUE_MAX_SRC 48   /* string values are cut to this with an ellipsis */
#define KEY_MAX_SRC 96     /* keys longer than this (lenient files only) are cut */
#define KEY_COLUMN_MAX 44  /* longer keys push their value right instead of widening the column */
#define NAME_MAX_SRC 64    /* tensor names: ggml's limit is 63 bytes */
#define NAME_COLUMN_MAX 40
#define TYPE_NAME_ROOM 16  /* room for a value type's name (gs_value_type_name) */

/* The value column: scalars in full (strings cut), arrays as [type; count]. */
static void value_text(const gs_file *f, size_t i, const gs_kv_info *kv, cli_text *t)
{
    if (kv->type == GS_VALUE_ARRAY) {
        cli_text_printf(t, "[%s; %" PRIu64 "]", gs_value_type_name(kv->elem_type), kv->count);
        return;
    }
    cli_value v;
    gs_status st = cli_read_scalar(f, i, kv->type, &v);
    if (st != GS_OK) {
        cli_text_printf(t, "(unreadable: %s)", gs_status_name(st));
        return;
    }
    cli_value_text(&v, t, VALUE_MAX_SRC);
}

/* One line of the metadata list, "  KEY  TYPE  VALUE" with the key (already escaped, `width`
 * columns) padded to key_col and the type to 6, put together in one buffer and written once: as
 * ten writes a line, listing 160,000 keys was 40 % of info's time. */
static void print_kv_line(cli_out *out, const gs_file *f, size_t i, const gs_kv_info *kv,
                          const char *key, size_t key_len, size_t width, size_t key_col)
{
    cli_text value;
    value_text(f, i, kv, &value);
    const char *type = gs_value_type_name(kv->type);
    size_t type_len = strlen(type);
    type_len = type_len < TYPE_NAME_ROOM ? type_len : TYPE_NAME_ROOM; /* the longest: "unknown" */
    /* "  " key pad "  " type pad value "\n": the pads are at most KEY_COLUMN_MAX + 2 and 8 */
    char line[2 + CLI_TEXT_BUF + KEY_COLUMN_MAX + 2 + TYPE_NAME_ROOM + 8 + CLI_TEXT_BUF + 1];
    size_t n = 0;
    memcpy(line + n, "  ", 2);
    n += 2;
    memcpy(line + n, key, key_len);
    n += key_len;
    const size_t key_pad = (width < key_col ? key_col - width : 0) + 2;
    memset(line + n, ' ', key_pad);
    n += key_pad;
    memcpy(line + n, type, type_len);
    n += type_len;
    const size_t type_pad = type_len < 6 ? 6 - type_len + 2 : 2;
    memset(line + n, ' ', type_pad);
    n += type_pad;
    memcpy(line + n, value.s, value.len);
    n += value.len;
    line[n++] = '\n';
    cli_out_write(out, line, n);
}

static void print_metadata(cli_out *out, const gs_file *f, const info_summary *s)
{
    gs_layout l;
    gs_file_layout(f, &l);
    size_t n = gs_kv_count(f);
    cli_out_printf(out,
            "\nmetadata (%" PRIu64 " scalars, %" PRIu64 " arrays, ends at byte %" PRIu64 "):\n",
            s->n_scalars, s->n_arrays, l.kv_end);
    /* Whether each key prints as it is, found in the pass that sizes the key column (which
     * needs every key's columns before the first line). n records of at least 13 bytes each are
     * in memory: a bool each cannot overflow. */
    bool *plain = cli_xmalloc((n > 0 ? n : 1) * sizeof *plain);
    size_t key_col = 0;
    for (size_t i = 0; i < n; i++) {
        gs_kv_info kv;
        plain[i] = false;
        if (gs_kv_info_at(f, i, &kv) == GS_OK) {
            plain[i] = cli_text_is_plain(kv.key.ptr, kv.key.len, KEY_MAX_SRC);
            const size_t width =
                plain[i] ? kv.key.len : cli_text_columns(kv.key.ptr, kv.key.len, KEY_MAX_SRC);
            key_col = width > key_col ? width : key_col;
        }
    }
    if (key_col > KEY_COLUMN_MAX) {
        key_col = KEY_COLUMN_MAX;
    }
    /* Scalars first, then arrays, each in file order (a pass with nothing to print is left
     * out). */
    for (int pass = 0; pass < 2; pass++) {
        bool arrays = pass == 1;
        if ((arrays ? s->n_arrays : s->n_scalars) == 0) {
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            gs_kv_info kv;
            if (gs_kv_info_at(f, i, &kv) != GS_OK || (kv.type == GS_VALUE_ARRAY) != arrays) {
                continue;
            }
            if (plain[i]) {
                print_kv_line(out, f, i, &kv, kv.key.ptr, kv.key.len, kv.key.len, key_col);
            } else {
                cli_text key;
                cli_text_escape(&key, kv.key.ptr, kv.key.len, KEY_MAX_SRC);
                print_kv_line(out, f, i, &kv, key.s, key.len, key.width, key_col);
            }
        }
    }
    free(plain);
}

#define TYPE_LABEL_MAX (GS_TYPE_NAME_MAX + 1)

static void type_label(char buf[TYPE_LABEL_MAX], const char *name)
{
    /* ggml's names upper-cased, as model cards and llama.cpp's logs show them (Q4_K, IQ2_XXS). */
    snprintf(buf, TYPE_LABEL_MAX, "%s", name);
    for (char *p = buf; *p != '\0'; p++) {
        if (*p >= 'a' && *p <= 'z') {
            *p = (char)(*p - 'a' + 'A');
        }
    }
}

/* "512 × 8": ne[0] first, as ggml and the seed report show shapes. */
static void shape_text(const gs_tensor_info *t, cli_text *out)
{
    if (t->n_dims == 0) {
        cli_text_printf(out, "scalar");
        return;
    }
    char buf[GS_MAX_DIMS * 24] = "";
    size_t len = 0;
    for (uint32_t d = 0; d < t->n_dims && d < GS_MAX_DIMS; d++) {
        int w = snprintf(buf + len, sizeof buf - len, "%s%" PRIu64, d > 0 ? " \xc3\x97 " : "",
                         t->ne[d]);
        len += w > 0 ? (size_t)w : 0;
    }
    cli_text_printf(out, "%s", buf);
}

typedef struct row_widths {
    size_t name, shape, type, offset;
} row_widths;

static void measure_rows(const gs_file *f, size_t from, size_t to, row_widths *w)
{
    for (size_t i = from; i < to; i++) {
        gs_tensor_info t;
        if (gs_tensor_info_at(f, i, &t) != GS_OK) {
            continue;
        }
        cli_text name, shape;
        char type[TYPE_LABEL_MAX], offset[24];
        cli_text_escape(&name, t.name.ptr, t.name.len, NAME_MAX_SRC);
        shape_text(&t, &shape);
        type_label(type, gs_file_type_name(f, (int32_t)t.type));
        size_t ow = (size_t)snprintf(offset, sizeof offset, "%" PRIu64, t.offset);
        w->name = name.width > w->name ? name.width : w->name;
        w->shape = shape.width > w->shape ? shape.width : w->shape;
        w->type = strlen(type) > w->type ? strlen(type) : w->type;
        w->offset = ow > w->offset ? ow : w->offset;
    }
}

static void print_rows(cli_out *out, const gs_file *f, size_t from, size_t to, const row_widths *w)
{
    for (size_t i = from; i < to; i++) {
        gs_tensor_info t;
        if (gs_tensor_info_at(f, i, &t) != GS_OK) {
            continue;
        }
        cli_text name, shape;
        char type[TYPE_LABEL_MAX];
        cli_text_escape(&name, t.name.ptr, t.name.len, NAME_MAX_SRC);
        shape_text(&t, &shape);
        type_label(type, gs_file_type_name(f, (int32_t)t.type));
        cli_out_puts(out, "  ");
        cli_text_print_padded(out, &name, w->name);
        cli_out_puts(out, "  ");
        cli_text_print_padded(out, &shape, w->shape);
        cli_out_printf(out, "  %-*s  offset %*" PRIu64 "%s\n", (int)w->type, type, (int)w->offset,
                       t.offset, t.data_in_file ? "" : "  (data not in the file)");
    }
}

/* The first and last `rows` tensors, the ones between counted: "… 21 more …". */
static void print_tensors(cli_out *out, const gs_file *f, uint64_t rows)
{
    gs_layout l;
    gs_file_layout(f, &l);
    size_t n = gs_tensor_count(f);
    cli_out_printf(out, "\ntensor directory (%zu tensors, ends at byte %" PRIu64 "):\n", n,
                   l.tensor_info_end);
    size_t head = rows < n ? (size_t)rows : n;     /* rows [0, head) */
    size_t tail = n - head > head ? n - head : head; /* rows [tail, n) */
    row_widths w = {0, 0, 0, 0};
    measure_rows(f, 0, head, &w);
    measure_rows(f, tail, n, &w);
    w.name = w.name > NAME_COLUMN_MAX ? NAME_COLUMN_MAX : w.name;
    print_rows(out, f, 0, head, &w);
    if (tail > head) {
        cli_out_printf(out, "  \xe2\x80\xa6 %zu more \xe2\x80\xa6\n", tail - head);
    }
    print_rows(out, f, tail, n, &w);
}

static void human_bytes(char buf[32], uint64_t bytes)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) {
        snprintf(buf, 32, "%" PRIu64 " B", bytes);
        return;
    }
    double v = (double)bytes / 1024.0;
    size_t u = 0;
    while (v >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, 32, "%.2f %s", v, units[u]);
}

static void human_count(char buf[32], uint64_t n)
{
    if (n >= 1000000000u) {
        snprintf(buf, 32, "%.2f B", (double)n / 1e9);
    } else if (n >= 1000000u) {
        snprintf(buf, 32, "%.2f M", (double)n / 1e6);
    } else {
        snprintf(buf, 32, "%.2f K", (double)n / 1e3);
    }
}

static void print_totals(cli_out *out, const info_summary *s)
{
    char h[32];
    human_count(h, s->parameters);
    cli_out_printf(out, "\nparameters:  %s (%" PRIu64 ")\n", h, s->parameters);
    human_bytes(h, s->tensor_bytes);
    cli_out_printf(out, "weights:     %s (%" PRIu64 " bytes)\n", h, s->tensor_bytes);
    cli_out_printf(out, "quantization mix:\n");
    int width = 8; /* the longest name's, when a caller's type has a longer one */
    for (size_t i = 0; i < s->n_mix; i++) {
        const size_t n = strlen(s->mix[i].name);
        width = n > (size_t)width && n < TYPE_LABEL_MAX ? (int)n : width;
    }
    for (size_t i = 0; i < s->n_mix; i++) {
        const info_mix_entry *e = &s->mix[i];
        uint64_t count = e->tensors;
        char label[TYPE_LABEL_MAX];
        type_label(label, e->name);
        uint64_t bytes = e->bytes;
        double share = info_share_percent(s, bytes);
        human_bytes(h, bytes);
        cli_out_printf(out, "  %-*s %6" PRIu64 " tensor%s %14" PRIu64 " bytes %11s %6.1f%%\n",
                       width, label, count, count == 1 ? " " : "s", bytes, h, share);
    }
}

static void print_size_check(cli_out *out, const info_summary *s)
{
    cli_out_printf(out, "predicted:   %" PRIu64 " bytes\n", s->predicted_size);
    cli_out_printf(out, "actual:      %" PRIu64 " bytes (stat)\n", s->actual_size);
    if (s->exact) {
        cli_out_printf(out, "EXACT\n");
    } else if (s->tensors_absent > 0) {
        cli_out_printf(out, "MISMATCH (metadata only: the data of %" PRIu64 " of %" PRIu64
                            " tensors is not in the file; the complete file has %" PRIu64
                            " bytes)\n",
                       s->tensors_absent, s->n_tensors, s->described_size);
    } else if (s->trailing_bytes > 0) {
        cli_out_printf(out, "MISMATCH (%" PRIu64 " trailing bytes after the predicted end)\n",
                       s->trailing_bytes);
    } else {
        cli_out_printf(out, "MISMATCH (%" PRIu64 " bytes of the final padding missing)\n",
                       s->missing_tail_padding);
    }
}

/* Everything about one file after its path line. */
static void print_file_body(cli_out *out, const gs_file *f, const info_summary *s, uint64_t rows)
{
    cli_out_printf(out, "header:      GGUF v%" PRIu32 ", %zu tensors, %zu metadata pairs\n",
                   gs_file_version(f), gs_tensor_count(f), gs_kv_count(f));
    print_metadata(out, f, s);
    print_tensors(out, f, rows);
    print_totals(out, s);
    gs_layout l;
    gs_file_layout(f, &l);
    cli_out_printf(out, "\nalignment:   %" PRIu32 " (data begins at byte %" PRIu64, l.alignment,
                   l.data_offset);
    cli_out_printf(out, ", ends at byte %" PRIu64 ")\n", l.data_end);
    print_size_check(out, s);
}

static void print_path_line(cli_out *out, const char *label, const char *path)
{
    cli_text p;
    cli_text_escape_cstr(&p, path);
    cli_out_printf(out, "%s", label);
    cli_text_print_padded(out, &p, 0);
    cli_out_putc(out, '\n');
}

void info_text_file(cli_out *out, const gs_file *file, const char *path, uint64_t rows)
{
    print_path_line(out, "file:        ", path);
    cli_out_printf(out, "profile:     %s\n", cli_profile_name(gs_file_profile(file)));
    info_summary s;
    info_summarize(file, &s);
    print_file_body(out, file, &s, rows);
}

void info_text_split(cli_out *out, const gs_split *split, const char *path, uint64_t rows)
{
    size_t n = gs_split_part_count(split);
    print_path_line(out, "split set:   ", path);
    cli_out_printf(out, "parts:       %zu, %" PRIu64 " tensors in all\n", n,
                   gs_split_tensor_count(split));
    if (n > 0) {
        cli_out_printf(out, "profile:     %s\n",
                       cli_profile_name(gs_file_profile(gs_split_part(split, 0))));
    }
    size_t cap = strlen(path) + 1;
    char *part_path = cli_xmalloc(cap);
    info_summary total;
    info_summary_init_total(&total);
    for (size_t i = 0; i < n; i++) {
        const gs_file *f = gs_split_part(split, i);
        if (f == NULL) {
            continue;
        }
        cli_out_printf(out, "\n== part %zu of %zu ==\n", i + 1, n);
        cli_source_part_path(part_path, cap, path, i);
        print_path_line(out, "file:        ", part_path);
        info_summary s;
        info_summarize(f, &s);
        print_file_body(out, f, &s, rows);
        info_summary_add(&total, &s);
    }
    free(part_path);
    cli_out_printf(out, "\n== set total: %zu parts ==\n", n);
    cli_out_printf(out, "tensors:     %" PRIu64 "\n", total.n_tensors);
    cli_out_printf(out, "metadata:    %" PRIu64 " scalars, %" PRIu64 " arrays\n", total.n_scalars,
                   total.n_arrays);
    print_totals(out, &total);
    cli_out_putc(out, '\n');
    print_size_check(out, &total);
}
