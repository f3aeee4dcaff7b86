#define _POSIX_C_SOURCE 200809L /* fdopen */
/* Policy files (ggufsafe_certify.h, "policy files"): what a repository ignores, or counts as a
 * warning or an error, per finding code and optionally per key or tensor glob. The file is
 * untrusted input: its size, its lines, its globs and its rules are bounded, every byte is
 * checked (no NUL, no CR but in a CR LF line end), and each failure names the line and column.
 * Globs are matched by matches() below, which never backtracks more than once per '*' (at most
 * name length x glob length steps), so a glob such as "*a*a*a*a*b" cannot blow up on a long
 * name the way a recursive fnmatch(3) can. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "cert.h"
#include "cert_policy.h"
#include "text_out.h"

typedef struct rule {
    char code[CERT_CODE_MAX];
    char *glob; /* NULL: every finding of the code */
    gs_certify_action action;
} rule;

struct gs_certify_policy {
    rule *rules;
    size_t n, cap;
};

/* ---- globs -------------------------------------------------------------------------------- */

/* The class at p (just past '['): whether c is in it; *end just past its ']'. The class was
 * checked to be closed (glob_check). */
static bool in_class(const char *p, unsigned char c, const char **end)
{
    bool negate = *p == '!' || *p == '^';
    if (negate) {
        p++;
    }
    bool hit = false;
    bool first = true;
    while (*p != '\0' && (first || *p != ']')) {
        unsigned char lo = (unsigned char)*p;
        if (lo == '\\' && p[1] != '\0') {
            lo = (unsigned char)*++p;
        }
        p++;
        unsigned char hi = lo;
        if (*p == '-' && p[1] != ']' && p[1] != '\0') {
            p++;
            hi = (unsigned char)*p;
            if (hi == '\\' && p[1] != '\0') {
                hi = (unsigned char)*++p;
            }
            p++;
        }
        hit = hit || (c >= lo && c <= hi);
        first = false;
    }
    *end = *p == ']' ? p + 1 : p;
    return hit != negate;
}

/* One glob element at *pp against c (not '*'): true when it matches; *pp past it. */
static bool element(const char **pp, unsigned char c)
{
    const char *p = *pp;
    if (*p == '?') {
        *pp = p + 1;
        return true;
    }
    if (*p == '[') {
        return in_class(p + 1, c, pp);
    }
    if (*p == '\\' && p[1] != '\0') {
        p++;
    }
    *pp = p + 1;
    return (unsigned char)*p == c;
}

/* Whether glob matches all of name: the greedy match with one resumption point (the last '*'),
 * which is exact for globs whose elements each match one character. */
static bool matches(const char *glob, const char *name)
{
    const char *g = glob, *n = name;
    const char *star = NULL, *resume = NULL;
    while (*n != '\0') {
        if (*g == '*') {
            while (*g == '*') {
                g++;
            }
            star = g;
            resume = n;
            continue;
        }
        const char *next = g;
        if (*g != '\0' && element(&next, (unsigned char)*n)) {
            g = next;
            n++;
        } else if (star != NULL) {
            g = star;
            n = ++resume;
        } else {
            return false;
        }
    }
    while (*g == '*') {
        g++;
    }
    return *g == '\0';
}

/* NULL when glob is well formed, else what is wrong with it, and *at the byte. */
static const char *glob_check(const char *glob, size_t *at)
{
    for (size_t i = 0; glob[i] != '\0'; i++) {
        if (glob[i] == '\\') {
            if (glob[i + 1] == '\0') {
                *at = i;
                return "ends in a backslash that escapes nothing";
            }
            i++;
        } else if (glob[i] == '[') {
            size_t j = i + 1;
            if (glob[j] == '!' || glob[j] == '^') {
                j++;
            }
            if (glob[j] == ']') {
                j++; /* a ']' first is a member */
            }
            while (glob[j] != '\0' && glob[j] != ']') {
                if (glob[j] == '\\' && glob[j + 1] != '\0') {
                    j++;
                }
                j++;
            }
            if (glob[j] != ']') {
                *at = i;
                return "opens a [ class that is never closed";
            }
            i = j;
        }
    }
    return NULL;
}

/* ---- the file ----------------------------------------------------------------------------- */

typedef struct parser {
    const char *data;
    size_t size;
    size_t line;       /* 1-based */
    size_t line_start; /* offset of the line */
    gs_error *err;
} parser;

__attribute__((format(printf, 3, 4))) static gs_status fail(const parser *p, size_t at,
                                                             const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* the detail holds GS_ERROR_TEXT_MAX bytes: a longer message is cut where a character
     * starts and ends in "…", never inside a UTF-8 sequence */
    char where[48];
    int w = snprintf(where, sizeof where, "%zu:%zu: ", p->line, at + 1);
    size_t room = GS_ERROR_TEXT_MAX - 1 - (size_t)w;
    size_t n = strlen(msg);
    if (n > room) {
        n = cli_text_cut(msg, n, room - 3);
        memcpy(msg + n, "\xe2\x80\xa6", 3);
        n += 3;
    }
    msg[n] = '\0';
    return gsi_fail(p->err, GS_E_INVALID_ARGUMENT, p->line_start + at, GS_CONTEXT_NONE, NULL, 0,
                    "%s%s", where, msg);
}

