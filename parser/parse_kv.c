#include "checked_math.h"
#include "key_grammar.h"
#include "parse.h"
#include "utf8.h"

unsigned gsi_value_size(uint32_t type)
{
    switch (type) {
    case GS_VALUE_U8: case GS_VALUE_I8: case GS_VALUE_BOOL: return 1;
    case GS_VALUE_U16: case GS_VALUE_I16: return 2;
    case GS_VALUE_U32: case GS_VALUE_I32: case GS_VALUE_F32: return 4;
    case GS_VALUE_U64: case GS_VALUE_I64: case GS_VALUE_F64: return 8;
    default: return 0;
    }
}

/* The record being parsed, as the parse knows it: where its key is (the context of every failure
 * inside the record) and an array's count, which the complete record no longer keeps. */
typedef struct kv_parse {
    gsi_kv *kv;
    uint64_t key_off, key_len;
    uint64_t count;
    bool string_array; /* its end is in its header, not in kv->tail */
} kv_parse;

gs_status gsi_read_string(gsi_parser *p, const uint8_t **data, uint64_t *len)
{
    gsi_cursor *c = &p->cur;
    uint64_t n;
    if (!gsi_cur_u64(c, &n)) {
        return GS_E_TRUNCATED;
    }
    if (n > gsi_cur_remaining(c)) {
        c->pos -= 8;
        *len = n;
        return GS_E_STRING_EXCEEDS_FILE;
    }
    if (n > p->limits->max_string_length) {
        c->pos -= 8;
        *len = n;
        return GS_E_LIMIT_STRING_LENGTH;
    }
    if (!gsi_cur_has(c, n)) {
        c->pos -= 8;
        *len = n;
        return GS_E_TRUNCATED; /* only when a refill failed: the open reports why */
    }
    *data = gsi_cur_ptr(c);
    *len = n;
    c->pos += n;
    return GS_OK;
}

gs_status gsi_read_record_string(gsi_parser *p, const char *field, const char *record,
                                 uint64_t index, const uint8_t **data, uint64_t *len)
{
    const uint64_t at = p->cur.pos;
    gs_status st = gsi_read_string(p, data, len);
    if (st == GS_E_TRUNCATED) {
        return gsi_fail(p->err, st, at, GS_CONTEXT_NONE, NULL, 0, "%s length of %s %llu", field,
                        record, (unsigned long long)index);
    }
    if (st != GS_OK) {
        return gsi_fail(p->err, st, at, GS_CONTEXT_NONE, NULL, 0,
                        "%s of %s %llu declares %llu bytes", field, record,
                        (unsigned long long)index, (unsigned long long)*len);
    }
    return GS_OK;
}

/* Reports a failed gsi_read_string of a value or array element belonging to key k. */
static gs_status string_failure(gsi_parser *p, gs_status st, uint64_t at, const kv_parse *k,
                                uint64_t declared)
{
    const uint8_t *key = p->file->base + k->key_off;
    if (st == GS_E_TRUNCATED) {
        return gsi_fail(p->err, st, at, GS_CONTEXT_KEY, key, k->key_len, "string length");
    }
    if (st == GS_E_STRING_EXCEEDS_FILE) {
        return gsi_fail(p->err, st, at, GS_CONTEXT_KEY, key, k->key_len,
                        "string of %llu bytes, %llu remain", (unsigned long long)declared,
                        (unsigned long long)(p->cur.size - at - 8));
    }
    return gsi_fail(p->err, st, at, GS_CONTEXT_KEY, key, k->key_len,
                    "string of %llu bytes, limit %llu", (unsigned long long)declared,
                    (unsigned long long)p->limits->max_string_length);
}

static gs_status fail_key(gsi_parser *p, gs_status st, uint64_t at, const kv_parse *k,
                          const char *what)
{
    return gsi_fail(p->err, st, at, GS_CONTEXT_KEY, p->file->base + k->key_off, k->key_len,
                    "%s", what);
}

/* One string value (scalar, or one array element): bounds, limit, and UTF-8 in strict. */
static gs_status parse_string_value(gsi_parser *p, const kv_parse *k)
{
    uint64_t at = p->cur.pos;
    const uint8_t *s;
    uint64_t n;
    gs_status st = gsi_read_string(p, &s, &n);
    if (st != GS_OK) {
        return string_failure(p, st, at, k, n);
    }
    if (p->strict && !gsi_utf8_valid(s, (size_t)n)) {
        return gsi_problem(p, GS_E_INVALID_UTF8, at, GS_CONTEXT_KEY, p->file->base + k->key_off,
                           k->key_len, "string value");
    }
    return GS_OK;
}

