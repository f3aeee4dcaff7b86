/* gs_fuzz_seeds OUT MAX_BYTES INPUT...: the harnesses' seed corpora, made from the generated
 * corpus (and any other GGUF files or directories given). Every seed carries the options
 * trailer the harnesses read from the input's tail (fuzz_common.h), and no seed is larger than
 * MAX_BYTES:
 *   OUT/open/          every input, with the zero trailer (defaults); the ones strict
 *                      rejects also with the diagnostic bit; split sets
 *                      (<prefix>-00001-of-N ...) also concatenated with the split bit;
 *   OUT/dequant/,      every input the reader accepts, with the trailer selecting the
 *   OUT/roundtrip/     profile that accepts it (strict if it does, else lenient);
 *   OUT/decode_blocks/ for each decodable type: real blocks taken from the inputs' tensors
 *                      when there are any, plus all-zero and all-0xff blocks;
 *   OUT/certify/       every input, with the deep scan on, for strict and lenient in turn;
 *   OUT/open_file/     every input, strict and lenient in turn, every other pair cut in half
 *                      after the open;
 *   OUT/utf8/          every input as it is (its strings, keys and binary bytes).
 *   OUT/manifest/      with GS_SEEDS_MANIFEST (the certification library linked in): the
 *                      manifest `ggufsafe hash` writes of every input the reader accepts (strict
 *                      if it does, else lenient) and of every split set, without a trailer
 *                      (fuzz_manifest reads the whole input).
 *   OUT/detect/        every input's first GS_DETECT_BYTES bytes (all gs_detect looks at),
 *                      with the zero trailer.
 *   OUT/baseline/      with GS_SEEDS_MANIFEST: the certify --json and --sarif reports of every
 *                      input given as a file (ggml's sample), whole and cut inside its data,
 *                      and baselines written here (each form, and malformed JSON), no trailer.
 *   OUT/policy/        with GS_SEEDS_MANIFEST: policy files written here (every form the format
 *                      has, CR LF, comments, globs, and malformed ones) and, per finding code,
 *                      one rule of each action, without a trailer.
 *   OUT/type_spec/     --type values, accepted and refused ones (no trailer);
 *   OUT/plugin_table/  encoded plugin tables (plugin_table.h): the example plugin's, one of
 *                      three types, and broken ones (no trailer).
 * Deterministic: inputs are visited in name order. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"
#include "plugin_table.h"
#ifdef GS_SEEDS_MANIFEST
#include "ggufsafe_certify.h"
#include "ggufsafe_manifest.h"
#endif

#define SEED_BLOCKS 16u

static const char *out_dir;
static size_t max_bytes;
static size_t n_written;
/* decode_blocks: whether a seed of real blocks exists yet for each type */
static bool have_blocks[GS_TYPE_COUNT];

static void die(const char *what, const char *path)
{
    fprintf(stderr, "gs_fuzz_seeds: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

static void make_dir(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        die("cannot create", path);
    }
}

/* Writes payload + trailer (none when tail is NULL) as OUT/target/name when it fits in
 * max_bytes. */
static void write_seed(const char *target, const char *name, const uint8_t *payload, size_t n,
                       const uint8_t tail[FUZZ_TAIL_BYTES])
{
    const size_t tail_len = tail != NULL ? FUZZ_TAIL_BYTES : 0;
    if (n + tail_len > max_bytes) {
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", out_dir, target, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || (n > 0 && fwrite(payload, 1, n, f) != n) ||
        (tail_len > 0 && fwrite(tail, 1, tail_len, f) != tail_len) || fclose(f) != 0) {
        die("cannot write", path);
    }
    n_written++;
}

#ifdef GS_SEEDS_MANIFEST
static int collect(void *ctx, const void *data, size_t n)
{
    FILE *f = ctx;
    return fwrite(data, 1, n, f) == n ? 0 : 5; /* EIO */
}

/* The manifest of the file or set at path, hashed as `ggufsafe hash --profile P` does. */
static void manifest_seed(const char *path, const char *name, gs_profile profile)
{
    gs_manifest_options o;
    gs_manifest_options_init(&o);
    o.profile = profile;
    gs_manifest *m;
    if (gs_manifest_hash_path(path, &o, &m, NULL) != GS_OK) {
        return;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    gs_sink sink;
    gs_sink_init(&sink, collect, mem);
    if (mem == NULL || gs_manifest_write(m, &sink, NULL) != GS_OK || fclose(mem) != 0) {
        die("cannot write the manifest of", path);
    }
    write_seed("manifest", name, (const uint8_t *)text, len, NULL);
    free(text);
    gs_manifest_free(m);
}
#endif

static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        die("cannot open", path);
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        die("cannot stat", path);
    }
    *n = (size_t)st.st_size;
    uint8_t *buf = malloc(*n > 0 ? *n : 1);
    if (buf == NULL || fread(buf, 1, *n, f) != *n) {
        die("cannot read", path);
    }
    fclose(f);
    return buf;
}