/* A word of the line, escaped for a message (at most 64 bytes of it). */
static const char *quote(char *buf, size_t cap, const char *word, size_t len)
{
    cli_escape_cut(buf, cap, word, len, 32);
    return buf;
}

static gs_status add_rule(gs_certify_policy *pol, const parser *p, gs_certify_action action,
                          const char *code, size_t code_len, const char *glob, size_t glob_len)
{
    if (pol->n >= GS_CERTIFY_POLICY_MAX_RULES) {
        return fail(p, 0, "more than %u rules, the most a policy can have",
                    GS_CERTIFY_POLICY_MAX_RULES);
    }
    if (!cli_reserve((void **)&pol->rules, &pol->cap, pol->n + 1, sizeof *pol->rules)) {
        return gsi_fail(p->err, GS_E_NO_MEMORY, p->line_start, GS_CONTEXT_NONE, NULL, 0,
                        "%zu:1: out of memory for the policy's rules", p->line);
    }
    rule *r = &pol->rules[pol->n];
    memcpy(r->code, code, code_len);
    r->code[code_len] = '\0';
    r->action = action;
    r->glob = NULL;
    if (glob != NULL) {
        r->glob = cli_strndup(glob, glob_len);
        if (r->glob == NULL) {
            return gsi_fail(p->err, GS_E_NO_MEMORY, p->line_start, GS_CONTEXT_NONE, NULL, 0,
                            "%zu:1: out of memory for the policy's rules", p->line);
        }
    }
    pol->n++;
    return GS_OK;
}

/* One line, line[0..len) (no line end, no NUL, no CR). */
static gs_status parse_line(gs_certify_policy *pol, const parser *p, const char *line, size_t len)
{
    const char *word[4];
    size_t word_len[4], word_at[4];
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        if (line[i] == ' ' || line[i] == '\t') {
            i++;
            continue;
        }
        if (line[i] == '#') {
            break; /* a comment to the end of the line */
        }
        size_t j = i;
        while (j < len && line[j] != ' ' && line[j] != '\t') {
            j++;
        }
        if (n == 3) {
            char q[4 * 64 + 8];
            return fail(p, i, "'%s' after the glob: a rule is ACTION CODE [GLOB] (a '#' word "
                              "starts a comment)",
                        quote(q, sizeof q, line + i, j - i));
        }
        word[n] = line + i;
        word_len[n] = j - i;
        word_at[n] = i;
        n++;
        i = j;
    }
    if (n == 0) {
        return GS_OK;
    }
    char q[4 * 64 + 8];
    static const char *const actions[] = {"ignore", "warn", "error"};
    gs_certify_action action = GS_CERTIFY_ACTION_IGNORE;
    bool known = false;
    for (size_t a = 0; a < 3 && !known; a++) {
        if (word_len[0] == strlen(actions[a]) && memcmp(word[0], actions[a], word_len[0]) == 0) {
            action = (gs_certify_action)a;
            known = true;
        }
    }
    if (!known) {
        return fail(p, word_at[0], "unknown action '%s': a rule starts with ignore, warn or error",
                    quote(q, sizeof q, word[0], word_len[0]));
    }
    if (n < 2) {
        return fail(p, len, "%s names no finding code: a rule is ACTION CODE [GLOB]",
                    actions[action]);
    }
    char code[CERT_CODE_MAX];
    cert_code row;
    bool code_ok = word_len[1] < sizeof code;
    if (code_ok) {
        memcpy(code, word[1], word_len[1]);
        code[word_len[1]] = '\0';
        code_ok = cert_code_row(code, &row) && strcmp(code, CERT_READER_ROW) != 0;
    }
    if (!code_ok) {
        return fail(p, word_at[1],
                    "unknown finding code '%s' ('ggufsafe certify --list-codes' lists them)",
                    quote(q, sizeof q, word[1], word_len[1]));
    }
    if (n == 3) {
        if (word_len[2] > GS_CERTIFY_POLICY_MAX_GLOB) {
            return fail(p, word_at[2], "a glob of %zu bytes, longer than the %u a policy allows",
                        word_len[2], GS_CERTIFY_POLICY_MAX_GLOB);
        }
        char glob[GS_CERTIFY_POLICY_MAX_GLOB + 1];
        memcpy(glob, word[2], word_len[2]);
        glob[word_len[2]] = '\0';
        size_t at = 0;
        const char *why = glob_check(glob, &at);
        if (why != NULL) {
            return fail(p, word_at[2] + at, "the glob '%s' %s",
                        quote(q, sizeof q, word[2], word_len[2]), why);
        }
    }
    return add_rule(pol, p, action, word[1], word_len[1], n == 3 ? word[2] : NULL,
                    n == 3 ? word_len[2] : 0);
}