/* UTF-8 of the elements of a string array, checked a run at a time: the bytes from one
 * element's length field to the end of a later element, as one range. A length below 128 is
 * eight ASCII bytes, and a multi-byte character contains no ASCII byte, so such a range is valid
 * UTF-8 exactly when each of its strings is (a character cannot straddle a length field, and a
 * string cut inside a character, or starting with a continuation byte, is invalid in the range
 * too). A vocabulary is thus checked in a few long calls instead of one per token; a string of
 * 128 bytes or more ends the run and is checked alone. */
typedef struct utf8_run {
    uint64_t start; /* the length field of its first element */
    uint64_t first; /* the index of that element */
} utf8_run;

/* Reports the first invalid element of the invalid range [start, end) of run r. */
static gs_status report_run(gsi_parser *p, const kv_parse *k, const utf8_run *r, uint64_t end,
                            bool *check_utf8)
{
    const uint8_t *b = p->cur.base;
    uint64_t at = r->start;
    for (uint64_t i = r->first; at < end; i++) {
        uint64_t n = gsi_load_u64le(b + at); /* every element of the run was read: in memory */
        if (!gsi_utf8_valid(b + at + 8, (size_t)n)) {
            *check_utf8 = false; /* one finding per key */
            return gsi_problem(p, GS_E_INVALID_UTF8, at, GS_CONTEXT_KEY, b + k->key_off,
                               k->key_len, "element %llu", (unsigned long long)i);
        }
        at += 8 + n;
    }
    /* unreachable while the argument above holds: say so rather than pass the file */
    return gsi_fail(p->err, GS_E_INTERNAL, r->start, GS_CONTEXT_KEY, b + k->key_off,
                    k->key_len, "UTF-8 run");
}

/* Checks the run up to end (exclusive) and starts the next one at end (element next). */
static gs_status close_run(gsi_parser *p, const kv_parse *k, utf8_run *r, uint64_t end,
                           uint64_t next, bool *check_utf8)
{
    gs_status st = GS_OK;
    if (*check_utf8 && end > r->start &&
        !gsi_utf8_valid(p->cur.base + r->start, (size_t)(end - r->start))) {
        st = report_run(p, k, r, end, check_utf8);
    }
    *r = (utf8_run){end, next};
    return st;
}

/* A failure inside the array: the elements before it are checked first, so that the first
 * problem is reported as one element at a time would (an invalid element, then the failure). */
static gs_status fail_in_array(gsi_parser *p, const kv_parse *k, utf8_run *r, uint64_t at,
                               uint64_t i, bool *check_utf8, gs_status st, uint64_t declared)
{
    gs_status run = close_run(p, k, r, at, i, check_utf8);
    return run != GS_OK ? run : string_failure(p, st, at, k, declared);
}

