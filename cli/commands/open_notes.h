/* What a command says after the error line of a file it cannot open, so that the person reading
 * it knows what happened and what to do: what the file is when it is not GGUF at all (a Git LFS
 * pointer, an error page, another format: gs_detect), and, when the file's metadata is whole but
 * its tensor data is not in it (a header-only copy, a download cut inside its data), which
 * option reads it anyway. Both on stderr, as "note:" and "hint:" lines; anything quoted from the
 * file is escaped. */
#ifndef GGUFSAFE_CLI_OPEN_NOTES_H
#define GGUFSAFE_CLI_OPEN_NOTES_H

#include "ggufsafe.h"

/* err is the failure of opening path with opts (as one file or a set); metadata_only_command,
 * when the command has --metadata-only, is how to call it ("ggufsafe info --metadata-only"),
 * NULL otherwise. Prints nothing when there is nothing to add. */
void cli_open_notes(const char *path, const gs_error *err, const gs_options *opts,
                    const char *metadata_only_command);

#endif
