#include "json_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "utf8.h"

typedef struct reader {
    cli_jdoc *doc;
    const cli_jlimits *lim;
    const char *s;
    size_t n, i;
    gs_error *err;
    gs_status st;
} reader;

gs_status cli_jfail(gs_error *err, const void *data, size_t at, const char *what)
{
    const char *s = data;
    size_t line = 1, start = 0;
    for (size_t k = 0; k < at; k++) {
        if (s[k] == '\n') {
            line++;
            start = k + 1;
        }
    }
    return gsi_fail(err, GS_E_INVALID_ARGUMENT, at, GS_CONTEXT_NONE, NULL, 0, "%zu:%zu: %s",
                    line, at - start + 1, what);
}

static bool fail(reader *r, size_t at, const char *what)
{
    if (r->st == GS_OK) {
        r->st = cli_jfail(r->err, r->s, at, what);
    }
    return false;
}

static uint32_t new_node(reader *r, cli_jtype type, size_t at)
{
    cli_jdoc *d = r->doc;
    if (d->n >= r->lim->max_nodes + 1 || d->n >= UINT32_MAX) {
        fail(r, at, "more values than a document may hold");
        return 0;
    }
    if (!cli_reserve((void **)&d->nodes, &d->cap, d->n + 1, sizeof *d->nodes)) {
        if (r->st == GS_OK) {
            r->st = gsi_fail(r->err, GS_E_NO_MEMORY, at, GS_CONTEXT_NONE, NULL, 0,
                             "out of memory for the document's values");
        }
        return 0;
    }
    uint32_t k = (uint32_t)d->n++;
    d->nodes[k] = (cli_jnode){.type = (uint8_t)type, .at = at};
    return k;
}

static void skip_ws(reader *r)
{
    while (r->i < r->n && (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n' ||
                           r->s[r->i] == '\r')) {
        r->i++;
    }
}

static int hex4(const char *p)
{
    int v = 0;
    for (int k = 0; k < 4; k++) {
        char c = p[k];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) {
            return -1;
        }
        v = v * 16 + d;
    }
    return v;
}

/* A string at r->i (its opening quote): checked, node made. */
static uint32_t string(reader *r)
{
    size_t at = r->i++;
    while (r->i < r->n) {
        unsigned char c = (unsigned char)r->s[r->i];
        if (c == '"') {
            uint32_t k = new_node(r, CLI_JSTRING, at);
            if (k != 0) {
                r->doc->nodes[k].len = r->i - at - 1;
            }
            r->i++;
            return k;
        }
        if (c < 0x20) {
            fail(r, r->i, "a control character inside a string (it must be escaped)");
            return 0;
        }
        if (c == '\\') {
            if (r->i + 1 >= r->n) {
                break;
            }
            char e = r->s[r->i + 1];
            if (e == 'u') {
                if (r->n - r->i < 6) {
                    break;
                }
                int v = hex4(r->s + r->i + 2);
                if (v < 0) {
                    fail(r, r->i, "a \\u escape without four hex digits");
                    return 0;
                }
                if (v >= 0xdc00 && v <= 0xdfff) {
                    fail(r, r->i, "a low surrogate \\u escape without its high surrogate");
                    return 0;
                }
                if (v >= 0xd800 && v <= 0xdbff) {
                    int w = r->n - r->i >= 12 && r->s[r->i + 6] == '\\' && r->s[r->i + 7] == 'u'
                                ? hex4(r->s + r->i + 8)
                                : -1;
                    if (w < 0xdc00 || w > 0xdfff) {
                        fail(r, r->i, "a high surrogate \\u escape without its low surrogate");
                        return 0;
                    }
                    r->i += 6;
                }
                r->i += 6;
                continue;
            }
            if (strchr("\"\\/bfnrt", e) == NULL || e == '\0') {
                fail(r, r->i, "an unknown escape in a string");
                return 0;
            }
            r->i += 2;
            continue;
        }
        size_t len = gsi_utf8_seq_len((const uint8_t *)r->s + r->i, r->n - r->i);
        if (len == 0) {
            fail(r, r->i, "a byte that is not UTF-8 in a string");
            return 0;
        }
        r->i += len;
    }
    fail(r, at, "a string that is never closed");
    return 0;
}

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

/* One or more digits from r->i, or a failure at `at` saying what is missing. */
static bool digits(reader *r, size_t at, const char *missing)
{
    if (r->i >= r->n || !digit(r->s[r->i])) {
        return fail(r, at, missing);
    }
    while (r->i < r->n && digit(r->s[r->i])) {
        r->i++;
    }
    return true;
}

