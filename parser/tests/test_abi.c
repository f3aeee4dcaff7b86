/* The ABI promises of docs/abi.md, from the caller's side:
 *   - a 0.1.0-sized gs_options (the 0.1.0 layout, written out here) opens files with its
 *     settings honoured, and the library reads no byte past its struct_size;
 *   - struct sizes gs_options never had are refused;
 *   - the 0.1.0 symbols of the getters write exactly the 0.1.0 struct sizes, the sized entry
 *     points exactly the size given (zeros past the fields they have), and refuse sizes below
 *     0.1.0's;
 *   - gs_type_info.quantized.
 * Structs are placed so that they end at an inaccessible page: a read or write past the end
 * faults. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_util.h"

/* gs_options as 0.1.0 declared it (include/ggufsafe.h at 370f799). */
typedef struct options_0_1_0 {
    size_t struct_size;
    gs_profile profile;
    gs_limits limits;
    gs_allocator allocator;
    bool diagnostic;
    bool copy_metadata;
} options_0_1_0;

/* The 0.1.0 sizes of the structs the getters fill: their last 0.1.0 field's end, rounded up to
 * the struct's alignment (which appending fields does not change). */
#define END_OF(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))
#define ROUND_UP(n, a) (((n) + (a) - 1) / (a) * (a))
#define SIZE_0_1_0(type, last) ROUND_UP(END_OF(type, last), _Alignof(type))
#define TYPE_INFO_0_1_0 SIZE_0_1_0(gs_type_info, decodable)
#define LAYOUT_0_1_0 SIZE_0_1_0(gs_layout, findings_dropped)
#define KV_INFO_0_1_0 SIZE_0_1_0(gs_kv_info, size)
#define TENSOR_INFO_0_1_0 SIZE_0_1_0(gs_tensor_info, data)

/* n bytes that end where an inaccessible page begins, filled with 0xa5. */
typedef struct guarded {
    uint8_t *map;
    size_t map_len;
    uint8_t *p;
} guarded;

static guarded guard(size_t n)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    cr_assert(n <= page);
    guarded g;
    g.map_len = 2 * page;
    g.map = mmap(NULL, g.map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(g.map != MAP_FAILED);
    cr_assert_eq(mprotect(g.map + page, page, PROT_NONE), 0);
    g.p = g.map + page - n;
    memset(g.p, 0xa5, n);
    return g;
}

static void unguard(guarded *g)
{
    munmap(g->map, g->map_len);
}

/* The info of record `index` through the 0.1.0 entry point `get` (a getter without a size, as
 * gs_kv_info_at and gs_tensor_info_at are called by a program built against 0.1.0), into a
 * guarded buffer of the 0.1.0 size: GS_OK and exactly the first size bytes of want. */
#define EXPECT_0_1_0_INFO(type, get, f, index, size, want)                                       \
    do {                                                                                         \
        guarded g_ = guard(size);                                                                \
        cr_assert_eq((get)((f), (index), (type *)(void *)g_.p), GS_OK);                          \
        cr_assert_eq(memcmp(g_.p, &(want), (size)), 0);                                          \
        unguard(&g_);                                                                            \
    } while (0)

/* The contract of a sized record getter (get##_sized) on record `index` of f: its full size
 * fills want, the 0.1.0 entry point gives want's prefix, a size below 0.1.0's is refused (asked
 * of record 0) and so is the index past_end. */
