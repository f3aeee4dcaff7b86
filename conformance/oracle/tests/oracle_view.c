/* ggml's view and ours of one GGUF, and their comparison (oracle_view.h). */
#include "oracle_view.h"

#include <stdlib.h>
#include <string.h>

#include "gsw_sha256.h"

/* ---- parsing the runner's report ---------------------------------------------------------- */
static int hexval(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

/* A hex field ("-" is the empty string) into a new buffer. */
static int unhex(const char *s, char **out, size_t *len)
{
    const size_t n = strcmp(s, "-") == 0 ? 0 : strlen(s);
    if (n % 2 != 0) {
        return -1;
    }
    *out = malloc(n / 2 + 1);
    if (*out == NULL) {
        return -1;
    }
    for (size_t i = 0; i < n / 2; i++) {
        const int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(*out);
            *out = NULL;
            return -1;
        }
        (*out)[i] = (char)(hi << 4 | lo);
    }
    (*out)[n / 2] = '\0';
    *len = n / 2;
    return 0;
}

static void *grow(void *p, size_t n, size_t elem)
{
    /* capacity doubles at powers of two */
    if (n == 0 || (n & (n - 1)) == 0) {
        return realloc(p, (n == 0 ? 1 : 2 * n) * elem);
    }
    return p;
}

/* Appends a zeroed element of elem bytes to the array of *n elements whose pointer (of any
 * object type) is at field: the element, or NULL (the array unchanged) when out of memory. The
 * pointer is read and stored with memcpy, so no access goes through the wrong pointer type. */
static void *append(void *field, size_t *n, size_t elem)
{
    void *arr;
    memcpy(&arr, field, sizeof arr);
    void *p = grow(arr, *n, elem);
    if (p == NULL) {
        return NULL;
    }
    memcpy(field, &p, sizeof p);
    void *e = (char *)p + *n * elem;
    memset(e, 0, elem);
    (*n)++;
    return e;
}

static int parse_line(const char *line, gsx_view *v)
{
    char f[10][200];
    unsigned long long u[5];
    if (sscanf(line, "accepted version=%llu n_kv=%llu n_tensors=%llu alignment=%llu "
                     "data_offset=%llu", &u[0], &u[1], &u[2], &u[3], &u[4]) == 5) {
        v->accepted = true;
        v->version = (uint32_t)u[0];
        v->n_kv = u[1];
        v->n_tensors = u[2];
        v->alignment = u[3];
        v->data_offset = u[4];
        return 0;
    }
    if (strncmp(line, "kv ", 3) == 0 &&
        sscanf(line, "kv %199s %199s %199s %199s %199s", f[0], f[1], f[2], f[3], f[4]) == 5) {
        gsx_view_kv *k = append(&v->kv, &v->kv_n, sizeof *v->kv);
        if (k == NULL || unhex(f[0], &k->key, &k->key_len) != 0) {
            return -1;
        }
        k->type = atoi(f[1]);
        k->elem = strcmp(f[2], "-") == 0 ? -1 : atoi(f[2]);
        k->n = strtoull(f[3], NULL, 10);
        snprintf(k->sha, sizeof k->sha, "%.64s", f[4]);
        return 0;
    }
    if (strncmp(line, "tensor ", 7) == 0 &&
        sscanf(line, "tensor %199s %199s %199s %199s %199s %199s %199s %199s %199s", f[0], f[1],
               f[2], f[3], f[4], f[5], f[6], f[7], f[8]) == 9) {
        gsx_view_tensor *t = append(&v->t, &v->t_n, sizeof *v->t);
        if (t == NULL || unhex(f[0], &t->name, &t->name_len) != 0) {
            return -1;
        }
        t->type = atoi(f[1]);
        for (int d = 0; d < 4; d++) {
            t->ne[d] = strtoll(f[2 + d], NULL, 10);
        }
        t->offset = strtoull(f[6], NULL, 10);
        t->size = strtoull(f[7], NULL, 10);
        snprintf(t->hash, sizeof t->hash, "%.64s", f[8]);
        return 0;
    }
    return strcmp(line, "rejected") == 0 ? 0 : -1;
}

int gsx_view_parse(const char *text, size_t len, gsx_view *v, size_t *used)
{
    memset(v, 0, sizeof *v);
    size_t pos = 0;
    char line[4096];
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        if (nl == NULL) {
            break;
        }
        const size_t n = (size_t)(nl - (text + pos));
        if (n >= sizeof line) {
            return -1;
        }
        memcpy(line, text + pos, n);
        line[n] = '\0';
        pos += n + 1;
        if (strcmp(line, "end") == 0) {
            *used = pos;
            return 0;
        }
        if (parse_line(line, v) != 0) {
            return -1;
        }
    }
    return -1;
}