/* Up to SEED_BLOCKS blocks of the first tensor of each decodable type not seen yet. */
static void block_seeds(const gs_file *f, const char *name)
{
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        gs_type_info ti;
        if (gs_tensor_info_at(f, i, &t) != GS_OK || gs_type_get_info(t.type, &ti) != GS_OK ||
            !ti.decodable || t.size == 0 || have_blocks[t.type]) {
            continue;
        }
        size_t blocks = (size_t)(t.size / ti.block_bytes);
        blocks = blocks < SEED_BLOCKS ? blocks : SEED_BLOCKS;
        char seed[600];
        snprintf(seed, sizeof seed, "%s_%s", gs_type_name(t.type), name);
        const uint8_t tail[FUZZ_TAIL_BYTES] = {(uint8_t)t.type, 0, 0, 0};
        write_seed("decode_blocks", seed, t.data, blocks * ti.block_bytes, tail);
        have_blocks[t.type] = true;
    }
}

static void seed_file(const char *path, const char *name)
{
    size_t n;
    uint8_t *data = read_file(path, &n);
    const uint8_t zero[FUZZ_TAIL_BYTES] = {0, 0, 0, 0};
    write_seed("open", name, data, n, zero);
    /* certify: every file, deep, alternately for the strict and the lenient profile */
    const uint8_t cert_tail[FUZZ_TAIL_BYTES] = {(uint8_t)(0x02u | (n_written & 1u)), 0, 0, 0};
    write_seed("certify", name, data, n, cert_tail);
    write_seed("detect", name, data, n < GS_DETECT_BYTES ? n : GS_DETECT_BYTES, zero);
    const uint8_t file_tail[FUZZ_TAIL_BYTES] = {(uint8_t)(n_written & 1u), 0, 0,
                                                (uint8_t)(n_written & 2u ? 0x80 : 0)};
    write_seed("open_file", name, data, n, file_tail);
    write_seed("utf8", name, data, n, zero);
    gs_options o;
    /* what strict rejects, again in diagnostic mode (which lists layout problems and goes on) */
    fuzz_options(&o, GS_PROFILE_STRICT);
    gs_file *strict = NULL;
    if (gs_open_memory(data, n, &o, &strict, NULL) == GS_OK) {
        gs_close(strict);
    } else {
        const uint8_t diagnostic[FUZZ_TAIL_BYTES] = {0x08, 0, 0, 0};
        char seed[600];
        snprintf(seed, sizeof seed, "diag_%s", name);
        write_seed("open", seed, data, n, diagnostic);
    }
    for (int p = 0; p < 2; p++) {
        fuzz_options(&o, p == 0 ? GS_PROFILE_STRICT : GS_PROFILE_LENIENT);
        gs_file *f;
        if (gs_open_memory(data, n, &o, &f, NULL) != GS_OK) {
            continue;
        }
        const uint8_t tail[FUZZ_TAIL_BYTES] = {(uint8_t)p, 0, 0, 0};
        write_seed("dequant", name, data, n, tail);
        write_seed("roundtrip", name, data, n, tail);
        block_seeds(f, name);
        gs_close(f);
#ifdef GS_SEEDS_MANIFEST
        manifest_seed(path, name, p == 0 ? GS_PROFILE_STRICT : GS_PROFILE_LENIENT);
#endif
        break;
    }
    free(data);
}

