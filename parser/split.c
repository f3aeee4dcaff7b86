/* Split sets (llama.cpp gguf-split): <prefix>-00001-of-00003.gguf, -00002-of-, -00003-of-. Each
 * part is a complete GGUF; the set is consistent when split.no, split.count and
 * split.tensors.count agree with the names and with each other and no tensor is in two parts. */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "file_internal.h"
#include "options.h"

#define MAX_PARTS GS_SPLIT_MAX_PARTS

typedef struct tensor_ref {
    uint32_t part;
    uint32_t index;
} tensor_ref;

struct gs_split {
    gsi_mem mem;       /* the set's own tables; charged to budget too */
    gsi_budget budget; /* max_split_metadata_memory: every part's arena and the set's */
    gs_file **parts;
    size_t n_parts;
    uint64_t n_tensors;
    tensor_ref *refs;
    gsi_name_index index;
};

static const uint8_t *ref_name_at(const void *ctx, uint32_t i, uint64_t *len)
{
    const gs_split *s = ctx;
    const gs_file *f = s->parts[s->refs[i].part];
    const gsi_tensor *t = &f->tensors[s->refs[i].index];
    *len = t->name_len;
    return f->base + t->name_off;
}

void gs_split_close(gs_split *split)
{
    if (split == NULL) {
        return;
    }
    for (size_t i = 0; i < split->n_parts; i++) {
        gs_close(split->parts[i]);
    }
    gsi_mem_free(&split->mem, split->parts, split->n_parts * sizeof(gs_file *));
    gsi_mem_free(&split->mem, split->refs, (size_t)split->n_tensors * sizeof(tensor_ref));
    gsi_index_free(&split->index, &split->mem);
    gsi_mem mem = split->mem;
    mem.shared = NULL; /* the budget lives in the split freed here */
    gsi_mem_free(&mem, split, sizeof *split);
}

size_t gs_split_part_count(const gs_split *split)
{
    return split != NULL ? split->n_parts : 0;
}

const gs_file *gs_split_part(const gs_split *split, size_t i)
{
    if (split == NULL || i >= split->n_parts) {
        return NULL;
    }
    return split->parts[i];
}

uint64_t gs_split_tensor_count(const gs_split *split)
{
    return split != NULL ? split->n_tensors : 0;
}

