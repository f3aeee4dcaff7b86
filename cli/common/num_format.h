/* Floating-point numbers as text, shared by the text and JSON reports: the shortest %g form that
 * reads back to the same value (0.95f prints as 0.95, not 0.949999988), so every printed float
 * round-trips. Non-finite values are named "NaN", "Infinity" and "-Infinity". */
#ifndef GGUFSAFE_CLI_NUM_FORMAT_H
#define GGUFSAFE_CLI_NUM_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

/* Enough for "-1.23456789012345678e-308" and the names. */
#define CLI_NUM_BUF 40

/* Both return true when v is finite (buf then holds a JSON-compatible number). */
bool cli_format_f32(char buf[CLI_NUM_BUF], float v);
bool cli_format_f64(char buf[CLI_NUM_BUF], double v);

/* A number for reading, not for round trips: digits significant digits (1..17) as "%.*g" does,
 * the non-finite values named as above. Returns true when v is finite. */
bool cli_format_sig(char buf[CLI_NUM_BUF], double v, int digits);

/* A count for people, in groups of three digits: "148,896". */
void cli_format_count(char buf[CLI_NUM_BUF], uint64_t v);

#endif