/* path is the first part of a split set: concatenate every part, with the split bit set. */
static void seed_split(const char *path, const char *name)
{
    const char *mark = strstr(path, "-00001-of-");
    int count = mark != NULL ? atoi(mark + 10) : 0;
    if (count < 1 || count > 8) {
        return;
    }
    uint8_t *all = NULL;
    size_t len = 0;
    for (int i = 1; i <= count; i++) {
        char part[4096];
        snprintf(part, sizeof part, "%.*s-%05d-of-%s", (int)(mark - path), path, i, mark + 10);
        size_t n;
        uint8_t *data = read_file(part, &n);
        uint8_t *bigger = realloc(all, len + n + 1);
        if (bigger == NULL) {
            die("out of memory at", part);
        }
        all = bigger;
        memcpy(all + len, data, n);
        len += n;
        free(data);
    }
    const uint8_t tail[FUZZ_TAIL_BYTES] = {0x04, 0, 0, 0};
    char seed[600];
    snprintf(seed, sizeof seed, "set_%s", name);
    write_seed("open", seed, all, len, tail);
    free(all);
#ifdef GS_SEEDS_MANIFEST
    manifest_seed(path, seed, GS_PROFILE_STRICT);
#endif
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* rel: the path below the input root, '/' turned into '_' to name the seed. */
static void visit(const char *path, const char *rel)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        die("cannot stat", path);
    }
    if (!S_ISDIR(st.st_mode)) {
        if (strstr(path, ".gguf") == NULL) {
            return; /* manifest.tsv, SHA256SUMS, READMEs */
        }
        char name[512];
        snprintf(name, sizeof name, "%s", rel);
        for (char *c = name; *c; c++) {
            *c = *c == '/' ? '_' : *c;
        }
        seed_file(path, name);
        if (strstr(path, "-00001-of-") != NULL) {
            seed_split(path, name);
        }
        return;
    }
    DIR *d = opendir(path);
    if (d == NULL) {
        die("cannot open", path);
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char **bigger = realloc(names, (n + 1) * sizeof *names);
        if (bigger == NULL || (bigger[n] = strdup(e->d_name)) == NULL) {
            die("out of memory in", path);
        }
        names = bigger;
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; i++) {
        char child[4096], child_rel[4096];
        snprintf(child, sizeof child, "%s/%s", path, names[i]);
        snprintf(child_rel, sizeof child_rel, "%s%s%s", rel, rel[0] ? "/" : "", names[i]);
        visit(child, child_rel);
        free(names[i]);
    }
    free(names);
}

/* Types without real blocks in the inputs get synthetic ones; every type gets the two
 * extremes (all-zero blocks, and all-0xff: NaN scales, maximal indices). */
/* fuzz_walk: trees described record by record (fuzz_walk.c): a repository with files, a
 * subdirectory, a split set and its orphan, a FIFO, links to a file, a directory and nowhere. */
static void walk_seeds(void)
{
    static const uint8_t repo[] = {
        3, 40,                            /* depth 3, 41 entries */
        8, 4, 'g', 'o', 'o', 'd',         /* good.gguf */
        0, 4, 'R', 'E', 'A', 'D',         /* READ (not *.gguf) */
        11, 3, 'p', 'i', 'p',             /* pip.gguf: a FIFO */
        12, 3, 'l', 'n', 'k',             /* lnk.gguf -> x.gguf (dangling until made) */
        8, 0, 'x',                        /* x.gguf */
        13, 2, 'u', 'p',                  /* up.gguf -> . */
        14, 3, 'o', 'f', 'f',             /* off.gguf -> nowhere */
        1, 2, 's', 'u',                   /* su/ */
        7, 0, 1, 2, 'm', 'o', 'd',        /* mod-00001-of-00003.gguf */
        7, 1, 2, 2, 'm', 'o', 'd',        /* mod-00002-of-00003.gguf */
        7, 2, 2, 2, 'h', 'a', 'l',        /* hal-00003-of-00003.gguf: no part 1 */
        1, 1, 'd', 'e',                   /* su/de/ */
        1, 1, 'e', 'p',                   /* su/de/ep/ */
        8, 1, 'i', 'n',                   /* deep: beyond depth 3? */
        2, 2, 2,
        8, 2, 'z', 0xC3, 0xA9,            /* a name with UTF-8 */
        8, 1, 0x1B, '[',                  /* a name with an escape byte */
    };
    write_seed("walk", "repo", repo, sizeof repo, NULL);
    static const uint8_t tight[] = {0, 0, 8, 1, 'a', 'b', 1, 1, 'd', 'r', 8, 1, 'c', 'd'};
    write_seed("walk", "bounds", tight, sizeof tight, NULL);
    uint8_t flat[2 + 3 * 60];
    flat[0] = 1;
    flat[1] = 79;
    for (int i = 0; i < 60; i++) { /* 60 files, in reverse order of their names */
        flat[2 + 3 * i] = 8;
        flat[3 + 3 * i] = 0;
        flat[4 + 3 * i] = (uint8_t)(200 - i);
    }
    write_seed("walk", "flat", flat, sizeof flat, NULL);
}

