/* Chat templates that can run code. tokenizer.chat_template (and the named templates
 * tokenizer.chat_template.<name>) is Jinja2 source that other programs render; rendered by an
 * unsandboxed Jinja2 it can reach Python's internals and run anything (CVE-2024-34359:
 * llama-cpp-python rendered GGUF templates so). Real chat templates loop over messages and
 * print strings: they never name Python's object model, never import, never spell an
 * underscore with an escape. A template that does, or that is larger than any real one, gets
 * meta.chat_template_risk with the first offending fragment, escaped.
 *
 * What this catches: the published sandbox escapes and their usual spellings (dunder
 * attributes, |attr, escaped underscores, os./subprocess/eval/exec). What it cannot: a payload
 * assembled at render time from innocent pieces (string concatenation, ~, format, join) that
 * the sandbox of the renderer would still have to stop; templates are not executed here.
 * docs/certify.md#meta.chat_template_risk says the same for users. */
#include <stdio.h>
#include <string.h>

#include "cert.h"
#include "num_format.h"
#include "text_out.h"

/* Far above the few kilobytes real templates take. */
#define TEMPLATE_MAX_BYTES (64u * 1024u)
#define CONTEXT_BYTES 24u

typedef struct hit {
    size_t at;   /* first offending byte in the template */
    size_t len;  /* of the fragment */
    const char *why;
} hit;

typedef struct scan {
    const uint8_t *s;
    size_t n;
    hit first;
    uint64_t count;
} scan;

static void found(scan *sc, size_t at, size_t len, const char *why)
{
    sc->count++;
    if (sc->first.why == NULL || at < sc->first.at) {
        sc->first = (hit){at, len, why};
    }
}

static bool ident(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool at_lit(const scan *sc, size_t i, const char *lit, size_t len)
{
    return len <= sc->n - i && memcmp(sc->s + i, lit, len) == 0;
}

/* Every occurrence of lit, as a word of its own when `word` (no identifier byte before it). */
static void each(scan *sc, const char *lit, bool word, const char *why)
{
    size_t len = strlen(lit);
    const uint8_t *p = sc->s;
    size_t left = sc->n;
    while (left >= len) {
        const uint8_t *q = memchr(p, lit[0], left - len + 1);
        if (q == NULL) {
            return;
        }
        size_t i = (size_t)(q - sc->s);
        if (at_lit(sc, i, lit, len) && !(word && i > 0 && ident(sc->s[i - 1]))) {
            found(sc, i, len, why);
        }
        left = sc->n - i - 1;
        p = q + 1;
    }
}

/* Dunder names of Python's object model, the steps of every known sandbox escape. */
static void dunders(scan *sc)
{
    static const char *const names[] = {
        "__class__", "__globals__", "__subclasses__", "__builtins__", "__import__",
        "__mro__",   "__base__",    "__init__",       "__getattribute__", "__dict__",
        "__code__",  "__reduce__",  "_TemplateReference__context",
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        each(sc, names[k], false, "reaches Python internals");
    }
}

/* |attr(...): attribute access by a computed name, how escapes reach dunders spelled with
 * escape sequences or concatenation. */
static void attr_filter(scan *sc)
{
    const uint8_t *p = sc->s;
    size_t left = sc->n;
    while (left > 0) {
        const uint8_t *q = memchr(p, '|', left);
        if (q == NULL) {
            return;
        }
        size_t i = (size_t)(q - sc->s), j = i + 1;
        while (j < sc->n && (sc->s[j] == ' ' || sc->s[j] == '\t' || sc->s[j] == '\n')) {
            j++;
        }
        if (at_lit(sc, j, "attr", 4) && (j + 4 == sc->n || !ident(sc->s[j + 4]))) {
            found(sc, i, j + 4 - i, "reads attributes by computed name (|attr)");
        }
        left = sc->n - i - 1;
        p = q + 1;
    }
}

/* An underscore written as an escape sequence hides a dunder from a plain search. */
static void escaped_underscores(scan *sc)
{
    static const char *const forms[] = {"\\x5f", "\\x5F", "\\u005f", "\\u005F", "\\137",
                                        "\\U0000005f", "\\U0000005F"};
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        each(sc, forms[k], false, "spells an underscore as an escape sequence");
    }
}

static void modules(scan *sc)
{
    each(sc, "os.", true, "names the os module");
    each(sc, "subprocess", true, "names the subprocess module");
    each(sc, "popen", true, "names popen");
    each(sc, "eval(", true, "calls eval");
    each(sc, "exec(", true, "calls exec");
}

static bool is_template_key(const gs_kv_info *kv)
{
    static const char key[] = "tokenizer.chat_template";
    size_t n = sizeof key - 1;
    return kv->key.len >= n && memcmp(kv->key.ptr, key, n) == 0 &&
           (kv->key.len == n || kv->key.ptr[n] == '.');
}

static void check_one(cert_run *r, const gs_kv_info *kv, gs_str text)
{
    scan sc = {(const uint8_t *)text.ptr, text.len, {0, 0, NULL}, 0};
    dunders(&sc);
    attr_filter(&sc);
    escaped_underscores(&sc);
    modules(&sc);
    bool large = text.len > TEMPLATE_MAX_BYTES;
    if (sc.count == 0 && !large) {
        return;
    }
    char size[CLI_NUM_BUF];
    cli_format_count(size, text.len);
    /* the string's bytes follow its 8-byte length */
    uint64_t base = kv->value_offset + 8;
    if (sc.count == 0) {
        cert_add(&r->findings, "meta.chat_template_risk", 0, base, CERT_SUBJECT_KEY, kv->key.ptr,
                 kv->key.len,
                 "%s bytes: larger than any real chat template (they take a few kilobytes), so "
                 "it hides more than a template",
                 size);
        return;
    }
    size_t from = sc.first.at > CONTEXT_BYTES ? sc.first.at - CONTEXT_BYTES : 0;
    size_t to = sc.first.at + sc.first.len + CONTEXT_BYTES;
    to = to < text.len ? to : text.len;
    char fragment[4 * 128 + 8], around[4 * (2 * CONTEXT_BYTES + 128) + 8];
    cli_escape_cut(fragment, sizeof fragment, text.ptr + sc.first.at, sc.first.len, 128);
    cli_escape_cut(around, sizeof around, text.ptr + from, to - from, 2 * CONTEXT_BYTES + 128);
    char count[CLI_NUM_BUF];
    cli_format_count(count, sc.count);
    cert_add(&r->findings, "meta.chat_template_risk", 0, base + sc.first.at, CERT_SUBJECT_KEY,
             kv->key.ptr, kv->key.len,
             "%s: '%s' in '%s%s%s' (%s risky %s in %s bytes%s)", sc.first.why, fragment,
             from > 0 ? "\xe2\x80\xa6" : "", around, to < text.len ? "\xe2\x80\xa6" : "", count,
             sc.count == 1 ? "fragment" : "fragments", size,
             large ? ", larger than any real chat template" : "");
}

void cert_check_template(cert_run *r)
{
    const gs_file *f = cert_meta_file(r);
    if (f == NULL) {
        return;
    }
    for (size_t i = 0; i < gs_kv_count(f); i++) {
        gs_kv_info kv;
        gs_str text;
        if (gs_kv_info_at(f, i, &kv) == GS_OK && kv.type == GS_VALUE_STRING &&
            is_template_key(&kv) && gs_kv_get_string(f, i, &text) == GS_OK) {
            check_one(r, &kv, text);
        }
    }
}
