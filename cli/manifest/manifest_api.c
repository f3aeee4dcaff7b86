/* The public face of manifests (include/ggufsafe_manifest.h): opening what hash and verify read,
 * hashing it part by part, the text form, and the comparison. hash reads a file the way every
 * command does (the chosen profile; a split set from its first part, checked as a set); verify
 * reads each part leniently in diagnostic mode, so a damaged download still yields a manifest to
 * compare and every difference gets its name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "cli_source.h"
#include "manifest.h"
#include "manifest_diff.h"
#include "part_guard.h"
#include "sha256.h"


struct gs_manifest_input {
    cli_source src;     /* hash mode */
    gs_file **parts;    /* verify mode: NULL where a part could not be opened */
    char (*errors)[192];/* verify mode: why */
    char **paths;       /* the parts' paths (verify mode), or NULL */
    size_t n_parts;
    char *path;         /* as given */
    cli_part_guard guard; /* verify mode: links to one file, the parts' memory together */
    bool guarded;
};

void gs_manifest_options_init(gs_manifest_options *opts)
{
    if (opts != NULL) {
        *opts = (gs_manifest_options){.struct_size = sizeof *opts, .mode = GS_MANIFEST_HASH,
                                      .profile = GS_PROFILE_STRICT, .jobs = 1};
    }
}

static gs_status resolve(const gs_manifest_options *given, gs_manifest_options *o, gs_error *err)
{
    gs_manifest_options_init(o);
    gs_status st = cli_take_options(o, sizeof *o, given,
                                    CLI_MIN_SIZE(gs_manifest_options, progress_ctx),
                                    "gs_manifest_options", err);
    if (st != GS_OK) {
        return st;
    }
    if ((o->mode != GS_MANIFEST_HASH && o->mode != GS_MANIFEST_VERIFY) ||
        (o->profile != GS_PROFILE_STRICT && o->profile != GS_PROFILE_LENIENT)) {
        return gsi_fail(err, GS_E_INVALID_ARGUMENT, 0, GS_CONTEXT_NONE, NULL, 0,
                        "gs_manifest_options: mode or profile outside its enum");
    }
    return GS_OK;
}

void gs_manifest_input_close(gs_manifest_input *in)
{
    if (in == NULL) {
        return;
    }
    cli_source_close(&in->src);
    for (size_t p = 0; in->parts != NULL && p < in->n_parts; p++) {
        gs_close(in->parts[p]);
        free(in->paths != NULL ? in->paths[p] : NULL);
    }
    free(in->parts);
    free(in->paths);
    free(in->errors);
    free(in->path);
    if (in->guarded) {
        cli_part_guard_free(&in->guard); /* after the parts: their allocator counts into it */
    }
    free(in);
}

/* verify: every part that exists, leniently; the first must open. A part that is an earlier
 * part's file again (a link) is not read twice; a part the environment keeps from being opened
 * (descriptors, permissions, a FIFO or device) stops verify with that error: it is no
 * difference from the manifest. */