/* The elements of a string array: the hot loop for tokenizer vocabularies. */
static gs_status parse_string_array(gsi_parser *p, kv_parse *k)
{
    gs_file *f = p->file;
    size_t need;
    /* the header (count, end), then one offset per element */
    /* Detect and prevent integer overflow */
    if (gsi_checked_add_size(f->n_strings, (size_t)k->count, &need) ||
        gsi_checked_add_size(need, GSI_STRING_ARRAY_HEADER, &need)) {
        return gsi_fail(p->err, GS_E_LIMIT_MEMORY, k->kv->offset, GS_CONTEXT_KEY,
                        f->base + k->key_off, k->key_len, "string table");
    }
    gs_status st = gsi_mem_reserve(&f->mem, (void **)&f->strings, &f->cap_strings, need,
                                   sizeof(uint64_t));
    if (st != GS_OK) {
        return gsi_fail(p->err, st, k->kv->offset, GS_CONTEXT_KEY, f->base + k->key_off,
                        k->key_len, "string table of %zu entries", need);
    }
    k->kv->tail = f->n_strings;
    f->strings[f->n_strings] = k->count;
    uint64_t *out = f->strings + f->n_strings + GSI_STRING_ARRAY_HEADER;
    gsi_cursor *c = &p->cur;
    const uint64_t max_len = p->limits->max_string_length;
    bool check_utf8 = p->strict; /* off after the first invalid element: one finding per key */
    utf8_run run = {c->pos, 0};
    for (uint64_t i = 0; i < k->count; i++) {
        uint64_t at = c->pos;
        if (!gsi_cur_has(c, 8)) {
            return fail_in_array(p, k, &run, at, i, &check_utf8, GS_E_TRUNCATED, 0);
        }
        uint64_t n = gsi_load_u64le(c->base + at);
        uint64_t avail = c->size - at - 8;
        if (n > avail) {
            return fail_in_array(p, k, &run, at, i, &check_utf8, GS_E_STRING_EXCEEDS_FILE, n);
        }
        if (n > max_len) {
            return fail_in_array(p, k, &run, at, i, &check_utf8, GS_E_LIMIT_STRING_LENGTH, n);
        }
        if (check_utf8 && !gsi_cur_has(c, 8 + n)) {
            /* a refill failed */
            return fail_in_array(p, k, &run, at, i, &check_utf8, GS_E_TRUNCATED, 0);
        }
        if (check_utf8 && n >= 0x80) {
            /* its length field is not ASCII: the run stops before it, the string goes alone */
            st = close_run(p, k, &run, at, i, &check_utf8);
            if (st == GS_OK && check_utf8 && !gsi_utf8_valid(c->base + at + 8, (size_t)n)) {
                check_utf8 = false;
                st = gsi_problem(p, GS_E_INVALID_UTF8, at, GS_CONTEXT_KEY,
                                 f->base + k->key_off, k->key_len, "element %llu",
                                 (unsigned long long)i);
            }
            if (st != GS_OK) {
                return st;
            }
            run = (utf8_run){at + 8 + n, i + 1};
        }
        out[i] = at;
        c->pos = at + 8 + n;
    }
    st = close_run(p, k, &run, c->pos, k->count, &check_utf8);
    if (st != GS_OK) {
        return st;
    }
    f->strings[f->n_strings + 1] = c->pos; /* the record's end */
    f->n_strings = need;
    return GS_OK;
}

/* The value of k at the cursor (scalar or array), for the already-read type. */
static gs_status parse_value(gsi_parser *p, kv_parse *k, uint64_t type_at)
{
    gsi_kv *kv = k->kv;
    gsi_cursor *c = &p->cur;
    gs_file *f = p->file;
    uint32_t type = kv->type;

    if (type == GS_VALUE_ARRAY) {
        uint64_t elem_at = c->pos;
        uint32_t elem;
        if (!gsi_cur_u32(c, &elem)) {
            return fail_key(p, GS_E_TRUNCATED, elem_at, k, "array element type");
        }
        if (elem == GS_VALUE_ARRAY) {
            return fail_key(p, GS_E_NESTED_ARRAY, elem_at, k, "array element type is array");
        }
        if (elem > GS_VALUE_F64) {
            return gsi_fail(p->err, GS_E_BAD_VALUE_TYPE, elem_at, GS_CONTEXT_KEY,
                            f->base + k->key_off, k->key_len, "array element type %u", elem);
        }
        kv->elem_type = (uint8_t)elem;
        uint64_t count_at = c->pos;
        uint64_t count;
        if (!gsi_cur_u64(c, &count)) {
            return fail_key(p, GS_E_TRUNCATED, count_at, k, "array count");
        }
        /* Strings need at least their 8-byte length each. */
        unsigned elem_min = elem == GS_VALUE_STRING ? 8 : gsi_value_size(elem);
        uint64_t min_bytes;
        /* Detect and prevent integer overflow */
        if (gsi_checked_mul_u64(count, elem_min, &min_bytes) || min_bytes > gsi_cur_remaining(c)) {
            return gsi_fail(p->err, GS_E_COUNT_EXCEEDS_FILE, count_at, GS_CONTEXT_KEY,
                            f->base + k->key_off, k->key_len,
                            "%llu elements of %u bytes or more; %llu bytes remain",
                            (unsigned long long)count, elem_min,
                            (unsigned long long)gsi_cur_remaining(c));
        }
        if (count > p->limits->max_array_length) {
            return gsi_fail(p->err, GS_E_LIMIT_ARRAY_LENGTH, count_at, GS_CONTEXT_KEY,
                            f->base + k->key_off, k->key_len, "%llu elements, limit %llu",
                            (unsigned long long)count,
                            (unsigned long long)p->limits->max_array_length);
        }
        k->count = count;
        kv->value_off = c->pos;
        if (elem == GS_VALUE_STRING) {
            k->string_array = true;
            return parse_string_array(p, k);
        }
        if (elem == GS_VALUE_BOOL && p->strict) {
            if (!gsi_cur_has(c, min_bytes)) {
                return fail_key(p, GS_E_TRUNCATED, c->pos, k, "bool array"); /* refill failed */
            }
            const uint8_t *b = gsi_cur_ptr(c);
            for (uint64_t i = 0; i < count; i++) {
                if (b[i] > 1) {
                    gs_status st = gsi_problem(p, GS_E_BAD_BOOL, c->pos + i, GS_CONTEXT_KEY,
                                               f->base + k->key_off, k->key_len,
                                               "element %llu is %u", (unsigned long long)i, b[i]);
                    if (st != GS_OK) {
                        return st;
                    }
                    break; /* one finding per key */
                }
            }
        }
        c->pos += min_bytes;
        return GS_OK;
    }

    if (type > GS_VALUE_F64) {
        return gsi_fail(p->err, GS_E_BAD_VALUE_TYPE, type_at, GS_CONTEXT_KEY,
                        f->base + k->key_off, k->key_len, "value type %u", type);
    }
    kv->elem_type = (uint8_t)type;
    k->count = 1;
    kv->value_off = c->pos;
    if (type == GS_VALUE_STRING) {
        return parse_string_value(p, k);
    }
    unsigned size = gsi_value_size(type);
    if (!gsi_cur_has(c, size)) {
        return fail_key(p, GS_E_TRUNCATED, c->pos, k, "value");
    }
    if (type == GS_VALUE_BOOL && p->strict && *gsi_cur_ptr(c) > 1) {
        gs_status st = gsi_problem(p, GS_E_BAD_BOOL, c->pos, GS_CONTEXT_KEY,
                                   f->base + k->key_off, k->key_len, "value %u",
                                   *gsi_cur_ptr(c));
        if (st != GS_OK) {
            return st;
        }
    }
    c->pos += size;
    return GS_OK;
}

