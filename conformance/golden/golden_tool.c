/* gs_golden: the golden manifest of the decoders (conformance/golden/manifest.tsv).
 *
 *   gs_golden --check  --kat KAT_DIR --manifest FILE   exit 1 listing every difference
 *   gs_golden --update --kat KAT_DIR --manifest FILE   add new entries; change an existing hash
 *                                                      only if the ggml KATs pass for that type
 *   gs_golden --dump OUT_DIR --kat KAT_DIR             write every input set as TYPE.SET.in
 *
 * For every decodable type and each of its input sets (golden_sets.c), the manifest holds one
 * line: type, set, n_blocks, sha256 of the input bytes, sha256 of the decoded output with every
 * NaN replaced by 0x7FC00000 (f32 little-endian). Plain C: also runs under qemu. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_sets.h"
#include "gsw_sha256.h"
#include "kat_runner.h"

static const char header[] = "type\tset\tn_blocks\tinput_sha256\toutput_sha256";

typedef struct entry {
    char type[24];
    char set[24];
    unsigned long long n_blocks;
    char in_hash[65];
    char out_hash[65];
    int32_t type_id;
    int seen; /* check/update: matched by a generated set */
} entry;

typedef struct entry_list {
    entry *items;
    size_t n, cap;
} entry_list;

static entry *push(entry_list *l)
{
    if (l->n == l->cap) {
        const size_t cap = l->cap ? 2 * l->cap : 256;
        entry *bigger = realloc(l->items, cap * sizeof *bigger);
        if (bigger == NULL) {
            fprintf(stderr, "gs_golden: out of memory\n");
            exit(2);
        }
        l->items = bigger;
        l->cap = cap;
    }
    entry *e = &l->items[l->n++];
    memset(e, 0, sizeof *e);
    return e;
}

/* Reads the manifest; a missing file is an empty manifest (the first --update creates it). */
static int read_manifest(const char *path, entry_list *l)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return errno == ENOENT ? 0 : -1;
    }
    char line[512];
    unsigned lineno = 0;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (lineno == 1) {
            if (strcmp(line, header) != 0) {
                fprintf(stderr, "%s:1: expected the header line \"%s\"\n", path, header);
                rc = -1;
            }
            continue;
        }
        entry *e = push(l);
        if (sscanf(line, "%23[^\t]\t%23[^\t]\t%llu\t%64[0-9a-f]\t%64[0-9a-f]", e->type, e->set,
                   &e->n_blocks, e->in_hash, e->out_hash) != 5 ||
            strlen(e->in_hash) != 64 || strlen(e->out_hash) != 64) {
            fprintf(stderr, "%s:%u: malformed line: %s\n", path, lineno, line);
            rc = -1;
        }
    }
    fclose(f);
    return rc;
}

static entry *find(entry_list *l, const char *type, const char *set)
{
    for (size_t i = 0; i < l->n; i++) {
        if (strcmp(l->items[i].type, type) == 0 && strcmp(l->items[i].set, set) == 0) {
            return &l->items[i];
        }
    }
    return NULL;
}

/* Decodes one set through gs_dequantize and hashes its NaN-canonical output. */
static int hash_output(int32_t type, const gsg_set *s, char hex[65])
{
    gs_type_info info;
    gs_type_get_info(type, &info);
    const size_t n = s->n_blocks * info.block_elems;
    float *out = malloc(n * sizeof *out);
    int rc = -1;
    if (out != NULL &&
        gs_dequantize((gs_type)type, s->data, s->n_blocks * info.block_bytes, out, n) == GS_OK) {
        gsw_sha256_floats_hex(out, n, hex);
        rc = 0;
    }
    free(out);
    return rc;
}

/* Calls each(type, info, set, ctx) for every input set of every decodable type, in type order,
 * and stops at the first call that does not return 0. Returns that value, -1 when the sets of a
 * type cannot be built, or 0. */
typedef int set_fn(int32_t type, const gs_type_info *info, const gsg_set *set, void *ctx);