static gs_status open_parts(gs_manifest_input *in, const char *path,
                            const gs_manifest_options *mo, gs_error *err)
{
    gs_split_name name;
    bool set = !mo->part_only && cli_first_of_set(path, &name);
    size_t n = set ? name.count : 1;
    in->parts = cli_alloc_array(n, sizeof *in->parts);
    in->paths = cli_alloc_array(n, sizeof *in->paths);
    in->errors = cli_alloc_array(n, sizeof *in->errors);
    in->guarded = cli_part_guard_init(&in->guard, n) == GS_OK;
    if (in->parts == NULL || in->paths == NULL || in->errors == NULL || !in->guarded) {
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_PART,
                        (const uint8_t *)path, strlen(path),
                        "verify: %zu parts", n);
    }
    memset(in->parts, 0, n * sizeof *in->parts);
    memset(in->paths, 0, n * sizeof *in->paths);
    in->n_parts = n;
    for (size_t p = 0; p < n; p++) {
        gs_options opts;
        cli_reader_options(&opts, GS_PROFILE_LENIENT);
        opts.diagnostic = true;
        cli_reader_types(&opts, mo->type_defs, mo->n_type_defs, mo->decoders, mo->n_decoders);
        cli_part_guard_options(&in->guard, 0, &opts);
        size_t cap = set ? name.prefix_len + GS_SPLIT_NAME_SUFFIX_LEN + 1 : strlen(path) + 1;
        in->paths[p] = malloc(cap);
        if (in->paths[p] == NULL) {
            return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_PART,
                            (const uint8_t *)path, strlen(path),
                            "verify: part path");
        }
        if (set) {
            (void)gs_split_name_format(path, &name, (uint32_t)p + 1, in->paths[p], cap);
        } else {
            memcpy(in->paths[p], path, cap);
        }
        gs_error e;
        gs_status st = gs_open_file(in->paths[p], &opts, &in->parts[p], &e);
        in->errors[p][0] = '\0';
        if (st != GS_OK && p == 0) {
            if (err != NULL) {
                *err = e;
            }
            return st;
        }
        if ((int)st > 0 && (int)st < 20 && st != GS_E_NO_SUCH_FILE) {
            return gsi_fail(err, st, 0, GS_CONTEXT_PART, (const uint8_t *)in->paths[p],
                            strlen(in->paths[p]), "part %zu of %zu: %s", p + 1, n, e.detail);
        }
        uint32_t same_as = 0;
        if (st == GS_OK) {
            same_as = cli_part_guard_same_as(&in->guard, p, in->parts[p], &st);
            if (st != GS_OK) {
                return gsi_fail(err, st, 0, GS_CONTEXT_NONE, NULL, 0, "verify: %zu parts", n);
            }
        }
        if (same_as != 0) {
            gs_close(in->parts[p]);
            in->parts[p] = NULL;
            snprintf(in->errors[p], sizeof in->errors[p], "%s: the file of part %u again",
                     gs_status_name(GS_E_SPLIT_SAME_FILE), same_as);
        } else if (st == GS_E_NO_SUCH_FILE) {
            snprintf(in->errors[p], sizeof in->errors[p], "%s: the part does not exist",
                     gs_status_name(GS_E_SPLIT_PART_MISSING));
        } else if (st != GS_OK) {
            snprintf(in->errors[p], sizeof in->errors[p], "%s: %s", gs_status_name(st),
                     gs_status_message(st));
        }
    }
    return GS_OK;
}

gs_status gs_manifest_open(const char *path, const gs_manifest_options *opts,
                           gs_manifest_input **out, gs_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (out == NULL || path == NULL) {
        return cli_null_argument(err);
    }
    gs_manifest_options o;
    gs_status st = resolve(opts, &o, err);
    if (st != GS_OK) {
        return st;
    }
    gs_manifest_input *in = calloc(1, sizeof *in);
    if (in == NULL || (in->path = cli_strndup(path, strlen(path))) == NULL) {
        free(in);
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_PART, (const uint8_t *)path,
                        strlen(path), "manifest: opening");
    }
    if (o.mode == GS_MANIFEST_VERIFY) {
        st = open_parts(in, path, &o, err);
    } else {
        gs_options ro;
        cli_reader_options(&ro, o.profile);
        ro.metadata_only = o.metadata_only;
        cli_reader_types(&ro, o.type_defs, o.n_type_defs, o.decoders, o.n_decoders);
        st = cli_source_open(&in->src, path, o.part_only, &ro, NULL, err);
        in->n_parts = st == GS_OK ? cli_source_parts(&in->src) : 0;
        if (st == GS_OK) {
            st = mf_check_fits(&in->src, NULL, err); /* never write what verify could not read */
        }
    }
    if (st != GS_OK) {
        gs_manifest_input_close(in);
        return st;
    }
    *out = in;
    return GS_OK;
}

static const gs_file *input_part(const gs_manifest_input *in, size_t p)
{
    return in->parts != NULL ? in->parts[p] : cli_source_part(&in->src, p);
}

