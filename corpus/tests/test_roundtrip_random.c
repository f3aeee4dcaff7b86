/* Round trips on random models, hundreds of seeds per run:
 *   decode(encode(model)) == model, field by field through the public getters (strict), and
 *   encode(decode(bytes)) == bytes, byte for byte.
 * GS_ROUNDTRIP_SEEDS and GS_ROUNDTRIP_FIRST_SEED widen or move the run; a failure names its
 * seed, which replays with GS_ROUNDTRIP_FIRST_SEED=<seed> GS_ROUNDTRIP_SEEDS=1. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsw_from_file.h"
#include "gsw_write.h"
#include "model_check.h"
#include "random_model.h"

#define DEFAULT_SEEDS 1000

static uint64_t env_u64(const char *name, uint64_t fallback)
{
    const char *s = getenv(name);
    return (s != NULL && *s != '\0') ? strtoull(s, NULL, 0) : fallback;
}

static gs_options profile(gs_profile p)
{
    gs_options o;
    gs_options_init(&o);
    o.profile = p;
    return o;
}


static void one_seed(uint64_t seed)
{
    gsw_model m;
    random_model(&m, seed);
    gsw_bytes bytes;
    gsw_bytes_init(&bytes);
    gsw_map map;
    gsw_map_init(&map);
    char why[256] = "";
    cr_assert_eq(gsw_write(&m, 0, &bytes, &map, why, sizeof why), 0, "seed %llu: write: %s",
                 (unsigned long long)seed, why);

    /* decode o encode, under both profiles: a valid model is valid for both. */
    for (int p = 0; p < 2; p++) {
        gs_options o = profile(p == 0 ? GS_PROFILE_STRICT : GS_PROFILE_LENIENT);
        gs_file *f = NULL;
        gs_error err;
        gs_status st = gs_open_memory(bytes.data, bytes.len, &o, &f, &err);
        cr_assert_eq(st, GS_OK, "seed %llu profile %d: %s at %llu: %s", (unsigned long long)seed,
                     p, gs_status_name(st), (unsigned long long)err.offset, err.detail);
        cr_assert_eq(model_check(f, &m, &map, bytes.len, why, sizeof why), 0,
                     "seed %llu profile %d: %s", (unsigned long long)seed, p, why);

        /* encode o decode: the model read back writes the same bytes. */
        gsw_model back;
        cr_assert_eq(gsw_model_from_file(f, &back, why, sizeof why), 0, "seed %llu: %s",
                     (unsigned long long)seed, why);
        gsw_bytes again;
        gsw_bytes_init(&again);
        cr_assert_eq(gsw_write(&back, 0, &again, NULL, why, sizeof why), 0,
                     "seed %llu: rewrite: %s", (unsigned long long)seed, why);
        cr_assert(again.len == bytes.len && memcmp(again.data, bytes.data, bytes.len) == 0,
                  "seed %llu: rewrite differs at byte %zu (%zu vs %zu bytes)",
                  (unsigned long long)seed, bytes_first_difference(&again, &bytes), again.len,
                  bytes.len);
        gsw_bytes_free(&again);
        gsw_model_free(&back);
        gs_close(f);
    }
    gsw_map_free(&map);
    gsw_bytes_free(&bytes);
    gsw_model_free(&m);
}

Test(roundtrip, random_models, .timeout = 600)
{
    uint64_t first = env_u64("GS_ROUNDTRIP_FIRST_SEED", 1);
    uint64_t n = env_u64("GS_ROUNDTRIP_SEEDS", DEFAULT_SEEDS);
    for (uint64_t seed = first; seed < first + n; seed++) {
        one_seed(seed);
    }
}

/* The same through files on disk and gs_open_file (the mapping path). */
Test(roundtrip, random_models_through_files, .timeout = 600)
{
    const char *dir = getenv("GS_BINARY_DIR");
    cr_assert_not_null(dir);
    char path[4096];
    snprintf(path, sizeof path, "%s/corpus/roundtrip_random.gguf", dir);
    for (uint64_t seed = 1000001; seed < 1000001 + 40; seed++) {
        gsw_model m;
        random_model(&m, seed);
        char why[256] = "";
        cr_assert_eq(gsw_write_file(&m, 0, path, why, sizeof why), 0, "seed %llu: %s",
                     (unsigned long long)seed, why);
        gs_file *f = NULL;
        gs_error err;
        gs_status st = gs_open_file(path, NULL, &f, &err);
        cr_assert_eq(st, GS_OK, "seed %llu: %s at %llu: %s", (unsigned long long)seed,
                     gs_status_name(st), (unsigned long long)err.offset, err.detail);
        gs_layout l;
        gs_file_layout(f, &l);
        cr_assert_eq(model_check(f, &m, NULL, (size_t)l.file_size, why, sizeof why), 0,
                     "seed %llu: %s", (unsigned long long)seed, why);
        gs_close(f);
        gsw_model_free(&m);
    }
    remove(path);
}

/* Every usable tensor type, each in a file of its own, with a 3-dimensional shape. */
Test(roundtrip, every_usable_type)
{
    int32_t ids[GS_TYPE_COUNT];
    unsigned n = usable_types(ids);
    cr_assert_eq(n, 35u, "the registry lists %u usable types; ggml has 43 ids, 8 removed", n);
    for (unsigned i = 0; i < n; i++) {
        gs_type_info ti;
        cr_assert_eq(gs_type_get_info(ids[i], &ti), GS_OK);
        gsw_model m;
        gsw_model_init(&m, 3);
        uint64_t ne[3] = {2 * (uint64_t)ti.block_elems, 3, 2};
        gsw_tensor *t = gsw_add_tensor(&m, "w", 3, ne, ids[i]);
        cr_assert(gsw_tensor_fill(t, (uint64_t)ids[i], 1u << 20), "type %d", ids[i]);
        cr_assert_eq(t->data.len, 12u * ti.block_bytes, "type %d", ids[i]);
        gsw_bytes b;
        gsw_bytes_init(&b);
        char why[256] = "";
        cr_assert_eq(gsw_write(&m, 0, &b, NULL, why, sizeof why), 0, "%s", why);
        gs_file *f = NULL;
        cr_assert_eq(gs_open_memory(b.data, b.len, NULL, &f, NULL), GS_OK, "type %d", ids[i]);
        cr_assert_eq(model_check(f, &m, NULL, b.len, why, sizeof why), 0, "type %d: %s", ids[i],
                     why);
        gs_close(f);
        gsw_bytes_free(&b);
        gsw_model_free(&m);
    }
}
