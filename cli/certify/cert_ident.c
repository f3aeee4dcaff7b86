/* The identity of a finding across runs: the URI of the artifact it is in and its partial
 * fingerprint, what SARIF results carry (cert_render_sarif.c) and what a baseline matches on
 * (cert_baseline.c): one implementation of each. */
#define _POSIX_C_SOURCE 200809L
#include "cert_ident.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"

/* Lexically normalized absolute path of p (relative to cwd): "." and empty segments dropped,
 * ".." taking one off (never above the root). Allocated; NULL on failure. */
static char *absolute(const char *cwd, const char *p)
{
    size_t a = p[0] == '/' ? 0 : strlen(cwd), b = strlen(p);
    if (b > SIZE_MAX - a - 2) {
        return NULL;
    }
    char *in = malloc(a + b + 2), *out = malloc(a + b + 2);
    if (in == NULL || out == NULL) {
        free(in);
        free(out);
        return NULL;
    }
    memcpy(in, cwd, a);
    in[a] = '/';
    memcpy(in + a + 1, p, b + 1);
    size_t k = 0;
    for (const char *seg = in; *seg != '\0';) {
        while (*seg == '/') {
            seg++;
        }
        const char *end = strchr(seg, '/');
        size_t len = end != NULL ? (size_t)(end - seg) : strlen(seg);
        if (len == 0 || (len == 1 && seg[0] == '.')) {
            /* nothing */
        } else if (len == 2 && seg[0] == '.' && seg[1] == '.') {
            while (k > 0 && out[k - 1] != '/') {
                k--;
            }
            if (k > 0) {
                k--; /* the '/' before it */
            }
        } else {
            out[k++] = '/';
            memcpy(out + k, seg, len);
            k += len;
        }
        seg += len;
    }
    if (k == 0) {
        out[k++] = '/';
    }
    out[k] = '\0';
    free(in);
    return out;
}

/* The bytes of a path as a URI path: unreserved bytes and '/' as they are, the rest %HH. */
char *cert_uri_encode(const char *path)
{
    size_t n = strlen(path);
    char *out = cli_alloc_array(n + 1, 3);
    if (out == NULL) {
        return NULL;
    }
    static const char hex[] = "0123456789ABCDEF";
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
        if (keep) {
            out[k++] = (char)c;
        } else {
            out[k++] = '%';
            out[k++] = hex[c >> 4];
            out[k++] = hex[c & 15];
        }
    }
    out[k] = '\0';
    return out;
}

/* A directory's normalized absolute form with a trailing '/', or NULL. */
char *cert_directory(const char *cwd, const char *dir)
{
    char *abs = absolute(cwd, dir);
    if (abs == NULL) {
        return NULL;
    }
    size_t n = strlen(abs);
    if (abs[n - 1] != '/') {
        char *grown = realloc(abs, n + 2);
        if (grown == NULL) {
            free(abs);
            return NULL;
        }
        abs = grown;
        abs[n] = '/';
        abs[n + 1] = '\0';
    }
    return abs;
}

char *cert_uri(const char *cwd, const char *base, const char *path, bool *relative)
{
    *relative = false;
    if (cwd == NULL) {
        *relative = path[0] != '/';
        return cert_uri_encode(path);
    }
    char *abs = absolute(cwd, path);
    if (abs == NULL) {
        return NULL;
    }
    char *uri;
    size_t nb = strlen(base);
    if (strncmp(abs, base, nb) == 0 && abs[nb] != '\0') {
        *relative = true;
        uri = cert_uri_encode(abs + nb);
    } else {
        char *enc = cert_uri_encode(abs);
        uri = enc != NULL ? malloc(strlen(enc) + 8) : NULL;
        if (uri != NULL) {
            memcpy(uri, "file://", 7);
            memcpy(uri + 7, enc, strlen(enc) + 1);
        }
        free(enc);
    }
    free(abs);
    return uri;
}

char *cert_cwd(void)
{
    char buf[4096];
    if (getcwd(buf, sizeof buf) == NULL || buf[0] != '/') {
        return NULL;
    }
    return cert_directory("/", buf);
}


/* ---- fingerprints -------------------------------------------------------------------------- */

/* The order that groups a report's findings by (part, code, subject, name), found order
 * within: each finding's occurrence number in its group is its fingerprint's last part, stable
 * while the file's findings stay the same whatever else changes. */
typedef struct ranked {
    const cert_finding *f;
    size_t index;
} ranked;

static int compare_identity(const cert_finding *a, const cert_finding *b)
{
    int c = (a->part > b->part) - (a->part < b->part);
    if (c == 0) {
        c = strcmp(a->code, b->code);
    }
    if (c == 0) {
        c = (a->subject > b->subject) - (a->subject < b->subject);
    }
    if (c == 0) {
        size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
        c = n > 0 ? memcmp(a->name, b->name, n) : 0;
        if (c == 0) {
            c = (a->name_len > b->name_len) - (a->name_len < b->name_len);
        }
    }
    return c;
}

static int by_identity(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    int c = compare_identity(a->f, b->f);
    return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

/* occurrence[i]: how many findings before i have i's identity. NULL after a failure. */
uint32_t *cert_occurrences(const cert_run *r)
{
    size_t n = r->findings.n;
    ranked *order = cli_alloc_array(n, sizeof *order);
    uint32_t *occ = cli_alloc_array(n, sizeof *occ);
    if (order == NULL || occ == NULL) {
        free(order);
        free(occ);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        order[i] = (ranked){&r->findings.items[i], i};
    }
    qsort(order, n, sizeof *order, by_identity);
    for (size_t i = 0; i < n; i++) {
        bool same = i > 0 && compare_identity(order[i - 1].f, order[i].f) == 0;
        occ[order[i].index] = same ? occ[order[i - 1].index] + 1 : 0;
    }
    free(order);
    return occ;
}

size_t cert_fingerprint(const cert_finding *f, uint32_t occurrence, uint8_t **out)
{
    size_t cap = strlen(f->code) + f->name_len + 32;
    uint8_t *fp = malloc(cap);
    *out = fp;
    if (fp == NULL) {
        return 0;
    }
    size_t k = (size_t)snprintf((char *)fp, cap, "%s/%s", f->code,
                                f->subject == CERT_SUBJECT_KEY      ? "key:"
                                : f->subject == CERT_SUBJECT_TENSOR ? "tensor:"
                                                                    : "");
    if (f->name_len > 0) {
        memcpy(fp + k, f->name, f->name_len);
        k += f->name_len;
    }
    k += (size_t)snprintf((char *)fp + k, cap - k, "/%u", occurrence);
    return k;
}
