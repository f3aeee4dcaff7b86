/* gs_corpus_replay MANIFEST DIR: opens every corpus file listed in the manifest under both
 * profiles, from the file and from memory, and compares status and offset with the manifest;
 * checks each file's sha256 first, so a stale corpus cannot pass. Plain C (no Criterion) so that
 * it also runs under qemu. Prints one line per failure and "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufsafe.h"
#include "gsc_manifest.h"
#include "gsc_sha256.h"
#include "gsw_bytes.h"

static int read_all(const char *path, gsw_bytes *b)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return -1;
    }
    uint8_t buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        gsw_put(b, buf, n);
    }
    int err = ferror(f);
    fclose(f);
    return err ? -1 : 0;
}

/* 0 when the reader's verdict equals the manifest's; otherwise prints why. */
static int check(const char *file, const char *how, gs_status st, const gs_error *err,
                 const gsc_verdict *want)
{
    if (st == want->status && (st == GS_OK || err->offset == want->offset)) {
        return 0;
    }
    printf("FAIL %s (%s): %s at %llu (%s), want %s at %llu\n", file, how, gs_status_name(st),
           (unsigned long long)(st == GS_OK ? 0 : err->offset), st == GS_OK ? "" : err->detail,
           gs_status_name(want->status), (unsigned long long)want->offset);
    return 1;
}

static int replay(const gsc_entry *e, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->file);
    gsw_bytes b;
    gsw_bytes_init(&b);
    if (read_all(path, &b) != 0) {
        printf("FAIL %s: cannot read %s\n", e->file, path);
        return 1;
    }
    char sha[65];
    gsc_sha256_hex(b.data, b.len, sha);
    int failed = 0;
    if (strcmp(sha, e->sha256) != 0) {
        printf("FAIL %s: sha256 %s, the manifest says %s\n", e->file, sha, e->sha256);
        failed = 1;
    }
    for (int p = 0; p < 2 && !failed; p++) {
        gs_options o;
        gs_options_init(&o);
        o.profile = p == 0 ? GS_PROFILE_STRICT : GS_PROFILE_LENIENT;
        const gsc_verdict *want = p == 0 ? &e->strict : &e->lenient;
        gs_file *f = NULL;
        gs_error err;
        gs_status st = gs_open_file(path, &o, &f, &err);
        failed |= check(e->file, p == 0 ? "strict" : "lenient", st, &err, want);
        gs_close(f);
        st = gs_open_memory(b.data, b.len, &o, &f, &err);
        failed |= check(e->file, p == 0 ? "strict, memory" : "lenient, memory", st, &err, want);
        gs_close(f);
    }
    gsw_bytes_free(&b);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gs_corpus_replay MANIFEST DIR\n");
        return 2;
    }
    gsc_manifest m;
    char why[512];
    if (gsc_manifest_read(argv[1], &m, why, sizeof why) != 0) {
        fprintf(stderr, "gs_corpus_replay: %s\n", why);
        return 2;
    }
    size_t passed = 0, failed = 0;
    for (size_t i = 0; i < m.n; i++) {
        if (replay(&m.entries[i], argv[2]) == 0) {
            passed++;
        } else {
            failed++;
        }
    }
    printf("%zu passed, %zu failed\n", passed, failed);
    gsc_manifest_free(&m);
    return failed == 0 && passed > 0 ? 0 : 1;
}