gs_status gs_split_find_tensor_n(const gs_split *split, const char *name, size_t name_len,
                                 size_t *part, size_t *index)
{
    if (split == NULL || (name == NULL && name_len > 0) || part == NULL || index == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    uint32_t rec;
    gsi_name_source src = {split, ref_name_at};
    if (!gsi_index_find(&split->index, &src, (const uint8_t *)name, name_len, &rec)) {
        return GS_E_NOT_FOUND;
    }
    *part = split->refs[rec].part;
    *index = split->refs[rec].index;
    return GS_OK;
}

gs_status gs_split_find_tensor(const gs_split *split, const char *name, size_t *part,
                               size_t *index)
{
    if (name == NULL) {
        return GS_E_INVALID_ARGUMENT;
    }
    return gs_split_find_tensor_n(split, name, strlen(name), part, index);
}

/* Reads one split key of part `no` as a non-negative integer. */
static gs_status split_key(const gs_file *f, size_t no, const char *key, uint64_t *value,
                           uint64_t *value_offset, gs_error *err)
{
    size_t idx;
    if (gs_kv_find(f, key, &idx) != GS_OK) {
        return gsi_fail(err, GS_E_SPLIT_KEY_MISSING, 0, GS_CONTEXT_KEY, (const uint8_t *)key,
                        strlen(key), "part %zu has no %s", no + 1, key);
    }
    gs_kv_info info;
    (void)gs_kv_info_at(f, idx, &info);
    *value_offset = info.value_offset;
    if (gs_kv_get_unsigned(f, idx, value) != GS_OK) {
        return gsi_fail(err, GS_E_SPLIT_KEY_TYPE, info.value_offset, GS_CONTEXT_KEY,
                        (const uint8_t *)key, strlen(key), "part %zu: type %s", no + 1,
                        gs_value_type_name(info.type));
    }
    return GS_OK;
}

static gs_status check_part(gs_split *s, size_t no, uint64_t *tensors_total, gs_error *err)
{
    const gs_file *f = s->parts[no];
    uint64_t split_no = 0, split_count = 0, split_tensors = 0, at_no = 0, at_count = 0,
             at_tensors = 0;
    gs_status st = split_key(f, no, "split.no", &split_no, &at_no, err);
    if (st == GS_OK) {
        st = split_key(f, no, "split.count", &split_count, &at_count, err);
    }
    if (st == GS_OK) {
        st = split_key(f, no, "split.tensors.count", &split_tensors, &at_tensors, err);
    }
    if (st != GS_OK) {
        return st;
    }
    if (split_no != no) {
        return gsi_fail(err, GS_E_SPLIT_NUMBER_MISMATCH, at_no, GS_CONTEXT_KEY,
                        (const uint8_t *)"split.no", 8, "part %zu says split.no = %llu", no + 1,
                        (unsigned long long)split_no);
    }
    if (split_count != s->n_parts) {
        return gsi_fail(err, GS_E_SPLIT_COUNT_MISMATCH, at_count, GS_CONTEXT_KEY,
                        (const uint8_t *)"split.count", 11, "part %zu says %llu parts, set has %zu",
                        no + 1, (unsigned long long)split_count, s->n_parts);
    }
    if (no == 0) {
        *tensors_total = split_tensors;
    } else if (split_tensors != *tensors_total) {
        return gsi_fail(err, GS_E_SPLIT_TENSOR_COUNT_MISMATCH, at_tensors, GS_CONTEXT_KEY,
                        (const uint8_t *)"split.tensors.count", 19,
                        "part %zu says %llu, part 1 says %llu", no + 1,
                        (unsigned long long)split_tensors, (unsigned long long)*tensors_total);
    }
    return GS_OK;
}

/* Once every part is open and checked (check_part): the parts' tensors against
 * split.tensors.count of part 1 (declared), and the set-wide tensor index. */
static gs_status check_set(gs_split *s, uint64_t declared, gs_error *err)
{
    uint64_t total = 0;
    for (size_t i = 0; i < s->n_parts; i++) {
        total += gs_tensor_count(s->parts[i]); /* each part's count <= 2^31, parts <= 99999 */
    }
    if (total != declared) {
        size_t idx = 0;
        (void)gs_kv_find(s->parts[0], "split.tensors.count", &idx);
        gs_kv_info info;
        (void)gs_kv_info_at(s->parts[0], idx, &info);
        return gsi_fail(err, GS_E_SPLIT_TENSOR_COUNT_MISMATCH, info.value_offset, GS_CONTEXT_KEY,
                        (const uint8_t *)"split.tensors.count", 19,
                        "parts hold %llu tensors, split.tensors.count is %llu",
                        (unsigned long long)total, (unsigned long long)declared);
    }
    if (total > UINT32_MAX - 1) {
        return gsi_fail(err, GS_E_LIMIT_TENSOR_COUNT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "%llu tensors in the set", (unsigned long long)total);
    }
    gs_status st = gsi_mem_calloc(&s->mem, (size_t)total, sizeof(tensor_ref), (void **)&s->refs);
    if (st != GS_OK) {
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "set tensor table");
    }
    s->n_tensors = total;
    gsi_name_source src = {s, ref_name_at};
    uint32_t g = 0;
    for (size_t i = 0; i < s->n_parts; i++) {
        const gs_file *f = s->parts[i];
        for (size_t j = 0; j < f->n_tensors; j++, g++) {
            s->refs[g] = (tensor_ref){(uint32_t)i, (uint32_t)j};
            const gsi_tensor *t = &f->tensors[j];
            bool dup;
            uint32_t earlier;
            st = gsi_index_insert(&s->index, &s->mem, &src, f->base + t->name_off, t->name_len,
                                  g, &dup, &earlier);
            if (st != GS_OK) {
                return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "set tensor index");
            }
            if (dup) {
                return gsi_fail(err, GS_E_SPLIT_DUPLICATE_TENSOR, t->info_off, GS_CONTEXT_TENSOR,
                                f->base + t->name_off, t->name_len, "in part %zu and part %u",
                                i + 1, s->refs[earlier].part + 1);
            }
        }
    }
    return GS_OK;
}

static gs_status new_split(const gs_options *o, size_t n_parts, gs_split **out, gs_error *err)
{
    gsi_mem mem;
    gsi_mem_init(&mem, &o->allocator, o->limits.max_metadata_memory);
    gs_split *s;
    gs_status st = gsi_mem_calloc(&mem, 1, sizeof *s, (void **)&s);
    if (st != GS_OK) {
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "split object");
    }
    s->mem = mem;
    uint64_t limit = o->max_split_metadata_memory != 0 ? o->max_split_metadata_memory
                                                       : o->limits.max_metadata_memory;
    s->budget = (gsi_budget){mem.in_use, limit, false};
    s->mem.shared = &s->budget;
    gsi_index_init(&s->index);
    st = gsi_mem_calloc(&s->mem, n_parts, sizeof(gs_file *), (void **)&s->parts);
    if (st != GS_OK) {
        gsi_mem_free(&mem, s, sizeof *s);
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "part table");
    }
    s->n_parts = n_parts;
    *out = s;
    return GS_OK;
}