#define EXPECT_SIZED_INFO(type, get, f, index, past_end, size_0_1_0, want)                        \
    do {                                                                                         \
        memset(&(want), 0, sizeof(want));                                                        \
        cr_assert_eq(get##_sized((f), (index), &(want), sizeof(want)), GS_OK);                   \
        EXPECT_0_1_0_INFO(type, get, f, index, size_0_1_0, want);                                \
        type x_;                                                                                 \
        cr_assert_eq(get##_sized((f), 0, &x_, (size_0_1_0) - 1), GS_E_INVALID_ARGUMENT);         \
        cr_assert_eq(get##_sized((f), (past_end), &x_, sizeof x_), GS_E_OUT_OF_RANGE);           \
        /* a larger struct than this library knows: the rest zeroed */                           \
        uint8_t big_[sizeof(type) + 16];                                                         \
        memset(big_, 0xa5, sizeof big_);                                                         \
        cr_assert_eq(get##_sized((f), (index), (type *)(void *)big_, sizeof big_), GS_OK);       \
        cr_assert_eq(memcmp(big_, &(want), sizeof(want)), 0);                                    \
        cr_assert(all_bytes(big_ + sizeof(type), 16, 0));                                        \
    } while (0)

static bool all_bytes(const uint8_t *p, size_t n, uint8_t v)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != v) {
            return false;
        }
    }
    return true;
}

Test(abi, sizes_0_1_0)
{
    cr_assert_eq(sizeof(gs_options),
                 ROUND_UP(END_OF(gs_options, n_decoders), _Alignof(gs_options)),
                 "gs_options grew: extend this test");
    cr_assert_eq(offsetof(gs_options, reopen_for_data), END_OF(options_0_1_0, copy_metadata));
    /* metadata_only follows max_split_metadata_memory */
    cr_assert_eq(offsetof(gs_options, metadata_only), END_OF(gs_options, max_split_metadata_memory));
    /* the caller-defined types follow metadata_only */
    cr_assert_eq(offsetof(gs_options, type_defs),
                 ROUND_UP(END_OF(gs_options, metadata_only), _Alignof(const gs_type_def *)));
    cr_assert_eq(offsetof(gs_options, n_decoders), END_OF(gs_options, decoders));
#if defined(__LP64__)
    cr_assert_eq(sizeof(options_0_1_0), 104);
    cr_assert_eq(sizeof(gs_options), 152);
    cr_assert_eq(TYPE_INFO_0_1_0, 24);
    cr_assert_eq(LAYOUT_0_1_0, 96);
    cr_assert_eq(KV_INFO_0_1_0, 56);
    cr_assert_eq(TENSOR_INFO_0_1_0, 152);
#endif
}

/* A 0.1.0 options struct: defaults from the sized init, then 0.1.0's fields set by name. */
Test(abi, options_0_1_0_opens)
{
    gsw_bytes b = tu_small(32);
    guarded g = guard(sizeof(options_0_1_0));
    options_0_1_0 *old = (options_0_1_0 *)(void *)g.p;
    cr_assert_eq(gs_options_init_sized((gs_options *)(void *)old, sizeof *old), GS_OK);
    cr_assert_eq(old->struct_size, sizeof *old);
    cr_assert_eq(old->profile, GS_PROFILE_STRICT);
    cr_assert_eq(old->limits.max_kv_count, 1u << 20);
    old->profile = GS_PROFILE_LENIENT;
    gs_file *f = NULL;
    gs_error e;
    cr_assert_eq(gs_open_memory(b.data, b.len, (const gs_options *)(void *)old, &f, &e), GS_OK,
                 "%s", e.detail);
    cr_assert_eq(gs_file_profile(f), GS_PROFILE_LENIENT);
    gs_close(f);
    old->limits.max_kv_count = 1; /* the small file has two KVs */
    cr_assert_eq(gs_open_memory(b.data, b.len, (const gs_options *)(void *)old, &f, &e),
                 GS_E_LIMIT_KV_COUNT);
    cr_assert_null(f);
    unguard(&g);
    gsw_bytes_free(&b);
}

/* reopen_for_data lies in the tail padding of 0.1.0's struct, bytes a 0.1.0 program may never
 * have written: a 0.1.0-sized struct is read up to its last field only. */
Test(abi, options_0_1_0_padding_is_not_read)
{
    guarded g = guard(sizeof(options_0_1_0));
    options_0_1_0 *old = (options_0_1_0 *)(void *)g.p;
    cr_assert_eq(gs_options_init_sized((gs_options *)(void *)old, sizeof *old), GS_OK);
    memset(g.p + END_OF(options_0_1_0, copy_metadata), 0xa5,
           sizeof *old - END_OF(options_0_1_0, copy_metadata));
    gs_file *f = NULL;
    gs_error e;
    cr_assert_eq(gs_open_file(tu_source_path("conformance/samples/ggml-written.gguf"),
                              (const gs_options *)(void *)old, &f, &e),
                 GS_OK, "%s", e.detail);
    gs_tensor_info t;
    cr_assert_eq(gs_tensor_info_at(f, 0, &t), GS_OK);
    cr_assert_not_null(t.data, "the padding byte was taken for reopen_for_data");
    gs_close(f);
    unguard(&g);
}

/* A 0.1.0 caller's struct ends before metadata_only: whatever its tail padding holds, and
 * whatever lies past it, the option keeps its default (data outside the file fails the open). */
Test(abi, options_0_1_0_padding_is_no_option)
{
    gsw_bytes b = tu_small(32);
    gsw_truncate(&b, b.len - 8); /* tensor "b" loses its last bytes */
    guarded g = guard(sizeof(gs_options));
    options_0_1_0 *old = (options_0_1_0 *)(void *)g.p;
    cr_assert_eq(gs_options_init_sized((gs_options *)(void *)old, sizeof *old), GS_OK);
    memset((uint8_t *)old + END_OF(options_0_1_0, copy_metadata), 0xff,
           sizeof(gs_options) - END_OF(options_0_1_0, copy_metadata));
    /* past the 0.1.0 struct, metadata_only's byte says true and reopen_for_data's false (valid
     * bools: today's size reads them, and a bool of 0xff would be undefined behaviour) */
    ((uint8_t *)old)[offsetof(gs_options, metadata_only)] = 1;
    ((uint8_t *)old)[offsetof(gs_options, reopen_for_data)] = 0;
    /* and no caller-defined types (valid pointers and counts for today's size) */
    memset((uint8_t *)old + offsetof(gs_options, type_defs), 0,
           END_OF(gs_options, n_decoders) - offsetof(gs_options, type_defs));
    gs_file *f = NULL;
    gs_error e;
    cr_assert_eq(gs_open_memory(b.data, b.len, (const gs_options *)(void *)old, &f, &e),
                 GS_E_DATA_OUTSIDE_FILE, "%s", gs_status_name(e.status));
    /* the same bytes with today's size: metadata_only is set, and the file opens */
    gs_options *now = (gs_options *)(void *)g.p;
    now->struct_size = sizeof *now;
    cr_assert_eq(gs_open_memory(b.data, b.len, now, &f, &e), GS_OK, "%s", e.detail);
    gs_tensor_info t;
    cr_assert_eq(gs_tensor_info_at(f, 1, &t), GS_OK);
    cr_assert(!t.data_in_file);
    gs_close(f);
    unguard(&g);
    gsw_bytes_free(&b);
}

/* The 0.1.0 gs_options_init symbol writes 0.1.0's size. */
Test(abi, options_init_0_1_0_symbol)
{
    guarded g = guard(sizeof(options_0_1_0));
    (gs_options_init)((gs_options *)(void *)g.p);
    const options_0_1_0 *old = (const options_0_1_0 *)(const void *)g.p;
    cr_assert_eq(old->struct_size, sizeof(options_0_1_0));
    cr_assert_eq(old->limits.max_alignment, 1u << 20);
    unguard(&g);
    (gs_options_init)(NULL); /* a no-op */
}

Test(abi, options_sizes_refused)
{
    gsw_bytes b = tu_small(32);
    const size_t bad[] = {0, 1, sizeof(size_t), sizeof(options_0_1_0) - 1,
                          sizeof(options_0_1_0) + 1, sizeof(gs_options) + 8, SIZE_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gs_options o;
        memset(&o, 0x5a, sizeof o);
        cr_assert_eq(gs_options_init_sized(&o, bad[i]), GS_E_INVALID_ARGUMENT, "size %zu",
                     bad[i]);
        cr_assert(all_bytes((const uint8_t *)&o, sizeof o, 0x5a), "size %zu: written", bad[i]);
        gs_options_init(&o);
        o.struct_size = bad[i];
        gs_file *f = NULL;
        cr_assert_eq(gs_open_memory(b.data, b.len, &o, &f, NULL), GS_E_INVALID_ARGUMENT,
                     "size %zu", bad[i]);
        cr_assert_eq(gs_options_init_sized(NULL, sizeof o), GS_E_INVALID_ARGUMENT);
    }
    gsw_bytes_free(&b);
}

Test(abi, type_info)
{
    /* quantized: every block type with scales; not the plain types, removed or unknown ids */
    const int32_t plain[] = {GS_TYPE_F32, GS_TYPE_F16, GS_TYPE_BF16, GS_TYPE_F64,
                             GS_TYPE_I8,  GS_TYPE_I16, GS_TYPE_I32,  GS_TYPE_I64};
    for (int32_t id = -1; id <= GS_TYPE_COUNT; id++) {
        gs_type_info ti;
        gs_status st = gs_type_get_info(id, &ti);
        bool is_plain = false;
        for (size_t k = 0; k < sizeof plain / sizeof plain[0]; k++) {
            is_plain = is_plain || plain[k] == id;
        }
        const bool want = st == GS_OK && !is_plain;
        cr_assert_eq(ti.quantized, want, "id %d (%s)", id, ti.name);
        if (st == GS_OK) {
            cr_assert_eq(ti.quantized, ti.block_elems > 1, "id %d: blocks of one element", id);
        }
    }
    gs_type_info ti;
    cr_assert_eq(gs_type_get_info_sized(GS_TYPE_Q4_K, &ti, TYPE_INFO_0_1_0 - 1),
                 GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_type_get_info_sized(GS_TYPE_Q4_K, NULL, sizeof ti), GS_E_INVALID_ARGUMENT);
    /* the 0.1.0 symbol: 0.1.0's size */
    guarded g = guard(TYPE_INFO_0_1_0);
    cr_assert_eq((gs_type_get_info)(GS_TYPE_Q4_K, (gs_type_info *)(void *)g.p), GS_OK);
    cr_assert_str_eq(((const gs_type_info *)(const void *)g.p)->name, "q4_K");
    cr_assert_eq(((const gs_type_info *)(const void *)g.p)->block_bytes, 144);
    unguard(&g);
    /* a larger struct than this library knows: the rest zeroed */
    uint8_t big[sizeof(gs_type_info) + 16];
    memset(big, 0xa5, sizeof big);
    cr_assert_eq(gs_type_get_info_sized(GS_TYPE_Q8_0, (gs_type_info *)(void *)big, sizeof big),
                 GS_OK);
    cr_assert(all_bytes(big + sizeof(gs_type_info), 16, 0));
    cr_assert(((const gs_type_info *)(const void *)big)->quantized);
}

Test(abi, layout)
{
    gsw_bytes b;
    gs_file *f = tu_open_small(&b);
    gs_layout want;
    cr_assert_eq(gs_file_layout_sized(f, &want, sizeof want), GS_OK);
    cr_assert_eq(want.file_size, b.len);
    guarded g = guard(LAYOUT_0_1_0);
    (gs_file_layout)(f, (gs_layout *)(void *)g.p);
    cr_assert_eq(memcmp(g.p, &want, LAYOUT_0_1_0), 0);
    memset(g.p, 0xa5, LAYOUT_0_1_0);
    cr_assert_eq(gs_file_layout_sized(f, (gs_layout *)(void *)g.p, LAYOUT_0_1_0), GS_OK);
    cr_assert_eq(memcmp(g.p, &want, LAYOUT_0_1_0), 0);
    cr_assert_eq(gs_file_layout_sized(NULL, (gs_layout *)(void *)g.p, LAYOUT_0_1_0),
                 GS_E_INVALID_ARGUMENT);
    cr_assert(all_bytes(g.p, LAYOUT_0_1_0, 0));
    unguard(&g);
    gs_layout l;
    memset(&l, 0xa5, sizeof l);
    cr_assert_eq(gs_file_layout_sized(f, &l, LAYOUT_0_1_0 - 1), GS_E_INVALID_ARGUMENT);
    cr_assert(all_bytes((const uint8_t *)&l, sizeof l, 0xa5));
    cr_assert_eq(gs_file_layout_sized(f, NULL, sizeof l), GS_E_INVALID_ARGUMENT);
    gs_close(f);
    gsw_bytes_free(&b);
}

/* The sized getters of the key-value and the tensor records: the full size fills the info, a
 * 0.1.0 caller reads its prefix, a size below 0.1.0's and an index past the end are refused. */
Test(abi, kv_and_tensor_info)
{
    gsw_bytes b;
    gs_file *f = tu_open_small(&b);
    gs_kv_info kv;
    EXPECT_SIZED_INFO(gs_kv_info, gs_kv_info_at, f, 0, 99, KV_INFO_0_1_0, kv);
    cr_assert_eq(kv.key.len, strlen("general.architecture"));
    gs_tensor_info t;
    EXPECT_SIZED_INFO(gs_tensor_info, gs_tensor_info_at, f, 1, 2, TENSOR_INFO_0_1_0, t);
    cr_assert_eq(t.n_elements, 8);
    gs_close(f);
    gsw_bytes_free(&b);
}
