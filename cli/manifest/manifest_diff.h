/* Comparing a file's manifest with an expected one (ggufsafe verify). */
#ifndef GGUFSAFE_MANIFEST_DIFF_H
#define GGUFSAFE_MANIFEST_DIFF_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "manifest.h"

/* Prints one line per difference between want (the manifest) and got (the file):
 *   [part N: ]changed|added|missing|damaged  kv|tensor|file  <name>  [what]
 * and returns how many there are (0: the file matches). */
uint64_t mf_compare(FILE *out, const mf_doc *want, const mf_doc *got);

#endif
