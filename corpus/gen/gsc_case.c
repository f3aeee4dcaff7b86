#include "gsc_case.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gsw_sha256.h"

void gsc_sink_init(gsc_sink *s, const char *out_dir)
{
    s->out_dir = out_dir;
    s->bytes = 0;
    s->manifest = (gsc_manifest){NULL, 0, 0};
}

void gsc_sink_free(gsc_sink *s)
{
    gsc_manifest_free(&s->manifest);
}

static void die(const char *what, const char *file)
{
    fprintf(stderr, "gs_corpus_gen: %s: %s\n", what, file);
    exit(2);
}

/* mkdir -p of every directory in path before its last '/'. */
static void make_parents(char *path)
{
    for (char *p = path + 1; *p != '\0'; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST) {
                die("cannot create directory", path);
            }
            *p = '/';
        }
    }
}

/* The declared exit, or the one a reader rejection implies. */
static int certify_exit(int declared, gsc_verdict strict, const char *file)
{
    if (strict.status != GS_OK) {
        int implied = 1; /* a reader.<STATUS> error, or reader.not_gguf */
        if (declared != GSC_CERTIFY_DERIVED && declared != implied) {
            die("a rejected case declares a certify exit its rejection contradicts", file);
        }
        return implied;
    }
    if (declared < 0 || declared > 1) {
        die("an accepted case must declare its certify exit (gsc_certify: 0 or 1)", file);
    }
    return declared;
}

void gsc_emit(gsc_sink *s, const char *file, const void *data, size_t len, gsc_verdict strict,
              gsc_verdict lenient, int certify, const char *desc)
{
    if (gsc_manifest_find(&s->manifest, file) != NULL) {
        die("two cases write", file);
    }
    if (strpbrk(desc, "\t\n\r") != NULL || strpbrk(file, "\t\n\r ") != NULL) {
        die("tab, space or newline in the file name or description of", file);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", s->out_dir, file);
    make_parents(path);
    FILE *f = fopen(path, "wb");
    if (f == NULL || (len > 0 && fwrite(data, 1, len, f) != len) || fclose(f) != 0) {
        die("cannot write", path);
    }
    char sha[65];
    gsw_sha256_hex(data, len, sha);
    char exit_text[2] = {(char)('0' + certify_exit(certify, strict, file)), '\0'};
    gsc_manifest_add(&s->manifest, file, sha, strict, lenient, exit_text, desc);
    s->bytes += len;
}

void gsc_begin(gsc_case *c, uint32_t version)
{
    gsw_model_init(&c->m, version);
    gsw_bytes_init(&c->b);
    gsw_map_init(&c->map);
    c->certify = GSC_CERTIFY_DERIVED;
}

void gsc_certify(gsc_case *c, int exit_status)
{
    c->certify = exit_status;
}

void gsc_write(gsc_case *c, unsigned flags)
{
    char why[256] = "";
    gsw_bytes_free(&c->b);
    gsw_map_free(&c->map);
    if (gsw_write(&c->m, flags, &c->b, &c->map, why, sizeof why) != 0) {
        die("the writer refuses a recipe's model", why);
    }
}

void gsc_end(gsc_case *c)
{
    gsw_model_free(&c->m);
    gsw_bytes_free(&c->b);
    gsw_map_free(&c->map);
}

uint64_t gsc_at(const gsc_case *c, gsw_kind kind, uint32_t record, uint64_t index)
{
    return gsw_at(&c->map, kind, record, index);
}

uint64_t gsc_len_to_eof(gsc_case *c, gsw_kind kind, uint64_t extra)
{
    uint64_t at = gsc_at(c, kind, 1, 0);
    gsw_override(&c->b, &c->map, kind, 1, 0, c->b.len - (at + 8) + extra);
    return at;
}

void gsc_two(gsc_sink *s, gsc_case *c, const char *file, gsc_verdict strict, gsc_verdict lenient,
             const char *desc)
{
    gsc_emit(s, file, c->b.data, c->b.len, strict, lenient, c->certify, desc);
    gsc_end(c);
}

void gsc_ok(gsc_sink *s, gsc_case *c, const char *file, const char *desc)
{
    gsc_two(s, c, file, GSC_OK, GSC_OK, desc);
}

void gsc_both(gsc_sink *s, gsc_case *c, const char *file, gs_status status, uint64_t offset,
              const char *desc)
{
    gsc_two(s, c, file, gsc_v(status, offset), gsc_v(status, offset), desc);
}

void gsc_bad_len(gsc_sink *s, gsc_case *c, gsw_kind kind, uint64_t len, const char *file,
                 const char *desc)
{
    gsw_override(&c->b, &c->map, kind, 1, 0, len);
    gsc_both(s, c, file, GS_E_STRING_EXCEEDS_FILE, gsc_at(c, kind, 1, 0), desc);
}

void gsc_len_past_eof(gsc_sink *s, gsc_case *c, gsw_kind kind, const char *file,
                      const char *desc)
{
    const uint64_t at = gsc_len_to_eof(c, kind, 1);
    gsc_both(s, c, file, GS_E_STRING_EXCEEDS_FILE, at, desc);
}

void gsc_strict(gsc_sink *s, gsc_case *c, const char *file, gs_status status, uint64_t offset,
                const char *desc)
{
    gsc_two(s, c, file, gsc_v(status, offset), GSC_OK, desc);
}
