#include "cert_findings.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "text_escape.h"
#include "text_out.h"

void cert_findings_init(cert_findings *fs)
{
    memset(fs, 0, sizeof *fs);
}

void cert_findings_free(cert_findings *fs)
{
    for (size_t i = 0; i < fs->n; i++) {
        free(fs->items[i].name);
        free(fs->items[i].message);
    }
    free(fs->items);
    free(fs->codes);
    cert_findings_init(fs);
}

/* The counter of (code, profiles); created on first use. Distinct codes are few (the table
 * plus the reader's statuses), so a linear search is enough. */
static cert_omitted *counter(cert_findings *fs, const char *code, cert_severity sev,
                             unsigned profiles)
{
    for (size_t i = 0; i < fs->n_codes; i++) {
        if (fs->codes[i].profiles == profiles && strcmp(fs->codes[i].code, code) == 0) {
            return &fs->codes[i];
        }
    }
    if (!cli_reserve((void **)&fs->codes, &fs->cap_codes, fs->n_codes + 1, sizeof *fs->codes)) {
        cert_findings_fail(fs, GS_E_NO_MEMORY);
        return NULL;
    }
    cert_omitted *c = &fs->codes[fs->n_codes++];
    memset(c, 0, sizeof *c);
    snprintf(c->code, sizeof c->code, "%s", code);
    c->severity = sev;
    c->profiles = profiles;
    return c;
}

static cert_finding *add(cert_findings *fs, const cert_code *row, const char *code,
                         cert_severity sev, unsigned profiles, uint32_t part, uint64_t offset,
                         cert_subject subject, const void *name, size_t name_len,
                         const char *message)
{
    if (fs->status != GS_OK) {
        return NULL;
    }
    cert_omitted *c = counter(fs, code, sev, profiles);
    if (c == NULL) {
        return NULL;
    }
    if (c->kept >= CERT_MAX_PER_CODE) {
        c->omitted++;
        return NULL;
    }
    size_t m = strlen(message) + 1;
    char *text = malloc(m);
    uint8_t *copy = NULL;
    /* a long name is cut where a character starts: the kept head stays valid UTF-8 */
    size_t copy_len = cli_text_cut(name, name_len, CERT_NAME_MAX);
    if (name != NULL) {
        copy = malloc(copy_len > 0 ? copy_len : 1);
    }
    if (text == NULL || (name != NULL && copy == NULL) ||
        !cli_reserve((void **)&fs->items, &fs->cap, fs->n + 1, sizeof *fs->items)) {
        free(text);
        free(copy);
        cert_findings_fail(fs, GS_E_NO_MEMORY);
        return NULL;
    }
    c->kept++;
    cert_finding *f = &fs->items[fs->n++];
    memset(f, 0, sizeof *f);
    snprintf(f->code, sizeof f->code, "%s", code);
    f->severity = sev;
    f->profiles = profiles;
    f->part = part;
    f->offset = offset;
    f->subject = name != NULL ? subject : CERT_SUBJECT_NONE;
    if (name != NULL) {
        f->name_cut = copy_len < name_len;
        f->name_len = copy_len;
        f->name = copy;
        memcpy(f->name, name, copy_len);
    }
    memcpy(text, message, m);
    f->message = text;
    f->hint = row->hint;
    f->help = row->help;
    f->caused_by = CERT_NO_CAUSE;
    return f;
}

void cert_add(cert_findings *fs, const char *code, uint32_t part, uint64_t offset,
              cert_subject subject, const void *name, size_t name_len, const char *fmt, ...)
{
    const cert_code *row = cert_code_find(code);
    if (row == NULL || row->profiles == CERT_PROFILES_PER_FINDING) {
        if (fs->status == GS_OK) {
            fs->status = GS_E_INTERNAL;
            snprintf(fs->bad_code, sizeof fs->bad_code, "%s", code);
        }
        return;
    }
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    (void)add(fs, row, code, row->severity, row->profiles, part, offset, subject, name, name_len,
              message);
}

void cert_add_reader(cert_findings *fs, const gs_error *e, uint32_t part, unsigned profiles)
{
    char code[CERT_CODE_MAX];
    snprintf(code, sizeof code, "%s%s", CERT_READER_PREFIX, gs_status_name(e->status));
    if (e->status == GS_E_UNKNOWN_TENSOR_TYPE) {
        /* diagnostic mode lists the tensor and goes on: a type of its own code, with the way to
           define it in the hint */
        snprintf(code, sizeof code, "%s", "compat.unknown_type");
    }
    /* The reader's detail is its own text, already escaped where it quotes the file. */
    char detail[4 * GS_ERROR_TEXT_MAX + 8];
    gsi_escape_text(detail, sizeof detail, (const uint8_t *)e->detail, strlen(e->detail));
    char message[1024];
    snprintf(message, sizeof message, "%s%s%s", gs_status_message(e->status),
             detail[0] != '\0' ? ": " : "", detail);
    cert_subject subject = CERT_SUBJECT_NONE;
    if (e->context_kind == GS_CONTEXT_KEY) {
        subject = CERT_SUBJECT_KEY;
    } else if (e->context_kind == GS_CONTEXT_TENSOR) {
        subject = CERT_SUBJECT_TENSOR;
    }
    /* The reader's context is escaped already: shown as it is (its escapes are plain ASCII). */
    const char *name = subject != CERT_SUBJECT_NONE ? e->context : NULL;
    cert_code row;
    if (!cert_code_row(code, &row)) { /* a status outside the enum: still reported, as such */
        row = cert_codes[0];
        row.hint = cert_reader_hint(e->status);
        row.help = cert_reader_help(e->status);
    }
    cert_finding *f = add(fs, &row, code, CERT_ERROR, profiles, part, e->offset, subject, name,
                          name != NULL ? strlen(name) : 0, message);
    if (f != NULL) {
        f->name_is_text = true;
    }
}

void cert_findings_fail(cert_findings *fs, gs_status status)
{
    if (fs->status == GS_OK) {
        fs->status = status;
    }
}

cert_severity cert_effective(cert_severity severity, unsigned profiles, gs_profile profile)
{
    unsigned want = profile == GS_PROFILE_LENIENT ? CERT_LENIENT : CERT_STRICT;
    return (profiles & want) != 0 ? severity : CERT_INFO;
}

void cert_count(const cert_findings *fs, gs_profile profile, uint64_t counts[3])
{
    counts[0] = counts[1] = counts[2] = 0;
    for (size_t i = 0; i < fs->n_codes; i++) {
        const cert_omitted *c = &fs->codes[i];
        counts[cert_effective(c->severity, c->profiles, profile)] += c->kept + c->omitted;
    }
}
