#include "open_notes.h"

#include <stdio.h>
#include <string.h>

#include "cli_source.h"
#include "text_escape.h"

/* The reader ran off the end of the file. */
static bool runs_off(gs_status st)
{
    return st == GS_E_TRUNCATED || st == GS_E_COUNT_EXCEEDS_FILE ||
           st == GS_E_STRING_EXCEEDS_FILE || st == GS_E_DATA_OUTSIDE_FILE;
}

/* A file that is not GGUF at all: what it is and what to do. True when it said so. */
static bool not_gguf(const char *path, const gs_error *err)
{
    if ((int)err->status < GS_E_BAD_MAGIC || (int)err->status > GS_E_STRING_EXCEEDS_FILE) {
        return false; /* past the framing: a GGUF */
    }
    gs_detected d;
    if (gs_detect_file(path, &d, NULL) != GS_OK || d.format == GS_FORMAT_GGUF) {
        return false;
    }
    fprintf(stderr, "note: this is %s%s%s%s\n", d.description, d.detail[0] ? " (" : "",
            d.detail, d.detail[0] ? ")" : "");
    fprintf(stderr, "hint: %s\n", d.advice);
    return true;
}

/* The file opens when its tensor data need not be there: only the data is missing. */
static bool only_data_missing(const char *path, const gs_options *opts)
{
    gs_options o = *opts;
    o.metadata_only = true;
    cli_source src;
    gs_error e;
    if (cli_source_open(&src, path, false, &o, NULL, &e) != GS_OK) {
        return false;
    }
    cli_source_close(&src);
    return true;
}

void cli_open_notes(const char *path, const gs_error *err, const gs_options *opts,
                    const char *metadata_only_command)
{
    if (err->context_kind == GS_CONTEXT_PART) {
        return; /* a later part of a set: the error line names it */
    }
    if (not_gguf(path, err) || !runs_off(err->status)) {
        return;
    }
    char shown[4 * 1024 + 8];
    gsi_escape_text(shown, sizeof shown, (const uint8_t *)path, strlen(path));
    if (opts->metadata_only || !only_data_missing(path, opts)) {
        fprintf(stderr, "hint: the file ends before its metadata does: most likely an incomplete "
                        "download; download it again ('ggufsafe certify %s' says more)\n",
                shown);
    } else if (metadata_only_command != NULL) {
        fprintf(stderr, "hint: the metadata is whole but tensor data is missing (a header-only "
                        "copy, or a download cut short): '%s %s' reads what is there\n",
                metadata_only_command, shown);
    } else {
        fprintf(stderr, "hint: the metadata is whole but tensor data is missing (a header-only "
                        "copy, or a download cut short): download the whole file\n");
    }
}