static uint32_t number(reader *r)
{
    size_t at = r->i;
    const char *s = r->s;
    if (r->i < r->n && s[r->i] == '-') {
        r->i++;
    }
    size_t first = r->i;
    if (!digits(r, at, "a number without digits")) {
        return 0;
    }
    if (s[first] == '0' && r->i - first > 1) {
        fail(r, at, "a number with a leading zero");
        return 0;
    }
    if (r->i < r->n && s[r->i] == '.') {
        r->i++;
        if (!digits(r, at, "a number with no digits after its point")) {
            return 0;
        }
    }
    if (r->i < r->n && (s[r->i] == 'e' || s[r->i] == 'E')) {
        r->i++;
        if (r->i < r->n && (s[r->i] == '+' || s[r->i] == '-')) {
            r->i++;
        }
        if (!digits(r, at, "a number with no digits in its exponent")) {
            return 0;
        }
    }
    uint32_t k = new_node(r, CLI_JNUMBER, at);
    if (k != 0) {
        r->doc->nodes[k].len = r->i - at;
    }
    return k;
}

static uint32_t value(reader *r, unsigned depth);

/* Links node k after *last (or as the first child of parent). */
static void append(reader *r, uint32_t parent, uint32_t *last, uint32_t k)
{
    if (*last == 0) {
        r->doc->nodes[parent].child = k;
    } else {
        r->doc->nodes[*last].next = k;
    }
    *last = k;
}

static uint32_t container(reader *r, unsigned depth, bool object)
{
    size_t at = r->i++;
    if (depth >= r->lim->max_depth) {
        fail(r, at, "nested deeper than a document may be");
        return 0;
    }
    uint32_t k = new_node(r, object ? CLI_JOBJECT : CLI_JARRAY, at);
    if (k == 0) {
        return 0;
    }
    const char close = object ? '}' : ']';
    uint32_t last = 0;
    skip_ws(r);
    if (r->i < r->n && r->s[r->i] == close) {
        r->i++;
        return k;
    }
    for (;;) {
        skip_ws(r);
        if (object) {
            if (r->i >= r->n || r->s[r->i] != '"') {
                fail(r, r->i, "an object member without a string key");
                return 0;
            }
            uint32_t key = string(r);
            if (key == 0) {
                return 0;
            }
            append(r, k, &last, key);
            skip_ws(r);
            if (r->i >= r->n || r->s[r->i] != ':') {
                fail(r, r->i, "a key without ':' after it");
                return 0;
            }
            r->i++;
        }
        uint32_t v = value(r, depth + 1);
        if (v == 0) {
            return 0;
        }
        append(r, k, &last, v);
        r->doc->nodes[k].count++;
        skip_ws(r);
        if (r->i < r->n && r->s[r->i] == ',') {
            r->i++;
            skip_ws(r);
            if (r->i < r->n && r->s[r->i] == close) {
                fail(r, r->i, "a comma before the end of an array or object");
                return 0;
            }
            continue;
        }
        if (r->i < r->n && r->s[r->i] == close) {
            r->i++;
            return k;
        }
        fail(r, r->i, object ? "an object member without ',' or '}' after it"
                             : "an array element without ',' or ']' after it");
        return 0;
    }
}

static uint32_t literal(reader *r, const char *word, cli_jtype type)
{
    size_t len = strlen(word);
    if (r->n - r->i < len || memcmp(r->s + r->i, word, len) != 0) {
        fail(r, r->i, "not a JSON value");
        return 0;
    }
    uint32_t k = new_node(r, type, r->i);
    r->i += len;
    return k;
}

static uint32_t value(reader *r, unsigned depth)
{
    skip_ws(r);
    if (r->i >= r->n) {
        fail(r, r->i, "the document ends where a value should be");
        return 0;
    }
    switch (r->s[r->i]) {
    case '{': return container(r, depth, true);
    case '[': return container(r, depth, false);
    case '"': return string(r);
    case 't': return literal(r, "true", CLI_JTRUE);
    case 'f': return literal(r, "false", CLI_JFALSE);
    case 'n': return literal(r, "null", CLI_JNULL);
    default:
        if (r->s[r->i] == '-' || digit(r->s[r->i])) {
            return number(r);
        }
        fail(r, r->i, "not a JSON value");
        return 0;
    }
}

gs_status cli_jdoc_parse(cli_jdoc *doc, const void *data, size_t size, const cli_jlimits *limits,
                         gs_error *err)
{
    memset(doc, 0, sizeof *doc);
    if (data == NULL && size > 0) {
        return cli_null_argument(err);
    }
    doc->data = data != NULL ? data : "";
    doc->size = size;
    reader r = {.doc = doc, .lim = limits, .s = doc->data, .n = size, .err = err};
    if (size > limits->max_bytes) {
        char what[128];
        snprintf(what, sizeof what, "longer than %zu bytes, the most this document may hold",
                 limits->max_bytes);
        return cli_jfail(err, "", 0, what);
    }
    /* a UTF-8 byte order mark is not JSON (RFC 8259 §8.1: a reader may ignore it; we refuse
     * it, as the writers never write one) */
    (void)new_node(&r, CLI_JNULL, 0); /* index 0: "none" */
    if (r.st == GS_OK && value(&r, 0) != 0) {
        skip_ws(&r);
        if (r.i < r.n) {
            fail(&r, r.i, "more after the document's value");
        }
    }
    return r.st;
}

