/* The SARIF 2.1.0 writer, streaming: one run whose results are written report by report as the
 * files finish (a single report, or gs_certify_paths' many), and whose tool, rules, artifacts
 * and invocation follow the results (member order is free in JSON), so that memory holds only
 * what those need: the rules seen (at most one per code), one URI per artifact, and a bounded
 * list of notifications. cert_render_sarif.c; docs/certify.md, "SARIF". */
#ifndef GGUFSAFE_CERT_SARIF_H
#define GGUFSAFE_CERT_SARIF_H

#include "cert.h"
#include "json_writer.h"
#include "out.h"

typedef struct cert_sarif cert_sarif;

/* Starts the document on out: artifact URIs relative to uri_base (NULL: the current
 * directory). NULL, with GS_E_NO_MEMORY recorded in out, when it cannot be had. */
cert_sarif *cert_sarif_begin(cli_out *out, const char *uri_base);
/* The results of one report (each part an artifact). */
void cert_sarif_report(cert_sarif *s, const cert_run *r);
/* A notification of the invocation about path: an unreadable path (error) or a skipped one
 * (note); reason is our text. At most CERT_SARIF_MAX_NOTICES are kept, the rest counted. */
void cert_sarif_notice(cert_sarif *s, bool error, const char *path, const char *reason);
#define CERT_SARIF_MAX_NOTICES 1000
/* Ends the run and the document: the tool and its rules, the artifacts, the invocation with
 * exit_code, the run's properties (the report header of opt, and certified: exit_code 0), and
 * frees s. */
void cert_sarif_end(cert_sarif *s, const gs_certify_options *opt, int exit_code);

#endif
