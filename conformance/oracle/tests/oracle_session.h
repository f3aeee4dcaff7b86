/* A persistent `gs_oracle serve` child (runner/oracle_proto.h): ggml's verdict on many
 * in-memory inputs without a process start per input, and without ggml ever entering the
 * caller's process. A crash or a hang of ggml is a verdict; the child is started again. */
#ifndef GGUFSAFE_ORACLE_SESSION_H
#define GGUFSAFE_ORACLE_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "oracle_client.h"
#include "oracle_view.h"

typedef struct gsx_session gsx_session;

/* NULL (with the reason on stderr) when the runner cannot be started. */
gsx_session *gsx_session_start(const char *oracle);

/* ggml's verdict on the buffer (gguf_init_from_buffer); on GSX_ACCEPTED *v holds its view
 * (flags: GSX_VIEW_*). */
gsx_verdict gsx_session_report(gsx_session *s, const uint8_t *data, size_t size, unsigned flags,
                               double timeout_s, gsx_view *v);

/* How many times the runner had to be started again (after crashes and hangs). */
size_t gsx_session_restarts(const gsx_session *s);

void gsx_session_stop(gsx_session *s);

#endif
