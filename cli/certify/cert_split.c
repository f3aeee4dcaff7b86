/* Split sets: every part present, split.count agreeing across parts and with the file names,
 * split.no contiguous from 0, the parts' tensor counts summing to split.tensors.count, no tensor
 * in two parts. Unlike gs_open_split, which stops at the first inconsistency, every one becomes a
 * finding. A file certified on its own is checked against its own name and split keys. */
#include <stdlib.h>
#include <string.h>

#include "cert.h"
#include "cert_nameset.h"
#include "text_out.h"

/* One split key of a part: true and its value when it is a non-negative integer; otherwise the
 * finding (missing, or wrong type) is added and false returned. */
static bool split_key(cert_run *r, uint32_t part, const char *key, uint64_t *value,
                      uint64_t *offset)
{
    const gs_file *f = r->parts[part].file;
    size_t i;
    if (!cert_find_key(f, key, &i)) {
        cert_add(&r->findings, "split.key_missing", part, CERT_NO_OFFSET, CERT_SUBJECT_KEY, key,
                 strlen(key), "part %u has no %s", part + 1, key);
        return false;
    }
    gs_kv_info kv;
    gs_kv_info_at(f, i, &kv);
    *offset = kv.value_offset;
    bool negative;
    if (!cert_get_integer(f, i, value, &negative) || negative) {
        cert_add(&r->findings, "split.key_type", part, kv.value_offset, CERT_SUBJECT_KEY, key,
                 strlen(key), "%s is %s %s, not a non-negative integer", key,
                 negative ? "a negative" : "of type", gs_value_type_name(kv.type));
        return false;
    }
    return true;
}

typedef struct tensor_ref {
    uint32_t part;
    uint32_t index;
} tensor_ref;

typedef struct dup_ctx {
    const cert_run *r;
    const tensor_ref *refs;
} dup_ctx;

static const uint8_t *ref_name(const void *ctx, uint32_t i, uint64_t *len)
{
    const dup_ctx *d = ctx;
    gs_tensor_info t;
    gs_tensor_info_at(d->r->parts[d->refs[i].part].file, d->refs[i].index, &t);
    *len = t.name.len;
    return (const uint8_t *)t.name.ptr;
}

static void duplicates(cert_run *r)
{
    size_t total = 0;
    for (size_t p = 0; p < r->n_parts; p++) {
        total += gs_tensor_count(r->parts[p].file);
    }
    if (total == 0 || total > UINT32_MAX - 1) {
        return; /* each part's tensors are limited by the reader; a set past 2^32 is not real */
    }
    tensor_ref *refs = cert_alloc(r, total, sizeof *refs);
    if (refs == NULL) {
        return;
    }
    dup_ctx ctx = {r, refs};
    cert_nameset set;
    cert_nameset_init(&set, (gsi_name_source){&ctx, ref_name});
    uint32_t g = 0;
    for (size_t p = 0; p < r->n_parts; p++) {
        const gs_file *f = r->parts[p].file;
        for (size_t i = 0; i < gs_tensor_count(f); i++, g++) {
            refs[g] = (tensor_ref){(uint32_t)p, (uint32_t)i};
            gs_tensor_info t;
            gs_tensor_info_at(f, i, &t);
            uint32_t earlier;
            if (cert_nameset_insert(&set, t.name.ptr, t.name.len, g, &earlier) &&
                refs[earlier].part != p) {
                cert_add(&r->findings, "split.duplicate_tensor", (uint32_t)p, t.info_offset,
                         CERT_SUBJECT_TENSOR, t.name.ptr, t.name.len,
                         "already in part %u", refs[earlier].part + 1);
            }
        }
    }
    if (set.failed) {
        cert_findings_fail(&r->findings, GS_E_NO_MEMORY);
    }
    cert_nameset_free(&set);
    free(refs);
}

