/* The directory walk of many-file runs (gs_certify_walk, include/ggufsafe_certify.h) on trees
 * built from the input: each record makes a file, a directory (entered), a step back up, a
 * FIFO, a link to a file, a link to a directory, a dangling link or a split part, under any
 * name bytes but '/' and NUL. The first two bytes pick the depth and entry bounds. Oracles:
 *   - the walk returns GS_OK and closes every descriptor it opened;
 *   - every entry is below the root, of a kind in the enum, with a reason exactly when it is an
 *     orphan, skipped or unreadable; a file found in a directory is a *.gguf regular file (or a
 *     link to one); a set is named part 1, with 1..count parts found;
 *   - entries of one directory come in strictly increasing bytewise order;
 *   - no more entries than the bound allows (one per entry read, plus the one that says the
 *     bound was reached).
 * The tree lives in a directory of its own under TMPDIR (or /tmp) and is removed after each
 * input. */
#define _GNU_SOURCE /* mkdtemp, O_DIRECTORY */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "ggufsafe_certify.h"

#define MAX_RECORDS 64
#define MAX_DEPTH 8
#define MAX_NAME 40
#define MAX_SEEN 256

static char root[4096];

/* Removes everything below the directory open at dfd. */
static void clear(int dfd)
{
    DIR *d = fdopendir(dfd);
    if (d == NULL) {
        close(dfd);
        return;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
            continue;
        }
        if (unlinkat(dirfd(d), de->d_name, 0) != 0) {
            int sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
            if (sub >= 0) {
                clear(sub);
            }
            unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
        }
    }
    closedir(d);
}

static int open_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL) {
        return -1;
    }
    while (readdir(d) != NULL) {
        n++;
    }
    closedir(d);
    return n;
}

typedef struct seen {
    char *paths[MAX_SEEN];
    size_t n;
    size_t root_len;
} seen;

static bool is_gguf(const char *p)
{
    size_t n = strlen(p);
    return n > 5 && strcmp(p + n - 5, ".gguf") == 0;
}

static bool check_entry(void *ctx, const gs_certify_walk_entry *e)
{
    seen *s = ctx;
    FUZZ_ASSERT(e->struct_size == sizeof *e);
    FUZZ_ASSERT(strncmp(e->path, root, s->root_len) == 0 &&
                (e->path[s->root_len] == '/' || e->path[s->root_len] == '\0'));
    FUZZ_ASSERT((unsigned)e->kind <= GS_CERTIFY_WALK_UNREADABLE);
    bool has_reason = e->reason[0] != '\0';
    FUZZ_ASSERT(has_reason == (e->kind == GS_CERTIFY_WALK_ORPHAN ||
                               e->kind == GS_CERTIFY_WALK_SKIPPED ||
                               e->kind == GS_CERTIFY_WALK_UNREADABLE));
    struct stat st;
    if (e->kind == GS_CERTIFY_WALK_FILE || e->kind == GS_CERTIFY_WALK_SET) {
        FUZZ_ASSERT(is_gguf(e->path));
        FUZZ_ASSERT(stat(e->path, &st) == 0 && S_ISREG(st.st_mode));
    }
    if (e->kind == GS_CERTIFY_WALK_SET) {
        gs_split_name name;
        FUZZ_ASSERT(gs_split_name_parse(e->path, strlen(e->path), &name) && name.part == 1);
        FUZZ_ASSERT(e->part == 1 && e->count == name.count);
        FUZZ_ASSERT(e->parts_found >= 1 && e->parts_found <= e->count);
    }
    FUZZ_ASSERT(s->n < MAX_SEEN);
    s->paths[s->n] = strdup(e->path);
    FUZZ_ASSERT(s->paths[s->n] != NULL);
    s->n++;
    return true;
}

/* Name bytes from the input: anything but '/' and NUL; never "." or "..". */
static size_t take_name(const uint8_t **p, const uint8_t *end, char *name, const char *suffix)
{
    size_t len = *p < end ? (size_t)(**p % MAX_NAME) + 1 : 1;
    *p += *p < end;
    size_t k = 0;
    for (size_t i = 0; i < len && *p < end; i++, (*p)++) {
        uint8_t c = **p;
        name[k++] = (char)(c == '/' || c == 0 ? 'x' : c);
    }
    if (k == 0 || (k == 1 && name[0] == '.') || (k == 2 && name[0] == '.' && name[1] == '.')) {
        name[k++] = 'n';
    }
    name[k] = '\0';
    strcat(name, suffix);
    return k;
}