static void synthetic_block_seeds(void)
{
    uint8_t buf[SEED_BLOCKS * 512];
    for (int32_t type = 0; type < GS_TYPE_COUNT; type++) {
        gs_type_info ti;
        if (gs_type_get_info(type, &ti) != GS_OK || !ti.decodable) {
            continue;
        }
        const size_t n = SEED_BLOCKS * ti.block_bytes;
        const uint8_t tail[FUZZ_TAIL_BYTES] = {(uint8_t)type, 0, 0, 0};
        char seed[64];
        if (!have_blocks[type]) {
            uint32_t x = 0x9e3779b9u ^ (uint32_t)type; /* xorshift: any fixed bytes will do */
            for (size_t k = 0; k < n; k++) {
                x ^= x << 13, x ^= x >> 17, x ^= x << 5;
                buf[k] = (uint8_t)x;
            }
            snprintf(seed, sizeof seed, "%s_pseudo_random", gs_type_name(type));
            write_seed("decode_blocks", seed, buf, n, tail);
        }
        memset(buf, 0, n);
        snprintf(seed, sizeof seed, "%s_zero", gs_type_name(type));
        write_seed("decode_blocks", seed, buf, n, tail);
        memset(buf, 0xff, n);
        snprintf(seed, sizeof seed, "%s_ones", gs_type_name(type));
        write_seed("decode_blocks", seed, buf, n, tail);
    }
}

#ifdef GS_SEEDS_MANIFEST
/* The JSON and SARIF reports of size bytes of data, labelled label, as baseline seeds. */
static void report_seeds(const uint8_t *data, size_t size, const char *label, const char *name)
{
    gs_certify *r;
    if (gs_certify_memory(data, size, label, NULL, &r, NULL) != GS_OK) {
        return;
    }
    for (int k = 0; k < 2; k++) {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        gs_sink sink;
        gs_sink_init(&sink, collect, mem);
        gs_status st = k == 0 ? gs_certify_write_json(r, &sink, NULL)
                              : gs_certify_write_sarif(r, &sink, NULL);
        if (mem == NULL || st != GS_OK || fclose(mem) != 0) {
            die("cannot write the report of", label);
        }
        char seed[256];
        snprintf(seed, sizeof seed, "%s.%s", name, k == 0 ? "json" : "sarif");
        write_seed("baseline", seed, (const uint8_t *)text, len, NULL);
        free(text);
    }
    gs_certify_free(r);
}
#endif

/* fuzz_baseline: reports of the file at path (whole and cut), and baselines by hand. */
static void baseline_seeds(const char *path)
{
#ifdef GS_SEEDS_MANIFEST
    FILE *f = fopen(path, "rb");
    uint8_t *buf = malloc(1u << 20);
    size_t n = f != NULL && buf != NULL ? fread(buf, 1, 1u << 20, f) : 0;
    if (f != NULL) {
        fclose(f);
    }
    if (n > 0) {
        report_seeds(buf, n, "models/good.gguf", "good");
        report_seeds(buf, n * 2 / 3, "models/cut.gguf", "cut");
    }
    free(buf);
    static const struct {
        const char *name, *text;
    } hand[] = {
        {"empty_report", "{\"path\": \"a.gguf\", \"parts\": [], \"findings\": []}"},
        {"report", "{\"path\": \"d/a-00001-of-00002.gguf\", \"parts\": [{\"name\": "
                   "\"a-00001-of-00002.gguf\"}, {\"name\": \"a-00002-of-00002.gguf\"}], "
                   "\"findings\": [{\"code\": \"layout.gap\", \"part\": 2}, {\"code\": "
                   "\"layout.gap\", \"part\": 2}, {\"code\": \"meta.key_type\", \"part\": "
                   "null, \"key\": \"gen\\u00e9ral\\ud83d\\ude00\\\\x ff\"}]}"},
        {"files", "{\"files\": [{\"path\": \"a.gguf\", \"findings\": [{\"code\": "
                  "\"layout.truncated\", \"part\": 1, \"tensor\": \"t\"}]}, {\"path\": "
                  "\"b.gguf\", \"findings\": []}], \"summary\": {}}"},
        {"sarif", "{\"runs\": [{\"artifacts\": [{\"location\": {\"uri\": \"m/a.gguf\"}}], "
                  "\"results\": [{\"partialFingerprints\": {\"ggufsafe/v1\": "
                  "\"layout.gap//0\"}, \"locations\": [{\"physicalLocation\": "
                  "{\"artifactLocation\": {\"index\": 0}}}]}, {\"baselineState\": "
                  "\"absent\", \"partialFingerprints\": {\"ggufsafe/v1\": \"x//0\"}}]}]}"},
        {"bad_comma", "{\"findings\": [1,]}"},
        {"bad_escape", "{\"path\": \"\\q\"}"},
        {"bad_surrogate", "[\"\\ud800\"]"},
        {"bad_number", "[01, -, 1., 1e]"},
        {"deep", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]"
                 "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"},
        {"trailing", "{} {}"},
        {"not_ours", "{\"runs\": [{\"results\": [{\"ruleId\": \"x\"}]}]}"},
    };
    for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++) {
        write_seed("baseline", hand[i].name, (const uint8_t *)hand[i].text, strlen(hand[i].text),
                   NULL);
    }