gs_status gs_certify_policy_parse(const void *data, size_t size, gs_certify_policy **out,
                                  gs_error *err)
{
    if (out == NULL || (data == NULL && size > 0)) {
        if (out != NULL) {
            *out = NULL;
        }
        return cli_null_argument(err);
    }
    *out = NULL;
    parser p = {.data = data, .size = size, .line = 1, .line_start = 0, .err = err};
    if (size > GS_CERTIFY_POLICY_MAX_BYTES) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, GS_CERTIFY_POLICY_MAX_BYTES, GS_CONTEXT_NONE,
                        NULL, 0, "1:1: longer than %u bytes, the most a policy file can hold",
                        GS_CERTIFY_POLICY_MAX_BYTES);
    }
    gs_certify_policy *pol = calloc(1, sizeof *pol);
    if (pol == NULL) {
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "policy");
    }
    gs_status st = GS_OK;
    size_t i = 0;
    while (st == GS_OK && i < size) {
        p.line_start = i;
        size_t len = 0;
        while (i + len < size && st == GS_OK) {
            char c = p.data[i + len];
            if (c == '\n') {
                break;
            }
            if (c == '\r' && (i + len + 1 >= size || p.data[i + len + 1] != '\n')) {
                st = fail(&p, len, "a carriage return not followed by a newline");
            } else if (c == '\0') {
                st = fail(&p, len, "a NUL byte");
            } else if (c != '\r' && len >= GS_CERTIFY_POLICY_MAX_LINE) {
                st = fail(&p, len, "longer than %u bytes, the longest line a policy can have",
                          GS_CERTIFY_POLICY_MAX_LINE);
            } else if (c == '\r') {
                break; /* CR LF: the LF ends the line below */
            } else {
                len++;
            }
        }
        if (st != GS_OK) {
            break;
        }
        st = parse_line(pol, &p, p.data + i, len);
        i += len;
        if (i < size && p.data[i] == '\r') {
            i++;
        }
        if (i < size && p.data[i] == '\n') {
            i++;
        }
        p.line++;
    }
    if (st != GS_OK) {
        gs_certify_policy_free(pol);
        return st;
    }
    *out = pol;
    return GS_OK;
}

gs_status gs_certify_policy_read(FILE *file, gs_certify_policy **out, gs_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (file == NULL || out == NULL) {
        return cli_null_argument(err);
    }
    char *buf;
    size_t len;
    gs_status st = cli_read_stream(file, GS_CERTIFY_POLICY_MAX_BYTES, &buf, &len, err);
    if (st != GS_OK) {
        return st;
    }
    st = gs_certify_policy_parse(buf, len, out, err);
    free(buf);
    return st;
}

size_t gs_certify_policy_rule_count(const gs_certify_policy *policy)
{
    return policy != NULL ? policy->n : 0;
}

bool gs_certify_policy_match(const gs_certify_policy *policy, const char *code,
                             const char *name, gs_certify_action *action)
{
    if (policy == NULL || code == NULL) {
        return false;
    }
    bool hit = false;
    for (size_t i = policy->n; i-- > 0 && !hit;) {
        const rule *r = &policy->rules[i];
        if (strcmp(r->code, code) != 0) {
            continue;
        }
        if (r->glob != NULL && (name == NULL || (strcmp(r->glob, name) != 0 &&
                                                 !matches(r->glob, name)))) {
            continue;
        }
        hit = true;
        if (action != NULL) {
            *action = r->action;
        }
    }
    return hit;
}

void gs_certify_policy_free(gs_certify_policy *policy)
{
    if (policy == NULL) {
        return;
    }
    for (size_t i = 0; i < policy->n; i++) {
        free(policy->rules[i].glob);
    }
    free(policy->rules);
    free(policy);
}

cert_policy_effect cert_policy_apply(const gs_certify_policy *policy, const char *code,
                                     const void *name, size_t name_len, bool name_is_text,
                                     cert_severity *severity, unsigned *profiles)
{
    if (policy == NULL) {
        return CERT_POLICY_NONE;
    }
    char shown[4 * CERT_NAME_MAX + 8];
    const char *as_shown = NULL;
    if (name != NULL) {
        if (name_is_text) {
            size_t n = name_len < sizeof shown - 1 ? name_len : sizeof shown - 1;
            memcpy(shown, name, n);
            shown[n] = '\0';
        } else {
            cli_escape_cut(shown, sizeof shown, name, name_len, CERT_NAME_MAX);
        }
        as_shown = shown;
    }
    gs_certify_action action;
    if (!gs_certify_policy_match(policy, code, as_shown, &action)) {
        return CERT_POLICY_NONE;
    }
    if (action == GS_CERTIFY_ACTION_IGNORE) {
        return CERT_POLICY_IGNORED;
    }
    *severity = action == GS_CERTIFY_ACTION_ERROR ? CERT_ERROR : CERT_WARNING;
    if (*profiles == 0) {
        *profiles = CERT_BOTH;
    }
    return CERT_POLICY_CHANGED;
}