/* Prefixes a part's own error with the part it came from. */
static gs_status part_failure(gs_error *err, gs_status st, size_t no, const char *name)
{
    if (err != NULL) {
        char detail[GS_ERROR_TEXT_MAX * 3]; /* roomy, then cut to fit */
        snprintf(detail, sizeof detail, "part %zu%s%.*s: %s", no + 1, name ? " " : "",
                 GS_ERROR_TEXT_MAX, name ? name : "", err->detail);
        memcpy(err->detail, detail, GS_ERROR_TEXT_MAX - 1);
        err->detail[GS_ERROR_TEXT_MAX - 1] = '\0';
    }
    return st;
}

/* The end of an open once every part is read (st says how that went): the set's own checks,
 * then *out, or the set closed on any failure. */
static gs_status finish_set(gs_split *s, gs_status st, uint64_t declared, gs_split **out,
                            gs_error *err)
{
    if (st == GS_OK) {
        st = check_set(s, declared, err);
    }
    if (st != GS_OK) {
        gs_split_close(s);
        return st;
    }
    *out = s;
    return GS_OK;
}

gs_status gs_open_split_memory(const void *const *data, const size_t *sizes, size_t n_parts,
                               const gs_options *opts, gs_split **out, gs_error *err)
{
    gsi_error_clear(err);
    if (out == NULL) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0, "out is NULL");
    }
    *out = NULL;
    gs_options o;
    if (data == NULL || sizes == NULL || n_parts == 0 || n_parts > MAX_PARTS ||
        gsi_options_resolve(opts, &o) != GS_OK) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0, "arguments");
    }
    gs_split *s;
    gs_status st = new_split(&o, n_parts, &s, err);
    if (st != GS_OK) {
        return st;
    }
    uint64_t declared = 0;
    for (size_t i = 0; i < n_parts && st == GS_OK; i++) {
        st = gsi_open_buffer(data[i], sizes[i], &o, &s->budget, &s->parts[i], err);
        if (st != GS_OK) {
            st = part_failure(err, st, i, NULL);
        } else {
            st = check_part(s, i, &declared, err);
        }
    }
    return finish_set(s, st, declared, out, err);
}

bool gs_split_name_parse(const char *path, size_t len, gs_split_name *out)
{
    if (path == NULL || out == NULL || len < GS_SPLIT_NAME_SUFFIX_LEN) {
        return false;
    }
    const char *s = path + len - GS_SPLIT_NAME_SUFFIX_LEN;
    if (s[0] != '-' || memcmp(s + 6, "-of-", 4) != 0 || memcmp(s + 15, ".gguf", 5) != 0) {
        return false;
    }
    uint32_t no = 0, total = 0;
    for (int i = 0; i < 5; i++) {
        char a = s[1 + i], b = s[10 + i];
        if (a < '0' || a > '9' || b < '0' || b > '9') {
            return false;
        }
        no = no * 10 + (uint32_t)(a - '0');
        total = total * 10 + (uint32_t)(b - '0');
    }
    if (no == 0 || total == 0) {
        return false;
    }
    *out = (gs_split_name){len - GS_SPLIT_NAME_SUFFIX_LEN, no, total};
    return true;
}

gs_status gs_split_name_format(const char *path, const gs_split_name *name, uint32_t part,
                               char *buf, size_t cap)
{
    if (path == NULL || name == NULL || buf == NULL || part == 0 || part > GS_SPLIT_MAX_PARTS ||
        name->count == 0 || name->count > GS_SPLIT_MAX_PARTS) {
        return GS_E_INVALID_ARGUMENT;
    }
    if (name->prefix_len >= cap || cap - name->prefix_len <= GS_SPLIT_NAME_SUFFIX_LEN) {
        if (cap > 0) {
            buf[0] = '\0';
        }
        return GS_E_OUT_OF_RANGE;
    }
    memcpy(buf, path, name->prefix_len);
    /* both numbers have five digits: exactly the suffix and its NUL */
    snprintf(buf + name->prefix_len, GS_SPLIT_NAME_SUFFIX_LEN + 1, "-%05u-of-%05u.gguf",
             (unsigned)part, (unsigned)name->count);
    return GS_OK;
}

/* The parts opened so far, by device and inode: a part that is one of them (a symlink or hard
 * link to it) is refused before it is parsed. The keys are looked up with the keyed name index,
 * as names are, so that no set of numbers can make it slow. */
typedef struct part_set {
    gs_split *s;
    uint8_t (*keys)[GSI_FILE_KEY_BYTES]; /* per part opened */
    size_t cap_keys;
    gsi_name_index index;
    uint32_t part;    /* the part being opened (0-based) */
    const char *path; /* its path */
} part_set;

static const uint8_t *part_key_at(const void *ctx, uint32_t i, uint64_t *len)
{
    const part_set *ps = ctx;
    *len = GSI_FILE_KEY_BYTES;
    return ps->keys[i];
}