#else
    (void)path;
#endif
}

/* fuzz_policy: policies by hand, and one per finding code (without a trailer). */
static void policy_seeds(void)
{
#ifdef GS_SEEDS_MANIFEST
    static const struct {
        const char *name, *text;
    } hand[] = {
        {"forms", "# a repository's policy\n\nignore compat.type_not_in_spec blk.*.q1_0.weight\n"
                  "  warn\tlayout.gap   # trailing comment\nerror reader.GS_E_MISALIGNED_OFFSET\n"
                  "warn meta.architecture_missing [!x]?[0-9]*\n"},
        {"crlf", "ignore layout.gap\r\nwarn layout.truncated a\\*b\r\n"},
        {"last_line_open", "error layout.padding_nonzero"},
        {"stars", "warn layout.gap *a*a*a*a*a*a*a*a*a*a*b\nwarn layout.gap aaaaaaaaaaaaaaaaaaaa\n"},
        {"bad_action", "warn layout.gap\nallow layout.gap\n"},
        {"bad_code", "ignore layout.nope\n"},
        {"bad_class", "ignore layout.gap blk.[0\n"},
        {"bad_escape", "ignore layout.gap x\\\n"},
        {"extra_word", "ignore layout.gap x y\n"},
        {"lone_cr", "ignore layout.gap\rignore layout.gap\n"},
        {"mixed_ends", "ignore layout.gap\r\nwarn layout.gap\n"},
    };
    for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++) {
        write_seed("policy", hand[i].name, (const uint8_t *)hand[i].text, strlen(hand[i].text),
                   NULL);
    }
    static const char *const actions[] = {"ignore", "warn", "error"};
    for (size_t i = 0; i < gs_certify_code_count(); i++) {
        gs_certify_code c = {.struct_size = sizeof c};
        if (gs_certify_code_at(i, &c) != GS_OK || strchr(c.code, '<') != NULL) {
            continue; /* reader.<STATUS> is the row of the reader's codes, not a code */
        }
        char text[512], name[96];
        snprintf(text, sizeof text, "%s %s\n%s %s blk.*\n", actions[i % 3], c.code,
                 actions[(i + 1) % 3], c.code);
        snprintf(name, sizeof name, "code_%s", c.code);
        write_seed("policy", name, (const uint8_t *)text, strlen(text), NULL);
    }
#endif
}

static void type_spec_seeds(void)
{
    static const char *const specs[] = {
        "200:q8_0_example:32:34", "8:q8_0:32:34:override", "2147483647:z:4096:4096",
        "200:x:4294967296:34",    "8:q8:32:34",            "200:bad name:32:34",
        "200:x:0:34",             "200::32:34",            "200:x:32:34:overrid",
        "-1:x:32:34",             "200:x:32",              "",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "spec_%02zu", i);
        write_seed("type_spec", name, (const uint8_t *)specs[i], strlen(specs[i]), NULL);
    }
}

static int no_decode(int32_t type, const void *src, size_t src_bytes, float *dst, size_t n)
{
    (void)type, (void)src, (void)src_bytes, (void)dst, (void)n;
    return 1;
}

