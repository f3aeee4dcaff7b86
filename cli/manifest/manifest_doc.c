/* The in-memory manifest, the escaping of names, and the text it is written as. */
#include <stdlib.h>
#include <string.h>

#include "cert_findings.h"
#include "manifest.h"

void mf_doc_init(mf_doc *d, size_t n_parts)
{
    d->n_parts = n_parts;
    d->parts = n_parts ? cert_xrealloc(NULL, n_parts * sizeof *d->parts) : NULL;
    if (n_parts) {
        memset(d->parts, 0, n_parts * sizeof *d->parts);
    }
}

void mf_doc_free(mf_doc *d)
{
    for (size_t p = 0; p < d->n_parts; p++) {
        for (size_t i = 0; i < d->parts[p].n; i++) {
            free(d->parts[p].entries[i].name);
        }
        free(d->parts[p].entries);
    }
    free(d->parts);
    d->parts = NULL;
    d->n_parts = 0;
}

mf_entry *mf_part_add(mf_part *p, mf_kind kind, const char *name, size_t len)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->entries = cert_xrealloc(p->entries, p->cap * sizeof *p->entries);
    }
    mf_entry *e = &p->entries[p->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->name = cert_xrealloc(NULL, len + 1);
    memcpy(e->name, name, len);
    e->name[len] = '\0';
    return e;
}

static const char hexdigits[] = "0123456789abcdef";

char *mf_escape(const void *raw, size_t n)
{
    const uint8_t *s = raw;
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        len += (s[i] > 0x20 && s[i] < 0x7f && s[i] != '\\') ? 1 : 4;
    }
    char *out = cert_xrealloc(NULL, len + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] > 0x20 && s[i] < 0x7f && s[i] != '\\') {
            out[k++] = (char)s[i];
        } else {
            out[k++] = '\\';
            out[k++] = 'x';
            out[k++] = hexdigits[s[i] >> 4];
            out[k++] = hexdigits[s[i] & 15];
        }
    }
    out[k] = '\0';
    return out;
}

void mf_hex(const uint8_t digest[32], char out[65])
{
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hexdigits[digest[i] >> 4];
        out[2 * i + 1] = hexdigits[digest[i] & 15];
    }
    out[64] = '\0';
}

void mf_write(FILE *out, const mf_doc *d)
{
    char hex[65];
    fprintf(out, "%s %d\n", MF_MAGIC, MF_VERSION);
    for (size_t p = 0; p < d->n_parts; p++) {
        const mf_part *part = &d->parts[p];
        mf_hex(part->digest, hex);
        fprintf(out, "part %zu of %zu\nfile %s %llu\n", p + 1, d->n_parts, hex,
                (unsigned long long)part->size);
        for (size_t i = 0; i < part->n; i++) {
            const mf_entry *e = &part->entries[i];
            mf_hex(e->digest, hex);
            if (e->kind == MF_KV) {
                fprintf(out, "kv %s %s\n", hex, e->name);
            } else {
                fprintf(out, "tensor %s %s %s %s\n", hex, e->type, e->shape, e->name);
            }
        }
    }
    fprintf(out, "end\n");
}
