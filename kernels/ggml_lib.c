/* Loading libggml-base with dlopen and checking that our declarations fit it (ggml_lib.h). */
#define _GNU_SOURCE /* dladdr */
#include "ggml_lib.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "type_registry.h"

#define GSI_GGML_TYPE_Q4_0 2
#define GSI_GGML_TYPE_Q8_K 15

static void say(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t cap, const char *fmt, ...)
{
    if (why == NULL || cap == 0) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
}

/* A string of the library we keep and print: at most cap - 1 bytes of printable ASCII. */
static bool copy_printable(char *dst, size_t cap, const char *src, bool name_chars)
{
    if (src == NULL) {
        return false;
    }
    size_t n = 0;
    for (; src[n] != '\0'; n++) {
        const unsigned char c = (unsigned char)src[n];
        const bool ok = name_chars ? ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                      (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-')
                                   : (c > 0x20 && c < 0x7f);
        if (!ok || n + 1 >= cap) {
            return false;
        }
    }
    if (n == 0) {
        return false;
    }
    memcpy(dst, src, n + 1);
    return true;
}

int gsi_ggml_resolve(const gsi_ggml *g, void *slot, size_t slot_size, const char *name,
                     char *why, size_t why_cap)
{
    void *p = dlsym(g->handle, name);
    if (p == NULL || slot_size != sizeof p) {
        say(why, why_cap, "%s: symbol %s missing (not a libggml-base, or one without it)",
            g->path, name);
        return -1;
    }
    memcpy(slot, &p, slot_size);
    return 0;
}

/* "0.MINOR[.PATCH...]" with MINOR >= GSI_GGML_MIN_MINOR. */
static bool version_vouched(const char *v)
{
    if (v[0] != '0' || v[1] != '.') {
        return false;
    }
    unsigned long minor = 0;
    size_t i = 2;
    if (v[i] < '0' || v[i] > '9') {
        return false;
    }
    for (; v[i] >= '0' && v[i] <= '9'; i++) {
        if (minor > 100000) {
            return false;
        }
        minor = minor * 10 + (unsigned long)(v[i] - '0');
    }
    return (v[i] == '\0' || v[i] == '.') && minor >= GSI_GGML_MIN_MINOR;
}

/* Every id of our registry against ggml's traits, then the to_float witness. */
static gsi_ggml_status check_layout(const gsi_ggml *g, char *why, size_t cap)
{
    for (int32_t t = 0; t < GS_TYPE_COUNT; t++) {
        const gsi_type_row *row = gsi_type_lookup(t);
        const gsi_ggml_traits *tr = g->ggml_get_type_traits((int)t);
        if (tr == NULL) {
            say(why, cap, "%s (ggml %s, commit %s): ggml_get_type_traits(%d) is NULL: a "
                "ggml_type_traits layout ggufsafe cannot vouch for", g->path, g->version,
                g->commit, (int)t);
            return GSI_GGML_UNVOUCHED;
        }
        const bool usable = gsi_type_is_usable(row);
        const uint32_t want_elems = usable ? row->block_elems : 0;
        const uint32_t want_bytes = usable ? row->block_bytes : 0;
        const bool name_ok = !usable || (tr->type_name != NULL &&
                                         strcmp(tr->type_name, row->name) == 0);
        if (tr->blck_size != (int64_t)want_elems || tr->type_size != (size_t)want_bytes ||
            !name_ok) {
            char got[64] = "(unprintable)";
            if (tr->type_name == NULL) {
                snprintf(got, sizeof got, "(null)");
            } else {
                (void)copy_printable(got, sizeof got, tr->type_name, true);
            }
            say(why, cap, "%s (ggml %s, commit %s): type %d has traits {%s, %lld elements, %zu "
                "bytes} where ggufsafe's registry has {%s, %u, %u}: a ggml_type_traits layout "
                "ggufsafe cannot vouch for", g->path, g->version, g->commit, (int)t, got,
                (long long)tr->blck_size, tr->type_size, usable ? row->name : "removed",
                want_elems, want_bytes);
            return GSI_GGML_UNVOUCHED;
        }
    }
    if (g->ggml_get_type_traits(GSI_GGML_TYPE_Q4_0)->to_float != g->dequantize_row_q4_0) {
        say(why, cap, "%s (ggml %s, commit %s): q4_0's to_float is not dequantize_row_q4_0: a "
            "ggml_type_traits layout ggufsafe cannot vouch for", g->path, g->version, g->commit);
        return GSI_GGML_UNVOUCHED;
    }
    return GSI_GGML_LOADED;
}

#define RESOLVE(field)                                                                 \
    do {                                                                               \
        if (gsi_ggml_resolve(g, &g->field, sizeof g->field, #field, why, cap) != 0) {  \
            return GSI_GGML_MISSING_SYMBOL;                                            \
        }                                                                              \
    } while (0)

static gsi_ggml_status open_checked(gsi_ggml *g, char *why, size_t cap)
{
    if (access(g->path, R_OK) != 0) {
        say(why, cap, "%s: no readable ggml library there", g->path);
        return GSI_GGML_NOT_FOUND;
    }
    g->handle = dlopen(g->path, RTLD_NOW | RTLD_LOCAL);
    if (g->handle == NULL) {
        const char *e = dlerror();
        say(why, cap, "%s: dlopen failed: %s", g->path, e != NULL ? e : "(no reason given)");
        return GSI_GGML_DLOPEN_FAILED;
    }
    RESOLVE(ggml_version);
    RESOLVE(ggml_commit);
    RESOLVE(ggml_log_set);
    RESOLVE(ggml_get_type_traits);
    RESOLVE(dequantize_row_q4_0);
    RESOLVE(dequantize_row_q8_K);
    const char *v = g->ggml_version();
    const char *c = g->ggml_commit();
    if (!copy_printable(g->version, sizeof g->version, v, false)) {
        say(why, cap, "%s: ggml_version() is not a printable version string: a ggml whose "
            "ggml_type_traits layout ggufsafe cannot vouch for", g->path);
        return GSI_GGML_UNVOUCHED;
    }
    if (!copy_printable(g->commit, sizeof g->commit, c, false)) {
        say(why, cap, "%s (ggml %s): ggml_commit() is not a printable commit: a ggml whose "
            "ggml_type_traits layout ggufsafe cannot vouch for", g->path, g->version);
        return GSI_GGML_UNVOUCHED;
    }
    if (!version_vouched(g->version)) {
        say(why, cap, "%s (ggml %s, commit %s): ggufsafe knows the ggml_type_traits layout of "
            "ggml 0.%d and later 0.x releases only", g->path, g->version, g->commit,
            GSI_GGML_MIN_MINOR);
        return GSI_GGML_UNVOUCHED;
    }
    return check_layout(g, why, cap);
}

gsi_ggml_status gsi_ggml_open(gsi_ggml *g, const char *path, char *why, size_t cap)
{
    memset(g, 0, sizeof *g);
    say(why, cap, "%s", "");
    if (path == NULL || path[0] == '\0') {
        say(why, cap, "no ggml library named");
        return GSI_GGML_NOT_FOUND;
    }
    const size_t n = strlen(path);
    if (n >= sizeof g->path) {
        say(why, cap, "ggml library path longer than %zu bytes", sizeof g->path - 1);
        return GSI_GGML_NOT_FOUND;
    }
    memcpy(g->path, path, n + 1);
    const gsi_ggml_status st = open_checked(g, why, cap);
    if (st != GSI_GGML_LOADED) {
        gsi_ggml_close(g);
    }
    return st;
}

void gsi_ggml_close(gsi_ggml *g)
{
    if (g->handle != NULL) {
        dlclose(g->handle);
    }
    char path[sizeof g->path];
    memcpy(path, g->path, sizeof path);
    memset(g, 0, sizeof *g);
    memcpy(g->path, path, sizeof path);
}

gsi_ggml_to_float_fn gsi_ggml_decoder(const gsi_ggml *g, int32_t type)
{
    if (g->handle == NULL || type < 0 || type >= GS_TYPE_COUNT) {
        return NULL;
    }
    if (type == GSI_GGML_TYPE_Q8_K) {
        return g->dequantize_row_q8_K;
    }
    return g->ggml_get_type_traits((int)type)->to_float;
}

/* True when [p, p + n) lies in the loaded image of the object that holds `anchor` (ggml's own
 * function): dladdr reads the process's list of mappings, never the bytes at p. */
static bool in_image(const void *p, size_t n, const void *anchor)
{
    Dl_info a, b, c;
    if (p == NULL || dladdr(anchor, &a) == 0 || dladdr(p, &b) == 0 || b.dli_fbase != a.dli_fbase) {
        return false;
    }
    const char *last = (const char *)p + (n > 0 ? n - 1 : 0);
    return dladdr(last, &c) != 0 && c.dli_fbase == a.dli_fbase;
}

int gsi_ggml_type(const gsi_ggml *g, int32_t type, char name[64], uint32_t *block_elems,
                  uint32_t *block_bytes, gsi_ggml_to_float_fn *to_float, char *why, size_t cap)
{
    if (g->handle == NULL || type < 0) {
        say(why, cap, "type %d: no ggml library loaded", (int)type);
        return -1;
    }
    /* ggml indexes its table with the id unchecked: past its last type the entry is whatever
     * follows the table. Only an entry, name and to_float inside ggml's own image are read. */
    void *anchor;
    memcpy(&anchor, &g->ggml_get_type_traits, sizeof anchor);
    const gsi_ggml_traits *tr = g->ggml_get_type_traits((int)type);
    void *fn_addr = NULL;
    if (tr != NULL && in_image(tr, sizeof *tr, anchor) && tr->to_float != NULL) {
        memcpy(&fn_addr, &tr->to_float, sizeof fn_addr);
    }
    if (tr == NULL || !in_image(tr, sizeof *tr, anchor) ||
        !in_image(tr->type_name, 64, anchor) || tr->blck_size <= 0 ||
        tr->blck_size > (int64_t)UINT32_MAX || tr->type_size == 0 ||
        tr->type_size > (size_t)UINT32_MAX ||
        (tr->to_float != NULL && !in_image(fn_addr, 1, anchor))) {
        say(why, cap, "type %d: %s (ggml %s) has no live type with this id", (int)type, g->path,
            g->version);
        return -1;
    }
    if (!copy_printable(name, 64, tr->type_name, true)) {
        say(why, cap, "type %d: %s (ggml %s) gives it no printable name of at most 63 bytes",
            (int)type, g->path, g->version);
        return -1;
    }
    *block_elems = (uint32_t)tr->blck_size;
    *block_bytes = (uint32_t)tr->type_size;
    *to_float = tr->to_float;
    return 0;
}

static void quiet(int level, const char *text, void *user)
{
    (void)level;
    (void)text;
    (void)user;
}

void gsi_ggml_quiet_log(const gsi_ggml *g)
{
    g->ggml_log_set(quiet, NULL);
}
