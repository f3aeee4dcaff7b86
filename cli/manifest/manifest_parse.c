/* Reading a manifest back. It is untrusted input like the GGUF itself: lines, entries and the
 * bytes of names are bounded (mf_limits: what the longest file the reader accepts needs, in
 * either profile), every field is checked for its exact form (version tag, part numbering, 64
 * lower-case hex digits, decimal sizes without overflow, canonical escapes), duplicates and a
 * missing "end" line are errors, so a hostile manifest gets a clear message, never a crash or an
 * unbounded allocation. The line buffer grows with the longest line read, not to the bound. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "manifest.h"

#define FIRST_LINE_CAP 4096u
#define READ_CHUNK 65536u

typedef struct parser {
    mf_input *in;
    mf_limits limits;
    uint8_t *chunk;      /* streams: what fread brought, chunk[chunk_pos..chunk_len) unread */
    size_t chunk_pos, chunk_len;
    char *line;
    size_t line_cap;
    size_t len;
    size_t number;
    uint64_t consumed;   /* bytes read so far */
    uint64_t line_start; /* offset of the current line */
    gs_error *err;
    gs_status status;    /* of the failure: malformed (GS_E_INVALID_ARGUMENT), GS_E_IO, memory */
    enum { LINES_UNKNOWN, LINES_LF, LINES_CRLF } line_ends; /* the first line's decide */
} parser;

/* The next byte, or EOF; -2 for a read error of the stream. */
static int next_byte(parser *p)
{
    mf_input *in = p->in;
    int c;
    if (in->file != NULL) {
        if (p->chunk_pos == p->chunk_len) {
            p->chunk_len = fread(p->chunk, 1, READ_CHUNK, in->file);
            p->chunk_pos = 0;
            if (p->chunk_len == 0) {
                return ferror(in->file) ? -2 : EOF;
            }
        }
        c = p->chunk[p->chunk_pos++];
    } else {
        c = in->pos < in->size ? in->data[in->pos++] : EOF;
    }
    if (c != EOF) {
        p->consumed++;
    }
    return c;
}

/* Room for one more byte of the line (and its NUL): the buffer doubles up to the line limit. */
static bool line_room(parser *p, size_t n)
{
    if (n + 1 < p->line_cap) {
        return true;
    }
    size_t cap = p->line_cap * 2;
    if (cap > p->limits.max_line + 1) {
        cap = (size_t)p->limits.max_line + 1;
    }
    char *grown = realloc(p->line, cap);
    if (grown == NULL) {
        return false;
    }
    p->line = grown;
    p->line_cap = cap;
    return true;
}

__attribute__((format(printf, 2, 3))) static int fail(parser *p, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (p->status == GS_OK) {
        p->status = GS_E_INVALID_ARGUMENT;
    }
    gsi_fail(p->err, p->status, p->line_start, GS_CONTEXT_NONE, NULL, 0, "line %zu: %s",
             p->number, msg);
    return -1;
}

/* Reads the next line without its '\n' (or "\r\n": a manifest saved by a Windows editor, every
 * line alike): 1, 0 at the end of the input, -1 on a malformed one. */
static int next_line(parser *p)
{
    size_t n = 0;
    int c;
    p->line_start = p->consumed;
    while ((c = next_byte(p)) >= 0) {
        if (n >= p->limits.max_line && c != '\n' && c != '\r') {
            p->number++;
            return fail(p, "longer than %llu bytes, the longest line a manifest can have",
                        (unsigned long long)p->limits.max_line);
        }
        if (c == '\r') {
            c = next_byte(p); /* CR LF ends a line as LF does; a CR alone is refused */
            if (c != '\n') {
                p->number++;
                return fail(p, "holds a carriage return not followed by a newline");
            }
            if (p->line_ends == LINES_LF) {
                p->number++;
                return fail(p, "ends in CR LF, the lines before it in LF alone (mixed line ends)");
            }
            p->line_ends = LINES_CRLF;
            break;
        }
        if (c == '\n') {
            if (p->line_ends == LINES_CRLF) {
                p->number++;
                return fail(p, "ends in LF alone, the lines before it in CR LF (mixed line ends)");
            }
            p->line_ends = LINES_LF;
            break;
        }
        if (c == '\0' || c == '\t') {
            p->number++;
            return fail(p, "holds a NUL or tab byte");
        }
        if (!line_room(p, n)) {
            p->number++;
            p->status = GS_E_NO_MEMORY;
            return fail(p, "out of memory for a line of %zu bytes", n + 1);
        }
        p->line[n++] = (char)c;
    }
    if (c == -2) {
        p->number++;
        p->status = GS_E_IO;
        return fail(p, "read error");
    }
    if (c == EOF && n == 0) {
        return 0;
    }
    p->number++;
    if (c == EOF) {
        return fail(p, "the last line has no newline (the manifest was cut?)");
    }
    p->line[n] = '\0';
    p->len = n;
    return 1;
}