/* ---- our view ----------------------------------------------------------------------------- */
static gs_status our_kv(const gs_file *f, size_t i, gsx_view_kv *k)
{
    gs_kv_info ki;
    gs_status st = gs_kv_info_at(f, i, &ki);
    if (st != GS_OK) {
        return st;
    }
    k->key = malloc(ki.key.len + 1);
    const uint64_t end = ki.offset + ki.size;
    const size_t n = (size_t)(end - ki.value_offset);
    uint8_t *bytes = malloc(n + 1);
    if (k->key == NULL || bytes == NULL) {
        free(bytes);
        return GS_E_NO_MEMORY;
    }
    memcpy(k->key, ki.key.ptr, ki.key.len);
    k->key[ki.key.len] = '\0';
    k->key_len = ki.key.len;
    k->type = (int)ki.type;
    k->elem = ki.type == GS_VALUE_ARRAY ? (int)ki.elem_type : -1;
    k->n = ki.count;
    /* the value's wire bytes, read through the library's bounded reader */
    st = gs_file_read(f, ki.value_offset, bytes, n);
    if (st == GS_OK) {
        gsw_sha256_hex(bytes, n, k->sha);
    }
    free(bytes);
    return st;
}

static gs_status our_tensor(const gs_file *f, size_t i, unsigned flags, gsx_view_tensor *t)
{
    gs_tensor_info ti;
    gs_status st = gs_tensor_info_at(f, i, &ti);
    if (st != GS_OK) {
        return st;
    }
    t->name = malloc(ti.name.len + 1);
    if (t->name == NULL) {
        return GS_E_NO_MEMORY;
    }
    memcpy(t->name, ti.name.ptr, ti.name.len);
    t->name[ti.name.len] = '\0';
    t->name_len = ti.name.len;
    t->type = (int)ti.type;
    for (int d = 0; d < 4; d++) {
        t->ne[d] = (int64_t)ti.ne[d];
    }
    t->offset = ti.offset;
    t->size = ti.size;
    snprintf(t->hash, sizeof t->hash, "-");
    gs_type_info info;
    if (!(flags & GSX_VIEW_HASH) || gs_type_get_info((int32_t)ti.type, &info) != GS_OK ||
        !info.decodable) {
        return GS_OK;
    }
    if (!ti.data_in_file) {
        snprintf(t->hash, sizeof t->hash, "outside");
        return GS_OK;
    }
    float *out = malloc(ti.n_elements > 0 ? (size_t)ti.n_elements * sizeof *out : 1);
    if (out == NULL) {
        return GS_E_NO_MEMORY;
    }
    st = gs_tensor_dequantize(f, i, out, (size_t)ti.n_elements);
    if (st == GS_OK) {
        gsw_sha256_floats_hex(out, (size_t)ti.n_elements, t->hash);
    }
    free(out);
    return st;
}

gs_status gsx_view_ours(const gs_file *f, unsigned flags, gsx_view *v)
{
    memset(v, 0, sizeof *v);
    gs_layout lay;
    gs_file_layout(f, &lay);
    v->accepted = true;
    v->version = gs_file_version(f);
    v->n_kv = gs_kv_count(f);
    v->n_tensors = gs_tensor_count(f);
    v->alignment = lay.alignment;
    v->data_offset = lay.data_offset;
    if (flags & GSX_VIEW_KV) {
        v->kv = calloc(v->n_kv + 1, sizeof *v->kv);
        if (v->kv == NULL) {
            return GS_E_NO_MEMORY;
        }
        for (size_t i = 0; i < v->n_kv; i++) {
            v->kv_n++;
            const gs_status st = our_kv(f, i, &v->kv[i]);
            if (st != GS_OK) {
                return st;
            }
        }
    }
    v->t = calloc(v->n_tensors + 1, sizeof *v->t);
    if (v->t == NULL) {
        return GS_E_NO_MEMORY;
    }
    for (size_t i = 0; i < v->n_tensors; i++) {
        v->t_n++;
        const gs_status st = our_tensor(f, i, flags, &v->t[i]);
        if (st != GS_OK) {
            return st;
        }
    }
    return GS_OK;
}

