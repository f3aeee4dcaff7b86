/* encode(decode(x)) on every corpus file a profile accepts. A file in ggml's layout (packed
 * offsets, zero padding, nothing missing or trailing) must come back identical, whatever else is
 * wrong with it (bool bytes, keys, UTF-8 under lenient); any other accepted file must come back
 * in that layout, rewriting to itself. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsc_manifest.h"
#include "gsw_from_file.h"
#include "gsw_write.h"

static int all_zero(const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        if (p[i] != 0) {
            return 0;
        }
    }
    return 1;
}

/* ggml's writer would have written exactly these bytes: offsets packed in order, every padding
 * byte zero, nothing missing or trailing (whichever profile accepted the file). */
static int canonical(const gs_file *f, const gsw_bytes *b)
{
    gs_layout l;
    gs_file_layout(f, &l);
    if (l.trailing_bytes != 0 || l.missing_tail_padding != 0 || l.header_padding_nonzero != 0) {
        return 0;
    }
    uint64_t packed = 0;
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        cr_assert_eq(gs_tensor_info_at(f, i, &t), GS_OK);
        uint64_t padded = (t.size + l.alignment - 1) / l.alignment * l.alignment;
        if (t.offset != packed || !all_zero(b->data + t.data_offset + t.size, padded - t.size)) {
            return 0;
        }
        packed += padded;
    }
    return 1;
}

static void rewrite(const gs_file *f, gsw_bytes *out, const char *file)
{
    gsw_model m;
    char why[256] = "";
    cr_assert_eq(gsw_model_from_file(f, &m, why, sizeof why), 0, "%s: %s", file, why);
    gsw_bytes_init(out);
    cr_assert_eq(gsw_write(&m, 0, out, NULL, why, sizeof why), 0, "%s: %s", file, why);
    gsw_model_free(&m);
}

Test(roundtrip, every_accepted_corpus_file, .timeout = 300)
{
    const char *src = getenv("GS_SOURCE_DIR"), *bin = getenv("GS_BINARY_DIR");
    cr_assert(src != NULL && bin != NULL);
    char path[4096], why[512];
    snprintf(path, sizeof path, "%s/corpus/manifest.tsv", src);
    gsc_manifest man;
    cr_assert_eq(gsc_manifest_read(path, &man, why, sizeof why), 0, "%s", why);
    size_t identical = 0, rewritten = 0;
    for (size_t i = 0; i < man.n; i++) {
        const gsc_entry *e = &man.entries[i];
        gs_profile p = e->strict.status == GS_OK    ? GS_PROFILE_STRICT
                       : e->lenient.status == GS_OK ? GS_PROFILE_LENIENT
                                                    : (gs_profile)-1;
        if ((int)p < 0) {
            continue;
        }
        snprintf(path, sizeof path, "%s/corpus/generated/%s", bin, e->file);
        gsw_bytes b;
        gsw_bytes_init(&b);
        cr_assert_eq(gsw_bytes_load(&b, path), 0, "cannot read %s", path);
        gs_options o;
        gs_options_init(&o);
        o.profile = p;
        gs_file *f = NULL;
        cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, NULL), GS_OK, "%s", e->file);
        gsw_bytes once;
        rewrite(f, &once, e->file);
        if (canonical(f, &b)) {
            cr_assert(once.len == b.len && memcmp(once.data, b.data, b.len) == 0,
                      "%s: canonical, but rewritten differently", e->file);
            identical++;
        } else {
            gs_file *g = NULL;
            cr_assert_eq(gs_open_memory(once.data, once.len, &o, &g, NULL), GS_OK, "%s",
                         e->file);
            gsw_bytes twice;
            rewrite(g, &twice, e->file);
            cr_assert(twice.len == once.len && memcmp(twice.data, once.data, once.len) == 0,
                      "%s: the rewrite does not rewrite to itself", e->file);
            gsw_bytes_free(&twice);
            gs_close(g);
            rewritten++;
        }
        gsw_bytes_free(&once);
        gs_close(f);
        gsw_bytes_free(&b);
    }
    /* Most accepted cases are canonical writer output; a handful are deliberately not. */
    cr_assert_geq(identical, 100u, "only %zu canonical files", identical);
    cr_assert_geq(rewritten, 5u, "only %zu non-canonical files", rewritten);
    gsc_manifest_free(&man);
}
