#include <stdio.h>
#include <stdlib.h>

#include "gsc_cases.h"

void gsc_add_arch(gsw_model *m)
{
    gsw_set_cstr(gsw_add(m, "general.architecture"), "llama");
}

gsw_tensor *gsc_add_f32(gsw_model *m, const char *name, uint64_t n)
{
    gsw_tensor *t = gsw_add_tensor(m, name, 1, &n, GS_TYPE_F32);
    if (!gsw_tensor_fill(t, n, 1u << 24)) {
        fprintf(stderr, "gsc_add_f32: %llu elements\n", (unsigned long long)n);
        abort();
    }
    return t;
}

void gsc_base(gsc_case *c)
{
    gsc_begin(c, 3);
    gsc_add_arch(&c->m);
    gsc_add_f32(&c->m, "w", 8);
}
