/* A certification run: opening the file or split set (each part strict and lenient, in the
 * reader's diagnostic mode), running the checks in order, the exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "cert.h"
#include "cli_source.h"
#include "part_guard.h"

const char *cert_kind_name(cert_kind kind)
{
    switch (kind) {
    case CERT_KIND_MODEL: return "model";
    case CERT_KIND_ADAPTER: return "adapter";
    case CERT_KIND_PROJECTOR: return "projector";
    case CERT_KIND_VOCAB: return "vocab";
    case CERT_KIND_IMATRIX: return "imatrix";
    case CERT_KIND_UNKNOWN: return "unknown";
    }
    return "unknown";
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

/* What a part is, when its open failed on the framing (the magic, the version, the header's
 * fields): a file that is not GGUF at all (bad magic; empty) is named by gs_detect. */
static void detect_part(cert_part *p, const void *data, size_t size)
{
    gs_status st = p->lenient_err.status;
    if ((int)st < GS_E_BAD_MAGIC || (int)st > GS_E_STRING_EXCEEDS_FILE) {
        return;
    }
    gs_status ds = data != NULL ? gs_detect(data, size, &p->detected)
                                : gs_detect_file(p->path, &p->detected, NULL);
    p->detected_valid = ds == GS_OK;
    p->not_gguf = p->detected_valid &&
                  (st == GS_E_BAD_MAGIC || p->detected.format == GS_FORMAT_EMPTY);
}

/* Opens part i both ways, from its path or (data != NULL) from memory. The lenient handle is
 * the one the checks read; the strict one only contributes the reader's strict-only findings.
 * A part that cannot be opened at all gets no second try; a part that is an earlier part again
 * (a link to its file) is closed once that is known, before its strict open. */
static void open_part(cert_run *r, size_t i, const void *data, size_t size)
{
    cert_part *p = &r->parts[i];
    for (int strict = 0; strict < 2; strict++) {
        gs_options o;
        /* the checks read metadata after open: never through a mapping that a truncation could
           turn into SIGBUS; and a part holds no descriptor, whatever the size of the set */
        cli_reader_options(&o, strict ? GS_PROFILE_STRICT : GS_PROFILE_LENIENT);
        o.diagnostic = true;
        o.metadata_only = r->opt.metadata_only;
        cli_reader_types(&o, r->opt.type_defs, r->opt.n_type_defs, r->opt.decoders,
                         r->opt.n_decoders);
        cli_part_guard_options(&r->guard, (unsigned)strict, &o);
        gs_file **f = strict ? &p->strict : &p->file;
        gs_error *e = strict ? &p->strict_err : &p->lenient_err;
        gs_status st = data != NULL ? gs_open_memory(data, size, &o, f, e)
                                    : gs_open_file(p->path, &o, f, e);
        if (st == GS_OK) {
            e->status = GS_OK;
        }
        if (!strict && (int)st > 0 && (int)st < 20) {
            p->missing = st == GS_E_NO_SUCH_FILE;
            p->strict_err = p->lenient_err;
            return;
        }
        if (!strict && st == GS_OK) {
            gs_status gst;
            p->same_as = cli_part_guard_same_as(&r->guard, i, p->file, &gst);
            if (gst != GS_OK) {
                cert_findings_fail(&r->findings, gst);
            }
            if (p->same_as != 0) {
                gs_close(p->file);
                p->file = NULL;
                gsi_fail(e, GS_E_SPLIT_SAME_FILE, 0, GS_CONTEXT_PART,
                         (const uint8_t *)p->path, strlen(p->path), "part %zu is part %u again",
                         i + 1, p->same_as);
                p->strict_err = *e;
                return;
            }
        }
    }
    gs_file_layout(p->file, &p->layout);
    detect_part(p, data, size);
}

/* A failure that leaves nothing to certify: the environment (status < 20), never the file's
 * contents (a file that is not GGUF is certified: its report says what it is). */
static bool not_certifiable(const cert_part *p)
{
    gs_status st = p->lenient_err.status;
    return st != GS_OK && (int)st < 20;
}

