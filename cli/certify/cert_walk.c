/* The walk of many paths (gs_certify_walk, include/ggufsafe_certify.h): operands in order, and
 * below a directory every *.gguf name, with the file system treated as untrusted. Each
 * directory is opened relative to its parent's descriptor with O_NOFOLLOW (a directory swapped
 * for a link after it was listed is refused, not followed), entries are classified with
 * fstatat, names are sorted bytewise, split parts are grouped by gs_split_name_parse, and the
 * depth and the number of entries read are bounded. Files are only classified here: the reader
 * opens each one itself and refuses anything that is not a regular file. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api.h"
#include "ggufsafe_certify.h"

typedef struct walk {
    gs_certify_walk_options opt;
    gs_certify_walk_fn fn;
    void *ctx;
    uint64_t entries; /* read so far, over the whole walk */
    bool stop;        /* fn said so, or the entry bound was reached */
    bool no_memory;
} walk;

void gs_certify_walk_options_init(gs_certify_walk_options *opts)
{
    if (opts != NULL) {
        *opts = (gs_certify_walk_options){.struct_size = sizeof *opts,
                                          .max_depth = GS_CERTIFY_WALK_MAX_DEPTH,
                                          .max_entries = GS_CERTIFY_WALK_MAX_ENTRIES};
    }
}

static void emit(walk *w, gs_certify_walk_kind kind, const char *path, int errnum,
                 const char *reason, const gs_split_name *name, uint32_t parts_found)
{
    if (w->stop) {
        return;
    }
    gs_certify_walk_entry e = {.struct_size = sizeof e, .kind = kind, .path = path,
                               .errnum = errnum, .reason = reason != NULL ? reason : "",
                               .parts_found = parts_found};
    if (name != NULL) {
        e.part = name->part;
        e.count = name->count;
    }
    if (!w->fn(w->ctx, &e)) {
        w->stop = true;
    }
}

/* dir + '/' + name (no second '/' when dir ends with one), or NULL. */
static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    bool slash = a > 0 && dir[a - 1] == '/';
    if (a > SIZE_MAX - b - 2) {
        return NULL;
    }
    char *p = malloc(a + b + 2);
    if (p != NULL) {
        memcpy(p, dir, a);
        size_t k = a;
        if (!slash) {
            p[k++] = '/';
        }
        memcpy(p + k, name, b + 1);
    }
    return p;
}

static bool is_gguf_name(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && memcmp(name + n - 5, ".gguf", 5) == 0;
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b); /* compares as unsigned char */
}

/* What an entry is, links to files followed and links to directories not. */
typedef enum entry_type { T_OTHER, T_FILE, T_DIR, T_LINKED_DIR, T_SPECIAL, T_BROKEN } entry_type;

static entry_type classify(int dfd, const char *name, int *errnum)
{
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        *errnum = errno;
        return T_BROKEN;
    }
    bool link = S_ISLNK(st.st_mode);
    if (link && fstatat(dfd, name, &st, 0) != 0) {
        *errnum = errno;
        return T_BROKEN;
    }
    if (S_ISDIR(st.st_mode)) {
        return link ? T_LINKED_DIR : T_DIR;
    }
    if (S_ISREG(st.st_mode)) {
        return T_FILE;
    }
    if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ||
        S_ISSOCK(st.st_mode)) {
        return T_SPECIAL;
    }
    return T_OTHER;
}

/* True when the sorted names hold name and it is a *.gguf file (or a link to one). */
static bool has_file(int dfd, char **names, size_t n, const char *name)
{
    const char *key = name;
    char **hit = bsearch(&key, names, n, sizeof *names, by_bytes);
    int errnum = 0;
    return hit != NULL && classify(dfd, *hit, &errnum) == T_FILE;
}

/* The parts of names[i]'s set (part 1) in its directory. Names sharing a prefix are one run of
 * the sorted list, so only that run is looked at (a name is in as many runs as it has nested
 * prefixes: linear in the directory, not quadratic). */
