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

void gsc_add_numbered_keys(gsw_model *m, const char *prefix, int digits, unsigned n,
                           uint32_t value_type)
{
    for (unsigned i = 0; i < n; i++) {
        char key[64];
        snprintf(key, sizeof key, "%s%0*u", prefix, digits, i);
        if (value_type == GS_VALUE_U8) {
            gsw_set_u8(gsw_add(m, key), (uint8_t)i);
        } else {
            gsw_set_u32(gsw_add(m, key), (uint32_t)i);
        }
    }
}

void gsc_two_tensors(gsc_case *c, uint64_t na, uint64_t nb)
{
    gsc_begin(c, 3);
    gsc_add_f32(&c->m, "a", na);
    gsc_add_f32(&c->m, "b", nb);
    gsc_write(c, 0);
}

void gsc_size_overflows(gsc_sink *s, const gsc_shape *rows, size_t n, bool with_arch)
{
    for (size_t i = 0; i < n; i++) {
        gsc_case c;
        gsc_begin(&c, 3);
        if (with_arch) {
            gsc_add_arch(&c.m);
        }
        gsw_add_tensor(&c.m, "t", rows[i].n, rows[i].ne, rows[i].type);
        gsc_write(&c, GSW_LAX);
        gsc_both(s, &c, rows[i].file, GS_E_SIZE_OVERFLOW, gsc_at(&c, GSW_DIM, 0, 0), rows[i].desc);
    }
}

void gsc_base(gsc_case *c)
{
    gsc_begin(c, 3);
    gsc_add_arch(&c->m);
    gsc_add_f32(&c->m, "w", 8);
}
