/* Comparing a file's manifest with an expected one (ggufsafe verify): the differences as data
 * (the public gs_manifest_diff), and their text. */
#ifndef GGUFSAFE_MANIFEST_DIFF_H
#define GGUFSAFE_MANIFEST_DIFF_H

#include <stddef.h>

#include "manifest.h"
#include "out.h"

typedef struct mf_difference {
    gs_manifest_change change;
    gs_manifest_item item;
    size_t part;   /* 0-based, or GS_MANIFEST_NO_PART */
    bool prefixed; /* the text line starts with "part N: " (either side has several parts) */
    char *subject; /* owned */
    char *detail;  /* owned, or NULL */
    char *from;    /* renamed: the name in the manifest (owned); NULL otherwise */
    char *old_value; /* a changed key-value of a version 2 manifest: its value in the manifest
                        and in the file, escaped for a terminal (owned); NULL otherwise */
    char *new_value;
} mf_difference;

struct gs_manifest_diff {
    mf_difference *items;
    size_t n, cap;
};

/* Every difference between want (the manifest) and got (the file); with tensors_only, only
 * those of tensors, parts and unreadable parts (metadata edits and the whole-file digest left
 * out). A tensor missing under one name and added under another with the same type, shape and
 * data is one rename when the match is unique both ways. GS_OK or GS_E_NO_MEMORY (out is then
 * empty). */
gs_status mf_compare(const mf_doc *want, const mf_doc *got, bool tensors_only,
                     gs_manifest_diff *out);
void mf_diff_free(gs_manifest_diff *d);

/* One line per difference:
 *   [part N: ]changed|added|missing|damaged  kv|tensor|file|parts  <subject>[  <detail>] */
void mf_diff_write(cli_out *out, const gs_manifest_diff *d);
/* The JSON report (conformance/schema/verify.schema.json). */
void mf_diff_write_json(cli_out *out, const gs_manifest_diff *d, const mf_doc *got,
                        const char *path, const char *manifest_path, bool tensors_only);

#endif