void cli_jdoc_free(cli_jdoc *doc)
{
    free(doc->nodes);
    memset(doc, 0, sizeof *doc);
}

const cli_jnode *cli_jnode_at(const cli_jdoc *doc, uint32_t i)
{
    return i != 0 && i < doc->n ? &doc->nodes[i] : NULL;
}

uint32_t cli_jobject_get(const cli_jdoc *doc, uint32_t i, const char *key)
{
    const cli_jnode *o = cli_jnode_at(doc, i);
    if (o == NULL || o->type != CLI_JOBJECT) {
        return 0;
    }
    for (uint32_t k = o->child; k != 0; k = doc->nodes[doc->nodes[k].next].next) {
        if (cli_jstring_is(doc, k, key)) {
            return doc->nodes[k].next;
        }
    }
    return 0;
}

uint32_t cli_jarray_first(const cli_jdoc *doc, uint32_t i)
{
    const cli_jnode *a = cli_jnode_at(doc, i);
    return a != NULL && a->type == CLI_JARRAY ? a->child : 0;
}

uint32_t cli_jnext(const cli_jdoc *doc, uint32_t i)
{
    const cli_jnode *n = cli_jnode_at(doc, i);
    return n != NULL ? n->next : 0;
}

/* Appends code point cp as UTF-8 to dst[*k..cap): false when it does not fit. */
static bool put_utf8(char *dst, size_t cap, size_t *k, uint32_t cp)
{
    uint8_t b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (uint8_t)cp, n = 1;
    } else if (cp < 0x800) {
        b[0] = (uint8_t)(0xc0 | (cp >> 6)), b[1] = (uint8_t)(0x80 | (cp & 0x3f)), n = 2;
    } else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xe0 | (cp >> 12)), b[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
        b[2] = (uint8_t)(0x80 | (cp & 0x3f)), n = 3;
    } else {
        b[0] = (uint8_t)(0xf0 | (cp >> 18)), b[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
        b[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f)), b[3] = (uint8_t)(0x80 | (cp & 0x3f));
        n = 4;
    }
    if (cap - *k < n) {
        return false;
    }
    memcpy(dst + *k, b, n);
    *k += n;
    return true;
}

bool cli_jstring(const cli_jdoc *doc, uint32_t i, char *dst, size_t cap, size_t *len)
{
    const cli_jnode *n = cli_jnode_at(doc, i);
    if (n == NULL || n->type != CLI_JSTRING) {
        return false;
    }
    const char *s = doc->data + n->at + 1;
    size_t k = 0;
    for (size_t p = 0; p < n->len;) {
        if (s[p] != '\\') {
            if (k == cap) {
                return false;
            }
            dst[k++] = s[p++];
            continue;
        }
        char e = s[p + 1];
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *f = strchr(from, e);
        if (e != 'u' && f != NULL) {
            if (k == cap) {
                return false;
            }
            dst[k++] = to[f - from];
            p += 2;
            continue;
        }
        uint32_t cp = (uint32_t)hex4(s + p + 2);
        p += 6;
        if (cp >= 0xd800 && cp <= 0xdbff) { /* paired: the parser checked */
            uint32_t lo = (uint32_t)hex4(s + p + 2);
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            p += 6;
        }
        if (cp == 0 || !put_utf8(dst, cap, &k, cp)) {
            return false;
        }
    }
    *len = k;
    return true;
}

bool cli_jstring_is(const cli_jdoc *doc, uint32_t i, const char *s)
{
    char buf[256];
    size_t len;
    size_t want = strlen(s);
    return want <= sizeof buf && cli_jstring(doc, i, buf, sizeof buf, &len) && len == want &&
           memcmp(buf, s, len) == 0;
}

bool cli_jnumber_u64(const cli_jdoc *doc, uint32_t i, uint64_t max, uint64_t *v)
{
    const cli_jnode *n = cli_jnode_at(doc, i);
    if (n == NULL || n->type != CLI_JNUMBER) {
        return false;
    }
    uint64_t x = 0;
    for (size_t p = 0; p < n->len; p++) {
        char c = doc->data[n->at + p];
        if (!digit(c)) {
            return false;
        }
        unsigned d = (unsigned)(c - '0');
        if (x > (max - d) / 10) {
            return false;
        }
        x = x * 10 + d;
    }
    *v = x;
    return true;
}