static int for_each_set(const char *kat_dir, set_fn *each, void *ctx)
{
    int rc = 0;
    for (int32_t t = 0; t < GS_TYPE_COUNT && rc == 0; t++) {
        gs_type_info info;
        if (gs_type_get_info(t, &info) != GS_OK || !info.decodable) {
            continue;
        }
        gsg_sets sets;
        char err[256];
        if (!gsg_build_sets(t, kat_dir, &sets, err, sizeof err)) {
            fprintf(stderr, "gs_golden: %s\n", err);
            return -1;
        }
        for (size_t i = 0; i < sets.n && rc == 0; i++) {
            rc = each(t, &info, &sets.items[i], ctx);
        }
        gsg_free_sets(&sets);
    }
    return rc;
}

/* One entry from a set and the current decoders. */
static int add_entry(int32_t type, const gs_type_info *info, const gsg_set *s, void *ctx)
{
    entry *e = push(ctx);
    snprintf(e->type, sizeof e->type, "%s", info->name);
    snprintf(e->set, sizeof e->set, "%s", s->name);
    e->type_id = type;
    e->n_blocks = s->n_blocks;
    gsw_sha256_hex(s->data, s->n_blocks * info->block_bytes, e->in_hash);
    if (hash_output(type, s, e->out_hash) != 0) {
        fprintf(stderr, "gs_golden: cannot decode %s/%s\n", e->type, e->set);
        return -1;
    }
    return 0;
}

/* Generates every entry from the current sets and decoders. */
static int generate(const char *kat_dir, entry_list *l)
{
    return for_each_set(kat_dir, add_entry, l);
}

static bool same(const entry *a, const entry *b)
{
    return a->n_blocks == b->n_blocks && strcmp(a->in_hash, b->in_hash) == 0 &&
           strcmp(a->out_hash, b->out_hash) == 0;
}

static void describe_change(const char *verb, const entry *old, const entry *now)
{
    printf("%s %s/%s:", verb, now->type, now->set);
    if (old->n_blocks != now->n_blocks) {
        printf(" n_blocks %llu -> %llu", old->n_blocks, now->n_blocks);
    }
    if (strcmp(old->in_hash, now->in_hash) != 0) {
        printf(" input %.12s -> %.12s", old->in_hash, now->in_hash);
    }
    if (strcmp(old->out_hash, now->out_hash) != 0) {
        printf(" output %.12s -> %.12s", old->out_hash, now->out_hash);
    }
    printf("\n");
}