/* Keys hashed ahead of the parse. Once the key index outgrows the cache, the slot of every key
 * is a cache miss (most of an open's time on 160,000 keys), and one record's work is too short
 * to hide it. So the parse looks a few records ahead of itself: it works out where each one
 * ends from bytes already in memory, hashes its key and prefetches its slot, and takes the hash
 * when it reaches the record. Looking ahead reads nothing that is not in memory, allocates
 * nothing and reports nothing: a record it cannot size (a string array, a long key, bytes not
 * read yet, anything the parse will refuse) stops it until the parse has passed that record,
 * and the parse itself checks every record as before. */
#define AHEAD 8u
#define AHEAD_KEY_MAX 256u

typedef struct kv_ahead {
    uint64_t next;       /* start of the next record to look at */
    uint64_t next_index; /* its record number */
    uint64_t pos[AHEAD]; /* the records looked at and not parsed yet: starts and hashes */
    uint32_t hash[AHEAD];
    unsigned head, n;
} kv_ahead;

/* Where the record at `at` ends, if the bytes in memory say so plainly; false otherwise. */
static bool record_end(const gsi_cursor *c, uint64_t at, uint64_t key_len, uint64_t *end)
{
    const uint64_t avail = c->avail;
    uint64_t v = at + 8 + key_len; /* the type: at + 8 + key_len + 4 <= avail, checked */
    const uint32_t type = gsi_load_u32le(c->base + v);
    v += 4;
    uint64_t bytes;
    if (type == GS_VALUE_STRING) {
        if (avail - v < 8) {
            return false;
        }
        bytes = gsi_load_u64le(c->base + v);
        v += 8;
    } else if (type == GS_VALUE_ARRAY) {
        if (avail - v < 12) {
            return false;
        }
        const unsigned size = gsi_value_size(gsi_load_u32le(c->base + v));
        const uint64_t count = gsi_load_u64le(c->base + v + 4);
        v += 12;
        if (size == 0 || count > (avail - v) / size) {
            return false; /* strings, nested arrays, bad types, or not in memory yet */
        }
        bytes = count * size;
    } else {
        bytes = gsi_value_size(type);
        if (bytes == 0) {
            return false;
        }
    }
    if (bytes > avail - v) {
        return false;
    }
    *end = v + bytes;
    return true;
}