/* Splits the line at single spaces into at most max fields; the count, or -1 for empty
 * fields (double or edge spaces). */
static int split(char *line, char **fields, int max)
{
    int n = 0;
    char *s = line;
    for (;;) {
        if (n == max) {
            return -1;
        }
        fields[n++] = s;
        char *sp = strchr(s, ' ');
        if (sp == NULL) {
            break;
        }
        *sp = '\0';
        s = sp + 1;
    }
    for (int i = 0; i < n; i++) {
        if (fields[i][0] == '\0') {
            return -1;
        }
    }
    return n;
}

static bool parse_hex(const char *s, uint8_t out[32])
{
    if (strlen(s) != 64) {
        return false;
    }
    for (int i = 0; i < 64; i++) {
        char c = s[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (v < 0) {
            return false;
        }
        if (i % 2 == 0) {
            out[i / 2] = (uint8_t)(v << 4);
        } else {
            out[i / 2] |= (uint8_t)v;
        }
    }
    return true;
}

bool mf_parse_u64(const char *s, uint64_t *out)
{
    size_t n = strlen(s);
    if (n == 0 || n > 20 || (n > 1 && s[0] == '0')) {
        return false;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return false;
        }
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) {
            return false;
        }
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

int mf_hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The escaped form as mf_escape writes it: printable ASCII but the backslash as it is, every
 * other byte as \xHH with lower-case hex, and only those. */
static bool canonical_name(const char *s)
{
    if (*s == '\0') {
        return false;
    }
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c <= 0x20 || c >= 0x7f) {
            return false;
        }
        if (c != '\\') {
            continue;
        }
        /* short-circuit: s[2] is read only after s[1], s[3] only after s[2], was not the NUL */
        if (s[1] != 'x' || mf_hexval(s[2]) < 0 || mf_hexval(s[3]) < 0) {
            return false;
        }
        unsigned b = (unsigned)(mf_hexval(s[2]) << 4 | mf_hexval(s[3]));
        if (mf_byte_literal((uint8_t)b)) {
            return false; /* a byte that is written as itself */
        }
        s += 3;
    }
    return true;
}

static bool type_token(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= 16) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_')) {
            return false;
        }
    }
    return true;
}

static bool shape_token(const char *s)
{
    if (strcmp(s, "-") == 0) {
        return true;
    }
    if (strlen(s) >= 96) {
        return false;
    }
    char buf[96];
    strcpy(buf, s);
    int dims = 0;
    for (char *tok = buf;; dims++) {
        char *comma = strchr(tok, ',');
        if (comma != NULL) {
            *comma = '\0';
        }
        uint64_t v;
        if (dims == GS_MAX_DIMS || !mf_parse_u64(tok, &v)) {
            return false;
        }
        if (comma == NULL) {
            return true;
        }
        tok = comma + 1;
    }
}

static int cmp_entry(const void *a, const void *b)
{
    const mf_entry *x = *(const mf_entry *const *)a, *y = *(const mf_entry *const *)b;
    if (x->kind != y->kind) {
        return x->kind < y->kind ? -1 : 1;
    }
    return strcmp(x->name, y->name);
}