void cert_read_failed(cert_run *r, uint32_t part, gs_status st, uint64_t offset,
                      const char *what)
{
    if (r->findings.status != GS_OK) {
        return; /* the first failure is the one reported */
    }
    const bool changed = cli_file_changed(st);
    const char *path = r->parts[part].path;
    gsi_fail(&r->failure, changed ? GS_E_FILE_CHANGED : st, offset, GS_CONTEXT_PART,
             (const uint8_t *)path, strlen(path), "%s: %s", what,
             changed ? "certify it again once nothing writes to it" : gs_status_message(st));
    cert_findings_fail(&r->findings, r->failure.status);
}

void *cert_alloc(cert_run *r, size_t count, size_t elem)
{
    void *p = cli_alloc_array(count, elem);
    if (p == NULL) {
        cert_findings_fail(&r->findings, GS_E_NO_MEMORY);
    }
    return p;
}

static gs_status start(cert_run *r, const char *path, const gs_certify_options *opt,
                       size_t n_parts, gs_error *err)
{
    memset(r, 0, sizeof *r);
    r->opt = *opt;
    gs_status gst = cli_part_guard_init(&r->guard, n_parts);
    if (r->opt.jobs == 0) {
        r->opt.jobs = 1;
    }
    cert_findings_init(&r->findings);
    r->root_cause = CERT_NO_CAUSE;
    r->path = cli_strndup(path, strlen(path));
    r->parts = cert_alloc(r, n_parts, sizeof *r->parts);
    if (r->path == NULL || r->parts == NULL || gst != GS_OK) {
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_PART,
                        (const uint8_t *)path, strlen(path),
                        "certification: %zu parts", n_parts);
    }
    r->n_parts = n_parts;
    memset(r->parts, 0, n_parts * sizeof *r->parts);
    return GS_OK;
}

/* A later part the environment kept from being opened (descriptors, permissions, a FIFO or
 * device): the run cannot say anything about the set, so it stops with that failure. A part
 * that does not exist is the set's problem: split.part_missing. */
static gs_status environment_failure(const cert_part *p, size_t i, size_t n, gs_error *err)
{
    gs_status st = p->lenient_err.status;
    if ((int)st <= 0 || (int)st >= 20 || st == GS_E_NO_SUCH_FILE) {
        return GS_OK;
    }
    char why[GS_ERROR_TEXT_MAX];
    memcpy(why, p->lenient_err.detail, sizeof why);
    return gsi_fail(err, st, 0, GS_CONTEXT_PART, (const uint8_t *)p->path, strlen(p->path),
                    "part %zu of %zu: %s", i + 1, n, why);
}

/* The lenient open's failure when there is nothing to certify, else GS_OK. */
static gs_status certifiable(const cert_part *p, gs_error *err)
{
    if (!not_certifiable(p)) {
        return GS_OK;
    }
    if (err != NULL) {
        *err = p->lenient_err;
    }
    return p->lenient_err.status;
}

gs_status cert_open(cert_run *r, const char *path, const gs_certify_options *opt, gs_error *err)
{
    gs_split_name name;
    bool set = !opt->part_only && cli_first_of_set(path, &name);
    gs_status st = start(r, path, opt, set ? name.count : 1, err);
    r->is_set = set;
    for (size_t i = 0; i < r->n_parts && st == GS_OK; i++) {
        cert_part *p = &r->parts[i];
        size_t cap = set ? name.prefix_len + GS_SPLIT_NAME_SUFFIX_LEN + 1 : strlen(path) + 1;
        p->path = malloc(cap);
        if (p->path == NULL) {
            return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_PART,
                            (const uint8_t *)path, strlen(path),
                            "certification: part path");
        }
        if (set) {
            (void)gs_split_name_format(path, &name, (uint32_t)i + 1, p->path, cap);
        } else {
            memcpy(p->path, path, cap);
        }
        p->label = base_name(p->path);
        open_part(r, i, NULL, 0);
        if (i == 0) {
            st = certifiable(p, err);
        } else {
            st = environment_failure(p, i, r->n_parts, err);
        }
    }
    return st;
}