static uint32_t parts_next_to(int dfd, char **names, size_t n, size_t i,
                              const gs_split_name *first)
{
    uint32_t found = 1;
    size_t stem = first->prefix_len + 1; /* "<prefix>-" */
    for (size_t j = i + 1; j < n && strncmp(names[j], names[i], stem) == 0; j++) {
        gs_split_name other;
        int errnum = 0;
        if (gs_split_name_parse(names[j], strlen(names[j]), &other) &&
            other.prefix_len == first->prefix_len && other.count == first->count &&
            other.part > 1 && other.part <= other.count && classify(dfd, names[j], &errnum) == T_FILE) {
            found++;
        }
    }
    return found;
}

static void walk_dir(walk *w, int dfd, const char *path, unsigned depth);

/* The names of the directory open at dfd (which the listing takes over), sorted; NULL with *n 0
 * for an empty one. *errnum when it cannot be listed. */
static char **list_names(walk *w, int dfd, const char *path, size_t *n, int *errnum)
{
    *n = 0;
    *errnum = 0;
    DIR *d = fdopendir(dfd);
    if (d == NULL) {
        *errnum = errno;
        close(dfd);
        return NULL;
    }
    char **names = NULL;
    size_t cap = 0;
    for (;;) {
        errno = 0;
        struct dirent *de = readdir(d);
        if (de == NULL) {
            if (errno != 0) {
                *errnum = errno;
            }
            break;
        }
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
            continue;
        }
        if (w->entries >= w->opt.max_entries) {
            emit(w, GS_CERTIFY_WALK_UNREADABLE, path, 0,
                 "the walk read its maximum number of directory entries here and stopped "
                 "(raise --max-entries)", NULL, 0);
            w->stop = true;
            break;
        }
        w->entries++;
        char *copy = cli_strndup(de->d_name, strlen(de->d_name));
        if (copy == NULL || !cli_reserve((void **)&names, &cap, *n + 1, sizeof *names)) {
            free(copy);
            w->no_memory = w->stop = true;
            break;
        }
        names[(*n)++] = copy;
    }
    closedir(d);
    if (*n > 1) {
        qsort(names, *n, sizeof *names, by_bytes);
    }
    return names;
}

static void walk_entry(walk *w, int dfd, char **names, size_t n, size_t i, const char *path,
                       unsigned depth)
{
    const char *name = names[i];
    int errnum = 0;
    entry_type t = classify(dfd, name, &errnum);
    if (t == T_OTHER || (t != T_DIR && t != T_LINKED_DIR && !is_gguf_name(name))) {
        return; /* not ours to report: only *.gguf names and directories matter */
    }
    char *full = join(path, name);
    if (full == NULL) {
        w->no_memory = w->stop = true;
        return;
    }
    gs_split_name split;
    switch (t) {
    case T_DIR:
        if (depth >= w->opt.max_depth) {
            emit(w, GS_CERTIFY_WALK_UNREADABLE, full, 0,
                 "a directory deeper than the walk goes: not read (raise --max-depth)", NULL, 0);
            break;
        }
        int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) {
            emit(w, GS_CERTIFY_WALK_UNREADABLE, full, errno,
                 "the directory cannot be opened", NULL, 0);
        } else {
            walk_dir(w, sub, full, depth + 1);
        }
        break;
    case T_LINKED_DIR:
        emit(w, GS_CERTIFY_WALK_SKIPPED, full, 0,
             "a symbolic link to a directory: not followed", NULL, 0);
        break;
    case T_SPECIAL:
        emit(w, GS_CERTIFY_WALK_SKIPPED, full, 0,
             "not a regular file (a FIFO, device or socket): not read", NULL, 0);
        break;
    case T_BROKEN:
        emit(w, GS_CERTIFY_WALK_UNREADABLE, full, errnum,
             "cannot be looked at (a dangling link, or no permission)", NULL, 0);
        break;
    case T_FILE:
        if (!gs_split_name_parse(name, strlen(name), &split) || split.count == 1) {
            emit(w, GS_CERTIFY_WALK_FILE, full, 0, NULL, NULL, 0);
            break;
        }
        char first[GS_SPLIT_NAME_SUFFIX_LEN + 256 + 1];
        bool named = split.prefix_len <= 256 &&
                     gs_split_name_format(name, &split, 1, first, sizeof first) == GS_OK;
        if (split.part == 1) {
            emit(w, GS_CERTIFY_WALK_SET, full, 0, NULL, &split,
                 parts_next_to(dfd, names, n, i, &split));
        } else if (split.part > split.count || !named || !has_file(dfd, names, n, first)) {
            emit(w, GS_CERTIFY_WALK_ORPHAN, full, 0,
                 split.part > split.count
                     ? "a split part numbered past its part count: the set cannot be opened"
                     : "a later part of a split set whose part 1 is not in this directory: the "
                       "set is incomplete",
                 &split, 0);
        }
        break; /* a later part next to its part 1 is certified with the set */
    case T_OTHER:
        break;
    }
    free(full);
}