/* Looks at records until AHEAD are waiting or one cannot be sized. */
static void look_ahead(gsi_parser *p, kv_ahead *a)
{
    const gsi_cursor *c = &p->cur;
    while (a->n < AHEAD && a->next_index < p->n_kv_declared) {
        const uint64_t at = a->next;
        if (at > c->avail || c->avail - at < 8) {
            return;
        }
        const uint64_t key_len = gsi_load_u64le(c->base + at);
        uint64_t end;
        if (key_len > AHEAD_KEY_MAX || c->avail - at - 8 < key_len + 4 ||
            !record_end(c, at, key_len, &end)) {
            return;
        }
        const unsigned slot = (a->head + a->n) % AHEAD;
        a->pos[slot] = at;
        a->hash[slot] = gsi_index_hash_prefetch(&p->file->kv_index, c->base + at + 8, key_len);
        a->n++;
        a->next = end;
        a->next_index++;
    }
}

/* The hash of the key (key, key_len) of record `index` at `at`: looked at ahead, or now. */
static uint32_t key_hash(gsi_parser *p, kv_ahead *a, uint64_t index, uint64_t at,
                         const uint8_t *key, uint64_t key_len)
{
    if (a->n > 0 && a->pos[a->head] == at) {
        const uint32_t h = a->hash[a->head];
        a->head = (a->head + 1) % AHEAD;
        a->n--;
        return h;
    }
    /* not looked at (or, were the two walks ever to disagree, looked at wrongly): start again
     * after this record */
    a->n = 0;
    a->next_index = index + 1;
    a->next = UINT64_MAX; /* set once the record's end is known */
    return gsi_index_hash_prefetch(&p->file->kv_index, key, key_len);
}

static gs_status parse_one_kv(gsi_parser *p, uint64_t index, kv_ahead *ahead)
{
    gsi_cursor *c = &p->cur;
    gs_file *f = p->file;
    uint64_t at = c->pos;

    const uint8_t *key = NULL;
    uint64_t key_len = 0;
    gs_status st = gsi_read_record_string(p, "key", "key-value pair", index, &key, &key_len);
    if (st != GS_OK) {
        return st;
    }
    /* the index slot's cache line is fetched while the key is checked and the record made */
    const uint32_t hash = key_hash(p, ahead, index, at, key, key_len);
    st = gsi_check_key(key, key_len, p->strict); /* strict adds only GS_E_BAD_KEY */
    if (st == GS_E_BAD_KEY) {
        st = gsi_problem(p, GS_E_BAD_KEY, at, GS_CONTEXT_KEY, key, key_len,
                         "key-value pair %llu%s", (unsigned long long)index,
                         gsi_utf8_valid(key, (size_t)key_len) ? "" : ", not valid UTF-8");
        if (st != GS_OK) {
            return st;
        }
    } else if (st != GS_OK) {
        return gsi_fail(p->err, st, at, GS_CONTEXT_KEY, key, key_len, "key-value pair %llu",
                        (unsigned long long)index);
    }

    gs_status mst = gsi_mem_reserve(&f->mem, (void **)&f->kvs, &f->cap_kv, f->n_kv + 1,
                                    sizeof(gsi_kv));
    if (mst != GS_OK) {
        return gsi_fail(p->err, mst, at, GS_CONTEXT_KEY, key, key_len, "key-value table");
    }
    kv_parse k = {&f->kvs[f->n_kv], at + 8, key_len, 0, false};
    gsi_kv *kv = k.kv;
    /* a scalar's layout until the type is read, so that the key's length reads right */
    *kv = (gsi_kv){.offset = at, .value_off = at + 8 + key_len + 4};

    /* Duplicates by exact length and bytes, through the hash index: linear time overall. */
    bool dup;
    uint32_t earlier;
    gsi_name_source names = gsi_kv_names(f);
    mst = gsi_index_insert_hashed(&f->kv_index, &f->mem, &names, key, key_len, hash,
                                  (uint32_t)f->n_kv, &dup, &earlier);
    if (mst != GS_OK) {
        return gsi_fail(p->err, mst, at, GS_CONTEXT_KEY, key, key_len, "key index");
    }
    if (dup) {
        return gsi_fail(p->err, GS_E_DUPLICATE_KEY, at, GS_CONTEXT_KEY, key, key_len,
                        "first defined at byte %llu", (unsigned long long)f->kvs[earlier].offset);
    }
    /* The record is visible to the index from here on, so count it before parsing the value. */
    f->n_kv++;

    /* From here on reads may refill and move the bytes: the key is found again by offset. */
    uint64_t type_at = c->pos;
    uint32_t type;
    if (!gsi_cur_u32(c, &type)) {
        return fail_key(p, GS_E_TRUNCATED, type_at, &k, "value type");
    }
    if (type > GS_VALUE_F64) {
        return gsi_fail(p->err, GS_E_BAD_VALUE_TYPE, type_at, GS_CONTEXT_KEY,
                        f->base + k.key_off, key_len, "value type %u", type);
    }
    kv->type = (uint8_t)type;
    st = parse_value(p, &k, type_at);
    if (st != GS_OK) {
        return st;
    }
    if (!k.string_array) {
        /* (known here, not read back from kv: a 2-byte load of the two type bytes just stored
         * one at a time stalls on store forwarding) */
        kv->tail = c->pos; /* a string array's end is in its header */
    }
    if (ahead->next == UINT64_MAX) {
        ahead->next = c->pos;
    }
    return GS_OK;
}

