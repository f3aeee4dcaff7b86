#include "cert_nameset.h"

void cert_nameset_init(cert_nameset *s, gsi_name_source src)
{
    gsi_index_init(&s->ix);
    /* Bounded by the file's own tables, which the reader already bounded. */
    gsi_mem_init(&s->mem, NULL, UINT64_MAX);
    s->src = src;
    s->failed = false;
}

void cert_nameset_free(cert_nameset *s)
{
    gsi_index_free(&s->ix, &s->mem);
}

bool cert_nameset_insert(cert_nameset *s, const void *name, uint64_t len, uint32_t record,
                         uint32_t *earlier)
{
    bool dup = false;
    gs_status st = gsi_index_insert(&s->ix, &s->mem, &s->src, name, len, record, &dup, earlier);
    if (st != GS_OK) {
        s->failed = true;
        return false;
    }
    return dup;
}