static void check_set(cert_run *r)
{
    const uint64_t n = r->n_parts;
    bool all_readable = true, have_declared = false;
    uint64_t declared = 0, declared_at = 0, sum = 0;
    for (uint32_t p = 0; p < n; p++) {
        const cert_part *part = &r->parts[p];
        if (part->same_as != 0) {
            cert_add(&r->findings, "split.same_file", p, CERT_NO_OFFSET, CERT_SUBJECT_NONE, NULL,
                     0, "part %u of %llu is the file of part %u (a link to it)", p + 1,
                     (unsigned long long)n, part->same_as);
        }
        if (part->missing) {
            char why[4 * GS_ERROR_TEXT_MAX + 8];
            cli_escape_cut(why, sizeof why, part->lenient_err.detail,
                           strlen(part->lenient_err.detail), GS_ERROR_TEXT_MAX);
            char label[4 * 256 + 8];
            cli_escape_cut(label, sizeof label, part->label, strlen(part->label), 256);
            cert_add(&r->findings, "split.part_missing", p, CERT_NO_OFFSET, CERT_SUBJECT_NONE,
                     NULL, 0, "part %u of %llu, %s, cannot be opened: %s", p + 1,
                     (unsigned long long)n, label, why);
        }
        if (part->file == NULL) {
            all_readable = false;
            continue; /* a missing part, or one the reader rejects (reported already) */
        }
        uint64_t no, count, tensors, at_no, at_count, at_tensors;
        if (split_key(r, p, "split.no", &no, &at_no) && no != p) {
            cert_add(&r->findings, "split.number_mismatch", p, at_no, CERT_SUBJECT_KEY,
                     "split.no", 8, "part %u says split.no = %llu, its position is %u", p + 1,
                     (unsigned long long)no, p);
        }
        if (split_key(r, p, "split.count", &count, &at_count) && count != n) {
            cert_add(&r->findings, "split.count_mismatch", p, at_count, CERT_SUBJECT_KEY,
                     "split.count", 11, "part %u says %llu parts; the file names say %llu",
                     p + 1, (unsigned long long)count, (unsigned long long)n);
        }
        if (split_key(r, p, "split.tensors.count", &tensors, &at_tensors)) {
            if (!have_declared) {
                have_declared = true;
                declared = tensors;
                declared_at = p;
            } else if (tensors != declared) {
                cert_add(&r->findings, "split.tensor_count_mismatch", p, at_tensors,
                         CERT_SUBJECT_KEY, "split.tensors.count", 19,
                         "part %u says %llu tensors, part %llu says %llu", p + 1,
                         (unsigned long long)tensors, (unsigned long long)declared_at + 1,
                         (unsigned long long)declared);
            }
        }
        sum += gs_tensor_count(part->file);
    }
    if (all_readable && have_declared && sum != declared) {
        size_t i;
        gs_kv_info kv = {0};
        if (cert_find_key(r->parts[declared_at].file, "split.tensors.count", &i)) {
            gs_kv_info_at(r->parts[declared_at].file, i, &kv);
        }
        cert_add(&r->findings, "split.tensor_count_mismatch", (uint32_t)declared_at,
                 kv.value_offset, CERT_SUBJECT_KEY, "split.tensors.count", 19,
                 "the %llu parts hold %llu tensors, split.tensors.count says %llu",
                 (unsigned long long)n, (unsigned long long)sum, (unsigned long long)declared);
    }
    duplicates(r);
}

/* A file on its own: its name and its split keys must agree. */
static void check_single(cert_run *r)
{
    const gs_file *f = r->parts[0].file;
    if (f == NULL) {
        return;
    }
    gs_split_name name;
    bool named = gs_split_name_parse(r->path, strlen(r->path), &name);
    size_t i;
    bool has_keys = cert_find_key(f, "split.count", &i) || cert_find_key(f, "split.no", &i);
    if (named && name.count > 1) {
        cert_add(&r->findings, "split.part_alone", 0, CERT_NO_OFFSET, CERT_SUBJECT_NONE, NULL, 0,
                 "part %u of %u certified on its own%s", name.part, name.count,
                 name.part > 1 ? ": certify part 1 to check the set and its metadata"
                             : " (--part-only)");
    }
    if (!has_keys) {
        return;
    }
    uint64_t no, count, tensors, at_no, at_count, at_tensors;
    bool ok_no = split_key(r, 0, "split.no", &no, &at_no);
    bool ok_count = split_key(r, 0, "split.count", &count, &at_count);
    bool ok_tensors = split_key(r, 0, "split.tensors.count", &tensors, &at_tensors);
    if (named) {
        if (ok_no && no + 1 != name.part) {
            cert_add(&r->findings, "split.number_mismatch", 0, at_no, CERT_SUBJECT_KEY,
                     "split.no", 8, "split.no = %llu, but the file name says part %u",
                     (unsigned long long)no, name.part);
        }
        if (ok_count && count != name.count) {
            cert_add(&r->findings, "split.count_mismatch", 0, at_count, CERT_SUBJECT_KEY,
                     "split.count", 11, "split.count = %llu, but the file name says %u parts",
                     (unsigned long long)count, name.count);
        }
    } else if (ok_count && count > 1) {
        cert_add(&r->findings, "split.bad_name", 0, CERT_NO_OFFSET, CERT_SUBJECT_NONE, NULL, 0,
                 "split.count = %llu, but the file is not named <prefix>-NNNNN-of-%05llu.gguf",
                 (unsigned long long)count, (unsigned long long)count);
    }
    /* A set of one part must be whole on its own. */
    if (ok_count && count == 1) {
        if (ok_no && no != 0) {
            cert_add(&r->findings, "split.number_mismatch", 0, at_no, CERT_SUBJECT_KEY,
                     "split.no", 8, "split.no = %llu in a set of one part",
                     (unsigned long long)no);
        }
        if (ok_tensors && tensors != gs_tensor_count(f)) {
            cert_add(&r->findings, "split.tensor_count_mismatch", 0, at_tensors,
                     CERT_SUBJECT_KEY, "split.tensors.count", 19,
                     "split.tensors.count = %llu in a set of one part holding %zu tensors",
                     (unsigned long long)tensors, gs_tensor_count(f));
        }
    }
}

void cert_check_split(cert_run *r)
{
    if (r->is_set) {
        check_set(r);
    } else {
        check_single(r);
    }
}
