#define _DEFAULT_SOURCE
#include "siphash.h"

#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "le_load.h"

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

#define SIPROUND                                                                                  \
    do {                                                                                          \
        v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);                                 \
        v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                                                    \
        v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                                                    \
        v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);                                 \
    } while (0)

uint64_t gsi_siphash13(const gsi_sipkey *key, const uint8_t *data, size_t n)
{
    uint64_t v0 = 0x736f6d6570736575ull ^ key->k0;
    uint64_t v1 = 0x646f72616e646f6dull ^ key->k1;
    uint64_t v2 = 0x6c7967656e657261ull ^ key->k0;
    uint64_t v3 = 0x7465646279746573ull ^ key->k1;
    size_t whole = n & ~(size_t)7;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t m = gsi_load_u64le(data + i);
        v3 ^= m;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t b = (uint64_t)n << 56;
    if ((n & 7) != 0) { /* data may be NULL when n is 0 */
        b |= gsi_load_le(data + whole, (unsigned)(n & 7));
    }
    v3 ^= b;
    SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

gsi_sipkey gsi_sipkey_random(void)
{
    gsi_sipkey key = {0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull};
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    uint8_t buf[16];
    if (getrandom(buf, sizeof buf, GRND_NONBLOCK) == (ssize_t)sizeof buf) {
        memcpy(&key, buf, sizeof buf);
    } else {
        /* No entropy yet (early boot): still vary per process and call. */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        key.k0 ^= (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull;
        key.k1 ^= (uint64_t)(uintptr_t)&ts ^ (uint64_t)ts.tv_sec;
    }
#endif
    return key;
}
