/* SHA-256: the one implementation the engines and the commands use, OpenSSL's libcrypto, loaded
 * with dlopen at the first digest and not at process start, so that only the commands that hash
 * pay for mapping and relocating it (about half of `ggufsafe --version`'s start-up on the CI
 * machine). Thread-safe: the loading happens once, behind pthread_once. */
#ifndef GGUFSAFE_CLI_SHA256_H
#define GGUFSAFE_CLI_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLI_SHA256_BYTES 32

typedef struct cli_sha256 cli_sha256;

/* Loads libcrypto once; false when it cannot be loaded or lacks a function used here
 * (cli_sha256_problem says why). Every function below calls it first. */
bool cli_sha256_load(void);
/* NULL once libcrypto is loaded; else one line saying what failed and what to install. */
const char *cli_sha256_problem(void);

/* A digest ready for its first update; NULL when libcrypto is absent or out of memory. */
cli_sha256 *cli_sha256_new(void);
bool cli_sha256_update(cli_sha256 *h, const void *data, size_t n);
/* Writes the digest and starts the next one in the same context. */
bool cli_sha256_final(cli_sha256 *h, uint8_t digest[CLI_SHA256_BYTES]);
void cli_sha256_free(cli_sha256 *h); /* h may be NULL */
/* The digest of one buffer. */
bool cli_sha256_of(const void *data, size_t n, uint8_t digest[CLI_SHA256_BYTES]);

#endif