gs_status gs_manifest_hash(const gs_manifest_input *in, const gs_manifest_options *opts,
                           gs_manifest **out, gs_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (out == NULL || in == NULL) {
        return cli_null_argument(err);
    }
    gs_manifest_options o;
    gs_status st = resolve(opts, &o, err);
    if (st != GS_OK) {
        return st;
    }
    gs_manifest *m = calloc(1, sizeof *m);
    if (m == NULL || mf_doc_init(&m->doc, in->n_parts) != GS_OK) {
        free(m);
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_PART,
                        (const uint8_t *)in->path, strlen(in->path),
                        "manifest of %zu parts", in->n_parts);
    }
    cli_progress_relay pa = {o.progress, o.progress_ctx, 0, in->n_parts};
    mf_hash_options ho = {.jobs = o.jobs,
                          .skip_absent = o.metadata_only,
                          .progress = o.progress != NULL ? cli_progress_relay_update : NULL,
                          .progress_ctx = &pa};
    for (size_t p = 0; p < in->n_parts && st == GS_OK; p++) {
        mf_part *part = &m->doc.parts[p];
        const gs_file *f = input_part(in, p);
        if (f == NULL) {
            memcpy(part->error, in->errors[p], sizeof part->error);
            continue;
        }
        pa.part = p;
        uint64_t where = 0;
        st = mf_hash_part(f, &ho, part, &where);
        if (st != GS_OK) {
            const char *path = in->paths != NULL ? in->paths[p] : in->path;
            gsi_fail(err, st, where, GS_CONTEXT_PART, (const uint8_t *)path, strlen(path), "%s",
                     st == GS_E_TRUNCATED      ? "the file shrank while it was being hashed"
                     : st == GS_E_FILE_CHANGED ? "the file changed while it was being hashed"
                     : st == GS_E_NO_MEMORY    ? "hashing: out of memory"
                     : st == GS_E_INTERNAL && cli_sha256_problem() != NULL
                         ? cli_sha256_problem()
                     : st == GS_E_INTERNAL ? "libcrypto failed to compute SHA-256"
                                           : "reading the file for hashing");
        }
    }
    if (st != GS_OK) {
        gs_manifest_free(m);
        return st;
    }
    *out = m;
    return GS_OK;
}

gs_status gs_manifest_hash_path(const char *path, const gs_manifest_options *opts,
                                gs_manifest **out, gs_error *err)
{
    gs_manifest_input *in;
    gs_status st = gs_manifest_open(path, opts, &in, err);
    if (st != GS_OK) {
        if (out != NULL) {
            *out = NULL;
        }
        return st;
    }
    st = gs_manifest_hash(in, opts, out, err);
    gs_manifest_input_close(in);
    return st;
}

void gs_manifest_free(gs_manifest *m)
{
    if (m != NULL) {
        mf_doc_free(&m->doc);
        free(m);
    }
}

/* ---- the text form ------------------------------------------------------------------------ */

gs_status gs_manifest_write(const gs_manifest *m, const gs_sink *sink, gs_error *err)
{
    gs_status st;
    cli_out *out = cli_out_open(m != NULL, "manifest", sink, &st, err);
    if (out != NULL) {
        mf_write(out, &m->doc);
    }
    return cli_out_close(out, st, err);
}

static gs_status parse(mf_input *in, gs_manifest **out, gs_error *err)
{
    if (out == NULL) {
        return cli_null_argument(err);
    }
    *out = NULL;
    gs_manifest *m = calloc(1, sizeof *m);
    if (m == NULL) {
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "manifest");
    }
    gs_status st = mf_parse(in, NULL, &m->doc, err);
    if (st != GS_OK) {
        free(m);
        return st;
    }
    *out = m;
    return GS_OK;
}

gs_status gs_manifest_parse(const void *data, size_t size, gs_manifest **out, gs_error *err)
{
    mf_input in = {NULL, data != NULL ? data : (const void *)"", data != NULL ? size : 0, 0};
    return parse(&in, out, err);
}

gs_status gs_manifest_read(FILE *file, gs_manifest **out, gs_error *err)
{
    if (file == NULL) {
        if (out != NULL) {
            *out = NULL;
        }
        return cli_null_argument(err);
    }
    mf_input in = {file, NULL, 0, 0};
    return parse(&in, out, err);
}

/* ---- contents ----------------------------------------------------------------------------- */

size_t gs_manifest_part_count(const gs_manifest *m)
{
    return m != NULL ? m->doc.n_parts : 0;
}

gs_status gs_manifest_part_at(const gs_manifest *m, size_t part, gs_manifest_part *out)
{
    gs_status st = cli_index(m, part, m != NULL ? m->doc.n_parts : 0);
    if (st != GS_OK) {
        return st;
    }
    const mf_part *p = &m->doc.parts[part];
    gs_manifest_part v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    v.size = p->size;
    memcpy(v.digest, p->digest, sizeof v.digest);
    v.entry_count = p->n;
    for (size_t i = 0; i < p->n; i++) {
        p->entries[i].kind == MF_KV ? v.kv_count++ : v.tensor_count++;
    }
    v.error = p->error[0] != '\0' ? p->error : NULL;
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_manifest_part, error));
}

