#include "name_filter.h"

#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool matches(const char *pattern, const char *name, size_t len)
{
    return (strlen(pattern) == len && memcmp(pattern, name, len) == 0) ||
           fnmatch(pattern, name, 0) == 0;
}

static bool any(const char *const *patterns, size_t n, const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        if (matches(patterns[i], name, len)) {
            return true;
        }
    }
    return false;
}

bool cli_filter_active(const cli_name_filter *f)
{
    return f != NULL && (f->n_include > 0 || f->n_exclude > 0);
}

gs_status cli_filter_keeps(const cli_name_filter *f, gs_str name, bool *keep)
{
    if (!cli_filter_active(f)) {
        *keep = true;
        return GS_OK;
    }
    /* fnmatch wants a NUL-terminated name: on the stack for every name ggml allows */
    char small[256];
    char *s = name.len < sizeof small ? small : malloc(name.len + 1);
    if (s == NULL) {
        return GS_E_NO_MEMORY;
    }
    memcpy(s, name.ptr, name.len);
    s[name.len] = '\0';
    *keep = (f->n_include == 0 || any(f->include, f->n_include, s, name.len)) &&
            !any(f->exclude, f->n_exclude, s, name.len);
    if (s != small) {
        free(s);
    }
    return GS_OK;
}

/* n strings copied into one allocation: the pointer array, then the bytes. */
static const char *const *copy_list(const char *const *src, size_t n, bool *ok)
{
    if (n == 0) {
        return NULL;
    }
    if (n > SIZE_MAX / sizeof(char *)) {
        *ok = false;
        return NULL;
    }
    size_t bytes = n * sizeof(char *);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(src[i]) + 1;
        if (bytes > SIZE_MAX - len) {
            *ok = false;
            return NULL;
        }
        bytes += len;
    }
    char **list = malloc(bytes);
    if (list == NULL) {
        *ok = false;
        return NULL;
    }
    char *text = (char *)(list + n);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(src[i]) + 1;
        memcpy(text, src[i], len);
        list[i] = text;
        text += len;
    }
    return (const char *const *)list;
}

gs_status cli_filter_copy(cli_name_filter *dst, const cli_name_filter *src)
{
    memset(dst, 0, sizeof *dst);
    if (src == NULL) {
        return GS_OK;
    }
    bool ok = true;
    dst->include = copy_list(src->include, src->n_include, &ok);
    dst->n_include = dst->include != NULL ? src->n_include : 0;
    dst->exclude = copy_list(src->exclude, src->n_exclude, &ok);
    dst->n_exclude = dst->exclude != NULL ? src->n_exclude : 0;
    if (!ok) {
        cli_filter_free(dst);
        return GS_E_NO_MEMORY;
    }
    return GS_OK;
}

void cli_filter_free(cli_name_filter *f)
{
    /* the lists are ours (copy_list): const only to their readers */
    free((void *)(uintptr_t)f->include);
    free((void *)(uintptr_t)f->exclude);
    memset(f, 0, sizeof *f);
}