gs_status gsi_parse_kvs(gsi_parser *p)
{
    gs_file *f = p->file;
    /* The index at its final size at once, not grown (and every key moved) on the way:
     * n_kv_declared is bounded by the bytes that remain and by max_kv_count
     * (gsi_parse_header), so this follows the file's size, and the slots are touched only as
     * keys arrive. The failure is reported at the count. */
    gs_status mst = gsi_index_reserve(&f->kv_index, &f->mem, (size_t)p->n_kv_declared);
    if (mst != GS_OK) {
        return gsi_fail(p->err, mst, 16, GS_CONTEXT_HEADER, NULL, 0, "key index of %llu keys",
                        (unsigned long long)p->n_kv_declared);
    }
    kv_ahead ahead = {.next = p->cur.pos, .next_index = 0};
    for (uint64_t i = 0; i < p->n_kv_declared; i++) {
        look_ahead(p, &ahead);
        gs_status st = parse_one_kv(p, i, &ahead);
        if (st != GS_OK) {
            return st;
        }
    }
    f->layout.kv_end = p->cur.pos;
    return GS_OK;
}

gs_status gsi_parse_alignment(gsi_parser *p)
{
    static const char key[] = "general.alignment";
    gs_file *f = p->file;
    p->alignment = GSI_DEFAULT_ALIGNMENT;
    uint32_t idx;
    gsi_name_source names = gsi_kv_names(f);
    if (!gsi_index_find(&f->kv_index, &names, (const uint8_t *)key, sizeof key - 1, &idx)) {
        return GS_OK;
    }
    const gsi_kv *kv = &f->kvs[idx];
    uint64_t type_at = gsi_kv_key_off(kv) + gsi_kv_key_len(kv);
    if (kv->type != GS_VALUE_U32) {
        return gsi_fail(p->err, GS_E_ALIGNMENT_TYPE, type_at, GS_CONTEXT_KEY,
                        (const uint8_t *)key, sizeof key - 1, "type %s%s%s",
                        gs_value_type_name((gs_value_type)kv->type),
                        kv->type == GS_VALUE_ARRAY ? " of " : "",
                        kv->type == GS_VALUE_ARRAY ? gs_value_type_name((gs_value_type)kv->elem_type)
                                                   : "");
    }
    uint32_t a = gsi_load_u32le(f->base + kv->value_off);
    bool pow2 = a != 0 && (a & (a - 1)) == 0;
    if (a == 0) {
        return gsi_fail(p->err, GS_E_ALIGNMENT_VALUE, kv->value_off, GS_CONTEXT_KEY,
                        (const uint8_t *)key, sizeof key - 1, "0");
    }
    if (p->strict && (!pow2 || a < 8)) {
        /* diagnostic mode goes on with the value, as lenient would */
        gs_status st = gsi_problem(p, GS_E_ALIGNMENT_VALUE, kv->value_off, GS_CONTEXT_KEY,
                                   (const uint8_t *)key, sizeof key - 1,
                                   "%u (strict: a power of two, 8 or more)", a);
        if (st != GS_OK) {
            return st;
        }
    }
    if (a > p->limits->max_alignment) {
        return gsi_fail(p->err, GS_E_LIMIT_ALIGNMENT, kv->value_off, GS_CONTEXT_KEY,
                        (const uint8_t *)key, sizeof key - 1, "%u, limit %u", a,
                        p->limits->max_alignment);
    }
    p->alignment = a;
    return GS_OK;
}