gs_status gs_manifest_entry_at(const gs_manifest *m, size_t part, size_t i,
                               gs_manifest_entry *out)
{
    gs_status st = cli_index(m, part, m != NULL ? m->doc.n_parts : 0);
    if (st == GS_OK) {
        st = cli_index(m, i, m->doc.parts[part].n);
    }
    if (st != GS_OK) {
        return st;
    }
    const mf_entry *e = &m->doc.parts[part].entries[i];
    gs_manifest_entry v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    v.kind = e->kind;
    v.state = e->state;
    v.name = e->name;
    v.type = e->type;
    v.shape = e->shape;
    memcpy(v.digest, e->digest, sizeof v.digest);
    v.offset = e->offset;
    v.size = e->size;
    v.line = e->line;
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_manifest_entry, line));
}

/* ---- comparing ---------------------------------------------------------------------------- */

void gs_manifest_compare_options_init(gs_manifest_compare_options *opts)
{
    if (opts != NULL) {
        *opts = (gs_manifest_compare_options){.struct_size = sizeof *opts};
    }
}

gs_status gs_manifest_compare(const gs_manifest *want, const gs_manifest *got,
                              gs_manifest_diff **out, gs_error *err)
{
    return gs_manifest_compare_with(want, got, NULL, out, err);
}

gs_status gs_manifest_compare_with(const gs_manifest *want, const gs_manifest *got,
                                   const gs_manifest_compare_options *opts,
                                   gs_manifest_diff **out, gs_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (out == NULL || want == NULL || got == NULL) {
        return cli_null_argument(err);
    }
    gs_manifest_compare_options o;
    gs_manifest_compare_options_init(&o);
    gs_status st = cli_take_options(&o, sizeof o, opts,
                                    CLI_MIN_SIZE(gs_manifest_compare_options, tensors_only),
                                    "gs_manifest_compare_options", err);
    if (st != GS_OK) {
        return st;
    }
    gs_manifest_diff *d = malloc(sizeof *d);
    if (d == NULL || mf_compare(&want->doc, &got->doc, o.tensors_only, d) != GS_OK) {
        free(d);
        return gsi_fail(err, GS_E_NO_MEMORY, 0, GS_CONTEXT_NONE, NULL, 0, "comparing");
    }
    *out = d;
    return GS_OK;
}

size_t gs_manifest_diff_count(const gs_manifest_diff *d)
{
    return d != NULL ? d->n : 0;
}

gs_status gs_manifest_diff_at(const gs_manifest_diff *d, size_t i, gs_manifest_difference *out)
{
    gs_status st = cli_index(d, i, d != NULL ? d->n : 0);
    if (st != GS_OK) {
        return st;
    }
    const mf_difference *x = &d->items[i];
    gs_manifest_difference v = {sizeof v, x->change, x->item, x->part, x->subject, x->detail,
                                x->from};
    return cli_copy_out(out, &v, sizeof v, CLI_MIN_SIZE(gs_manifest_difference, detail));
}

gs_status gs_manifest_diff_write_json(const gs_manifest_diff *d, const gs_manifest *got,
                                      const char *path, const char *manifest_path,
                                      bool tensors_only, const gs_sink *sink, gs_error *err)
{
    gs_status st;
    cli_out *out = cli_out_open(d != NULL && got != NULL && path != NULL && manifest_path != NULL,
                                NULL, sink, &st, err);
    if (out != NULL) {
        mf_diff_write_json(out, d, &got->doc, path, manifest_path, tensors_only);
    }
    return cli_out_close(out, st, err);
}

gs_status gs_manifest_diff_write(const gs_manifest_diff *d, const gs_sink *sink, gs_error *err)
{
    gs_status st;
    cli_out *out = cli_out_open(d != NULL, "diff", sink, &st, err);
    if (out != NULL) {
        mf_diff_write(out, d);
    }
    return cli_out_close(out, st, err);
}

void gs_manifest_diff_free(gs_manifest_diff *d)
{
    if (d != NULL) {
        mf_diff_free(d);
        free(d);
    }
}