static void build(const uint8_t *p, const uint8_t *end, int top)
{
    int stack[MAX_DEPTH + 1];
    int depth = 0;
    stack[0] = top;
    for (int r = 0; r < MAX_RECORDS && p < end; r++) {
        uint8_t op = *p++;
        int at = stack[depth];
        char name[MAX_NAME + 64];
        const char *suffix = (op & 8) ? ".gguf" : "";
        switch (op & 7) {
        case 0: { /* a file */
            take_name(&p, end, name, suffix);
            int fd = openat(at, name, O_WRONLY | O_CREAT | O_EXCL, 0644);
            if (fd >= 0) {
                (void)!write(fd, "GGUF", 4);
                close(fd);
            }
            break;
        }
        case 1: /* a directory, entered */
            take_name(&p, end, name, "");
            if (depth < MAX_DEPTH && mkdirat(at, name, 0755) == 0) {
                int sub = openat(at, name, O_RDONLY | O_DIRECTORY);
                if (sub >= 0) {
                    stack[++depth] = sub;
                }
            }
            break;
        case 2: /* back up */
            if (depth > 0) {
                close(stack[depth--]);
            }
            break;
        case 3: /* a FIFO */
            take_name(&p, end, name, suffix);
            (void)!mkfifoat(at, name, 0644);
            break;
        case 4: /* a link to a file (perhaps one made later, or never) */
            take_name(&p, end, name, suffix);
            (void)!symlinkat(op & 16 ? "../x.gguf" : "x.gguf", at, name);
            break;
        case 5: /* a link to a directory */
            take_name(&p, end, name, suffix);
            (void)!symlinkat(op & 16 ? ".." : ".", at, name);
            break;
        case 6: /* a dangling link */
            take_name(&p, end, name, suffix);
            (void)!symlinkat("/nonexistent/gone.gguf", at, name);
            break;
        case 7: { /* a split part */
            unsigned part = p < end ? *p++ % 4 + 1 : 1;
            unsigned count = p < end ? *p++ % 4 + 1 : 1;
            char stem[MAX_NAME + 8];
            take_name(&p, end, stem, "");
            snprintf(name, sizeof name, "%s-%05u-of-%05u.gguf", stem, part, count);
            int fd = openat(at, name, O_WRONLY | O_CREAT | O_EXCL, 0644);
            if (fd >= 0) {
                close(fd);
            }
            break;
        }
        }
    }
    while (depth > 0) {
        close(stack[depth--]);
    }
}

/* The directory part and the last name of a path. */
static int compare_in_directory(const char *a, const char *b, bool *same_dir)
{
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/'); /* paths below root have one */
    *same_dir = (sa - a) == (sb - b) && strncmp(a, b, (size_t)(sa - a)) == 0;
    return strcmp(sa + 1, sb + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (root[0] == '\0') {
        const char *tmp = getenv("TMPDIR");
        snprintf(root, sizeof root, "%s/fuzz_walk.XXXXXX", tmp != NULL && tmp[0] ? tmp : "/tmp");
        FUZZ_ASSERT(mkdtemp(root) != NULL);
    }
    int top = open(root, O_RDONLY | O_DIRECTORY);
    FUZZ_ASSERT(top >= 0);
    clear(dup(top));
    gs_certify_walk_options o;
    gs_certify_walk_options_init(&o);
    o.max_depth = size > 0 ? data[0] % 6 : 3;
    o.max_entries = size > 1 ? (uint64_t)(data[1] % 80) + 1 : 40;
    build(data + (size > 2 ? 2 : size), data + size, top);
    int fds = open_fds();
    seen s = {.root_len = strlen(root)};
    const char *paths[] = {root};
    gs_error err;
    gs_status st = gs_certify_walk(paths, 1, &o, check_entry, &s, &err);
    FUZZ_ASSERT_MSG(st == GS_OK, "walk: %s", gs_status_name(st));
    FUZZ_ASSERT_MSG(open_fds() == fds, "descriptors before %d, after %d", fds, open_fds());
    FUZZ_ASSERT(s.n <= o.max_entries + 1);
    for (size_t i = 0; i < s.n; i++) {
        for (size_t j = i + 1; j < s.n; j++) {
            bool same;
            int c = compare_in_directory(s.paths[i], s.paths[j], &same);
            FUZZ_ASSERT_MSG(!same || c < 0 || strcmp(s.paths[i], s.paths[j]) == 0,
                            "out of order: %s before %s", s.paths[i], s.paths[j]);
        }
    }
    for (size_t i = 0; i < s.n; i++) {
        free(s.paths[i]);
    }
    clear(dup(top));
    close(top);
    return 0;
}
