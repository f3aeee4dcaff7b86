/* Keys whose meaning certification knows: the integer ones llama.cpp reads with a fixed type
 * (its GKV::get_kv throws "key %s has wrong type %s but expected type %s" on any other), and
 * the tokenizer's special token ids. */
#ifndef GGUFSAFE_CERT_KEYS_H
#define GGUFSAFE_CERT_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "ggufsafe.h"

typedef struct cert_int_key {
    bool per_arch;          /* "<arch>." + name */
    const char *name;
    gs_value_type expected; /* the type llama.cpp reads */
    bool array_ok;          /* per-layer keys: an array of u32 or i32 is also read */
} cert_int_key;

/* The integer key that key (len bytes) is, given the architecture (NULL when unknown);
 * NULL when it is none of them. */
const cert_int_key *cert_int_key_find(const char *key, size_t len, const char *arch,
                                      size_t arch_len);

/* tokenizer.ggml.<name>_token_id for every special token llama.cpp reads. */
extern const char *const cert_special_token_keys[];
extern const size_t cert_special_token_key_count;

#endif