/* Lists the directory open at dfd (taking it over) and walks its entries in order. */
static void walk_dir(walk *w, int dfd, const char *path, unsigned depth)
{
    size_t n;
    int errnum;
    /* a second descriptor for fstatat and openat, the first being the listing's */
    int at = dup(dfd);
    if (at < 0) {
        emit(w, GS_CERTIFY_WALK_UNREADABLE, path, errno, "the directory cannot be read", NULL,
             0);
        close(dfd);
        return;
    }
    char **names = list_names(w, dfd, path, &n, &errnum);
    if (errnum != 0) {
        emit(w, GS_CERTIFY_WALK_UNREADABLE, path, errnum, "the directory cannot be read", NULL,
             0);
    }
    for (size_t i = 0; i < n && !w->stop; i++) {
        walk_entry(w, at, names, n, i, path, depth);
    }
    for (size_t i = 0; i < n; i++) {
        free(names[i]);
    }
    free(names);
    close(at);
}

static void walk_operand(walk *w, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        /* the reader says why when it opens it (and names a missing file the same way) */
        emit(w, GS_CERTIFY_WALK_FILE, path, 0, NULL, NULL, 0);
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        emit(w, GS_CERTIFY_WALK_FILE, path, 0, NULL, NULL, 0);
        return;
    }
    /* an operand is followed even through a link: the caller named it */
    int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        emit(w, GS_CERTIFY_WALK_UNREADABLE, path, errno, "the directory cannot be opened", NULL,
             0);
        return;
    }
    walk_dir(w, dfd, path, 0);
}

gs_status gs_certify_walk(const char *const *paths, size_t n,
                          const gs_certify_walk_options *opts, gs_certify_walk_fn fn, void *ctx,
                          gs_error *err)
{
    if ((paths == NULL && n > 0) || fn == NULL) {
        return cli_null_argument(err);
    }
    for (size_t i = 0; i < n; i++) {
        if (paths[i] == NULL || paths[i][0] == '\0') {
            return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                            "gs_certify_walk: path %zu is NULL or empty", i);
        }
    }
    walk w = {.fn = fn, .ctx = ctx};
    gs_certify_walk_options_init(&w.opt);
    gs_status st = cli_take_options(&w.opt, sizeof w.opt, opts,
                                    CLI_MIN_SIZE(gs_certify_walk_options, max_entries),
                                    "gs_certify_walk_options", err);
    if (st != GS_OK) {
        return st;
    }
    for (size_t i = 0; i < n && !w.stop; i++) {
        walk_operand(&w, paths[i]);
    }
    if (w.no_memory) {
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0,
                        "the directory walk ran out of memory");
    }
    return GS_OK;
}
