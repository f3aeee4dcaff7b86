#define _DEFAULT_SOURCE /* mkdtemp */
#include "test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

void tu_small_file(gsw_bytes *b, uint32_t align)
{
    gsw_raw_header(b, 3, 2, align ? 2 : 1);
    gsw_raw_kv_str(b, "general.architecture", "test");
    if (align) {
        gsw_raw_kv_u32(b, "general.alignment", align);
    }
    uint32_t a = align ? align : 32;
    uint64_t ne_a[1] = {8};
    uint64_t ne_b[2] = {4, 2};
    uint64_t off_b = (32 + a - 1) / a * a; /* 8 floats = 32 bytes, padded */
    gsw_raw_tensor(b, "a", 1, ne_a, GS_TYPE_F32, 0);
    gsw_raw_tensor(b, "b", 2, ne_b, GS_TYPE_F32, off_b);
    gsw_pad_to(b, a);
    for (int i = 0; i < 8; i++) {
        gsw_put_f32(b, (float)i);
    }
    gsw_pad_to(b, a);
    for (int i = 8; i < 16; i++) {
        gsw_put_f32(b, (float)i);
    }
    gsw_pad_to(b, a);
}

gsw_bytes tu_small(uint32_t align)
{
    gsw_bytes b;
    gsw_bytes_init(&b);
    tu_small_file(&b, align);
    return b;
}

void tu_raw_start(gsw_bytes *b, uint64_t n_tensors, uint64_t n_kv)
{
    gsw_bytes_init(b);
    gsw_raw_header(b, 3, n_tensors, n_kv);
}

void tu_tensor_file(gsw_bytes *b, const tu_tensor *t, size_t n, size_t data_bytes, size_t *at)
{
    tu_raw_start(b, n, 0);
    for (size_t i = 0; i < n; i++) {
        size_t start = gsw_raw_tensor(b, t[i].name, t[i].n_dims, t[i].ne, t[i].type, t[i].offset);
        if (at != NULL) {
            at[i] = start;
        }
    }
    if (data_bytes != TU_NO_DATA) {
        gsw_pad_to(b, 32);
        gsw_put_fill(b, 0, data_bytes);
    }
}

gs_file *tu_open_small(gsw_bytes *b)
{
    gsw_bytes_init(b);
    tu_small_file(b, 32);
    gs_file *f = NULL;
    if (gs_open_memory(b->data, b->len, NULL, &f, NULL) != GS_OK) {
        fprintf(stderr, "tu_open_small: the small file does not open\n");
        abort();
    }
    return f;
}

gs_status tu_open_opts(const gsw_bytes *b, const gs_options *opts, gs_error *err)
{
    gs_file *f = NULL;
    gs_status st = gs_open_memory(b->data, b->len, opts, &f, err);
    if (st == GS_OK && f == NULL) {
        return GS_E_INTERNAL;
    }
    if (st != GS_OK && f != NULL) {
        return GS_E_INTERNAL;
    }
    gs_close(f);
    return st;
}

gs_options tu_options(gs_profile profile)
{
    gs_options o;
    gs_options_init(&o);
    o.profile = profile;
    return o;
}

gs_status tu_open(const gsw_bytes *b, gs_profile profile, gs_error *err)
{
    gs_options o = tu_options(profile);
    return tu_open_opts(b, &o, err);
}

static void *count_malloc(void *opaque, size_t n)
{
    tu_counter *c = opaque;
    if (c->fail_at >= 0 && c->total++ == c->fail_at) {
        return NULL;
    }
    if (c->fail_at < 0) {
        c->total++;
    }
    void *p = malloc(n + 16);
    if (p == NULL) {
        return NULL;
    }
    memcpy(p, &n, sizeof n);
    c->live++;
    c->live_bytes += n;
    c->peak_bytes = c->live_bytes > c->peak_bytes ? c->live_bytes : c->peak_bytes;
    return (char *)p + 16;
}

