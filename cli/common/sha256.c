/* SHA-256 through libcrypto, opened with dlopen at the first use (sha256.h). The function types
 * come from OpenSSL's own header, so the compiler checks every call against them; only the
 * binding is deferred. */
#include "sha256.h"

#include <dlfcn.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The libraries tried, in order: OpenSSL 3's soname, then 1.1's, then the development link;
 * the environment variable GGUFSAFE_LIBCRYPTO, when set and not empty, is the only one. */
static const char *const LIBCRYPTO_NAMES[] = {"libcrypto.so.3", "libcrypto.so.1.1", "libcrypto.so"};

static struct {
    __typeof__(EVP_MD_CTX_new) *ctx_new;
    __typeof__(EVP_MD_CTX_free) *ctx_free;
    __typeof__(EVP_DigestInit_ex) *init;
    __typeof__(EVP_DigestUpdate) *update;
    __typeof__(EVP_DigestFinal_ex) *final;
    const EVP_MD *md; /* fetched once (OpenSSL 3: no implicit fetch at every init) */
    bool ok;
    char problem[512];
} crypto;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* dlsym into a function pointer without a data-to-function pointer cast (or a type pun): the
 * address is copied into the slot. Records the first missing symbol in crypto.problem. */
static bool need(void *lib, const char *name, const char *lib_name, void *slot, size_t size)
{
    void *sym = dlsym(lib, name);
    if (sym == NULL) {
        if (crypto.problem[0] == '\0') {
            snprintf(crypto.problem, sizeof crypto.problem,
                     "%s has no %s: SHA-256 needs OpenSSL's libcrypto 1.1 or 3", lib_name, name);
        }
        return false;
    }
    memcpy(slot, &sym, size);
    return true;
}

#define NEED(lib, name, lib_name, field) need(lib, name, lib_name, &(field), sizeof(field))

static void load(void)
{
    void *lib = NULL;
    const char *lib_name = NULL;
    char first_error[256] = "";
    /* GGUFSAFE_LIBCRYPTO names the one library to load instead (a path, or a soname) */
    const char *chosen = getenv("GGUFSAFE_LIBCRYPTO");
    const char *const *names = LIBCRYPTO_NAMES;
    size_t n_names = sizeof LIBCRYPTO_NAMES / sizeof LIBCRYPTO_NAMES[0];
    if (chosen != NULL && chosen[0] != '\0') {
        names = &chosen;
        n_names = 1;
    }
    for (size_t i = 0; i < n_names && lib == NULL; i++) {
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        lib_name = names[i];
        if (lib == NULL && first_error[0] == '\0') {
            const char *e = dlerror();
            snprintf(first_error, sizeof first_error, "%s", e != NULL ? e : "not found");
        }
    }
    if (lib == NULL) {
        snprintf(crypto.problem, sizeof crypto.problem,
                 "SHA-256 needs OpenSSL's libcrypto, which could not be loaded (%s): install it "
                 "(Debian, Ubuntu: libssl3; Fedora: openssl-libs)",
                 first_error);
        return;
    }
    /* A library that is loaded is kept until exit: digests may run in any thread until then. */
    NEED(lib, "EVP_MD_CTX_new", lib_name, crypto.ctx_new);
    NEED(lib, "EVP_MD_CTX_free", lib_name, crypto.ctx_free);
    NEED(lib, "EVP_DigestInit_ex", lib_name, crypto.init);
    NEED(lib, "EVP_DigestUpdate", lib_name, crypto.update);
    NEED(lib, "EVP_DigestFinal_ex", lib_name, crypto.final);
    __typeof__(EVP_MD_fetch) *fetch = NULL;
    void *fetch_sym = dlsym(lib, "EVP_MD_fetch"); /* OpenSSL 3 */
    if (fetch_sym != NULL) {
        memcpy(&fetch, &fetch_sym, sizeof fetch);
        crypto.md = fetch(NULL, "SHA256", NULL);
    } else {
        __typeof__(EVP_sha256) *sha256 = NULL;
        if (NEED(lib, "EVP_sha256", lib_name, sha256)) {
            crypto.md = sha256();
        }
    }
    if (crypto.problem[0] != '\0') {
        return;
    }
    if (crypto.md == NULL) {
        snprintf(crypto.problem, sizeof crypto.problem,
                 "%s offers no SHA-256 (a FIPS or restricted configuration?)", lib_name);
        return;
    }
    crypto.ok = true;
}

bool cli_sha256_load(void)
{
    pthread_once(&once, load);
    return crypto.ok;
}

const char *cli_sha256_problem(void)
{
    return cli_sha256_load() ? NULL : crypto.problem;
}

cli_sha256 *cli_sha256_new(void)
{
    if (!cli_sha256_load()) {
        return NULL;
    }
    EVP_MD_CTX *ctx = crypto.ctx_new();
    if (ctx != NULL && crypto.init(ctx, crypto.md, NULL) != 1) {
        crypto.ctx_free(ctx);
        ctx = NULL;
    }
    return (cli_sha256 *)ctx;
}

/* h NULL (a context that could not be had) fails, as libcrypto's own failures do. */
bool cli_sha256_update(cli_sha256 *h, const void *data, size_t n)
{
    return h != NULL && (n == 0 || crypto.update((EVP_MD_CTX *)h, data, n) == 1);
}

bool cli_sha256_final(cli_sha256 *h, uint8_t digest[CLI_SHA256_BYTES])
{
    unsigned len = 0;
    EVP_MD_CTX *ctx = (EVP_MD_CTX *)h;
    return ctx != NULL && crypto.final(ctx, digest, &len) == 1 && len == CLI_SHA256_BYTES &&
           crypto.init(ctx, crypto.md, NULL) == 1;
}

void cli_sha256_free(cli_sha256 *h)
{
    if (h != NULL) {
        crypto.ctx_free((EVP_MD_CTX *)h);
    }
}

bool cli_sha256_of(const void *data, size_t n, uint8_t digest[CLI_SHA256_BYTES])
{
    cli_sha256 *h = cli_sha256_new();
    bool ok = h != NULL && cli_sha256_update(h, data, n) && cli_sha256_final(h, digest);
    cli_sha256_free(h);
    return ok;
}
