/* hash and verify both read a file into a manifest (include/ggufsafe_manifest.h) with a
 * progress bar on a terminal, and report a failure the same way. */
#ifndef GGUFSAFE_CLI_MANIFEST_RUN_H
#define GGUFSAFE_CLI_MANIFEST_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "ggufsafe_manifest.h"

/* Opens and hashes path in the given mode, with a progress bar unless quiet (metadata_only:
 * tensor data need not be in the file, hash mode). -1 with *out set; otherwise the error line
 * (and what the file is, when it is not GGUF) is printed and the exit code returned: a file
 * that cannot be opened by its status, one that changed or could not be read while it was hashed 2 (the environment;
 * the error names the file). */
int cli_hash_path(const char *path, gs_manifest_mode mode, bool part_only, bool metadata_only,
                  gs_profile profile, unsigned jobs, bool quiet, gs_manifest **out);

/* --manifest-dir DIR (hash FILE..., verify FILE...): the manifest of file is
 * DIR/<file's name>.manifest, its name being what follows its last '/' (a split set: the name of
 * the part given, its first). Allocated; NULL when out of memory. */
char *cli_manifest_path(const char *dir, const char *file);

/* CLI_EXIT_USAGE after an error line when two of the n files have the same name (they would
 * share a manifest), or dir is not a directory; -1 otherwise. */
int cli_manifest_dir_check(const char *command, const char *dir, const char *const *files,
                           size_t n);

#endif