static int check(entry_list *manifest, entry_list *now)
{
    size_t passed = 0, failed = 0;
    for (size_t i = 0; i < now->n; i++) {
        entry *m = find(manifest, now->items[i].type, now->items[i].set);
        if (m == NULL) {
            printf("missing %s/%s: not in the manifest (run --update to add it)\n",
                   now->items[i].type, now->items[i].set);
            failed++;
            continue;
        }
        m->seen = 1;
        if (same(m, &now->items[i])) {
            passed++;
        } else {
            describe_change("changed", m, &now->items[i]);
            failed++;
        }
    }
    for (size_t i = 0; i < manifest->n; i++) {
        if (!manifest->items[i].seen) {
            printf("stale %s/%s: in the manifest but no longer generated\n",
                   manifest->items[i].type, manifest->items[i].set);
            failed++;
        }
    }
    printf("%zu passed, %zu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

static int write_manifest(const char *path, const entry_list *l)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL) {
        return -1;
    }
    fprintf(f, "%s\n", header);
    for (size_t i = 0; i < l->n; i++) {
        const entry *e = &l->items[i];
        fprintf(f, "%s\t%s\t%llu\t%s\t%s\n", e->type, e->set, e->n_blocks, e->in_hash,
                e->out_hash);
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

/* New entries are added. An existing entry changes only when the ggml KATs of its type pass
 * with the current decoder; otherwise nothing is written and the exit status is 1. */
static int update(const char *kat_dir, const char *path, entry_list *manifest, entry_list *now)
{
    size_t added = 0, rewritten = 0, refused = 0;
    int kat_verdict[GS_TYPE_COUNT] = {0}; /* 0 not run, 1 pass, -1 fail */
    for (size_t i = 0; i < now->n; i++) {
        entry *e = &now->items[i];
        entry *m = find(manifest, e->type, e->set);
        if (m == NULL) {
            printf("added %s/%s\n", e->type, e->set);
            added++;
            continue;
        }
        m->seen = 1;
        if (same(m, e)) {
            continue;
        }
        if (kat_verdict[e->type_id] == 0) {
            kat_verdict[e->type_id] = gsk_kat_type_passes(kat_dir, e->type_id) ? 1 : -1;
        }
        if (kat_verdict[e->type_id] == 1) {
            describe_change("rewrote", m, e);
            printf("  (the ggml KATs pass for %s with the current decoder)\n", e->type);
            rewritten++;
        } else {
            describe_change("refused", m, e);
            printf("  (%s: a golden hash may change only when the ggml KATs pass for the type)\n",
                   gsk_type_has_kat(e->type_id) ? "the ggml KATs fail"
                                                : "the type has no ggml KATs");
            refused++;
        }
    }
    for (size_t i = 0; i < manifest->n; i++) {
        if (!manifest->items[i].seen) {
            printf("refused to drop %s/%s: no longer generated (delete the line by hand)\n",
                   manifest->items[i].type, manifest->items[i].set);
            refused++;
        }
    }
    if (refused > 0) {
        printf("manifest left unchanged: %zu refused\n", refused);
        return 1;
    }
    if (added + rewritten > 0 && write_manifest(path, now) != 0) {
        fprintf(stderr, "gs_golden: cannot write %s: %s\n", path, strerror(errno));
        return 2;
    }
    printf("%zu added, %zu rewritten, %zu unchanged\n", added, rewritten,
           now->n - added - rewritten);
    return 0;
}

/* A set as OUT_DIR/TYPE.SET.in (ctx: the address of OUT_DIR). */
static int dump_set(int32_t type, const gs_type_info *info, const gsg_set *s, void *ctx)
{
    (void)type;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.%s.in", *(const char **)ctx, info->name, s->name);
    FILE *f = fopen(path, "wb");
    const size_t size = s->n_blocks * info->block_bytes;
    const int ok = f != NULL && fwrite(s->data, 1, size, f) == size;
    if ((f != NULL && fclose(f) != 0) || !ok) {
        fprintf(stderr, "gs_golden: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

static int dump(const char *kat_dir, const char *out_dir)
{
    return for_each_set(kat_dir, dump_set, &out_dir) == 0 ? 0 : 2;
}

static int usage(void)
{
    fprintf(stderr, "usage: gs_golden --check|--update --kat KAT_DIR --manifest FILE "
                    "[--skip-unavailable]\n"
                    "       gs_golden --dump OUT_DIR --kat KAT_DIR\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *mode = NULL, *kat_dir = NULL, *manifest_path = NULL, *dump_dir = NULL;
    bool skip_unavailable = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--skip-unavailable") == 0) {
            skip_unavailable = true;
        } else if (strcmp(argv[i], "--check") == 0 || strcmp(argv[i], "--update") == 0) {
            mode = argv[i];
        } else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc) {
            mode = argv[i];
            dump_dir = argv[++i];
        } else if (strcmp(argv[i], "--kat") == 0 && i + 1 < argc) {
            kat_dir = argv[++i];
        } else if (strcmp(argv[i], "--manifest") == 0 && i + 1 < argc) {
            manifest_path = argv[++i];
        } else {
            return usage();
        }
    }
    if (mode == NULL || kat_dir == NULL || (dump_dir == NULL && manifest_path == NULL)) {
        return usage();
    }
    if (skip_unavailable && gsk_kernel_unavailable()) {
        return GSK_EXIT_SKIP;
    }
    if (dump_dir != NULL) {
        return dump(kat_dir, dump_dir);
    }
    entry_list manifest = {0}, now = {0};
    int rc = 2;
    if (read_manifest(manifest_path, &manifest) != 0) {
        fprintf(stderr, "gs_golden: cannot read %s\n", manifest_path);
    } else if (generate(kat_dir, &now) == 0) {
        rc = strcmp(mode, "--check") == 0 ? check(&manifest, &now)
                                          : update(kat_dir, manifest_path, &manifest, &now);
    }
    free(manifest.items);
    free(now.items);
    return rc;
}
