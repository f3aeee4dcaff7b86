/* The identity of a finding across runs (cert_ident.c): the URI of its artifact, as SARIF
 * writes it, and its partial fingerprint "<code>/<key:|tensor:><name>/<occurrence>". SARIF
 * results carry both; certify --baseline matches on both. */
#ifndef GGUFSAFE_CERT_IDENT_H
#define GGUFSAFE_CERT_IDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cert.h"

#define CERT_FINGERPRINT_KEY "ggufsafe/v1" /* the partialFingerprints member */

/* The bytes of a path as a URI path: unreserved bytes and '/' as they are, the rest %HH.
 * Allocated; NULL when out of memory. */
char *cert_uri_encode(const char *path);
/* A directory's normalized absolute form (dir relative to cwd) with a trailing '/', or NULL. */
char *cert_directory(const char *cwd, const char *dir);
/* The current directory as cert_directory gives it, or NULL when it cannot be had. */
char *cert_cwd(void);
/* path as a URI: relative to base (*relative) when below it, else an absolute file URI; cwd
 * (NULL: unknown, then path is encoded as it is) resolves relative paths. Allocated, or NULL. */
char *cert_uri(const char *cwd, const char *base, const char *path, bool *relative);

/* occurrence[i]: how many findings before i (report order) have i's part, code, subject and
 * name. Allocated (one per finding, at least one); NULL when out of memory. */
uint32_t *cert_occurrences(const cert_run *r);
/* The fingerprint of f as raw bytes (the name's bytes as the file has them) in *out
 * (allocated; NULL when out of memory), its length returned. */
size_t cert_fingerprint(const cert_finding *f, uint32_t occurrence, uint8_t **out);

#endif
