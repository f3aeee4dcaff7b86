/* A certification run rendered for people (text), for programs (JSON, described by
 * conformance/schema/certify.schema.json) and for CI code scanning (SARIF 2.1.0, the finding
 * code as the rule id). All three are deterministic: no timestamps, no thread counts, findings in
 * report order (cert_order.c). Everything quoted from the file is escaped. */
#ifndef GGUFSAFE_CERT_RENDER_H
#define GGUFSAFE_CERT_RENDER_H

#include "cert.h"
#include "json_writer.h"
#include "out.h"

/* Each writes through out (ggufsafe_certify.h's gs_certify_write_* finish it). */
void cert_render_text(cli_out *out, const cert_run *r);
void cert_render_json(cli_out *out, const cert_run *r);
void cert_render_sarif(cli_out *out, const cert_run *r);

/* Shared by the renderers. */
/* "part 2, byte 123, tensor 'x'" (the parts a finding has), escaped, into buf. */
void cert_render_location(const cert_run *r, const cert_finding *f, char *buf, size_t cap);
/* The one-line summary of a code: the table's, or the reader's message for reader.* codes. */
const char *cert_render_summary(const char *code);
/* Which readers a finding that breaks these profiles affects, in plain words. */
const char *cert_render_affects(unsigned profiles);
/* The profiles a finding breaks as an inline JSON array: ["strict", "lenient"]. */
void cert_json_profiles(cli_json *j, unsigned profiles);
/* "error", "warning", "note" (SARIF levels). */
const char *cert_sarif_level(cert_severity s);

#endif