gs_status cert_open_memory(cert_run *r, const void *data, size_t size, const char *label,
                           const gs_certify_options *opt, gs_error *err)
{
    gs_status st = start(r, label, opt, 1, err);
    if (st != GS_OK) {
        return st;
    }
    r->parts[0].path = cli_strndup(label, strlen(label));
    if (r->parts[0].path == NULL) {
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_PART,
                        (const uint8_t *)label, strlen(label),
                        "certification: label");
    }
    r->parts[0].label = r->parts[0].path;
    open_part(r, 0, data != NULL ? data : "", size);
    return certifiable(&r->parts[0], err);
}

gs_status cert_check(cert_run *r)
{
    cert_describe(r);
    cert_check_reader(r);
    cert_check_coverage(r);
    cert_check_compat(r);
    cert_check_meta(r);
    cert_check_tokenizer(r);
    cert_check_template(r);
    cert_check_blocks(r);
    cert_check_split(r);
    /* Last: once tensor data is being read, nothing reads the mapping any more, so a file that
     * shrinks during the scan cannot fault a metadata access after it (see cert.h). */
    if (r->opt.deep) {
        cert_check_payload(r);
    }
    if (r->findings.status == GS_OK) {
        cert_order(r);
        cert_verdict(r);
    }
    return r->findings.status;
}

bool cert_is_reader_code(const cert_finding *f, gs_status st)
{
    size_t n = strlen(CERT_READER_PREFIX);
    return strncmp(f->code, CERT_READER_PREFIX, n) == 0 &&
           strcmp(f->code + n, gs_status_name(st)) == 0;
}

void cert_close(cert_run *r)
{
    for (size_t i = 0; i < r->n_parts; i++) {
        gs_close(r->parts[i].file);
        gs_close(r->parts[i].strict);
        free(r->parts[i].path);
    }
    free(r->parts);
    cli_part_guard_free(&r->guard); /* after the parts: their allocator counts into it */
    free(r->path);
    for (size_t i = 0; i < r->n_stats; i++) {
        free(r->stats[i].name);
    }
    free(r->stats);
    free(r->arch);
    free(r->general_type);
    cert_findings_free(&r->findings);
    memset(r, 0, sizeof *r);
}

int cert_exit_code(const cert_run *r)
{
    uint64_t counts[3];
    cert_count(&r->findings, r->opt.profile, counts);
    if (counts[CERT_ERROR] > 0 || (r->opt.fail_on == CERT_WARNING && counts[CERT_WARNING] > 0)) {
        return 1;
    }
    return 0;
}

const gs_file *cert_meta_file(const cert_run *r)
{
    if (r->n_parts == 0) {
        return NULL;
    }
    /* A later part certified alone holds no metadata of the set (gguf-split writes the
     * key-values into part 1 only). */
    if (!r->is_set) {
        gs_split_name name;
        if (gs_split_name_parse(r->path, strlen(r->path), &name) && name.part > 1 &&
            name.count > 1) {
            return NULL;
        }
    }
    return r->parts[0].file;
}

bool cert_find_key(const gs_file *f, const char *key, size_t *index)
{
    return f != NULL && gs_kv_find(f, key, index) == GS_OK;
}

bool cert_is_integer_type(gs_value_type t)
{
    switch (t) {
    case GS_VALUE_U8:
    case GS_VALUE_I8:
    case GS_VALUE_U16:
    case GS_VALUE_I16:
    case GS_VALUE_U32:
    case GS_VALUE_I32:
    case GS_VALUE_U64:
    case GS_VALUE_I64:
        return true;
    case GS_VALUE_F32:
    case GS_VALUE_BOOL:
    case GS_VALUE_STRING:
    case GS_VALUE_ARRAY:
    case GS_VALUE_F64:
        return false;
    }
    return false;
}

bool cert_get_integer(const gs_file *f, size_t index, uint64_t *value, bool *negative)
{
    gs_kv_info kv;
    if (gs_kv_info_at(f, index, &kv) != GS_OK || !cert_is_integer_type(kv.type)) {
        return false;
    }
    gs_status st = gs_kv_get_unsigned(f, index, value);
    *negative = st == GS_E_OUT_OF_RANGE;
    return st == GS_OK || *negative;
}