void gsx_view_free(gsx_view *v)
{
    for (size_t i = 0; i < v->kv_n; i++) {
        free(v->kv[i].key);
    }
    for (size_t i = 0; i < v->t_n; i++) {
        free(v->t[i].name);
    }
    free(v->kv);
    free(v->t);
    memset(v, 0, sizeof *v);
}

/* ---- comparison --------------------------------------------------------------------------- */
#define DIFF(cond, ...)                                                                          \
    do {                                                                                         \
        if (cond) {                                                                              \
            d.differences++;                                                                     \
            fprintf(log, "%s: ", label);                                                         \
            fprintf(log, __VA_ARGS__);                                                           \
            fputc('\n', log);                                                                    \
        }                                                                                        \
    } while (0)

gsx_view_diff gsx_view_compare(const gsx_view *g, const gsx_view *o, unsigned flags, FILE *log,
                               const char *label)
{
    gsx_view_diff d = {0, 0, 0};
    DIFF(g->accepted != o->accepted, "verdict: ggml %d, ours %d", g->accepted, o->accepted);
    if (!g->accepted || !o->accepted) {
        return d;
    }
    DIFF(g->version != o->version, "version: ggml %u, ours %u", g->version, o->version);
    DIFF(g->n_kv != o->n_kv, "n_kv: ggml %llu, ours %llu", (unsigned long long)g->n_kv,
         (unsigned long long)o->n_kv);
    DIFF(g->n_tensors != o->n_tensors, "n_tensors: ggml %llu, ours %llu",
         (unsigned long long)g->n_tensors, (unsigned long long)o->n_tensors);
    DIFF(g->alignment != o->alignment, "alignment: ggml %llu, ours %llu",
         (unsigned long long)g->alignment, (unsigned long long)o->alignment);
    /* With no tensors ggml puts the (empty) data section right after the KVs, unpadded
     * (docs/gguf-format.md, ggml's check D1), and we pad: nothing is read there, so only files
     * with tensors have an offset to compare. */
    DIFF(g->n_tensors > 0 && g->data_offset != o->data_offset, "data offset: ggml %llu, ours %llu",
         (unsigned long long)g->data_offset, (unsigned long long)o->data_offset);
    for (size_t i = 0; (flags & GSX_VIEW_KV) && i < g->kv_n && i < o->kv_n; i++) {
        const gsx_view_kv *a = &g->kv[i], *b = &o->kv[i];
        DIFF(a->key_len != b->key_len || memcmp(a->key, b->key, a->key_len) != 0,
             "kv %zu: key differs", i);
        DIFF(a->type != b->type || a->elem != b->elem || a->n != b->n,
             "kv %zu (%s): type %d/%d n %llu in ggml, %d/%d n %llu ours", i, b->key, a->type,
             a->elem, (unsigned long long)a->n, b->type, b->elem, (unsigned long long)b->n);
        DIFF(strcmp(a->sha, b->sha) != 0, "kv %zu (%s): value differs", i, b->key);
    }
    DIFF((flags & GSX_VIEW_KV) && g->kv_n != o->kv_n, "kv records: ggml %zu, ours %zu", g->kv_n,
         o->kv_n);
    DIFF(g->t_n != o->t_n, "tensor records: ggml %zu, ours %zu", g->t_n, o->t_n);
    for (size_t i = 0; i < g->t_n && i < o->t_n; i++) {
        const gsx_view_tensor *a = &g->t[i], *b = &o->t[i];
        DIFF(a->name_len != b->name_len || memcmp(a->name, b->name, a->name_len) != 0,
             "tensor %zu: name differs", i);
        DIFF(a->type != b->type || memcmp(a->ne, b->ne, sizeof a->ne) != 0,
             "tensor %zu (%s): type or shape differs", i, b->name);
        DIFF(a->offset != b->offset || a->size != b->size,
             "tensor %zu (%s): offset %llu size %llu in ggml, %llu %llu ours", i, b->name,
             (unsigned long long)a->offset, (unsigned long long)a->size,
             (unsigned long long)b->offset, (unsigned long long)b->size);
        if (!(flags & GSX_VIEW_HASH)) {
            continue;
        }
        if (strcmp(a->hash, "-") == 0 && strcmp(b->hash, "-") != 0) {
            d.no_reference++; /* ggml has no decoder (Q8_1) */
            continue;
        }
        if (strcmp(a->hash, b->hash) == 0) {
            d.hashes_equal += strcmp(a->hash, "-") != 0;
        } else {
            DIFF(1, "tensor %zu (%s, type %d): decoded output differs: ggml %s, ours %s", i,
                 b->name, b->type, a->hash, b->hash);
        }
    }
    return d;
}