/* gsi_admission.check: called with the part's identity before it is parsed. */
static gs_status admit_part(void *ctx, const gs_identity *id, gs_error *err)
{
    part_set *ps = ctx;
    gs_status st = gsi_mem_reserve(&ps->s->mem, (void **)&ps->keys, &ps->cap_keys, ps->part + 1,
                                   GSI_FILE_KEY_BYTES);
    if (st == GS_OK) {
        gsi_file_key(id, ps->keys[ps->part]);
        gsi_name_source src = {ps, part_key_at};
        bool dup;
        uint32_t earlier;
        st = gsi_index_insert(&ps->index, &ps->s->mem, &src, ps->keys[ps->part],
                              GSI_FILE_KEY_BYTES, ps->part, &dup, &earlier);
        if (st == GS_OK && dup) {
            return gsi_fail(err, GS_E_SPLIT_SAME_FILE, 0, GS_CONTEXT_PART,
                            (const uint8_t *)ps->path, strlen(ps->path),
                            "part %u is part %u again (device %llu, inode %llu)", ps->part + 1,
                            earlier + 1, (unsigned long long)id->device,
                            (unsigned long long)id->inode);
        }
    }
    if (st != GS_OK) {
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "the set's table of files");
    }
    return GS_OK;
}

/* A part that could not be opened: missing (a verdict on the set), or a failure of the
 * environment (descriptors, permissions, a FIFO or device: the status stays its own), with the
 * part named in the context either way. */
static gs_status open_failure(gs_error *err, gs_status st, unsigned part, unsigned count,
                              const char *path)
{
    char why[GS_ERROR_TEXT_MAX] = "cannot open";
    if (err != NULL) {
        memcpy(why, err->detail, sizeof why);
    }
    if (st == GS_E_NO_SUCH_FILE) {
        st = GS_E_SPLIT_PART_MISSING;
    }
    return gsi_fail(err, st, 0, GS_CONTEXT_PART, (const uint8_t *)path, strlen(path),
                    "part %u of %u: %s", part, count, why);
}

gs_status gs_open_split(const char *first_part_path, const gs_options *opts, gs_split **out,
                        gs_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    gs_options o;
    gs_status st = gsi_open_path_args(first_part_path, out != NULL, opts, &o, err);
    if (st != GS_OK) {
        return st;
    }
    gs_split_name name;
    if (!gs_split_name_parse(first_part_path, strlen(first_part_path), &name) ||
        name.part != 1) {
        return gsi_fail(err, GS_E_SPLIT_BAD_NAME, 0, GS_CONTEXT_PART,
                        (const uint8_t *)first_part_path, strlen(first_part_path),
                        "expected <prefix>-00001-of-NNNNN.gguf");
    }
    const unsigned count = name.count;
    gs_split *s;
    st = new_split(&o, count, &s, err);
    if (st != GS_OK) {
        return st;
    }
    size_t path_cap = name.prefix_len + GS_SPLIT_NAME_SUFFIX_LEN + 1;
    char *path;
    st = gsi_mem_alloc(&s->mem, path_cap, (void **)&path);
    if (st != GS_OK) {
        gs_split_close(s);
        return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "part path");
    }
    part_set ps = {.s = s, .path = path};
    gsi_index_init(&ps.index);
    const gsi_admission admit = {&s->budget, admit_part, &ps};
    uint64_t declared = 0;
    for (unsigned i = 0; i < count && st == GS_OK; i++) {
        (void)gs_split_name_format(first_part_path, &name, i + 1, path, path_cap);
        ps.part = i;
        st = gsi_open_path(path, &o, &admit, &s->parts[i], err);
        if (st == GS_E_SPLIT_SAME_FILE) {
            break; /* reported by admit_part */
        }
        if (st == GS_E_LIMIT_MEMORY && s->budget.exceeded) {
            st = gsi_fail(err, st, err != NULL ? err->offset : 0, GS_CONTEXT_PART,
                          (const uint8_t *)path, strlen(path),
                          "part %u of %u: the set's metadata needs more than %llu bytes "
                          "(max_split_metadata_memory)",
                          i + 1, count, (unsigned long long)s->budget.limit);
        } else if ((int)st > 0 && (int)st < 20) {
            st = open_failure(err, st, i + 1, count, path);
        } else if (st != GS_OK) {
            st = part_failure(err, st, i, path);
        } else {
            /* checked now, so that a wrong part stops the open before the next is read */
            st = check_part(s, i, &declared, err);
        }
    }
    gsi_index_free(&ps.index, &s->mem);
    gsi_mem_free(&s->mem, ps.keys, ps.cap_keys * GSI_FILE_KEY_BYTES);
    gsi_mem_free(&s->mem, path, path_cap);
    return finish_set(s, st, declared, out, err);
}