static void plugin_table_seeds(void)
{
    static const gs_plugin_type one[] = {{200, "q8_0_example", 32, 34, no_decode}};
    static const gs_plugin_type three[] = {{200, "a", 32, 34, no_decode},
                                           {201, "b.c-d_e", 256, 210, no_decode},
                                           {100000, "c", 1, 1, no_decode}};
    static const gs_plugin_type builtin[] = {{8, "q8_0", 32, 34, no_decode}};
    const gs_plugin_table tables[] = {
        {GGUFSAFE_PLUGIN_ABI_VERSION, sizeof(gs_plugin_table), "q8_0 example", 1, one},
        {GGUFSAFE_PLUGIN_ABI_VERSION, sizeof(gs_plugin_table), "three", 3, three},
        {GGUFSAFE_PLUGIN_ABI_VERSION, sizeof(gs_plugin_table), "builtin", 1, builtin},
    };
    static uint8_t enc[GSI_PLUGIN_TABLE_MAX_BYTES];
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        size_t len;
        if (gsi_plugin_table_encode(&tables[i], enc, &len, NULL) != GS_OK) {
            die("cannot encode a plugin table seed", "");
        }
        char name[32];
        snprintf(name, sizeof name, "table_%zu", i);
        write_seed("plugin_table", name, enc, len, NULL);
        if (i == 0) {
            enc[4] = 2; /* another ABI version */
            write_seed("plugin_table", "table_abi_2", enc, len, NULL);
            write_seed("plugin_table", "table_cut", enc, len - 3, NULL);
        }
    }
}

/* fuzz_manifest: manifests by hand for the forms of format 2's values that the sample's
 * manifest lacks (a cut string, an array of arrays, an escaped comma), a version 1 manifest
 * (digests only), and near misses of each. */
static void manifest_text_seeds(void)
{
#define MF_D "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define MF_HEAD(v) "ggufsafe-manifest " v "\npart 1 of 1\nfile " MF_D " 7\n"
    static const struct {
        const char *name, *text;
    } hand[] = {
        {"v1", MF_HEAD("1") "kv " MF_D " a\ntensor " MF_D " f32 8 t\nend\n"},
        {"v2_values", MF_HEAD("2") "kv " MF_D " a string ~0123456789\nkv " MF_D
                      " b array array 2 -\nkv " MF_D " c array string 3 =x\\x2cy,=,~z\nkv " MF_D
                      " d f32 =-1e+01\nkv " MF_D " e\nend\n"},
        {"v2_crlf", MF_HEAD("2") "kv " MF_D " a u8 =1\nend\n"},
        {"v1_with_value", MF_HEAD("1") "kv " MF_D " a u8 =1\nend\n"},
        {"v2_short_list", MF_HEAD("2") "kv " MF_D " a array u8 40 =1,=2\nend\n"},
        {"v2_bad_item", MF_HEAD("2") "kv " MF_D " a string x\\x41\nend\n"},
    };
    for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++) {
        const char *t = hand[i].text;
        if (strcmp(hand[i].name, "v2_crlf") == 0) {
            char crlf[512];
            size_t k = 0;
            for (; *t != '\0' && k + 2 < sizeof crlf; t++) {
                if (*t == '\n') {
                    crlf[k++] = '\r';
                }
                crlf[k++] = *t;
            }
            write_seed("manifest", hand[i].name, (const uint8_t *)crlf, k, NULL);
            continue;
        }
        write_seed("manifest", hand[i].name, (const uint8_t *)t, strlen(t), NULL);
    }
#undef MF_HEAD
#undef MF_D
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: gs_fuzz_seeds OUT MAX_BYTES INPUT...\n");
        return 2;
    }
    out_dir = argv[1];
    max_bytes = (size_t)strtoull(argv[2], NULL, 10);
    make_dir(out_dir);
    static const char *const targets[] = {"open",    "dequant",  "roundtrip", "decode_blocks",
                                          "certify", "manifest", "open_file", "utf8",
                                          "detect",  "walk",     "policy",    "baseline",
                                          "type_spec", "plugin_table"};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", out_dir, targets[t]);
        make_dir(path);
    }
    for (int i = 3; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            die("cannot stat", argv[i]);
        }
        if (!S_ISDIR(st.st_mode)) {
            baseline_seeds(argv[i]);
        }
        const char *base = strrchr(argv[i], '/');
        visit(argv[i], S_ISDIR(st.st_mode) ? "" : (base != NULL ? base + 1 : argv[i]));
    }
    synthetic_block_seeds();
    walk_seeds();
    policy_seeds();
    type_spec_seeds();
    plugin_table_seeds();
    manifest_text_seeds();
    printf("gs_fuzz_seeds: %zu seeds in %s\n", n_written, out_dir);
    return 0;
}