static void count_free(void *opaque, void *p)
{
    tu_counter *c = opaque;
    if (p == NULL) {
        return;
    }
    char *base = (char *)p - 16;
    size_t n;
    memcpy(&n, base, sizeof n);
    c->live--;
    c->live_bytes -= n;
    free(base);
}

static void *count_realloc(void *opaque, void *p, size_t n)
{
    tu_counter *c = opaque;
    if (p == NULL) {
        return count_malloc(opaque, n);
    }
    if (c->fail_at >= 0 && c->total++ == c->fail_at) {
        return NULL;
    }
    if (c->fail_at < 0) {
        c->total++;
    }
    char *base = (char *)p - 16;
    size_t old;
    memcpy(&old, base, sizeof old);
    char *q = realloc(base, n + 16);
    if (q == NULL) {
        return NULL;
    }
    memcpy(q, &n, sizeof n);
    c->live_bytes = c->live_bytes - old + n;
    c->peak_bytes = c->live_bytes > c->peak_bytes ? c->live_bytes : c->peak_bytes;
    return q + 16;
}

void tu_counting_options(gs_options *opts, tu_counter *c, long fail_at)
{
    memset(c, 0, sizeof *c);
    c->fail_at = fail_at;
    gs_options_init(opts);
    opts->allocator.malloc_fn = count_malloc;
    opts->allocator.realloc_fn = count_realloc;
    opts->allocator.free_fn = count_free;
    opts->allocator.opaque = c;
}

uint8_t *tu_read_file(const char *path, size_t *n)
{
    gsw_bytes b;
    gsw_bytes_init(&b);
    /* An exactly sized copy, so that ASan sees a read one byte past the file. */
    uint8_t *exact = gsw_bytes_load(&b, path) == 0 ? malloc(b.len > 0 ? b.len : 1) : NULL;
    if (exact == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        abort();
    }
    if (b.len > 0) {
        memcpy(exact, b.data, b.len);
    }
    *n = b.len;
    gsw_bytes_free(&b);
    return exact;
}

const char *tu_source_path(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("GS_SOURCE_DIR");
    snprintf(buf, sizeof buf, "%s/%s", root ? root : ".", rel);
    return buf;
}

bool tu_scratch_dir(char dir[TU_DIR_SIZE], const char *name)
{
    int n = snprintf(dir, TU_DIR_SIZE, "/tmp/%s_XXXXXX", name);
    return n > 0 && n < TU_DIR_SIZE && mkdtemp(dir) != NULL;
}

bool tu_scratch_remove(const char *dir)
{
    char cmd[TU_DIR_SIZE + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0;
}

bool tu_fd_squeeze_to(tu_fd_squeeze *s, int n_free)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur < TU_FD_LIMIT) {
        return false;
    }
    s->old_soft = (unsigned long long)lim.rlim_cur;
    s->n = 0;
    for (;;) {
        int fd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* the lowest free descriptor */
        if (fd < 0 || fd >= TU_FD_LIMIT) {
            if (fd >= 0) {
                close(fd);
            }
            tu_fd_release(s);
            return false;
        }
        s->fds[s->n++] = fd;
        if (fd == TU_FD_LIMIT - 1) {
            break; /* every descriptor below the limit is taken */
        }
    }
    for (int i = 0; i < n_free && s->n > 0; i++) {
        close(s->fds[--s->n]); /* the highest ones */
    }
    lim.rlim_cur = TU_FD_LIMIT;
    if (setrlimit(RLIMIT_NOFILE, &lim) != 0) {
        tu_fd_release(s);
        return false;
    }
    return true;
}

void tu_fd_release(tu_fd_squeeze *s)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
        lim.rlim_cur = (rlim_t)s->old_soft;
        (void)setrlimit(RLIMIT_NOFILE, &lim);
    }
    while (s->n > 0) {
        close(s->fds[--s->n]);
    }
}
