/* The in-memory manifest, the escaping of names, and the text it is written as. */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "manifest.h"

gs_status mf_doc_init(mf_doc *d, size_t n_parts)
{
    d->n_parts = 0;
    d->parts = NULL;
    d->version = MF_VERSION;
    if (n_parts == 0) {
        return GS_OK;
    }
    d->parts = cli_alloc_array(n_parts, sizeof *d->parts);
    if (d->parts == NULL) {
        return GS_E_NO_MEMORY;
    }
    memset(d->parts, 0, n_parts * sizeof *d->parts);
    d->n_parts = n_parts;
    return GS_OK;
}

void mf_doc_free(mf_doc *d)
{
    for (size_t p = 0; p < d->n_parts; p++) {
        for (size_t i = 0; i < d->parts[p].n; i++) {
            free(d->parts[p].entries[i].name);
            free(d->parts[p].entries[i].value);
        }
        free(d->parts[p].entries);
    }
    free(d->parts);
    d->parts = NULL;
    d->n_parts = 0;
}

mf_entry *mf_part_add(mf_part *p, mf_kind kind, const char *name, size_t len)
{
    char *copy = cli_strndup(name, len);
    if (copy == NULL || !cli_reserve((void **)&p->entries, &p->cap, p->n + 1, sizeof *p->entries)) {
        free(copy);
        return NULL;
    }
    mf_entry *e = &p->entries[p->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->name = copy;
    return e;
}

static const char hexdigits[] = "0123456789abcdef";

char *mf_escape(const void *raw, size_t n)
{
    const uint8_t *s = raw;
    uint64_t len = mf_escaped_len(raw, n);
    char *out = len < SIZE_MAX ? malloc((size_t)len + 1) : NULL;
    if (out == NULL) {
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (mf_byte_literal(s[i])) {
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

void gs_manifest_hex(const uint8_t digest[32], char out[65])
{
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hexdigits[digest[i] >> 4];
        out[2 * i + 1] = hexdigits[digest[i] & 15];
    }
    out[64] = '\0';
}

void mf_write(cli_out *out, const mf_doc *d)
{
    char hex[65];
    cli_out_printf(out, "%s %u\n", MF_MAGIC, d->version != 0 ? d->version : (unsigned)MF_VERSION);
    for (size_t p = 0; p < d->n_parts; p++) {
        const mf_part *part = &d->parts[p];
        mf_hex(part->digest, hex);
        cli_out_printf(out, "part %zu of %zu\nfile %s %llu\n", p + 1, d->n_parts, hex,
                       (unsigned long long)part->size);
        for (size_t i = 0; i < part->n; i++) {
            const mf_entry *e = &part->entries[i];
            mf_hex(e->digest, hex);
            if (e->kind == MF_KV) {
                cli_out_printf(out, "kv %s %s%s%s\n", hex, e->name, e->value != NULL ? " " : "",
                               e->value != NULL ? e->value : "");
            } else {
                cli_out_printf(out, "tensor %s %s %s %s\n", hex, e->type, e->shape, e->name);
            }
        }
    }
    cli_out_printf(out, "end\n");
}
