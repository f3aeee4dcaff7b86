/* Tensor names: empty, NUL, ggml's 63-byte limit, duplicates, UTF-8, declared lengths. */
#include <stdlib.h>
#include <string.h>

#include "gsc_cases.h"

/* Architecture key, tensor "first", then a tensor with the given name bytes (record 1). */
static void with_name(gsc_case *c, const void *name, size_t len)
{
    gsc_begin(c, 3);
    gsc_add_arch(&c->m);
    gsc_add_f32(&c->m, "first", 4);
    uint64_t ne = 4;
    gsw_tensor_fill(gsw_add_tensor_n(&c->m, name, len, 1, &ne, GS_TYPE_F32), 2, 64);
    gsc_write(c, 0);
}

void gsc_cases_names(gsc_sink *s)
{
    gsc_case c;
    with_name(&c, "", 0);
    gsc_both(s, &c, "names/empty.gguf", GS_E_TENSOR_NAME_EMPTY, gsc_at(&c, GSW_NAME_LEN, 1, 0),
             "empty tensor name (ggml accepts it)");
    with_name(&c, "w\0hidden", 8);
    gsc_both(s, &c, "names/nul_inside.gguf", GS_E_TENSOR_NAME_HAS_NUL,
             gsc_at(&c, GSW_NAME_LEN, 1, 0), "name w\\0hidden (ggml keeps only w)");

    gsc_begin(&c, 3);
    uint64_t ne = 4;
    gsw_tensor_fill(gsw_add_tensor_n(&c.m, "w\0a", 3, 1, &ne, GS_TYPE_F32), 1, 64);
    gsw_tensor_fill(gsw_add_tensor_n(&c.m, "w\0b", 3, 1, &ne, GS_TYPE_F32), 2, 64);
    gsc_write(&c, 0);
    gsc_both(s, &c, "names/nul_pair.gguf", GS_E_TENSOR_NAME_HAS_NUL,
             gsc_at(&c, GSW_NAME_LEN, 0, 0), "names w\\0a and w\\0b (ggml: duplicates of w)");

    with_name(&c, "first", 5);
    gsc_both(s, &c, "names/duplicate.gguf", GS_E_DUPLICATE_TENSOR_NAME,
             gsc_at(&c, GSW_NAME_LEN, 1, 0), "two tensors named first");

    char name[1000];
    memset(name, 'n', sizeof name);
    with_name(&c, name, 63);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "names/len_63.gguf", "63-byte name, ggml's longest");
    /* 21 three-byte characters: 63 bytes. */
    for (int i = 0; i < 21; i++) {
        memcpy(name + 3 * i, "\xe5\x90\x8d", 3);
    }
    with_name(&c, name, 63);
    gsc_certify(&c, GSC_CERTIFIED);
    gsc_ok(s, &c, "names/len_63_multibyte.gguf", "63-byte name of 21 CJK characters");
    memset(name, 'n', sizeof name);
    with_name(&c, name, 64);
    gsc_strict(s, &c, "names/len_64.gguf", GS_E_TENSOR_NAME_TOO_LONG,
               gsc_at(&c, GSW_NAME_LEN, 1, 0), "64-byte name: the spec allows it, ggml does not");
    with_name(&c, name, sizeof name);
    gsc_strict(s, &c, "names/len_1000.gguf", GS_E_TENSOR_NAME_TOO_LONG,
               gsc_at(&c, GSW_NAME_LEN, 1, 0), "1000-byte name");

    with_name(&c, "blk.0.\xff", 7);
    gsc_strict(s, &c, "names/invalid_utf8.gguf", GS_E_INVALID_UTF8,
               gsc_at(&c, GSW_NAME_LEN, 1, 0), "name with a byte that is not UTF-8");
    with_name(&c, "Blk 0/Weight:1", 14);
    gsc_certify(&c, GSC_CERTIFIED); /* not blk.N: no layer */
    gsc_ok(s, &c, "names/free_form.gguf", "name with spaces, capitals and punctuation");

    with_name(&c, "second", 6);
    gsc_bad_len(s, &c, GSW_NAME_LEN, UINT64_MAX, "names/len_2p64m1.gguf", "name length 2^64-1");
    with_name(&c, "second", 6);
    gsc_len_past_eof(s, &c, GSW_NAME_LEN, "names/len_one_past_eof.gguf",
                     "name length one byte more than the file has left");
}
