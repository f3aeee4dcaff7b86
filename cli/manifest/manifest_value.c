/* The values that a version 2 manifest records beside each key-value's digest, so that verify
 * can say what an edit changed ("old 4096 -> new 8192", "element 17: old 5 -> new 6"):
 *
 *   kv <sha256> <key> <type> <item>                       a scalar
 *   kv <sha256> <key> array <element type> <count> <list> an array
 *
 * An item is '=' then the whole value, or '~' then its first MF_VALUE_STRING_MAX bytes (a longer
 * string, cut where a UTF-8 character starts). A list is the first MF_VALUE_ELEMENTS elements'
 * items separated by commas, or '-' when it holds none (an empty array, an array of arrays).
 * Items use the names' escapes, with the comma escaped as well (\x2c), so that a field never
 * holds a space and a list splits at its commas. Numbers are written as `info` prints them
 * (floats to round-trip). The values are display data: the digest alone decides whether a
 * key-value changed. */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "kv_value.h"
#include "manifest.h"
#include "manifest_value.h"
#include "text_out.h"

static const char hexdigits[] = "0123456789abcdef";

static bool value_literal(uint8_t b)
{
    return mf_byte_literal(b) && b != ',';
}

typedef struct vbuf {
    char *s;
    size_t len, cap;
    bool failed;
} vbuf;

