/* The serve loop's wire protocol (gs_oracle serve), for clients that keep one ggml process
 * alive across many inputs (the differential fuzzer).
 *
 * Request, on the runner's stdin: 4 bytes "GSO1", u32 flags (GSX_REPORT_*), u64 size, then
 * size bytes of GGUF; integers little-endian. Response, on its stdout: the report of
 * oracle_report.h, ending with the line "end". The runner exits when stdin closes. A client
 * that sees EOF before "end" records ggml as crashed on that input and starts a new runner. */
#ifndef GGUFSAFE_ORACLE_PROTO_H
#define GGUFSAFE_ORACLE_PROTO_H

#define GSX_PROTO_MAGIC "GSO1"
#define GSX_PROTO_HEADER_BYTES 16
#define GSX_PROTO_MAX_INPUT ((unsigned long long)1 << 30) /* larger requests are refused */

#endif
