/* encode(decode(x)) == x for a file written by ggml itself: our writer reproduces ggml's layout
 * byte for byte (key order and types, n_dims, offsets, padding after every tensor). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsw_from_file.h"
#include "gsw_write.h"
#include "model_check.h"

static gsw_bytes load_sample(void)
{
    const char *src = getenv("GS_SOURCE_DIR");
    cr_assert_not_null(src);
    char path[4096];
    snprintf(path, sizeof path, "%s/conformance/samples/ggml-written.gguf", src);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "cannot open %s", path);
    gsw_bytes b;
    gsw_bytes_init(&b);
    uint8_t buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0) {
        gsw_put(&b, buf, n);
    }
    fclose(fp);
    return b;
}

/* Reads bytes with the given profile and writes them back. */
static gsw_bytes rewrite(const uint8_t *data, size_t len, gs_profile p)
{
    gs_options o;
    gs_options_init(&o);
    o.profile = p;
    gs_file *f = NULL;
    gs_error err;
    gs_status st = gs_open_memory(data, len, &o, &f, &err);
    cr_assert_eq(st, GS_OK, "%s at %llu: %s", gs_status_name(st), (unsigned long long)err.offset,
                 err.detail);
    gsw_model m;
    char why[256] = "";
    cr_assert_eq(gsw_model_from_file(f, &m, why, sizeof why), 0, "%s", why);
    gsw_bytes out;
    gsw_bytes_init(&out);
    cr_assert_eq(gsw_write(&m, 0, &out, NULL, why, sizeof why), 0, "%s", why);
    gsw_model_free(&m);
    gs_close(f);
    return out;
}

static void assert_same(const gsw_bytes *a, const gsw_bytes *b)
{
    size_t i = bytes_first_difference(a, b);
    cr_assert(a->len == b->len && i == a->len, "differ at byte %zu (%zu vs %zu bytes)", i, a->len,
              b->len);
}

/* The sample read under profile and written back is the sample, byte for byte. */
static void expect_rewritten_identically(gs_profile profile)
{
    gsw_bytes b = load_sample();
    gsw_bytes out = rewrite(b.data, b.len, profile);
    assert_same(&out, &b);
    gsw_bytes_free(&out);
    gsw_bytes_free(&b);
}

Test(sample, ggml_written_is_what_its_readme_says)
{
    gsw_bytes b = load_sample();
    gs_file *f = NULL;
    cr_assert_eq(gs_open_memory(b.data, b.len, NULL, &f, NULL), GS_OK);
    cr_assert_eq(gs_kv_count(f), 32u);
    cr_assert_eq(gs_tensor_count(f), 33u);
    gs_close(f);
    gsw_bytes_free(&b);
}

Test(sample, ggml_written_rewrites_identically_strict)
{
    expect_rewritten_identically(GS_PROFILE_STRICT);
}

Test(sample, ggml_written_rewrites_identically_lenient)
{
    expect_rewritten_identically(GS_PROFILE_LENIENT);
}

/* Bytes after the last padding are not part of the model: writing drops them, which gives
 * back ggml's file. */
Test(sample, trailing_bytes_are_not_written_back)
{
    gsw_bytes b = load_sample();
    gsw_bytes longer;
    gsw_bytes_init(&longer);
    gsw_put(&longer, b.data, b.len);
    gsw_put_fill(&longer, 0xAB, 7);
    gsw_bytes out = rewrite(longer.data, longer.len, GS_PROFILE_STRICT);
    assert_same(&out, &b);
    gsw_bytes_free(&out);
    gsw_bytes_free(&longer);
    gsw_bytes_free(&b);
}