static void put(vbuf *b, const char *s, size_t n)
{
    if (b->failed || !cli_reserve((void **)&b->s, &b->cap, b->len + n + 1, 1)) {
        b->failed = true;
        return;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void put_escaped(vbuf *b, const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (value_literal(s[i])) {
            put(b, (const char *)&s[i], 1);
        } else {
            char e[4] = {'\\', 'x', hexdigits[s[i] >> 4], hexdigits[s[i] & 15]};
            put(b, e, 4);
        }
    }
}

static void put_item(vbuf *b, const cli_value *v)
{
    if (v->kind == CLI_VALUE_STRING) {
        size_t keep = cli_text_cut(v->as.s.ptr, v->as.s.len, MF_VALUE_STRING_MAX);
        put(b, keep < v->as.s.len ? "~" : "=", 1);
        put_escaped(b, (const uint8_t *)v->as.s.ptr, keep);
        return;
    }
    cli_text t;
    cli_value_text(v, &t, MF_VALUE_STRING_MAX); /* a number or true/false: printable ASCII */
    put(b, "=", 1);
    put_escaped(b, (const uint8_t *)t.s, t.len);
}

char *mf_kv_value(const gs_file *f, size_t index)
{
    gs_kv_info kv;
    if (gs_kv_info_at(f, index, &kv) != GS_OK) {
        return NULL;
    }
    vbuf b = {0};
    cli_value v;
    if (kv.type != GS_VALUE_ARRAY) {
        const char *tn = gs_value_type_name(kv.type);
        if (cli_read_scalar(f, index, kv.type, &v) != GS_OK) {
            return NULL;
        }
        put(&b, tn, strlen(tn));
        put(&b, " ", 1);
        put_item(&b, &v);
    } else {
        char head[64];
        const char *en = gs_value_type_name(kv.elem_type);
        int n = snprintf(head, sizeof head, "array %s %llu ", en, (unsigned long long)kv.count);
        put(&b, head, (size_t)n);
        uint64_t shown = kv.elem_type == GS_VALUE_ARRAY ? 0
                         : kv.count < MF_VALUE_ELEMENTS ? kv.count
                                                        : MF_VALUE_ELEMENTS;
        if (shown == 0) {
            put(&b, "-", 1);
        }
        for (uint64_t i = 0; i < shown; i++) {
            if (cli_read_element(f, index, kv.elem_type, i, &v) != GS_OK) {
                free(b.s);
                return NULL;
            }
            if (i > 0) {
                put(&b, ",", 1);
            }
            put_item(&b, &v);
        }
    }
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* One item [s, s + n) as mf_kv_value writes it: a marker, then canonical escapes. */
static bool canonical_item(const char *s, size_t n)
{
    if (n == 0 || (s[0] != '=' && s[0] != '~')) {
        return false;
    }
    for (size_t i = 1; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= 0x20 || c >= 0x7f || c == ',') {
            return false;
        }
        if (c != '\\') {
            continue;
        }
        if (n - i < 4 || s[i + 1] != 'x' || mf_hexval(s[i + 2]) < 0 || mf_hexval(s[i + 3]) < 0) {
            return false;
        }
        unsigned b = (unsigned)(mf_hexval(s[i + 2]) << 4 | mf_hexval(s[i + 3]));
        if (value_literal((uint8_t)b)) {
            return false;
        }
        i += 3;
    }
    return true;
}

static bool type_name_known(const char *s, bool scalar)
{
    for (int t = GS_VALUE_U8; t <= GS_VALUE_F64; t++) {
        if ((!scalar || t != GS_VALUE_ARRAY) && strcmp(s, gs_value_type_name((gs_value_type)t)) == 0) {
            return true;
        }
    }
    return false;
}

const char *mf_value_check(char *const *f, int n)
{
    if (n == 2) {
        if (!type_name_known(f[0], true)) {
            return "unknown value type (expected u8 ... f64, bool, string)";
        }
        return canonical_item(f[1], strlen(f[1])) ? NULL
                                                  : "the value is not '=' or '~' then escapes";
    }
    uint64_t count;
    if (n != 4 || strcmp(f[0], "array") != 0 || !type_name_known(f[1], false) ||
        !mf_parse_u64(f[2], &count)) {
        return "expected '<type> <value>' or 'array <element type> <count> <elements>'";
    }
    uint64_t want = strcmp(f[1], "array") == 0 ? 0
                    : count < MF_VALUE_ELEMENTS ? count
                                                : MF_VALUE_ELEMENTS;
    if (want == 0) {
        return strcmp(f[3], "-") == 0 ? NULL : "an array without listed elements must show '-'";
    }
    uint64_t got = 0;
    for (const char *s = f[3];; got++) {
        const char *comma = strchr(s, ',');
        size_t len = comma != NULL ? (size_t)(comma - s) : strlen(s);
        if (got == want || !canonical_item(s, len)) {
            return "the elements are not the first min(count, 32) items, comma-separated";
        }
        if (comma == NULL) {
            break;
        }
        s = comma + 1;
    }
    return got + 1 == want ? NULL
                           : "the elements are not the first min(count, 32) items, comma-separated";
}

/* Item [s, s + n) for a person: its bytes unescaped, then escaped for the terminal, in double
 * quotes when it is a string, with an ellipsis when it was cut. */
static void show_item(const char *s, size_t n, bool string, cli_text *out)
{
    uint8_t raw[MF_VALUE_STRING_MAX + 8];
    size_t k = 0;
    for (size_t i = 1; i < n && k < sizeof raw; i++) {
        if (s[i] == '\\' && n - i >= 4) {
            raw[k++] = (uint8_t)(mf_hexval(s[i + 2]) << 4 | mf_hexval(s[i + 3]));
            i += 3;
        } else {
            raw[k++] = (uint8_t)s[i];
        }
    }
    cli_text t;
    cli_text_escape(&t, raw, k, sizeof raw);
    cli_text_printf(out, "%s%s%s%s", string ? "\"" : "", t.s, s[0] == '~' ? "..." : "",
                    string ? "\"" : "");
}

/* The i-th comma-separated item of list; false when there is none. */
static bool nth_item(const char *list, uint64_t i, const char **s, size_t *n)
{
    if (strcmp(list, "-") == 0) {
        return false;
    }
    const char *p = list;
    for (uint64_t k = 0; k < i; k++) {
        p = strchr(p, ',');
        if (p == NULL) {
            return false;
        }
        p++;
    }
    const char *comma = strchr(p, ',');
    *s = p;
    *n = comma != NULL ? (size_t)(comma - p) : strlen(p);
    return true;
}

/* Splits a copy of a value (mf_value_check accepted it) into its fields. */
static int fields_of(char *copy, char **f)
{
    int n = 0;
    for (char *s = copy; n < 4;) {
        f[n++] = s;
        char *sp = strchr(s, ' ');
        if (sp == NULL) {
            break;
        }
        *sp = '\0';
        s = sp + 1;
    }
    return n;
}

static bool same_item(const char *a, size_t an, const char *b, size_t bn)
{
    return an == bn && memcmp(a, b, an) == 0;
}

bool mf_value_change(const char *old_value, const char *new_value, mf_value_diff *out)
{
    memset(out, 0, sizeof *out);
    char *a = cli_strndup(old_value, strlen(old_value));
    char *b = cli_strndup(new_value, strlen(new_value));
    if (a == NULL || b == NULL) {
        free(a);
        free(b);
        return false;
    }
    char *fa[4], *fb[4];
    int na = fields_of(a, fa), nb = fields_of(b, fb);
    bool sa = na == 2 && strcmp(fa[0], "string") == 0, sb = nb == 2 && strcmp(fb[0], "string") == 0;
    cli_text ot, nt;
    ot.s[0] = nt.s[0] = '\0';
    if (na == 2 && nb == 2) {
        show_item(fa[1], strlen(fa[1]), sa, &ot);
        show_item(fb[1], strlen(fb[1]), sb, &nt);
        if (strcmp(fa[0], fb[0]) != 0) {
            snprintf(out->detail, sizeof out->detail, "type %s -> %s", fa[0], fb[0]);
        } else {
            snprintf(out->detail, sizeof out->detail, "value");
        }
    } else if (na == 4 && nb == 4) {
        bool as = strcmp(fa[1], "string") == 0, bs = strcmp(fb[1], "string") == 0;
        uint64_t ca = 0, cb = 0;
        mf_parse_u64(fa[2], &ca);
        mf_parse_u64(fb[2], &cb);
        const char *xa, *xb;
        size_t la, lb;
        uint64_t i = 0;
        bool ha, hb;
        for (;; i++) {
            ha = nth_item(fa[3], i, &xa, &la);
            hb = nth_item(fb[3], i, &xb, &lb);
            if (!ha || !hb || !same_item(xa, la, xb, lb) || strcmp(fa[1], fb[1]) != 0) {
                break;
            }
        }
        if (strcmp(fa[1], fb[1]) != 0) {
            snprintf(out->detail, sizeof out->detail, "element type %s -> %s", fa[1], fb[1]);
        } else if (ha && hb) {
            snprintf(out->detail, sizeof out->detail, "element %llu", (unsigned long long)i);
            show_item(xa, la, as, &ot);
            show_item(xb, lb, bs, &nt);
        } else if (ca != cb) {
            snprintf(out->detail, sizeof out->detail, "count %llu -> %llu",
                     (unsigned long long)ca, (unsigned long long)cb);
        } else {
            snprintf(out->detail, sizeof out->detail,
                     "value (the first %llu elements match: a later one differs)",
                     (unsigned long long)i);
        }
    } else {
        snprintf(out->detail, sizeof out->detail, "type %s -> %s", na == 4 ? "array" : fa[0],
                 nb == 4 ? "array" : fb[0]);
        if (na == 2) {
            show_item(fa[1], strlen(fa[1]), sa, &ot);
        }
        if (nb == 2) {
            show_item(fb[1], strlen(fb[1]), sb, &nt);
        }
    }
    free(a);
    free(b);
    if (ot.s[0] != '\0' && nt.s[0] != '\0') {
        out->has_values = true;
        snprintf(out->old_text, sizeof out->old_text, "%s", ot.s);
        snprintf(out->new_text, sizeof out->new_text, "%s", nt.s);
    }
    return true;
}