/* Two entries of one kind with the same name in a part. */
static int check_duplicates(parser *p, const mf_part *part)
{
    if (part->n < 2) {
        return 0;
    }
    const mf_entry **v = cli_alloc_array(part->n, sizeof *v);
    if (v == NULL) {
        p->status = GS_E_NO_MEMORY;
        return fail(p, "out of memory");
    }
    for (size_t i = 0; i < part->n; i++) {
        v[i] = &part->entries[i];
    }
    qsort(v, part->n, sizeof *v, cmp_entry);
    int rc = 0;
    for (size_t i = 1; i < part->n && rc == 0; i++) {
        if (cmp_entry(&v[i - 1], &v[i]) == 0) {
            size_t later = v[i]->line > v[i - 1]->line ? v[i]->line : v[i - 1]->line;
            p->number = later;
            rc = fail(p, "a second %s named %s", v[i]->kind == MF_KV ? "kv" : "tensor",
                      v[i]->name);
        }
    }
    free(v);
    return rc;
}

static int parse_body(parser *p, mf_doc *d)
{
    char *f[8];
    int r = next_line(p);
    if (r <= 0) {
        p->number = 1;
        return r < 0 ? -1 : fail(p, "empty: not a ggufsafe manifest");
    }
    int n = split(p->line, f, 8);
    if (n != 2 || strcmp(f[0], MF_MAGIC) != 0) {
        return fail(p, "not a ggufsafe manifest (expected '%s %d')", MF_MAGIC, MF_VERSION);
    }
    uint64_t version;
    if (!mf_parse_u64(f[1], &version) || version < MF_VERSION_MIN || version > MF_VERSION) {
        return fail(p, "unsupported manifest version (this ggufsafe reads versions %d to %d)",
                    MF_VERSION_MIN, MF_VERSION);
    }
    uint64_t value_bytes = 0; /* of the current part */
    uint64_t total = 0;
    uint64_t entries = 0, name_bytes = 0;
    mf_part *part = NULL;
    for (;;) {
        r = next_line(p);
        if (r < 0) {
            return -1;
        }
        if (r == 0) {
            return fail(p, "the manifest ends without its 'end' line (cut short?)");
        }
        n = split(p->line, f, 8);
        if (n < 0) {
            return fail(p, "empty field (fields are separated by single spaces)");
        }
        if (strcmp(f[0], "end") == 0 && n == 1) {
            if (part == NULL || (uint64_t)(part - d->parts) + 1 != total) {
                return fail(p, "'end' before every part was listed");
            }
            if (check_duplicates(p, part) != 0) {
                return -1;
            }
            r = next_line(p);
            return r == 0 ? 0 : (r < 0 ? -1 : fail(p, "text after the 'end' line"));
        }
        if (strcmp(f[0], "part") == 0) {
            uint64_t no, of;
            if (n != 4 || strcmp(f[2], "of") != 0 || !mf_parse_u64(f[1], &no) ||
                !mf_parse_u64(f[3], &of) || of == 0 || of > MF_MAX_PARTS) {
                return fail(p, "expected 'part I of N' with 1 <= I <= N <= %u", MF_MAX_PARTS);
            }
            uint64_t expected = part == NULL ? 1 : (uint64_t)(part - d->parts) + 2;
            if (part == NULL) {
                total = of;
                if (mf_doc_init(d, (size_t)total) != GS_OK) {
                    p->status = GS_E_NO_MEMORY;
                    return fail(p, "out of memory");
                }
                d->version = (unsigned)version;
            } else if (check_duplicates(p, part) != 0) {
                return -1;
            }
            if (no != expected || of != total) {
                return fail(p, "expected 'part %llu of %llu'", (unsigned long long)expected,
                            (unsigned long long)total);
            }
            part = &d->parts[no - 1];
            value_bytes = 0;
            r = next_line(p);
            if (r <= 0) {
                return r < 0 ? -1 : fail(p, "the manifest ends inside a part");
            }
            n = split(p->line, f, 8);
            if (n != 3 || strcmp(f[0], "file") != 0 || !parse_hex(f[1], part->digest) ||
                !mf_parse_u64(f[2], &part->size)) {
                return fail(p, "expected 'file <64 hex digits> <size>' after the part line");
            }
            continue;
        }
        if (part == NULL) {
            return fail(p, "expected 'part 1 of N'");
        }
        /* version 2: a key-value may carry 2 or 4 value fields */
        bool kv = strcmp(f[0], "kv") == 0 && (n == 3 || (version >= 2 && (n == 5 || n == 7)));
        bool tensor = strcmp(f[0], "tensor") == 0 && n == 5;
        if (!kv && !tensor) {
            return fail(p, "expected 'kv <sha256> <key> [<value>]', 'tensor <sha256> <type> <shape> "
                           "<name>', 'part', or 'end'");
        }
        if (part->n >= p->limits.max_part_entries || entries >= p->limits.max_entries) {
            return fail(p, "more entries than any GGUF the reader accepts can have (%llu per "
                           "part, %llu in all)",
                        (unsigned long long)p->limits.max_part_entries,
                        (unsigned long long)p->limits.max_entries);
        }
        const char *name = kv ? f[2] : f[4];
        size_t name_len = strlen(name);
        if (name_len > p->limits.max_name_bytes - name_bytes) {
            return fail(p, "the names take more than %llu bytes in all, more than any GGUF the "
                           "reader accepts",
                        (unsigned long long)p->limits.max_name_bytes);
        }
        uint8_t digest[32];
        if (!parse_hex(f[1], digest)) {
            return fail(p, "the digest is not 64 lower-case hex digits");
        }
        if (!canonical_name(name)) {
            return fail(p, "the name is empty or not written as ggufsafe escapes names");
        }
        if (tensor && (!type_token(f[2]) || !shape_token(f[3]))) {
            return fail(p, "bad tensor type or shape (expected e.g. 'q4_K 4096,32000')");
        }
        size_t value_len = 0;
        if (kv && n > 3) {
            const char *why = mf_value_check(f + 3, n - 3);
            if (why != NULL) {
                return fail(p, "%s", why);
            }
            for (int i = 3; i < n; i++) {
                value_len += strlen(f[i]) + (i > 3);
            }
            if (value_len > p->limits.max_part_value_bytes - value_bytes) {
                return fail(p, "the values of the part take more than %llu bytes, more than "
                               "ggufsafe hash writes",
                            (unsigned long long)p->limits.max_part_value_bytes);
            }
        }
        mf_entry *e = mf_part_add(part, kv ? MF_KV : MF_TENSOR, name, name_len);
        if (e == NULL) {
            p->status = GS_E_NO_MEMORY;
            return fail(p, "out of memory");
        }
        memcpy(e->digest, digest, 32);
        e->line = p->number;
        if (value_len > 0) {
            e->value = malloc(value_len + 1);
            if (e->value == NULL) {
                p->status = GS_E_NO_MEMORY;
                return fail(p, "out of memory");
            }
            size_t k = 0;
            for (int i = 3; i < n; i++) {
                if (i > 3) {
                    e->value[k++] = ' ';
                }
                memcpy(e->value + k, f[i], strlen(f[i]));
                k += strlen(f[i]);
            }
            e->value[k] = '\0';
            value_bytes += value_len;
        }
        if (tensor) {
            snprintf(e->type, sizeof e->type, "%s", f[2]);
            snprintf(e->shape, sizeof e->shape, "%s", f[3]);
        }
        entries++;
        name_bytes += name_len;
    }
}

gs_status mf_parse(mf_input *in, const mf_limits *limits, mf_doc *d, gs_error *err)
{
    d->parts = NULL;
    d->n_parts = 0;
    parser p = {.in = in, .line = malloc(FIRST_LINE_CAP), .line_cap = FIRST_LINE_CAP,
                .err = err, .status = GS_OK};
    if (limits != NULL) {
        p.limits = *limits;
    } else {
        mf_limits_default(&p.limits);
    }
    if (in->file != NULL) {
        p.chunk = malloc(READ_CHUNK);
    }
    if (p.line == NULL || (in->file != NULL && p.chunk == NULL)) {
        free(p.line);
        free(p.chunk);
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "manifest line");
    }
    int rc = parse_body(&p, d);
    free(p.line);
    free(p.chunk);
    if (rc != 0) {
        mf_doc_free(d);
        return p.status != GS_OK ? p.status : GS_E_INVALID_ARGUMENT;
    }
    return GS_OK;
}
